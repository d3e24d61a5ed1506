/**
 * A fetched page checked against what the crawler asked for, before anything from it is stored: the
 * thread it says it belongs to, the page number it says it is, and a page count its own reply count
 * allows. A page that lies about any of these (a misconfigured cache, a proxy, a hostile server) would
 * otherwise be stored as another thread or page — ballots counted on the wrong day, real posts marked
 * missing — or send the crawler after thousands of pages that cannot exist. Each mismatch is a
 * refusal (exit 3) naming what was asked and what came back.
 */
import type { Page } from '../discuz/types.js';
import { UserError } from '../errors.js';
import { tidFromUrl } from '../store/record.js';

/** The page answered is not the page asked for: nothing from it was stored. Exit code 3. */
export class PageMismatchError extends UserError {
  constructor(message: string) {
    super(message, 3);
    this.name = 'PageMismatchError';
  }
}

/** A crawl limit was reached (pages per thread, requests per crawl): the crawl stops. Exit code 3. */
export class CrawlLimitError extends UserError {
  constructor(message: string) {
    super(message, 3);
    this.name = 'CrawlLimitError';
  }
}

/** What one page request asked for. */
export interface PageRequest {
  tid: number;
  page: number;
  url: string;
}

const stored = '该页内容未存入';

/**
 * How many pages past what the reply count allows are still believed. The count a page shows can lag
 * the pager: a moderator (a director often is one) is shown posts awaiting moderation that the count
 * leaves out, and posts arrive while a thread is crawled. Neither comes near five pages; a lying pager
 * is refused all the same, after a request or two instead of thousands.
 */
export const PAGE_SLACK = 5;

/**
 * The most pages a thread can have with `replies` replies when a full page holds at least
 * `postsPerPage` posts: Discuz's pager is multi(replies + 1, ppp). `postsPerPage` is what page 1
 * showed, never more than the forum's ppp, so the bound is never too tight; the reply count Discuz
 * shows also counts 点评 comments, which only loosens it further.
 */
export function maxPagesFor(replies: number, postsPerPage: number): number {
  return Math.max(1, Math.ceil((replies + 1) / Math.max(1, postsPerPage)));
}

/**
 * Throws a PageMismatchError unless `parsed` (a thread or not-found page, fetched finally from
 * `finalUrl`) is the page `req` asked for: the same thread (the page's own tid, else the tid of the
 * URL it came from after redirects — what the store would file it under — and every post's), and for a
 * thread page the same page number (or, for a page past the end, the last page, which is what Discuz
 * serves then) and on page 1 a pager that its own reply count allows (give or take PAGE_SLACK).
 */
export function checkAnswer(req: PageRequest, finalUrl: string, parsed: Page): void {
  const info = parsed.page;
  const asked = `请求的是主题 ${req.tid} 第 ${req.page} 页（${req.url}）`;
  const answered = info.tid ?? tidFromUrl(finalUrl);
  if (answered !== req.tid) {
    const what = answered === null ? `未标明主题的页面（${finalUrl}）` : `主题 ${answered} 的${info.kind === 'not-found' ? '“主题不存在”页面' : '页面'}`;
    throw new PageMismatchError(`${asked}，论坛返回的却是${what}；${stored}。请检查游戏文件中的论坛地址，或稍后重新抓取`);
  }
  if (info.kind !== 'thread') return;
  const other = parsed.posts.find((p) => p.tid !== null && p.tid !== req.tid);
  if (other) {
    throw new PageMismatchError(`${asked}，但返回页面上的帖子（pid ${other.pid ?? '?'}）属于主题 ${other.tid}；${stored}`);
  }
  const actual = info.page ?? 1;
  const count = Math.max(info.pageCount ?? 1, actual);
  if (actual > req.page || (actual < req.page && actual !== count)) {
    throw new PageMismatchError(`${asked}，论坛返回的却是第 ${actual} 页（共 ${count} 页）；${stored}`);
  }
  if (actual === 1 && count > 1 && typeof info.replies === 'number') {
    const bound = maxPagesFor(info.replies, parsed.posts.length);
    if (count > bound + PAGE_SLACK) {
      throw new PageMismatchError(
        `${asked}：分页显示共 ${count} 页，但该页自己显示 ${info.replies} 个回复、每页 ${parsed.posts.length} 帖，` +
          `最多只能有 ${bound} 页（另加 ${PAGE_SLACK} 页余量）；${stored}`,
      );
    }
  }
}
