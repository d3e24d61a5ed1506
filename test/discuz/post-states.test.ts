/**
 * Issue 34 / issue 31 (the parse side): Discuz's post states, deleted-post slots, floors under another
 * language pack's labels and whole pages on other templates, each reproduced by putting Discuz's own
 * template markup (discuz-markup.ts, copied from the X3.4/X3.5 templates) into a real captured page.
 * What a post should read as comes from the unedited page (its text, its floor), never from bansha's
 * output on the edited one.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { compileSelectorSet, ParseError, parsePage } from '../../src/discuz/index.js';
import { packagePath } from '../../src/paths.js';
import type { Page } from '../../src/discuz/types.js';
import { DISCUZ, entry, fetched } from '../helpers/captured.js';
import { captureTime } from './fixtures.js';
import { deletedSlot, intoActions, intoHeader, messageOf, NOTICE, noticeBeforeMessage, relabel, replaceMessage, replaceMessageBox } from './discuz-markup.js';

const AT = captureTime('public', 'viewthread-t7-p1.html');
const FILE = 'viewthread-t2-p1.html';
const raw = (file = FILE) => readFileSync(path.join(DISCUZ, 'public', file), 'utf8');
const load = (html: string, file = FILE, opts = {}): Page => parsePage(fetched('public', entry('public', file), AT, Buffer.from(html)), opts);
const original = load(raw());
const before = (pid: number) => original.posts.find((p) => p.pid === pid)!;
function refusal(html: string, file = FILE): ParseError {
  try {
    load(html, file);
  } catch (e) {
    expect(e).toBeInstanceOf(ParseError);
    return e as ParseError;
  }
  throw new Error('not refused');
}

test('the page as captured: ten posts, floors 1–10, no state, whole by its footer and both pagers', () => {
  expect(original.posts.map((p) => p.floor)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  expect(original.posts.every((p) => p.state === undefined && p.readable === undefined)).toBe(true);
  expect(original.page.vanished).toBeUndefined();
  expect(original.page.wholeBy).toBe('html-end+footer+pager');
});

describe('deleted posts\' slots (无效楼层，该帖已经被删除)', () => {
  test.each([
    ['5#', 6, '无效楼层，该帖已经被删除'],
    ['沙发', 3, '无效楼层，该帖已经被删除'],
    ['5#', 6, '無效樓層，該帖已經被刪除'], // the BIG5 / traditional pack
    ['5#', 6, 'طابق غير صالح، تم حذف هذه المشاركة'], // a pack bansha has no words for: structure decides
  ])('a slot labelled %s (pid %i): not a post, not an error, listed in page.vanished with its floor', (label, pid, notice) => {
    const page = load(deletedSlot(raw(), pid, label, notice));
    expect(page.posts.map((p) => p.pid)).toEqual(original.posts.map((p) => p.pid).filter((x) => x !== pid));
    expect(page.page.vanished).toEqual([{ pid, floor: before(pid).floor, notice }]);
    for (const p of page.posts) expect(p.floor).toBe(before(p.pid!).floor);
  });
  test('two slots side by side, one with a renamed label: both floors from the page', () => {
    let html = deletedSlot(raw(), 4, 'Bench');
    html = deletedSlot(html, 5, '4#');
    const page = load(html);
    expect(page.page.vanished!.map((v) => [v.pid, v.floor])).toEqual([
      [4, 3],
      [5, 4],
    ]);
  });
  test('a real post that lost its time element is still refused, never taken for a slot', () => {
    const html = raw().replace(/<em id="authorposton6">[\s\S]*?<\/em>/, '');
    expect(refusal(html).message).toMatch(/帖子 6 没有时间元素/);
  });
});

describe('post states, ordinary view: the notice in place of the text — unreadable, never an empty post', () => {
  test.each([
    ['banned', NOTICE.banned, true],
    ['shielded', NOTICE.shielded, true],
    ['author-only', NOTICE.authorOnly, false],
    ['password', NOTICE.password(7), false],
  ] as const)('%s', (state, notice, deleted) => {
    const page = load(replaceMessageBox(raw(), 7, `<div class="locked">${notice}</div>\n`));
    const p = page.posts.find((x) => x.pid === 7)!;
    expect([p.state, p.readable, p.deleted, p.text]).toEqual([state, false, deleted, '']);
    expect(p.locked).toBeTruthy();
    expect(p.floor).toBe(before(7).floor);
    expect(page.posts.filter((x) => x.state !== undefined)).toHaveLength(1);
  });
  test.each([
    ['banned', 'Hint: <em>Author is banned or deleted, content automatically blocked</em>'],
    ['shielded', 'Hint: <em>This post is blocked by an administrator or moderator</em>'],
    ['author-only', 'This post is only visible to the author'],
    ['banned', '提示: <em>作者被禁止或刪除 內容自動屏蔽</em>'], // BIG5 / traditional
    ['author-only', '此帖僅作者可見'],
  ] as const)('other language packs\' words: %s (%s)', (state, notice) => {
    const p = load(replaceMessageBox(raw(), 7, `<div class="locked">${notice}</div>\n`)).posts.find((x) => x.pid === 7)!;
    expect([p.state, p.readable]).toEqual([state, false]);
  });
  test('a password form in words bansha does not know: still a password post (the input decides)', () => {
    const p = load(replaceMessageBox(raw(), 7, `<div class="locked">Passwort erforderlich <input type="text" id="postpw_7" class="vm" /></div>`)).posts.find((x) => x.pid === 7)!;
    expect([p.state, p.readable]).toEqual(['password', false]);
  });
  test('a notice in no known words: unreadable, read as shielded, and the page says so', () => {
    const page = load(replaceMessageBox(raw(), 7, '<div class="locked">Contenu masqué</div>'));
    const p = page.posts.find((x) => x.pid === 7)!;
    expect([p.state, p.readable, p.text]).toEqual(['shielded', false, '']);
    expect(page.page.warnings!.join('\n')).toMatch(/帖子 7 的提示“Contenu masqué”不是已知的说法/);
  });
  test('pending as its author sees it: the message is 待审核 alone', () => {
    const p = load(replaceMessage(raw(), 7, `<span class="xg1">${NOTICE.pending}</span>`)).posts.find((x) => x.pid === 7)!;
    expect([p.state, p.readable, p.text, p.locked]).toEqual(['pending', false, '', '待审核']);
  });
});

describe('post states, a moderator\'s or the author\'s view: the notice, then the text — read and marked', () => {
  test.each([
    ['banned', NOTICE.adminBanned, true],
    ['shielded', NOTICE.adminShielded, true],
    ['author-only', NOTICE.authorOnly, false],
    ['password', NOTICE.passwordAuthor, false],
    ['paid', NOTICE.paidBought, false],
  ] as const)('%s', (state, notice, deleted) => {
    const p = load(noticeBeforeMessage(raw(), 7, `<div class="locked">${notice}</div>`)).posts.find((x) => x.pid === 7)!;
    expect([p.state, p.readable, p.deleted]).toEqual([state, undefined, deleted]);
    expect(p.text).toBe(before(7).text);
    expect(p.text.length).toBeGreaterThan(0);
  });
  test('pending as a moderator sees it: (待审核) in the action bar, the text read', () => {
    const p = load(intoActions(raw(), 7, `<span class="xg1">(${NOTICE.pending})</span>`)).posts.find((x) => x.pid === 7)!;
    expect([p.state, p.readable, p.text]).toEqual(['pending', undefined, before(7).text]);
  });
  test('warned: the warning icon; the text is the author\'s', () => {
    const p = load(intoHeader(raw(), 7, NOTICE.warnIcon)).posts.find((x) => x.pid === 7)!;
    expect([p.state, p.readable, p.text]).toEqual(['warned', undefined, before(7).text]);
  });
});

describe('[hide]: a part the account was not shown is marked missing; a part it was shown is read', () => {
  const pid = 7;
  const own = () => messageOf(raw(), pid);
  test.each([
    ['reply to see', NOTICE.hideReply, '游客，如果您要查看本帖隐藏内容请回复'],
    ['credits', NOTICE.hideCredits, NOTICE.hideCredits],
  ])('hidden (%s) after the author\'s visible lines', (_k, notice, text) => {
    const p = load(replaceMessage(raw(), pid, `${own()}<br />\n<div class="locked">${notice}</div>`)).posts.find((x) => x.pid === pid)!;
    expect([p.state, p.readable, p.hiddenParts]).toEqual(['hidden', undefined, [text]]);
    expect(p.text).toBe(before(pid).text); // the visible part, without the notice
  });
  test('the whole message hidden: unreadable', () => {
    const p = load(replaceMessage(raw(), pid, `<div class="locked">${NOTICE.hideReply}</div>`)).posts.find((x) => x.pid === pid)!;
    expect([p.state, p.readable, p.text, p.hiddenParts!.length]).toEqual(['hidden', false, '', 1]);
  });
  test('shown (the account replied; div.showhide): read, marked hidden, the 本帖隐藏的内容 header not in the text', () => {
    const p = load(replaceMessage(raw(), pid, `<div class="showhide"><h4>本帖隐藏的内容</h4>${own()}</div>`)).posts.find((x) => x.pid === pid)!;
    expect([p.state, p.readable, p.hiddenParts, p.text]).toEqual(['hidden', undefined, undefined, before(pid).text]);
  });
  test('shown for its credits (以下内容需要积分高于 N): read, marked hidden, nothing missing', () => {
    const p = load(replaceMessage(raw(), pid, `<div class="locked">${NOTICE.creditsShown}</div>\n${own()}<br />`)).posts.find((x) => x.pid === pid)!;
    expect([p.state, p.readable, p.hiddenParts, p.text]).toEqual(['hidden', undefined, undefined, before(pid).text]);
  });
});

describe('touch template (X3.5 touch/forum/viewthread.htm): notices as div.quote in div.message', () => {
  const TOUCH = 'mobile2-t2-p1.html';
  const touch = load(raw(TOUCH), TOUCH);
  const pid = touch.posts[3].pid!;
  const withMessage = (edit: (inner: string) => string) => {
    const html = raw(TOUCH);
    const open = html.indexOf('<div class="message">', html.indexOf(`id="pid${pid}"`));
    const start = open + '<div class="message">'.length;
    const end = html.indexOf('</div>', start);
    return load(html.slice(0, start) + edit(html.slice(start, end)) + html.slice(end), TOUCH).posts.find((p) => p.pid === pid)!;
  };
  test('banned, ordinary view: unreadable', () => {
    const p = withMessage(() => `<div class="quote">${NOTICE.banned}</div>`);
    expect([p.state, p.readable, p.deleted, p.text]).toEqual(['banned', false, true, '']);
  });
  test('banned, moderator view: the notice, then the text read', () => {
    const p = withMessage((inner) => `<div class="quote">${NOTICE.adminBanned}</div>${inner}`);
    expect([p.state, p.readable, p.text]).toEqual(['banned', undefined, touch.posts[3].text]);
  });
  test('warned: the touch template\'s 受到警告 mark in the message; the text is the author\'s', () => {
    const p = withMessage((inner) => `<span class="quote">受到警告</span>${inner}`);
    expect([p.state, p.readable, p.text]).toEqual(['warned', undefined, touch.posts[3].text]);
  });
  test('an author\'s own quote (div.quote holding a blockquote) is not a notice', () => {
    const p = withMessage((inner) => `<div class="quote"><blockquote>引用的话</blockquote></div>${inner}`);
    expect([p.state, p.text]).toEqual([undefined, touch.posts[3].text]);
  });
});

test('a stuck reply\'s copy (em.replystick in its floor link) in another pack\'s words is a copy by structure', () => {
  const html = raw();
  const pid = 6;
  const s = html.indexOf(`<div id="post_${pid}"`);
  const e = html.indexOf('<div id="post_7"');
  const copy = html.slice(s, e).replace(/(id="postnum6"[^>]*>)[\s\S]*?<\/a>/, '$1<em title="Stuck" class="replystick vm">Top</em> from 5#</a>');
  const first = html.indexOf('<div id="post_2"');
  const page = load(html.slice(0, first) + copy + html.slice(first));
  expect(page.posts.map((p) => [p.pid, p.floor])).toEqual(original.posts.map((p) => [p.pid, p.floor]));
});

describe('floors by structure when labels are another language pack\'s or an admin\'s words', () => {
  test('沙发/板凳/地板 renamed: floors 2–4 from the page (floor 1 first, 5# after), no warning', () => {
    let html = raw();
    for (const [pid, label] of [
      [2, 'Original poster'],
      [3, 'كنبة'],
      [4, 'Bench'],
      [5, 'Floor'],
    ] as const)
      html = relabel(html, pid, label);
    const page = load(html);
    expect(page.posts.map((p) => p.floor)).toEqual(original.posts.map((p) => p.floor));
    expect(page.page.warnings).toEqual([]);
  });
  test('labels with no number anywhere on a later page: the floors the page allows, a warning naming the rest', () => {
    const file = 'viewthread-t2-p7.html';
    const orig = load(raw(file), file);
    let html = raw(file);
    for (const p of orig.posts) html = relabel(html, p.pid!, 'X');
    const page = load(html, file);
    expect(page.posts.every((p) => p.floor === null)).toBe(true);
    expect(page.page.warnings!.join('\n')).toMatch(/无法确定这些帖子的楼层/);
  });
  test('a full later page whose labels are words: (page − 1) × its length + 1 onwards', () => {
    const file = 'viewthread-t2-p2.html';
    const orig = load(raw(file), file);
    expect(orig.page.page! < orig.page.pageCount!).toBe(true);
    let html = raw(file);
    for (const p of orig.posts) html = relabel(html, p.pid!, 'Etage');
    const page = load(html, file);
    expect(page.posts.map((p) => p.floor)).toEqual(orig.posts.map((p) => p.floor));
  });
});

describe('a whole page on any template', () => {
  const ft = (h: string) => [h.indexOf('<div id="ft"'), h.indexOf('<div id="scrolltop">')] as const;
  const customFooter = '<div class="page_footer"><p>Powered by <strong><a href="https://www.discuz.net">Discuz!</a></strong> <em>X3.4</em></p></div>\n';
  test('a custom footer with "Powered by Discuz!" and no #ft reads, by the end text', () => {
    const h = raw();
    const [a, b] = ft(h);
    const page = load(h.slice(0, a) + customFooter + h.slice(b));
    expect(page.posts.map((p) => p.pid)).toEqual(original.posts.map((p) => p.pid));
    expect(page.page.wholeBy).toBe('html-end+end-text+pager');
  });
  test('a footer with neither: refused, naming page.footer and page.endTextPattern', () => {
    const h = raw();
    const [a, b] = ft(h);
    const msg = refusal(h.slice(0, a) + '<div class="page_footer">© 2026</div>\n' + h.slice(b)).message;
    expect(msg).toMatch(/page\.footer.*#ft/);
    expect(msg).toMatch(/page\.endTextPattern/);
  });
  test('the same page with the forum\'s footer in a selectors file reads, by the footer', () => {
    const h = raw();
    const [a, b] = ft(h);
    const data = JSON.parse(readFileSync(packagePath('selectors', 'discuz-x3-desktop.json'), 'utf8'));
    data.page.footer = 'div.page_footer';
    const page = load(h.slice(0, a) + '<div class="page_footer">© 2026</div>\n' + h.slice(b), FILE, { selectors: compileSelectorSet(data, 'forum.json') });
    expect(page.page.wholeBy).toBe('html-end+footer+pager');
  });
  test('pagers before and after the list that disagree: refused', () => {
    const h = raw();
    const bottom = h.indexOf('<div class="pgs mtm mbm cl">');
    const edited = h.slice(0, bottom) + h.slice(bottom).replace('<strong>1</strong>', '<strong>2</strong>');
    expect(refusal(edited).message).toMatch(/分页栏不一致/);
  });
  test('a footer an unclosed table in a post swallowed: refused', () => {
    const h = replaceMessage(raw(), 11, `${messageOf(raw(), 11)}<table><tr><td>`);
    const msg = refusal(h.replace('<div class="pgs mtm mbm cl">', '<!-- -->'));
    expect(msg.message).toMatch(/页脚/);
  });
});

describe('HTTP errors whose body is no Discuz page', () => {
  const bare = (status: number, body: string) => parsePage({ bytes: Buffer.from(body), url: 'http://127.0.0.1:8081/forum.php?mod=viewthread&tid=99', fetchedAt: AT, status });
  test('a bare 404 (a wrong address: Discuz answers a missing thread with its own page) is named by its status, not "truncated", not a deleted thread', () => {
    const p = bare(404, 'Not Found');
    expect([p.page.kind, p.page.message, p.posts]).toEqual(['unknown', 'HTTP 404: Not Found', []]);
  });
  test('a 403 text body is named by its status', () => {
    expect(bare(403, '<h1>Forbidden')).toMatchObject({ page: { kind: 'unknown', message: 'HTTP 403: Forbidden' }, posts: [] });
  });
  test('a 200 cut short is still truncated', () => {
    expect(() => bare(200, raw().slice(0, 30000))).toThrow(/截断/);
  });
});
