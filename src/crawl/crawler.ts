/**
 * The crawler: fetches every page of a game's threads politely and records them in the evidence store.
 *
 * Shape (after Crawlee): fetching (http.ts), parsing (src/discuz, injected as `parse`) and storage
 * (src/store) are separate; retries, the session, the rate limit and the host scope live here.
 *  - p-queue: `concurrency` requests at a time (default 2) and at least `delayMs` between request
 *    starts (default 1000 ms, a sliding window); retries go back through the queue.
 *  - Retries with exponential backoff on network errors (timeout, reset, truncated body), 5xx, 429,
 *    System Error and anti-CC reload pages (whose `<prefix>_lastrequest` cookie is sent on the retry).
 *  - A login / no-permission page, or the antitheft script page, stops the whole crawl (exit 4) and
 *    nothing from that page is stored; pages stored before stay stored (a later crawl resumes).
 *  - Page 1 first (or, incrementally, the last known page), the page count from its pager, then the
 *    rest; a page past the end comes back as the last page and is not followed further. Since a close
 *    that reads the thread, every page fetched before that close is fetched again (refetchBefore), and
 *    at each thread's end the crawl records as of when its pages are and why it did not get them all
 *    (freshness.ts: only a count fetched whole after its close is published).
 *  - A 4xx that is no Discuz page is never read as a truncated page nor retried; it and a refused
 *    connection are failures of the address (check `forum:` and the thread ids), not transient ones.
 *  - Every answer is checked against the request before it is stored (page-check.ts): its thread, its
 *    page number, and a page count the thread's reply count allows (page 1 read again when a later
 *    page claims more); a mismatch stops the crawl (exit 3) and nothing from that page is stored.
 *  - Limits, each a refusal (exit 3) that names the option raising it: the size of one response
 *    (http.ts), the pages of one thread, the requests of one crawl.
 *  - Threads are crawled one after another (each one's pages `concurrency` at a time), and a thread the
 *    store handle does not hold is opened for its crawl and released once written: memory is bounded
 *    by one thread, not the game. Which thread every stored post is in is read first, so a page that
 *    shows another thread's post is still refused.
 *  - The store is written in the background, batched in time (src/store/write-batcher.ts: at most every
 *    `writeIntervalMs`), and always at the end of each thread and of the crawl, fatal stop included;
 *    never after every page (a whole-store write per page made crawls quadratic and serialised the
 *    fetches). A page recorded but not yet written when the process dies is absent from the file, so
 *    the next crawl fetches it as never fetched.
 */
import PQueue from 'p-queue';
import cliProgress from 'cli-progress';
import type { FetchedPage, Page } from '../discuz/types.js';
import type { Game } from '../game/types.js';
import { UserError } from '../errors.js';
import { t } from '../i18n/index.js';
import { openStore, type Store } from '../store/store-file.js';
import { applyPage, trimPages, type RecordResult } from '../store/record.js';
import { completeness } from '../store/completeness.js';
import { WriteBatcher } from '../store/write-batcher.js';
import type { Completeness, StoredThread } from '../store/types.js';
import { HostScope, NetworkError, USER_AGENT, httpGet, type HttpResult } from './http.js';
import { checkAnswer, CrawlLimitError, maxPagesFor, PAGE_SLACK, PageMismatchError } from './page-check.js';
import { CookieJar, loginHint, readSession, type StorageState } from './session.js';
import { now as processNow } from '../clock.js';
import { closesPassed, decidingWithHandovers, handoverDues, oldestPageFetch, writeFetch, type FailureCause } from './freshness.js';

/** How to crawl; every field has a polite default. */
export interface CrawlOptions {
  /** Only this day's threads (plus the process thread). Default: every day. */
  day?: number;
  /** Exactly these threads (what a count reads: `watch`). Default: by `day`. */
  threads?: number[];
  /** Refetch every page (to catch edits on old pages). Default: incremental. */
  full?: boolean;
  /** Store file; default game.storePath. */
  storePath?: string;
  /** Requests in flight at once. Default 2. */
  concurrency?: number;
  /** Minimum time between two request starts, ms. Default 1000. */
  delayMs?: number;
  /** Whole-response timeout, ms. Default 30000. */
  timeoutMs?: number;
  /** Retries per page after the first attempt. Default 4. */
  retries?: number;
  /** First backoff wait, ms; doubles each retry (with jitter). Default 1000. */
  backoffMs?: number;
  /** Cap on one backoff wait (also caps Retry-After). Default 60000. */
  maxBackoffMs?: number;
  /** Minimum wait before repeating a request that met the anti-CC reload page. Default 1100. */
  challengeWaitMs?: number;
  /** The session (else read from game.sessionPath, which must be owner-only). */
  session?: StorageState;
  userAgent?: string;
  /** The page parser (default: src/discuz parsePage). */
  parse?: (fetched: FetchedPage) => Page;
  /** Injected fetch (tests). */
  fetchImpl?: typeof fetch;
  /** Progress bar on stderr. Default: only when stderr is a terminal. */
  progress?: boolean;
  /** Notes on retries and walk-backs (never cookies). Default: none. */
  log?: (line: string) => void;
  /** Least time between two background store writes during the crawl, ms (what a kill can lose). Default 1500. */
  writeIntervalMs?: number;
  /** Largest response accepted, bytes. Default 20 MiB (http.ts DEFAULT_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
  /** Most pages one thread may have. Default DEFAULT_MAX_PAGES_PER_THREAD. */
  maxPagesPerThread?: number;
  /** Most HTTP requests one crawl may make, retries included. Default DEFAULT_MAX_REQUESTS. */
  maxRequests?: number;
  /** The clock pages are stamped with when fetched (epoch ms). Default: the process clock (src/clock.ts: BANSHA_NOW or the machine's). */
  now?: () => number;
  /**
   * A stored page of thread `tid` fetched before this moment is fetched again, even incrementally: what
   * makes a crawl after a close read whole the threads that decide the count (freshness.ts). crawlGame's
   * default: the latest close passed that reads the thread (closesPassed).
   */
  refetchBefore?: (tid: number) => number | undefined;
}

/** 2,000 pages: 20,000+ posts in one thread, several times the longest game thread seen. */
export const DEFAULT_MAX_PAGES_PER_THREAD = 2000;
/** 20,000 requests: a whole long game (~4,000 pages) five times over, retries included; 5.5 h at the polite rate. */
export const DEFAULT_MAX_REQUESTS = 20_000;

/** What one thread's crawl did and where it stands. */
export interface ThreadCrawlResult {
  tid: number;
  title: string;
  /** Page numbers fetched and stored in this run. */
  fetchedPages: number[];
  newPosts: number;
  changedPosts: number;
  /** pids newly marked missing in this run. */
  missingPosts: number[];
  /** The thread answered not-found (after having been seen: marked deleted in the store). */
  deleted: boolean;
  /**
   * Pages that could not be fetched after all retries, with the last reason and its cause: transient
   * (5xx, 429, timeout, reset: running again resumes) or the address (a 404 or other 4xx, a refused
   * connection, a thread the forum says does not exist: check `forum:` and the thread ids).
   */
  failures: Array<{ page: number; reason: string; cause: FailureCause }>;
  completeness: Completeness;
}

export interface CrawlResult {
  storePath: string;
  threads: ThreadCrawlResult[];
  /** HTTP requests made (redirect hops not counted separately). */
  requests: number;
  /** True when some page could not be fetched: the store holds what was fetched; crawl again to resume. */
  incomplete: boolean;
}

/** The crawl met a login, permission or challenge page: nothing from it was stored. Exit code 4. */
export class LoginRequiredError extends UserError {
  constructor(message: string) {
    super(message, 4);
    this.name = 'LoginRequiredError';
  }
}

/** A 4xx answer that is no Discuz page (a 404 from the web server): the address is wrong, never retried. */
class AddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AddressError';
  }
}

class TransientError extends Error {
  constructor(message: string, readonly waitAtLeastMs = 0) {
    super(message);
    this.name = 'TransientError';
  }
}

/** The tids a crawl covers: every day's threads (or day N's) plus the process thread, each once. */
export function gameThreads(game: Game, day?: number): number[] {
  const days = day === undefined ? game.days : game.days.filter((d) => d.day === day);
  if (day !== undefined && days.length === 0) {
    throw new UserError(t('crawl.noDay', day, game.file, game.days.map((d) => d.day).join(', ')), 2);
  }
  const tids: number[] = [];
  for (const d of days) for (const ref of [d.discussion, ...d.votes, d.rules, d.auction]) if (ref) tids.push(ref.tid);
  if (game.process) tids.push(game.process.tid);
  return [...new Set(tids)];
}

/**
 * The query-form URL of a thread page (always works, whatever the rewrite settings), always in
 * chronological order: ordertype=2 (正序) overrides a board or reader set to newest-first (ordertype=1,
 * 倒序), whose floor labels are off by one (forum_viewthread.php; parse-page.ts orderFloors).
 */
export function threadPageUrl(forum: string, tid: number, page: number): string {
  return new URL(`forum.php?mod=viewthread&tid=${tid}&page=${page}&ordertype=2`, forum).toString();
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function isAntiCc(fetched: HttpResult): boolean {
  if (fetched.setCookieNames.some((n) => n.endsWith('_lastrequest'))) return true;
  const head = Buffer.from(fetched.bytes.buffer, fetched.bytes.byteOffset, Math.min(fetched.bytes.length, 4096)).toString('utf8');
  return head.includes('页面重载开启') || head.includes('频繁刷新');
}

/** parsePage with the forum's own selector files (if any) tried before the bundled ones. */
async function defaultParser(selectorFiles: string[] = []): Promise<(fetched: FetchedPage) => Page> {
  const { parsePage } = await import('../discuz/parse-page.js');
  if (!selectorFiles.length) return (f) => parsePage(f);
  const selectors = (await import('../discuz/selectors.js')).selectorSetsWith(selectorFiles);
  return (f) => parsePage(f, { selectors });
}

/** What crawlThreads takes besides the threads: the options, the session, and where selector files and the game file are. */
type CrawlThreadsOptions = CrawlOptions & { session: StorageState; gameFile?: string; selectorFiles?: string[] };

/**
 * Crawl the threads `tids` of the forum into an open store. The lower-level entry point (crawlGame
 * opens the store and reads the session for you).
 */
export async function crawlThreads(store: Store, forum: string, tids: number[], opts: CrawlThreadsOptions): Promise<CrawlResult> {
  const run = new CrawlRun(store, forum, opts, opts.parse ?? (await defaultParser(opts.selectorFiles)));
  try {
    // Which thread each stored post is in, read before anything is fetched (a damaged log refused
    // here): a page claiming a post of a thread not open is refused as if every thread were open.
    await store.learnPosts(tids);
    // One thread at a time (its pages `concurrency` at a time): the first error stops the crawl.
    const threads: ThreadCrawlResult[] = [];
    let failed: unknown = null;
    for (const tid of tids) {
      if (run.fatal) break;
      try {
        threads.push(await run.crawlHeld(tid));
      } catch (e) {
        failed = e;
        break;
      }
    }
    await run.queue.onIdle();
    // Everything recorded reaches the disk before the crawl returns or throws (a fatal stop included).
    let writeError: unknown = null;
    await run.persist.close().catch((e: unknown) => (writeError = e));
    if (run.fatal) throw run.fatal;
    if (writeError) throw writeError;
    if (failed) throw failed;
    return { storePath: store.path, threads, requests: run.requests, incomplete: threads.some((t) => t.failures.length > 0) };
  } finally {
    run.queue.clear();
    await run.persist.close().catch(() => undefined); // no background write may outlive the crawl
    run.bar?.stop();
  }
}

/**
 * What every thread and page of one crawl shares: its settings with their defaults, the request queue
 * and budget, the progress bar, the batched store writes, and the first fatal error (which stops it all).
 */
class CrawlRun {
  readonly scope: HostScope;
  readonly jar: CookieJar;
  readonly log: (line: string) => void;
  readonly retries: number;
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
  readonly challengeWaitMs: number;
  readonly maxRequests: number;
  readonly maxPages: number;
  readonly clock: () => number;
  readonly queue: PQueue;
  readonly bar: cliProgress.SingleBar | null;
  readonly persist: WriteBatcher;
  requests = 0;
  fatal: Error | null = null;
  #barTotal = 0;

  constructor(readonly store: Store, readonly forum: string, readonly opts: CrawlThreadsOptions, readonly parse: (fetched: FetchedPage) => Page) {
    this.scope = new HostScope(forum);
    this.jar = new CookieJar(opts.session.cookies);
    this.log = opts.log ?? (() => undefined);
    this.retries = opts.retries ?? 4;
    this.backoffMs = opts.backoffMs ?? 1000;
    this.maxBackoffMs = opts.maxBackoffMs ?? 60_000;
    this.challengeWaitMs = opts.challengeWaitMs ?? 1100;
    const delayMs = opts.delayMs ?? 1000;
    this.maxRequests = opts.maxRequests ?? DEFAULT_MAX_REQUESTS;
    this.maxPages = opts.maxPagesPerThread ?? DEFAULT_MAX_PAGES_PER_THREAD;
    this.clock = opts.now ?? processNow;
    this.queue = new PQueue({
      concurrency: Math.max(1, opts.concurrency ?? 2),
      ...(delayMs > 0 ? { interval: delayMs, intervalCap: 1, strict: true } : {}),
    });
    const showBar = opts.progress ?? Boolean(process.stderr.isTTY);
    this.bar = showBar
      ? new cliProgress.SingleBar(
          { stream: process.stderr, format: t('crawl.progress'), hideCursor: true, clearOnComplete: true },
          cliProgress.Presets.shades_classic,
        )
      : null;
    this.persist = new WriteBatcher(store, { intervalMs: opts.writeIntervalMs ?? 1500 });
    this.bar?.start(0, 0, { tid: '' });
  }

  barAdd(n: number): void {
    this.#barTotal += n;
    this.bar?.setTotal(this.#barTotal);
  }

  /** One page, with retries; returns the fetched and parsed page (thread or not-found). */
  async fetchPage(tid: number, page: number): Promise<{ fetched: HttpResult; parsed: Page }> {
    const url = threadPageUrl(this.forum, tid, page);
    let lastReason = '';
    let lastAddress = false;
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      if (this.fatal) throw this.fatal;
      let waitAtLeast = 0;
      try {
        return await this.#fetchOnce(tid, page, url);
      } catch (err) {
        // Login, off-host, mismatch, limits: a refusal for the whole crawl, never retried.
        if (err instanceof UserError) {
          this.fatal ??= err;
          throw err;
        }
        if (err instanceof AddressError) throw new NetworkError(err.message, url, true);
        if (!(err instanceof TransientError || err instanceof NetworkError)) throw err;
        lastReason = err.message;
        lastAddress = err instanceof NetworkError && err.address;
        if (err instanceof TransientError) waitAtLeast = err.waitAtLeastMs;
      }
      if (attempt < this.retries) {
        const wait = Math.min(this.maxBackoffMs, Math.max(waitAtLeast, this.backoffMs * 2 ** attempt * (0.75 + Math.random() * 0.5)));
        this.log(t('crawl.retrying', tid, page, lastReason, attempt + 1, this.retries, Math.round(wait)));
        await sleep(wait);
      }
    }
    throw new NetworkError(t('err.gaveUp', this.retries + 1, String(lastReason)), url, lastAddress);
  }

  /**
   * One request for a page, through the queue and within the budget: the page when it is the thread's
   * (or its not-found page); else a refusal (UserError), a failure of the address, or a transient error.
   */
  async #fetchOnce(tid: number, page: number, url: string): Promise<{ fetched: HttpResult; parsed: Page }> {
    const { opts } = this;
    const fetched = await this.queue.add(async () => {
      if (this.fatal) throw this.fatal;
      if (this.requests >= this.maxRequests) {
        throw new CrawlLimitError(t('crawl.maxRequestsHit', this.requests, this.maxRequests));
      }
      this.requests++;
      return httpGet(url, {
        jar: this.jar, scope: this.scope, timeoutMs: opts.timeoutMs ?? 30_000, userAgent: opts.userAgent ?? USER_AGENT, fetchImpl: opts.fetchImpl, maxBytes: opts.maxResponseBytes,
      });
    });
    fetched.fetchedAt = new Date(this.clock()); // (the process clock: a rehearsal's BANSHA_NOW stamps its pages too)
    if (fetched.status === 429) throw new TransientError(t('err.http429'), fetched.retryAfterMs ?? 0);
    if (fetched.status >= 500) throw new TransientError(t('err.http5xx', fetched.status), fetched.retryAfterMs ?? 0);
    // Another 4xx is Discuz's own message page (a thread not found may come with a 404) or the web
    // server's: never read as a truncated thread page, never retried.
    const refused = fetched.status >= 400;
    let parsed: Page;
    try {
      parsed = this.parse(fetched);
    } catch (err) {
      if (refused) throw new AddressError(t('err.http4xx', fetched.status));
      if ((err as Error).name === 'ParseError') throw new TransientError(t('err.unreadablePage', (err as Error).message));
      throw err;
    }
    const kind = parsed.page.kind;
    if (refused && kind !== 'thread' && kind !== 'not-found' && kind !== 'login' && kind !== 'no-permission') {
      throw new AddressError(t('err.http4xx', fetched.status));
    }
    if (kind === 'thread' || kind === 'not-found') {
      checkAnswer({ tid, page, url }, fetched.url, parsed);
      return { fetched, parsed };
    }
    if (kind === 'login' || kind === 'no-permission') {
      throw new LoginRequiredError(t('crawl.loginPage', url, kind === 'login', parsed.page.message ?? null, loginHint(opts.gameFile)));
    }
    if (kind === 'challenge') {
      if (isAntiCc(fetched)) throw new TransientError(t('err.antiCc'), this.challengeWaitMs);
      throw new LoginRequiredError(t('crawl.antitheft', url, loginHint(opts.gameFile)));
    }
    if (kind === 'server-error') throw new TransientError(t('err.serverErrorPage', parsed.page.message ?? null));
    throw new TransientError(t('err.notThreadPage', kind, parsed.page.message ?? null));
  }

  /**
   * One thread, open in the store only while it is crawled when the caller's handle does not hold it
   * already: written and released at its end (a fatal stop included), so memory is one thread's.
   */
  async crawlHeld(tid: number): Promise<ThreadCrawlResult> {
    const visiting = !this.store.holds(tid);
    if (visiting) await this.store.open([tid]);
    let result: ThreadCrawlResult | undefined;
    try {
      result = await new ThreadCrawl(this, tid).crawl();
    } finally {
      this.#recordFetch(tid, result);
      // a write error here is the crawl's end's to throw (persist.close / the store's next write)
      if (visiting) await this.store.release([tid]).catch((e: unknown) => void (this.fatal ??= e as Error));
    }
    return result;
  }

  /**
   * What this crawl did for thread `tid` (freshness.ts): as of when its pages are, in memory (a refetch
   * that changed nothing is not written to the store), and why it did not get every page. A stop before
   * the thread was crawled (no result) is a failure too.
   */
  #recordFetch(tid: number, result: ThreadCrawlResult | undefined): void {
    const failed = result?.failures[0];
    const failure = failed ? failed.reason : result ? null : (this.fatal?.message ?? t('crawl.stopped'));
    try {
      const asOf = oldestPageFetch(this.store.data.threads[String(tid)]);
      writeFetch(this.store.path, tid, {
        asOf: asOf === null ? null : new Date(asOf).toISOString(), crawledAt: new Date(this.clock()).toISOString(), failure, cause: failed ? failed.cause : null,
        // The forum's own answer that a thread it showed before does not exist (deleted, moved or under moderation): kept versions only.
        ...(result?.deleted && !failed ? { notFound: true } : {}),
      });
    } catch (e) {
      this.fatal ??= e as Error; // a file fault: the crawl's end throws it (exit 6)
    }
  }
}

/**
 * One thread's crawl: page 1 (or, incrementally, the last known page) first, then the pages its pager,
 * its growth and its posts' moves ask for, each page checked before it is recorded.
 */
class ThreadCrawl {
  readonly #key: string;
  readonly #known: StoredThread | undefined;
  readonly #result: ThreadCrawlResult;
  readonly #requested = new Set<number>();
  readonly #stored = new Set<number>();
  #pageCount = 0;
  readonly #pending: Array<Promise<void>> = [];
  /** The most pages the thread's reply count allows, from page 1 as read in this crawl (storedBound: as stored). */
  #freshBound: number | null = null;
  #page1Again: Promise<void> | null = null;

  constructor(readonly run: CrawlRun, readonly tid: number) {
    this.#key = String(tid);
    this.#known = run.store.data.threads[this.#key];
    this.#result = {
      tid, title: this.#known?.title ?? '', fetchedPages: [], newPosts: 0, changedPosts: 0, missingPosts: [], deleted: false, failures: [],
      completeness: completeness(run.store, tid),
    };
  }

  async crawl(): Promise<ThreadCrawlResult> {
    const known = this.#known;
    const full = this.run.opts.full || !known || known.pageCount === 0 || known.deletedSince !== null;
    const first = full ? 1 : known.pageCount;
    this.#requested.add(first);
    this.run.barAdd(1);
    await this.#visit(first);
    if (!this.#result.deleted && this.#stored.size > 0) this.#scheduleTheRest(full ? 2 : first + 1);
    await this.#settle();
    return this.#finish();
  }

  /** Pages `from`..N, any page of 1..N never stored, and since a close that reads the thread, every page fetched before it. */
  #scheduleTheRest(from: number): void {
    const last = this.#pageCount;
    const have = this.run.store.data.threads[this.#key]?.pages ?? {};
    for (let p = from; p <= last; p++) this.#schedule(p);
    // Resume: any page of 1..N never stored (an earlier crawl failed on it).
    for (let p = 1; p <= last; p++) if (!have[String(p)]) this.#schedule(p);
    // Since a close that reads the thread: every page fetched before it, again (its state at the close).
    const cutoff = this.run.opts.refetchBefore?.(this.tid);
    if (cutoff !== undefined) for (let p = 1; p <= last; p++) if (Date.parse(have[String(p)]?.fetchedAt ?? '') < cutoff) this.#schedule(p);
  }

  /** Waits until no page is left (pages may schedule further pages: growth, walk-back); a fatal error is thrown once what was stored is written. */
  async #settle(): Promise<void> {
    const { run } = this;
    for (let i = 0; i < this.#pending.length; i++) {
      try {
        await this.#pending[i];
      } catch (err) {
        run.fatal ??= err as Error;
      }
    }
    if (run.fatal) {
      await run.persist.flush().catch(() => undefined); // keep what was stored; the crawl's end rethrows a write error
      throw run.fatal;
    }
  }

  /** The thread read to its last page: posts past the end marked missing; written; the result. */
  async #finish(): Promise<ThreadCrawlResult> {
    const { run, tid } = this;
    const result = this.#result;
    const thread = run.store.data.threads[this.#key];
    if (thread && this.#stored.has(thread.pageCount)) {
      const marked = trimPages(run.store.data, tid, new Date());
      if (marked.length) {
        result.missingPosts.push(...marked);
        run.persist.changed();
      }
    }
    await run.persist.flush();
    result.title = run.store.data.threads[this.#key]?.title ?? result.title;
    result.fetchedPages.sort((a, b) => a - b);
    result.completeness = completeness(run.store, tid);
    return result;
  }

  /** The most pages the thread's reply count as stored allows. */
  #storedBound(): number | null {
    const replies = this.#known?.replies;
    const page1 = this.#known?.pages['1'];
    return typeof replies === 'number' && page1 ? maxPagesFor(replies, page1.pids.length) : null;
  }

  /**
   * Refuses (before anything from the page is stored) a page count beyond the limit, or beyond what
   * the thread's reply count allows plus a little growth — page 1 is read again first when the only
   * reply count known is an older one.
   */
  async #checkPageCount(count: number, page: number): Promise<void> {
    // Page 1 was checked against its own reply count (checkAnswer); a later page against page 1's.
    if (page > 1) await this.#checkAgainstReplies(count, page);
    if (count > this.run.maxPages) {
      throw new CrawlLimitError(t('crawl.maxPagesHit', this.tid, page, count, this.run.maxPages));
    }
  }

  async #checkAgainstReplies(count: number, page: number): Promise<void> {
    if (this.#freshBound === null && (this.#storedBound() ?? 0) + PAGE_SLACK < count && !this.#requested.has(1)) this.#schedule(1);
    if (this.#freshBound === null && this.#page1Again) await this.#page1Again;
    const bound = this.#freshBound ?? this.#storedBound();
    if (bound !== null && count > bound + PAGE_SLACK) {
      throw new PageMismatchError(t('crawl.beyondReplies', this.tid, page, count, bound, PAGE_SLACK, this.#freshBound === null));
    }
  }

  /** Record a page in memory; the batcher persists it soon (and flush() at the latest). */
  #take(fetched: HttpResult, parsed: Page): RecordResult {
    const { run } = this;
    const rec = applyPage(run.store.data, fetched, parsed, (pid) => run.store.threadOfPost(pid));
    run.persist.changed();
    run.bar?.increment(1, { tid: this.tid });
    return rec;
  }

  #schedule(page: number): void {
    if (this.#requested.has(page) || page < 1 || this.run.fatal) return;
    this.#requested.add(page);
    this.run.barAdd(1);
    // Handled at once (never an unhandled rejection); the thread's wait loop rethrows via `fatal`.
    const visited = this.#visit(page).catch((err: unknown) => {
      this.run.fatal ??= err as Error;
    });
    if (page === 1) this.#page1Again = visited; // a page-count check waits for it (checkAgainstReplies)
    this.#pending.push(visited);
  }

  /** Fetch one page and react: record it, learn the page count, walk back after a shift. */
  async #visit(page: number): Promise<void> {
    const { run, tid } = this;
    const result = this.#result;
    let got: { fetched: HttpResult; parsed: Page };
    try {
      got = await run.fetchPage(tid, page);
    } catch (err) {
      if (err instanceof NetworkError) {
        result.failures.push({ page, reason: err.message, cause: err.address ? 'address' : 'transient' });
        run.bar?.increment(1, { tid });
        return;
      }
      throw err;
    }
    const { fetched, parsed } = got;
    if (parsed.page.kind === 'not-found') {
      const rec = this.#take(fetched, parsed);
      result.deleted = true;
      if (!rec.threadDeleted && !run.store.data.threads[this.#key]) {
        result.failures.push({ page, reason: t('crawl.threadNotFound'), cause: 'address' });
      }
      return;
    }
    const actual = parsed.page.page ?? 1;
    if (actual !== page && this.#stored.has(actual)) {
      // A page past the end, served as the last page we already have: stop here.
      run.bar?.increment(1, { tid });
      return;
    }
    const count = Math.max(parsed.page.pageCount ?? 1, actual);
    if (actual === 1 && typeof parsed.page.replies === 'number') this.#freshBound = maxPagesFor(parsed.page.replies, parsed.posts.length);
    await this.#checkPageCount(count, actual);
    const rec = this.#take(fetched, parsed);
    this.#stored.add(actual);
    result.fetchedPages.push(actual);
    result.newPosts += rec.newPosts.length;
    result.changedPosts += rec.changedPosts.length;
    result.missingPosts.push(...rec.nowMissing);
    result.missingPosts = result.missingPosts.filter((p) => !rec.returned.includes(p));
    this.#follow(actual, count, rec.nowMissing);
  }

  /** After page `actual` is recorded: the pages a grown page count adds, and the page before when posts moved off its top. */
  #follow(actual: number, count: number, nowMissing: readonly number[]): void {
    if (count > this.#pageCount) {
      const before = this.#pageCount;
      this.#pageCount = count;
      if (before > 0) for (let p = before + 1; p <= count; p++) this.#schedule(p);
    }
    // Posts moved off the top of this page (a deletion or recount before it): walk back one page.
    const lowest = Math.min(...(this.run.store.data.threads[this.#key]?.pages[String(actual)]?.pids ?? [Infinity]));
    if (actual > 1 && nowMissing.some((pid) => pid < lowest) && !this.#requested.has(actual - 1)) {
      this.run.log(t('crawl.walkBack', this.tid, actual, actual - 1));
      this.#schedule(actual - 1);
    }
  }
}

/**
 * Crawl a game's threads (all days, or day N's plus the process thread and the threads deciding its
 * count: day 1's election, where its sheriffs' handovers are read) into its store, with the
 * session saved by `bansha login`. Returns per-thread results with completeness. Throws
 * LoginRequiredError (exit 4) when the forum answers with a login, permission or challenge page.
 */
export async function crawlGame(game: Game, opts: CrawlOptions = {}): Promise<CrawlResult> {
  // A day's crawl takes the threads that decide its count too: day 1's election, its sheriffs' handovers (freshness.ts).
  const tids = opts.threads ?? (opts.day === undefined
    ? gameThreads(game)
    : [...new Set([...gameThreads(game, opts.day), ...(await decidingWithHandovers(game, opts.day)).map((x) => x.tid)])]);
  const now = (opts.now ?? processNow)();
  const refetchBefore = opts.refetchBefore ?? closesPassed(game, now, await handoverDues(game, now));
  const session = opts.session ?? (await readSession(game.sessionPath, game.file));
  // no thread open yet: the crawl opens each in turn (memory bounded by one thread, not the game)
  const store = await openStore(opts.storePath ?? game.storePath, { forum: game.forum, threads: [] });
  try {
    return await crawlThreads(store, game.forum, tids, { ...opts, refetchBefore, session, gameFile: game.file, selectorFiles: game.selectorFiles });
  } finally {
    await store.close();
  }
}
