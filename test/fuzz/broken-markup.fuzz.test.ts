/**
 * Players paste broken HTML (issue #12). fast-check inserts stray end tags, unclosed start tags and
 * misnested inline tags into the messages of real pages (the real-world captures and the public
 * game), and bansha's reading is compared with the independent browser reading of the same bytes
 * (test/discuz/browser-reading.ts: parse5's own tree, a walk written in the test). Either bansha
 * refuses the page (ParseError), or it returns exactly the original page's posts — same pids and
 * floors — each with the author, uid, time and characters the browser reading shows. A post the
 * broken markup pushed out of the list must be a refusal (the census), never a shorter list.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ParseError, parsePage } from '../../src/discuz/index.js';
import type { FetchedPage, Page } from '../../src/discuz/types.js';
import { DISCUZ, entry, fetched } from '../helpers/captured.js';
import { REALWORLD, REALWORLD_PAGES, realworldFetched, realworldPath } from '../helpers/realworld.js';
import { readLikeBrowser } from '../discuz/browser-reading.js';

const AT = new Date('2026-11-30T08:00:00Z');
interface Source {
  name: string;
  html: string;
  at: (bytes: Uint8Array) => FetchedPage;
  original: Page;
  /** Where messages start and end in `html`: insertion points lie between. */
  messages: { start: number; end: number }[];
}

/** A page of ours (fixtures/discuz/<dir>) or a third party's (../shared/discuz/realworld). */
function source(dir: 'public' | 'realworld', file: string): Source {
  const at =
    dir === 'realworld'
      ? (bytes: Uint8Array) => realworldFetched(file, new Date('2026-03-01T00:00:00Z'), bytes)
      : (bytes: Uint8Array) => fetched(dir, entry(dir, file), AT, bytes);
  const html = fs.readFileSync(dir === 'realworld' ? realworldPath(file) : path.join(DISCUZ, dir, file), 'utf8');
  const messages: { start: number; end: number }[] = [];
  for (const m of html.matchAll(/<td class="t_f" id="postmessage_\d+">|<div class="message">/g)) {
    const start = m.index + m[0].length;
    const close = html.slice(start).search(m[0].startsWith('<td') ? /<\/td>/ : /<div id="comment_|<div class="replybtn/);
    messages.push({ start, end: close < 0 ? start : start + close });
  }
  return { name: `${dir}/${file}`, html, at, original: parsePage(at(new Uint8Array(Buffer.from(html)))), messages };
}

const SOURCES = [
  // Third parties' pages where ../shared is beside the checkout; our own captured pages always.
  ...(REALWORLD ? REALWORLD_PAGES.map((f) => source('realworld', f)) : []),
  ...['viewthread-t2-p1.html', 'viewthread-t4-p2.html', 'viewthread-t7-p1.html'].map((f) => source('public', f)),
];

const SNIPPETS = [
  // stray end tags
  '</div>', '</td>', '</tr>', '</table>', '</tbody>', '</span>', '</font>', '</b>', '</strong>', '</p>', '</a>', '</li>', '</ul>',
  '</blockquote>', '</ignore_js_op>', '</em>',
  // unclosed start tags
  '<div>', '<div align="center">', '<font color="red">', '<b>', '<p>', '<table>', '<td>', '<tr>', '<ul><li>', '<ignore_js_op>',
  '<span style="display:none">', '<a href="http://example.com/">', '<blockquote>',
  // misnested inline tags
  '<b><i>投</b>票</i>', '<font color="red"><b>甲</font>乙</b>', '<a href="http://example.com/">x<div>y</a>z</div>', '<strong><font size="5">丙</strong>丁</font>',
];

interface Insert {
  message: number;
  at: number;
  snippet: number;
}
const insert: fc.Arbitrary<Insert> = fc.record({ message: fc.nat(), at: fc.nat(), snippet: fc.nat({ max: SNIPPETS.length - 1 }) });

/** The snippets inserted at tag boundaries inside the chosen messages (from the end, so offsets hold). */
function mutate(src: Source, ins: Insert[]): string {
  const points = ins.map((i) => {
    const m = src.messages[i.message % src.messages.length];
    const body = src.html.slice(m.start, m.end);
    const bounds = [0, ...[...body.matchAll(/</g)].map((x) => x.index), body.length];
    return { at: m.start + bounds[i.at % bounds.length], text: SNIPPETS[i.snippet] };
  });
  let html = src.html;
  for (const p of points.sort((a, b) => b.at - a.at)) html = html.slice(0, p.at) + p.text + html.slice(p.at);
  return html;
}

let refused = 0;
let read = 0;
function check(src: Source, ins: Insert[]): void {
  const html = mutate(src, ins);
  let page: Page;
  try {
    page = parsePage(src.at(new Uint8Array(Buffer.from(html))));
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
    refused++;
    if (process.env.SHOW_REFUSALS) console.log(src.name, JSON.stringify(ins.map((i) => SNIPPETS[i.snippet])), (e as Error).message.slice(0, 160));
    return;
  }
  read++;
  const label = `${src.name} ${JSON.stringify(ins.map((i) => SNIPPETS[i.snippet]))}`;
  // Nothing lost, nothing renumbered: exactly the original page's posts and floors.
  expect(page.posts.map((p) => [p.pid, p.floor]), label).toEqual(src.original.posts.map((p) => [p.pid, p.floor]));
  const browser = new Map(readLikeBrowser(html).posts.map((b) => [b.pid, b]));
  for (const p of page.posts) {
    const b = browser.get(p.pid!);
    expect(b, `${label}: post ${p.pid} is not in the browser's post list`).toBeDefined();
    expect([p.author, p.authorId], `${label} ${p.pid}`).toEqual([b!.author, b!.uid]);
    expect(p.text.replace(/\s+/g, ''), `${label} ${p.pid}`).toBe(b!.chars);
  }
}

describe('broken markup in real messages: the browser\'s reading or a refusal', () => {
  test('every source page has messages to break', () => {
    for (const s of SOURCES) expect(s.messages.length, s.name).toBe(s.original.posts.length);
  });
  test('one to three insertions (60 runs)', () => {
    fc.assert(
      fc.property(fc.nat({ max: SOURCES.length - 1 }), fc.array(insert, { minLength: 1, maxLength: 3 }), (i, ins) => check(SOURCES[i], ins)),
      { numRuns: 60 },
    );
    // Most broken pages are read (a refusal is the exception: a post pushed out of the list).
    expect(read).toBeGreaterThan(refused * 3);
    console.log(`broken markup: ${read} pages read as the browser reads them, ${refused} refused`);
  });
});
