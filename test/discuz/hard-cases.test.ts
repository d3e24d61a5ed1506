/**
 * The hard cases of issue 2, each on the real captured markup: quotes, reply-to-floor, edit marker,
 * relative times, fonts, error pages, only-author/printable/mobile views, GBK + jammer, and hand-made
 * pages built by editing real post blocks (blocked author, hot-reply copy, rgb()/px fonts,
 * truncation).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { compileSelectorSet, ParseError, parsePage } from '../../src/discuz/index.js';
import { packagePath } from '../../src/paths.js';
import type { Page, Post } from '../../src/discuz/types.js';
import { DISCUZ, entry, fetched, ids, idsThreadPosts, scenario, site } from '../helpers/captured.js';
import { captureTime, expectedText, scenarioById } from './fixtures.js';

const PUB_AT = captureTime('public', 'viewthread-t7-p1.html');
const GBK_AT = captureTime('public-gbk', 'viewthread-t13-p1.html');
const pub = ids('public');
const gbk = ids('public-gbk');

function load(dir: 'public' | 'public-gbk', file: string, bytes?: Uint8Array, at?: Date): Page {
  return parsePage(fetched(dir, entry(dir, file), at ?? (dir === 'public' ? PUB_AT : GBK_AT), bytes));
}
/** The page (desktop, by tid and ppp) holding a pid, parsed. */
function postOf(dir: 'public' | 'public-gbk', pid: number): Post {
  const i = dir === 'public' ? pub : gbk;
  const p = Object.values(i.posts).find((x) => x.pid === pid)!;
  const ppp = site(dir).ppp;
  const idx = idsThreadPosts(i, p.tid).findIndex((x) => x.pid === pid);
  const file = `viewthread-t${p.tid}-p${Math.floor(idx / ppp) + 1}.html`;
  const post = load(dir, file).posts.find((x) => x.pid === pid);
  if (!post) throw new Error(`pid ${pid} not on ${file}`);
  return post;
}
const raw = (dir: string, file: string) => readFileSync(path.join(DISCUZ, dir, file));

describe('quotes', () => {
  const quoting = [
    ...Object.entries(pub.posts).filter(([, p]) => p.quote).map(([k, p]) => ['public', k, p, pub.posts[p.quote!]] as const),
    ...Object.entries(gbk.posts).filter(([, p]) => p.quote).map(([k, p]) => ['public-gbk', k, p, gbk.posts[p.quote!]] as const),
  ];
  test('there are quoting posts in the fixtures', () => expect(quoting.length).toBeGreaterThanOrEqual(5));
  test.each(quoting)('%s %s quotes the right pid and keeps the quoted ballot out of its text', (dir, _k, p, quoted) => {
    const post = postOf(dir, p.pid);
    expect(post.quotes).toEqual([quoted.pid]);
    const quotedText = postOf(dir, quoted.pid).text;
    // The quoted post's lines (e.g. the old ballot) must not be read as this post's own words.
    for (const line of quotedText.split('\n')) if (line.length > 3) expect(post.text).not.toContain(line);
  });
});

describe('reply to a floor', () => {
  test('GBK d1vote-9: the 回复 3# header gives replyTo and leaves the text', () => {
    const sc = scenario('public-gbk').threads.flatMap((t) => t.posts).find((p) => p.body.startsWith('[b]回复'))!;
    expect(sc.id).toBe('d1vote-9');
    const target = /@PID:([\w-]+)/.exec(sc.body)![1];
    const post = postOf('public-gbk', gbk.posts[sc.id].pid);
    expect(post.replyTo).toBe(gbk.posts[target].pid);
    expect(post.text).toBe(expectedText(sc.body));
    expect(post.text).not.toMatch(/^回复|3#|的帖子/);
  });
  test('X3.5 reply-to-floor leaves no trace in the message: replyTo stays null', () => {
    for (const p of Object.values(pub.posts).filter((x) => x.reply)) expect(postOf('public', p.pid).replyTo).toBeNull();
  });
});

describe('edit marker', () => {
  const edited = Object.entries(pub.posts).filter(([, p]) => p.edited);
  test.each(edited)('%s: who and when, text is the edited body without the marker', (key, p) => {
    const post = postOf('public', p.pid);
    expect(post.edited).toEqual({ by: p.author, at: p.edited!.marker.replace(' ', 'T') + ':00+08:00' });
    const sc = scenarioById(scenario('public')).get(key)!;
    expect(post.text).toBe(expectedText(sc.edit!.body).replace(/\n\n/g, '\n'));
    expect(post.text).not.toContain('本帖最后由');
  });
});

describe('relative times', () => {
  test('desktop: 昨天/N 小时前/半小时前/N 分钟前 carry a title with the full time', () => {
    const page = load('public', 'viewthread-t7-p1.html');
    for (const p of page.posts) {
      expect(p.timeSource).toBe('title');
      expect(p.timePrecision).toBe('second');
    }
    expect(page.page.renderedAt).toBe('2026-11-30T16:02:00+08:00');
  });
  test('touch template: no title, resolved against the fetch time in the forum zone', () => {
    const desktop = load('public', 'viewthread-t7-p1.html').posts;
    const mobile = load('public', 'mobile2-t7-p1.html').posts;
    expect(mobile.map((p) => p.pid)).toEqual(desktop.map((p) => p.pid));
    mobile.forEach((p, i) => {
      expect(p.timeSource).toBe('relative');
      const exact = Date.parse(desktop[i].postedAt);
      // The exact time (from the desktop title) lies in the window the relative text allows.
      expect(exact).toBeGreaterThanOrEqual(Date.parse(p.timeEarliest!) - 60_000);
      expect(exact).toBeLessThanOrEqual(Date.parse(p.postedAt) + 60_000);
    });
    // 昨天 16:02 is exact to the minute.
    expect(mobile[0].postedAt).toBe('2026-11-29T16:02:00+08:00');
  });
  test('the machine zone does not matter; the forum zone does', () => {
    expect(process.env.TZ).toBe('America/Los_Angeles');
    const shanghai = load('public', 'mobile2-t7-p1.html').posts[0].postedAt;
    const utc = parsePage(fetched('public', entry('public', 'mobile2-t7-p1.html'), PUB_AT), { timezone: 'UTC' }).posts[0];
    expect(shanghai).toBe('2026-11-29T16:02:00+08:00');
    expect(utc.postedAt).toBe('2026-11-29T16:02:00+00:00');
  });
  test('GBK printable: "5 天前" with a title reads the title', () => {
    const p = load('public-gbk', 'printable-t14.html').posts[0];
    expect(p.timeSource).toBe('title');
    expect(p.postedAt).toBe('2026-11-25T09:00:00+08:00');
  });
});

describe('fonts as written', () => {
  const byPid = (dir: 'public' | 'public-gbk', body: string) => {
    const sc = scenario(dir).threads.flatMap((t) => t.posts).find((p) => p.body === body)!;
    return postOf(dir, (dir === 'public' ? pub : gbk).posts[sc.id].pid);
  };
  test('named red, #hex and a size number', () => {
    expect(byPid('public', '[color=Red]我是预言家，昨晚查验饺子是好人。[/color]').colors).toEqual([{ value: 'Red', text: '我是预言家，昨晚查验饺子是好人。' }]);
    expect(byPid('public', '这句很重要：[color=#FF0000]别投我[/color]').colors).toEqual([{ value: '#FF0000', text: '别投我' }]);
    const big = byPid('public', '[size=6]大家看这里！[/size]今天先别乱投。');
    expect(big.sizes).toEqual([{ value: '6', text: '大家看这里！' }]);
    expect(big.text).toBe('大家看这里！今天先别乱投。');
    const both = byPid('public', '[size=7][color=Red]投我的都是狼！[/color][/size]');
    expect(both.sizes).toEqual([{ value: '7', text: '投我的都是狼！' }]);
    expect(both.colors).toEqual([{ value: 'Red', text: '投我的都是狼！' }]);
  });
  test('GBK with jammer: colour and size on separate lines', () => {
    const p = postOf('public-gbk', gbk.posts['d1talk-3'].pid);
    expect(p.colors).toEqual([{ value: 'Red', text: '第一行' }]);
    expect(p.sizes).toEqual([{ value: '5', text: '第三行' }]);
    expect(p.text).toBe('第一行\n第二行\n第三行');
  });
  test('rgb() colour and px size (hand-made from a real post block, as Discuz renders them)', () => {
    const html = raw('public', 'viewthread-t2-p1.html')
      .toString('utf8')
      .replace('<font color="Red">我是预言家', '<font style="color:rgb(255, 0, 0)">我是预言家')
      .replace('<font size="6">大家看这里！</font>', '<font style="font-size:20px">大家看这里！</font>');
    const page = load('public', 'viewthread-t2-p1.html', Buffer.from(html));
    const seer = page.posts.find((p) => p.text.startsWith('我是预言家'))!;
    expect(seer.colors).toEqual([{ value: 'rgb(255, 0, 0)', text: '我是预言家，昨晚查验饺子是好人。' }]);
    expect(page.posts.find((p) => p.text.startsWith('大家看这里'))!.sizes).toEqual([{ value: '20px', text: '大家看这里！' }]);
  });
});

describe('error pages', () => {
  test.each([
    ['public', 'login.html', 'login'],
    ['public', 'guest-denied-t1.html', 'no-permission'],
    ['public', 'notfound.html', 'not-found'],
    ['public-gbk', 'guest-denied-thread-13-1-1.html', 'no-permission'],
    ['public-gbk', 'guest-notfound.html', 'not-found'],
  ] as const)('%s/%s is %s, never an empty thread', (dir, file, kind) => {
    const page = load(dir, file);
    expect(page.page.kind).toBe(kind);
    if (kind !== 'login') expect(page.page.message).toMatch(/^抱歉，/);
  });
  test('not-found is read from the page, not the status', () => {
    const fp = fetched('public', entry('public', 'notfound.html'), PUB_AT);
    delete fp.status;
    expect(parsePage(fp).page.kind).toBe('not-found');
  });
});

describe('views', () => {
  test('only-author: renumbered floors, the filter uid, every post by that author', () => {
    const page = load('public', 'authorid-t5-u3-p1.html');
    expect(page.page.kind).toBe('author-only');
    expect(page.page.authorFilter).toBe(3);
    expect(page.posts.map((p) => p.floorLabel)).toEqual(['楼主', '沙发', '板凳']);
    expect(page.posts.every((p) => p.authorId === 3)).toBe(true);
    expect(page.posts[0].pid).not.toBe(pub.threads.d2vote.first_pid);
  });
  test('printable: no pid, uid or floor; jammer removed (GBK)', () => {
    const page = load('public-gbk', 'printable-t14.html');
    expect(page.page.kind).toBe('printable');
    expect(page.posts.every((p) => p.pid === null && p.authorId === null && p.floor === null)).toBe(true);
    expect(page.posts[1].text).toBe('投票对象：钱二\n投票理由：稳');
    expect(page.posts[0].text).toBe('第一日警长竞选投票，当日21:00关门。');
  });
  test('mobile template (GBK forum, served as UTF-8)', () => {
    const page = load('public-gbk', 'mobile2-t14-p1.html');
    expect(page.page.template).toBe('mobile');
    expect(page.page.charset).toBe('utf-8');
    const p449 = page.posts.find((p) => p.pid === gbk.posts['d1vote-7'].pid)!;
    expect(p449.quotes).toEqual([gbk.posts['g-zhao'].pid]);
    expect(p449.text).toBe('改票对象：李四\n改票理由：改一下');
  });
});

describe('GBK decoding and jammer', () => {
  test('GBK pages decode as GB18030 with the right titles', () => {
    const page = load('public-gbk', 'thread-14-1-1.html');
    expect(page.page.charset).toBe('gb18030');
    expect(page.page.title).toBe(gbk.threads.d1vote.title);
    expect(page.page.warnings).toEqual([]);
  });
  test('jammer filler around ballot lines is removed, line breaks kept', () => {
    const src = raw('public-gbk', 'viewthread-t14-p1.html').toString('latin1');
    expect(src).toContain('class="jammer"');
    expect(src).toContain('display:none');
    const page = load('public-gbk', 'viewthread-t14-p1.html');
    const sc = scenarioById(scenario('public-gbk'));
    for (const [key, p] of Object.entries(gbk.posts).filter(([, x]) => x.tid === 14)) {
      const got = page.posts.find((x) => x.pid === p.pid)!;
      expect(got.text).toBe(expectedText(sc.get(key)!.body).replace(/\n+/g, '\n'));
    }
  });
  test('hidden jammer spans are stripped whether written display:none, display: none or in capitals', () => {
    const latin = raw('public-gbk', 'viewthread-t14-p1.html').toString('latin1');
    const hidden = latin.split('<span style="display:none">').length - 1;
    expect(hidden).toBeGreaterThan(0);
    const want = load('public-gbk', 'viewthread-t14-p1.html').posts.map((p) => p.text);
    for (const style of ['display: none', 'DISPLAY:NONE', 'Display: None;']) {
      const edited = Buffer.from(latin.replaceAll('<span style="display:none">', `<span style="${style}">`), 'latin1');
      expect(load('public-gbk', 'viewthread-t14-p1.html', edited).posts.map((p) => p.text)).toEqual(want);
    }
  });
});

describe('selector files', () => {
  test('a selector css-select cannot read fails at load time, naming the file', () => {
    const data = JSON.parse(readFileSync(packagePath('selectors', 'discuz-x3-desktop.json'), 'utf8'));
    expect(() => compileSelectorSet(data, 'ok.json')).not.toThrow();
    for (const [key, edit] of [['post.author', (d: typeof data) => (d.post.author = 'a[href*=uid')], ['kinds.login', (d: typeof data) => (d.kinds.login = 'form[name=login')]] as const) {
      const bad = structuredClone(data);
      edit(bad);
      expect(() => compileSelectorSet(bad, 'bad.json')).toThrow(new RegExp(`选择器文件 bad\\.json 的 ${key.replace('.', '\\.')} 不是 css-select 能读的 CSS 选择器`));
    }
  });
});

describe('hand-made from real markup', () => {
  const t2 = () => raw('public', 'viewthread-t2-p1.html').toString('utf8');
  test('a blocked author: 作者被禁止或删除 内容自动屏蔽 replaces the message block', () => {
    const pid = idsThreadPosts(pub, 2)[5].pid;
    const html = t2();
    // viewthread_node.htm renders <div class="locked">{lang message_banned}</div> instead of div.t_fsz.
    const start = html.indexOf('<div class="t_fsz">', html.indexOf(`id="post_${pid}"`));
    const end = html.indexOf(`<div id="comment_${pid}"`, start);
    const edited = html.slice(0, start) + '<div class="locked">提示: <em>作者被禁止或删除 内容自动屏蔽</em></div>\n' + html.slice(end);
    const page = load('public', 'viewthread-t2-p1.html', Buffer.from(edited));
    expect(page.posts).toHaveLength(10);
    const p = page.posts.find((x) => x.pid === pid)!;
    expect(p.deleted).toBe(true);
    expect(p.locked).toContain('作者被禁止或删除');
    expect(p.text).toBe('');
    expect(page.posts.filter((x) => x.deleted)).toHaveLength(1);
  });
  test('hot-reply (推荐) copies on page 1 do not duplicate pids', () => {
    const html = t2();
    const pid = idsThreadPosts(pub, 2)[4].pid;
    const s = html.indexOf(`<div id="post_${pid}"`);
    const e = html.slice(s + 10).search(/<div id="post_\d+"/) + s + 10;
    const copy = html.slice(s, e).replace(/(id="postnum\d+"[^>]*>)[\s\S]*?<\/a>/, '$1推荐</a>');
    const first = html.search(/<div id="post_\d+"/);
    const edited = html.slice(0, first) + copy + html.slice(first);
    const page = load('public', 'viewthread-t2-p1.html', Buffer.from(edited));
    expect(page.posts.map((p) => p.pid)).toEqual(idsThreadPosts(pub, 2).slice(0, 10).map((p) => p.pid));
  });
  test('a GBK page whose header and meta both say UTF-8 decodes as GB18030 with a warning', () => {
    const bytes = Buffer.from(raw('public-gbk', 'viewthread-t14-p1.html').toString('latin1').replace('charset=gbk', 'charset=utf-8'), 'latin1');
    const fp = fetched('public-gbk', entry('public-gbk', 'viewthread-t14-p1.html'), GBK_AT, bytes);
    fp.contentType = 'text/html; charset=utf-8';
    const page = parsePage(fp);
    expect(page.page.charset).toBe('gb18030');
    expect(page.page.warnings!.join()).toMatch(/不是有效的 UTF-8/);
    expect(page.page.title).toBe(gbk.threads.d1vote.title);
    expect(page.posts[1].text).toBe('投票对象：钱二\n投票理由：稳');
  });
  test('a UTF-8 page declared GBK decodes as UTF-8 with a warning', () => {
    const fp = fetched('public', entry('public', 'viewthread-t2-p1.html'), PUB_AT);
    fp.contentType = 'text/html; charset=gbk';
    const page = parsePage(fp);
    expect(page.page.charset).toBe('utf-8');
    expect(page.page.warnings!.join()).toMatch(/声明为 gb18030，但字节是含中日韩文字的有效 UTF-8/);
    expect(page.page.title).toBe(pub.threads.d1talk.title);
  });
  test('bytes that fit no charset are refused, not turned into mojibake', () => {
    const bytes = Buffer.from(raw('public', 'viewthread-t1-p1.html'));
    for (let i = 3000; i < bytes.length - 3000; i += 40) bytes[i] = 0xff;
    const fp = fetched('public', entry('public', 'viewthread-t1-p1.html'), PUB_AT, bytes);
    expect(() => parsePage(fp)).toThrow(ParseError);
  });
  test.each([
    ['cut mid-post', (h: string) => h.slice(0, Math.floor(h.length / 2))],
    ['footer missing', (h: string) => h.slice(0, h.indexOf('<div id="ft"')) + '</div></body></html>'],
    ['printable cut', null],
  ] as const)('truncated HTML (%s) is a clear ParseError with exit code 3', (_name, cut) => {
    const file = cut ? 'viewthread-t2-p1.html' : 'printable-t2.html';
    const html = raw('public', file).toString('utf8');
    const bytes = Buffer.from(cut ? cut(html) : html.slice(0, html.length - 400));
    let err: unknown;
    try {
      load('public', file, bytes);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ParseError);
    expect((err as ParseError).exitCode).toBe(3);
    // Cut before the footer but closed (</html> present): not called truncated, the footer is named.
    expect((err as Error).message).toMatch(_name === 'footer missing' ? /页脚/ : /截断/);
  });
  test('an empty 200 body is an error; an empty redirect is not a thread', () => {
    expect(() => load('public', 'viewthread-t1-p1.html', new Uint8Array())).toThrow(/页面正文为空/);
    expect(load('public', 'guest-mobile2-t1-p1.html').page.kind).toBe('unknown');
  });
});
