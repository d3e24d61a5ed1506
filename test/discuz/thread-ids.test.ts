/**
 * What a thread page says about the thread beyond its posts, read from the real captured pages: the
 * reply count in the thread header (page 1 only: desktop "查看: N | 回复: M", touch "全部回复M"), the
 * 点评 marker, and the cross-check of each post block's ids (div#post_N, table#pidN, a#postnumN,
 * em#authorpostonN, td#postmessage_N, div#comment_N) that keeps a damaged id from renaming a post.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, test } from 'vitest';
import { ParseError, parsePage } from '../../src/discuz/index.js';
import type { FetchedPage } from '../../src/discuz/types.js';
import { DISCUZ, ids, manifest } from '../helpers/captured.js';

function fetched(dir: string, file: string, bytes?: Uint8Array): FetchedPage {
  const e = manifest(dir).find((m) => m.file === file)!;
  return {
    bytes: bytes ?? new Uint8Array(readFileSync(path.join(DISCUZ, dir, file))),
    url: new URL(e.url, ids(dir).base).href,
    fetchedAt: new Date('2026-11-30T08:00:00Z'),
    status: e.status,
    contentType: e.content_type,
  };
}

/** Posts per thread in ids.json (what the forum holds): the reply count is that minus the opening post. */
function postsPerThread(dir: string): Map<number, number> {
  const n = new Map<number, number>();
  for (const p of Object.values(ids(dir).posts)) n.set(p.tid, (n.get(p.tid) ?? 0) + 1);
  return n;
}

const THREAD_PAGES = ['public', 'public-gbk'].flatMap((dir) =>
  manifest(dir)
    .filter((e) => /^(viewthread-t\d+-p\d+|thread-\d+-\d+-1|mobile2-t\d+-p1)\.html$/.test(e.file))
    .map((e) => [dir, e.file] as const),
);

describe('the reply count', () => {
  test(`${THREAD_PAGES.length} captured thread pages: page 1 shows the count ids.json implies, later pages none`, () => {
    expect(THREAD_PAGES.length).toBeGreaterThan(30);
    let firstPages = 0;
    for (const [dir, file] of THREAD_PAGES) {
      const { page, posts } = parsePage(fetched(dir, file));
      expect(page.kind, file).toBe('thread');
      expect(page.comments, file).toBe(false);
      const replies = postsPerThread(dir).get(page.tid!)! - 1;
      if (page.page === 1 && !(page.template === 'mobile' && replies === 0)) {
        firstPages++;
        expect(page.replies, `${dir}/${file}`).toBe(replies);
      } else if (page.page! > 1) {
        expect(page.replies, `${dir}/${file}: later pages show 楼主, not the count`).toBeNull();
      }
      // the count and the floors agree on every captured thread: the last floor is replies + 1
      if (page.page === page.pageCount) expect(Math.max(...posts.map((p) => p.floor ?? 0)), file).toBe(replies + 1);
    }
    expect(firstPages).toBeGreaterThanOrEqual(2 * 7 + 2);
  });

  test('a player typing "回复: 99" in a post does not change the count; a theme without the header gives null', () => {
    const file = 'viewthread-t7-p1.html';
    const html = readFileSync(path.join(DISCUZ, 'public', file), 'utf8');
    const typed = html.replace(/(<td class="t_f" id="postmessage_\d+">)/, '$1查看: 1 | 回复: 99<br />');
    expect(typed).not.toBe(html);
    expect(parsePage(fetched('public', file, new Uint8Array(Buffer.from(typed)))).page.replies).toBe(7);
    const hidden = html.replace(/<div class="hm ptn">[\s\S]*?<\/div>/, '');
    expect(hidden).not.toBe(html);
    expect(parsePage(fetched('public', file, new Uint8Array(Buffer.from(hidden)))).page.replies).toBeNull();
  });

  test('a post showing 点评 marks the page (Discuz adds 点评 into the shown count)', () => {
    const file = 'viewthread-t6-p1.html';
    const html = readFileSync(path.join(DISCUZ, 'public', file), 'utf8');
    const pid = /<div id="comment_(\d+)" class="cm">/.exec(html)![1];
    // viewthread_node_body.htm's 点评 list inside the post's (otherwise empty) comment block
    const commented = html.replace(
      `<div id="comment_${pid}" class="cm">`,
      `<div id="comment_${pid}" class="cm"><h3 class="psth xs1"><span class="icon_ring vm"></span>点评</h3><div class="pstl xs1 cl"><div class="psta vm"><a href="home.php?mod=space&amp;uid=3" c="1">饺子</a></div><div class="psti">好 <span class="xg1">发表于 2026-11-22 12:00</span></div></div>`,
    );
    expect(parsePage(fetched('public', file, new Uint8Array(Buffer.from(commented)))).page.comments).toBe(true);
  });
});

describe('post block ids are cross-checked', () => {
  const file = 'viewthread-t4-p2.html';
  const html = readFileSync(path.join(DISCUZ, 'public', file), 'utf8');
  const pid = 101;
  const page = (h: string) => parsePage(fetched('public', file, new Uint8Array(Buffer.from(h))));
  const refusal = (h: string): ParseError => {
    try {
      page(h);
    } catch (e) {
      if (e instanceof ParseError) return e;
      throw e;
    }
    throw new Error('parsed without a ParseError');
  };

  test('the real page: every block agrees with itself', () => {
    expect(page(html).posts.map((p) => p.pid)).toContain(pid);
  });

  test.each([
    ['table#pid', 'pid'],
    ['a#postnum', 'postnum'],
    ['em#authorposton', 'authorposton'],
    ['td#postmessage_', 'postmessage_'],
    ['div#comment_', 'comment_'],
  ])('%s naming another pid is a ParseError naming the post', (_label, prefix) => {
    const bad = html.replace(`id="${prefix}${pid}"`, `id="${prefix}1"`);
    expect(bad).not.toBe(html);
    const err = refusal(bad);
    expect(err.exitCode).toBe(3);
    expect(err.message).toContain(`帖子 ${pid}：`);
    expect(err.message).toContain(`#${prefix}1`);
  });

  test('the container renamed (div#post_101 → div#post_1, the fuzz counterexample) is refused, naming both ids', () => {
    const err = refusal(html.replace(`<div id="post_${pid}" >`, '<div id="post_1" >'));
    expect(err.message).toMatch(/帖子 1：.*div#post_1 里是 table#pid101/);
  });

  test('GBK page with jammer: the same check', () => {
    const gbk = iconv.decode(readFileSync(path.join(DISCUZ, 'public-gbk', 'thread-13-2-1.html')), 'gb18030');
    const [, id] = /<div id="post_(\d+)" /.exec(gbk)!;
    const bad = iconv.encode(gbk.replace(`id="authorposton${id}"`, `id="authorposton${id}0"`), 'gbk');
    expect(() => parsePage(fetched('public-gbk', 'thread-13-2-1.html', new Uint8Array(bad)))).toThrow(new RegExp(`帖子 ${id}：.*em#authorposton${id}0`));
  });
});
