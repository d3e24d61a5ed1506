/**
 * Issue 34: template variations of real captured pages, checked against a browser's reading (parse5,
 * test/discuz/browser-reading.ts). fast-check takes a captured desktop thread page of
 * fixtures/discuz/public and applies several of what real forums do differently from our lab forum:
 * - a language pack's or an admin's own words for the floor labels of floors 1–4 (postno/postnocustom);
 * - floor links without their postnum id (a template that drops it);
 * - deleted posts' slots (viewthread_node.htm's `$post['deleted']` markup, with the notice in one of
 *   several packs' words, or none bansha knows);
 * - plugin blocks in the post header, after the message, between the post list and the footer;
 * - the default footer (#ft) replaced by a custom one that still says "Powered by Discuz!".
 *
 * The invariants:
 * V1 the page reads (a ParseError would drop a whole page a forum really serves);
 * V2 the posts are the browser's posts of the varied page, in order, minus the slots, each with the
 *    author's text the browser shows; the slots are in page.vanished with their pids;
 * V3 every floor — posts' and slots' — is the true floor (the unvaried page's) or null with a page
 *    warning saying which; never another number.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parsePage } from '../../src/discuz/index.js';
import { DISCUZ, entry, fetched } from '../helpers/captured.js';
import { readLikeBrowser } from '../discuz/browser-reading.js';
import { deletedSlot, intoHeader, relabel } from '../discuz/discuz-markup.js';

const AT = new Date('2026-11-30T08:00:00Z');
const FILES = fs.readdirSync(path.join(DISCUZ, 'public')).filter((f) => /^viewthread-t\d+-p\d+\.html$/.test(f));
const PAGES = FILES.map((file) => {
  const html = fs.readFileSync(path.join(DISCUZ, 'public', file), 'utf8');
  const page = parsePage(fetched('public', entry('public', file), AT, Buffer.from(html)));
  return { file, html, page, floors: new Map(page.posts.map((p) => [p.pid!, p.floor])) };
});

const WORDS = ['樓主', '沙發', 'Sofa', 'Bench', 'كنبة', 'Étage', '前排', '★', 'OP', ''];
const NOTICES = ['无效楼层，该帖已经被删除', '無效樓層，該帖已經被刪除', 'Invalid floor, this post was deleted', 'طابق غير صالح'];
const PLUGIN = (k: number) => `<div class="plugin_${k} pls_${k}"><a href="plugin.php?id=p${k}" class="xi2">插件 ${k}</a><span>Powered-by-plugin ${k}</span></div>`;

interface Variation {
  page: number;
  relabel: [number, number][]; // [post index, word index]
  noId: number[];
  slots: [number, number][]; // [post index, notice index]
  header: number[];
  afterList: boolean;
  footer: boolean;
}

const variation: fc.Arbitrary<Variation> = fc.record({
  page: fc.nat({ max: PAGES.length - 1 }),
  relabel: fc.array(fc.tuple(fc.nat({ max: 9 }), fc.nat({ max: WORDS.length - 1 })), { maxLength: 4 }),
  noId: fc.array(fc.nat({ max: 9 }), { maxLength: 3 }),
  slots: fc.array(fc.tuple(fc.nat({ max: 9 }), fc.nat({ max: NOTICES.length - 1 })), { maxLength: 3 }),
  header: fc.array(fc.nat({ max: 9 }), { maxLength: 3 }),
  afterList: fc.boolean(),
  footer: fc.boolean(),
});

function apply(v: Variation): { html: string; slotPids: Set<number>; file: string; floors: Map<number, number | null> } {
  const { html: orig, page, file, floors } = PAGES[v.page];
  const pids = page.posts.map((p) => p.pid!);
  const at = (i: number) => pids[i % pids.length];
  let html = orig;
  const slotPids = new Set<number>();
  for (const [i, n] of v.slots) {
    const pid = at(i);
    if (pid === pids[0] && page.page.page === 1) continue; // the thread's first post is never a slot
    if (slotPids.has(pid) || slotPids.size + 1 >= pids.length) continue;
    slotPids.add(pid);
    const f = floors.get(pid)!;
    html = deletedSlot(html, pid, f <= 4 ? ['楼主', '沙发', '板凳', '地板'][f - 1] : `${f}#`, NOTICES[n]);
  }
  for (const [i, w] of v.relabel) if (!slotPids.has(at(i))) html = relabel(html, at(i), WORDS[w]);
  for (const i of v.noId) if (!slotPids.has(at(i))) html = html.replace(`id="postnum${at(i)}"`, '');
  for (const i of v.header) if (!slotPids.has(at(i))) html = intoHeader(html, at(i), PLUGIN(i));
  if (v.afterList) html = html.replace('<div id="postlistreply"', `${PLUGIN(99)}<div id="postlistreply"`);
  if (v.footer) {
    const a = html.indexOf('<div id="ft"');
    const b = html.indexOf('<div id="scrolltop">');
    html = html.slice(0, a) + '<div class="page_footer">Powered by <b>Discuz!</b> X3.4 · 自定义模板</div>\n' + html.slice(b);
  }
  return { html, slotPids, file, floors };
}

describe('template variations of captured pages, against the browser reading', () => {
  test('V1–V3 hold for every variation', () => {
    fc.assert(
      fc.property(variation, (v) => {
        const { html, slotPids, file, floors } = apply(v);
        const page = parsePage(fetched('public', entry('public', file), AT, Buffer.from(html))); // V1: throws on refusal
        const browser = readLikeBrowser(html).posts.filter((b) => !slotPids.has(b.pid));
        // V2
        expect(page.posts.map((p) => p.pid)).toEqual(browser.map((b) => b.pid));
        browser.forEach((b, i) => expect(page.posts[i].text.replace(/\s+/g, ''), String(b.pid)).toBe(b.chars));
        expect((page.page.vanished ?? []).map((s) => s.pid)).toEqual([...slotPids].sort((a, b) => html.indexOf(`post_${a}"`) - html.indexOf(`post_${b}"`)));
        // V3
        const warned = (page.page.warnings ?? []).join('\n');
        for (const x of [...page.posts, ...(page.page.vanished ?? [])]) {
          if (x.floor === null) expect(warned, `pid ${x.pid} floor null without a warning`).toContain(`pid ${x.pid} "`);
          else expect(x.floor, `pid ${x.pid}`).toBe(floors.get(x.pid!));
        }
      }),
      { numRuns: 200, seed: 34 },
    );
  });
});
