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
import { t } from '../i18n/index.js';
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
  const asked = t('check.asked', req.tid, req.page, req.url);
  const stored = t('check.notStored');
  const answered = info.tid ?? tidFromUrl(finalUrl);
  if (answered !== req.tid) {
    const what = answered === null ? t('check.untitledPage', finalUrl) : t('check.otherThread', answered, info.kind === 'not-found');
    throw new PageMismatchError(t('check.wrongThread', asked, what, stored));
  }
  if (info.kind !== 'thread') return;
  const other = parsed.posts.find((p) => p.tid !== null && p.tid !== req.tid);
  if (other) {
    throw new PageMismatchError(t('check.postOfOtherThread', asked, other.pid ?? '?', other.tid!, stored));
  }
  const actual = info.page ?? 1;
  const count = Math.max(info.pageCount ?? 1, actual);
  if (actual > req.page || (actual < req.page && actual !== count)) {
    throw new PageMismatchError(t('check.wrongPage', asked, actual, count, stored));
  }
  if (actual === 1 && count > 1 && typeof info.replies === 'number') {
    const bound = maxPagesFor(info.replies, parsed.posts.length);
    if (count > bound + PAGE_SLACK) {
      throw new PageMismatchError(t('check.pagerTooLong', asked, count, info.replies, parsed.posts.length, bound, PAGE_SLACK, stored));
    }
  }
}
