/**
 * Issue #12: pages real Discuz! forums served (../shared/discuz/realworld, README there), read as a
 * browser reads them. Every expectation comes from browser-reading.ts (parse5's own tree and a walk
 * written in the test) or from the page itself (its <title>, its pid order), never from bansha:
 * every pid, true floor, author, uid, time and the author's text; the census refusing a lost post;
 * the newest-first page renumbered or refused; the non-thread inputs named for what they are.
 */
import { expect, test } from 'vitest';
import { ParseError, parsePage } from '../../src/discuz/index.js';
import type { FetchedPage, Page } from '../../src/discuz/types.js';
import { REALWORLD, REALWORLD_PAGES, describeRealworld as describe, realworldBytes as raw, realworldFetched } from '../helpers/realworld.js';
import { readLikeBrowser, type BrowserPost } from './browser-reading.js';

const AT = new Date('2026-03-01T00:00:00Z'); // after every post on these pages
/** The pages, where ../shared is beside the checkout (else none: the describes below are skipped). */
const PAGES = REALWORLD ? [...REALWORLD_PAGES] : [];

const page = (file: string, bytes?: Uint8Array): FetchedPage => realworldFetched(file, AT, bytes);
const edited = (file: string, edit: (html: string) => string): FetchedPage => {
  const html = raw(file).toString('utf8');
  const out = edit(html);
  expect(out).not.toBe(html);
  return page(file, new Uint8Array(Buffer.from(out)));
};
function refusal(f: FetchedPage): ParseError {
  try {
    parsePage(f);
  } catch (e) {
    expect(e).toBeInstanceOf(ParseError);
    expect((e as ParseError).exitCode).toBe(3);
    return e as ParseError;
  }
  throw new Error('the page was not refused');
}

/** "2019-4-15 13:32:28" / "2025-4-30 17:11" at the forums' +08:00, as ISO. */
function iso(time: string): string {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(time);
  if (!m) throw new Error(`unexpected time ${time}`);
  const p = (s: string | undefined) => (s ?? '00').padStart(2, '0');
  return `${m[1]}-${p(m[2])}-${p(m[3])}T${p(m[4])}:${m[5]}:${p(m[6])}+08:00`;
}
/** A floor label's number as the page prints it (楼主 沙发 板凳 地板, N#, N<sup>#</sup>). */
const labelNumber = (label: string | null) => (label ? ({ 楼主: 1, 沙发: 2, 板凳: 3, 地板: 4 } as Record<string, number>)[label] ?? (/^(\d+)#?$/.exec(label) ? +label.replace('#', '') : null) : null);
/** True floors on page 1 of a thread with no deleted post: posts in pid (= posting) order, 1, 2, 3 … */
function trueFloors(posts: BrowserPost[]): Map<number, number> {
  return new Map([...posts].sort((a, b) => a.pid - b.pid).map((p, i) => [p.pid, i + 1]));
}

describe.each(PAGES)('%s as a browser reads it', (file) => {
  const browser = readLikeBrowser(raw(file).toString('utf8'));
  const parsed: Page = parsePage(page(file));
  const floors = trueFloors(browser.posts);

  test('every post the browser places in the list, and every post id in the tree, is read', () => {
    expect(browser.posts.length).toBeGreaterThan(0);
    expect(parsed.page.kind).toBe('thread');
    expect(new Set(parsed.posts.map((p) => p.pid))).toEqual(new Set(browser.posts.map((p) => p.pid)));
    expect(new Set(parsed.posts.map((p) => p.pid))).toEqual(browser.idPids);
  });

  test('true floors: the labels on a chronological page, renumbered on a newest-first one', () => {
    if (!browser.newestFirst) {
      for (const b of browser.posts) expect(labelNumber(b.label), `${b.pid} ${b.label}`).toBe(floors.get(b.pid));
    }
    expect(parsed.page.reversed ?? false).toBe(browser.newestFirst);
    for (const p of parsed.posts) expect(p.floor, String(p.pid)).toBe(floors.get(p.pid!));
    // Returned oldest first whatever the page's order.
    expect(parsed.posts.map((p) => p.floor)).toEqual(parsed.posts.map((_, i) => i + 1));
  });

  test('author, uid, time and text of every post', () => {
    const byPid = new Map(parsed.posts.map((p) => [p.pid, p]));
    for (const b of browser.posts) {
      const p = byPid.get(b.pid)!;
      expect(p.author, String(b.pid)).toBe(b.author);
      expect(p.authorId, String(b.pid)).toBe(b.uid);
      expect(p.postedAt, String(b.pid)).toBe(iso(b.time));
      expect(p.text.replace(/\s+/g, ''), String(b.pid)).toBe(b.chars);
      expect(b.chars.length, String(b.pid)).toBeGreaterThan(0);
    }
  });

  test('the title is the thread subject the page <title> starts with, in every template', () => {
    const title = /<title>([\s\S]*?)<\/title>/.exec(raw(file).toString('utf8'))![1].replace(/&nbsp;/g, ' ');
    expect(parsed.page.title).toBe(title.split(' - ')[0].trim());
  });
});

describe('what the real pages show', () => {
  test('TalkOP t112530: the stray end tag in the first post loses nothing (htmlparser2 kept 1 of 10 posts)', () => {
    const { posts } = parsePage(page('talkop-x34-t112530.html'));
    expect(posts.map((p) => p.floor)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(posts[0].text.length).toBeGreaterThan(10_000);
  });

  test('MCBBS, newest-first: the first post "#" and the replies one low are renumbered, oldest first', () => {
    const p = parsePage(page('mcbbs-x34-t857907.html'));
    expect(p.posts.map((x) => [x.floorLabel, x.floor])).toEqual([
      ['#', 1],
      ['楼主', 2],
      ['沙发', 3],
      ['板凳', 4],
      ['地板', 5],
    ]);
    expect(p.page.warnings!.join('\n')).toMatch(/倒序/);
    const first = p.posts[0].text;
    for (const chrome of ['登录/注册后可看大图', '复制代码', '来自群组', 'MC百科', '下载附件', '本帖最后由']) expect(first).not.toContain(chrome);
    expect(p.posts[0].links.some((l) => l.includes('forum-1496-1.html'))).toBe(false); // the group link went with its line
  });

  test('百合会 touch: ruby base text kept, readings dropped; the title without its [分类] prefix', () => {
    const p = parsePage(page('yamibo-touch-x35-t556787.html'));
    expect(p.page.template).toBe('mobile');
    expect(p.page.title).toBe('【翻譯】[Nakk]室友好像是少女遊戲的女主角？【2.21更新至163話】');
    const first = p.posts[0].text;
    expect(first).toContain('自覺腦袋有問題的我「小鳥遊葉月」');
    expect(first).not.toMatch(/たかなし|はづき/);
  });
});

describe('the census: a post in the bytes that is not read refuses the page', () => {
  test('a post block whose container the selectors miss is named by pid', () => {
    const f = edited('talkop-x34-t112530.html', (h) => h.replace('<div id="post_681400"', '<div id="xpost_681400"'));
    expect(refusal(f).message).toMatch(/681400/);
  });
  test('a post nested out of the list by an unclosed <div> (no longer a child of #postlist) is named', () => {
    const f = edited('talkop-x34-t107596.html', (h) => h.replace('<div id="post_581330"', '<div class="stray"><div id="post_581330"'));
    // The browser nests the post in the stray div: it leaves the post list, but its ids stay in the bytes.
    expect(readLikeBrowser(new TextDecoder().decode(f.bytes)).posts.some((p) => p.pid === 581330)).toBe(false);
    expect(refusal(f).message).toMatch(/581330/);
  });
});

describe('newest-first pages are renumbered only when page 1 says how, else refused', () => {
  test('labels "#" without the 正序浏览 link: refused', () => {
    const f = edited('mcbbs-x34-t857907.html', (h) => h.replace(/ordertype=2/g, 'ordertype=0'));
    expect(refusal(f).message).toMatch(/倒序/);
  });
  test('a reversed page whose first post is not labelled "#" or 楼主: refused', () => {
    const f = edited('mcbbs-x34-t857907.html', (h) => h.replace(/(id="postnum14205395"[^>]*>\s*)<sup>#<\/sup>/, '$17<sup>#</sup>'));
    expect(refusal(f).message).toMatch(/主楼的楼层标签/);
  });
  test('a reversed later page (no first post to tell the offset): refused', () => {
    const f = edited('mcbbs-x34-t857907.html', (h) => h.replace(/<div id="post_14205395"[\s\S]*?(?=<div id="post_14206714")/, ''));
    expect(refusal(f).message).toMatch(/倒序/);
  });
});

describe('only the author\'s words', () => {
  test('a moderator-hidden post (该帖被管理员或版主屏蔽) is marked, with no text, even where the body is still shown', () => {
    const f = edited('talkop-x34-t107596.html', (h) =>
      h.replace('<td class="t_f" id="postmessage_581319">', '<div class="locked">提示: <em>该帖被管理员或版主屏蔽，只有管理员可见</em></div><td class="t_f" id="postmessage_581319">'),
    );
    const post = parsePage(f).posts.find((p) => p.pid === 581319)!;
    expect(post.deleted).toBe(true);
    expect(post.locked).toMatch(/该帖被管理员或版主屏蔽/);
    expect(post.text).toBe('');
  });
});

describe('what is not a thread page says so', () => {
  test('the mobile-API JSON is named as such', () => {
    expect(refusal(page('keylol-mobileapi-viewthread-t888430.json')).message).toMatch(/移动端 API 的 JSON/);
  });
  test('a page with a second copy pasted after </html> is named as such, not as truncated', () => {
    const msg = refusal(page('mcbbs-x34-t857907.original-input.txt')).message;
    expect(msg).toMatch(/<\/html> 之后/);
    expect(msg).not.toMatch(/truncat|截断/);
  });
  test('a script a host appends after </html> is not content', () => {
    const f = edited('talkop-x34-t107596.html', (h) => `${h}\n<script>var _hmt = _hmt || [];</script>\n<!-- cache -->\n`);
    expect(parsePage(f).posts).toHaveLength(10);
  });
  test.each(PAGES)('%s cut in half stays "truncated"', (file) => {
    const bytes = raw(file);
    expect(refusal(page(file, new Uint8Array(bytes.subarray(0, bytes.length >> 1)))).message).toMatch(/截断/);
  });
});
