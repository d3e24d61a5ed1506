/**
 * Pages that lie about what they are, and crawls that would never end: the crawler against the replay
 * server serving the real captured pages, each fault injected on its own. Every case ends either with
 * the fault-free store or with a refusal (exit 3) naming what was asked and what came back — and then
 * nothing from the lying page is in the store, and no thread is stored under another's number.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { crawlThreads, threadPageUrl, type CrawlOptions } from '../../src/crawl/crawler.js';
import { ResponseTooLargeError } from '../../src/crawl/http.js';
import { openStore, type Store } from '../../src/store/store-file.js';
import { completeness } from '../../src/store/completeness.js';
import { startReplayServer, type ReplayServer } from '../../src/replay/server.js';
import { ids, idsPosts, pageHtml } from '../store/fixture-pages.js';

const T = { d1talk: ids.threads.d1talk.tid, d1vote: ids.threads.d1vote.tid, d2vote: ids.threads.d2vote.tid };
const fast: Partial<CrawlOptions> = { delayMs: 0, backoffMs: 5, maxBackoffMs: 50, timeoutMs: 2000, retries: 2, progress: false };

interface Rig { srv: ReplayServer; store: Store; dir: string; crawl(tids: number[], o?: Partial<CrawlOptions>): ReturnType<typeof crawlThreads> }
const rigs: Rig[] = [];
afterEach(async () => {
  for (const r of rigs.splice(0)) {
    await r.store.close();
    await r.srv.close();
    fs.rmSync(r.dir, { recursive: true, force: true });
  }
});

async function rig(): Promise<Rig> {
  const srv = await startReplayServer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-lying-'));
  const store = await openStore(path.join(dir, 'game.store.json'), { forum: srv.url });
  const session = srv.sessionState();
  const r: Rig = { srv, store, dir, crawl: (tids, o = {}) => crawlThreads(store, srv.url, tids, { ...fast, session, gameFile: 'game.yaml', ...o }) };
  rigs.push(r);
  return r;
}

const storedPids = (store: Store, tid: number) => Object.values(store.data.posts).filter((p) => p.tid === tid).map((p) => p.pid).sort((a, b) => a - b);
const expectedPids = (tid: number) => idsPosts(tid).map((p) => p.pid).sort((a, b) => a - b);
/** The path the crawler asks for (src/crawl/crawler.ts threadPageUrl). */
const pageUrl = (tid: number, page: number) => threadPageUrl('http://x/', tid, page).slice('http://x'.length);
/** A page whose pager (top and bottom) claims `n` pages. */
const claimPages = (html: string, n: number) => html.replace(/title="共 \d+ 页"> \/ \d+ 页/g, `title="共 ${n} 页"> / ${n} 页`);
/** The store as the fault-free crawl leaves it: every post of the thread, each once, under its own thread. */
function expectNoForeignPosts(store: Store, tid: number, other: number) {
  for (const pid of expectedPids(other)) expect(store.data.posts[String(pid)]?.tid ?? other).toBe(other);
  expect(store.data.threads[String(tid)]?.title ?? ids.threads.d1vote.title).not.toBe(ids.threads.d2vote.title);
}

describe('a page is checked against the request before it is stored', () => {
  test('fault-free: every page is the page asked for', async () => {
    const r = await rig();
    const res = await r.crawl([T.d1vote, T.d2vote]);
    for (const t of res.threads) expect(t.completeness.complete).toBe(true);
    for (const tid of [T.d1vote, T.d2vote]) expect(storedPids(r.store, tid)).toEqual(expectedPids(tid));
  });

  test('a page of another thread (its own tid differs) is refused, naming both; nothing from it is stored', async () => {
    const r = await rig();
    r.srv.swapPage(T.d1vote, 2, pageHtml(T.d2vote, 1));
    const err = await r.crawl([T.d1vote], { concurrency: 1 }).catch((e) => e);
    expect(err).toMatchObject({ name: 'PageMismatchError', exitCode: 3 });
    expect(err.message).toContain(`请求的是主题 ${T.d1vote} 第 2 页`);
    expect(err.message).toContain(`论坛返回的却是主题 ${T.d2vote} 的页面`);
    expect(err.message).toContain('该页内容未存入');
    expect(r.store.data.threads[String(T.d2vote)]).toBeUndefined();
    expect(r.store.data.threads[String(T.d1vote)]?.pages['2']).toBeUndefined();
    expectNoForeignPosts(r.store, T.d1vote, T.d2vote);
    // What the store holds reads as incomplete: a count refuses rather than miss page 2.
    expect(completeness(r.store, T.d1vote).complete).toBe(false);
  });

  test('a same-host redirect to another thread is refused the same way', async () => {
    const r = await rig();
    r.srv.setFault({ fault: { kind: 'redirect', location: `${r.srv.url}forum.php?mod=viewthread&tid=${T.d2vote}&page=1` }, path: `tid=${T.d1vote}&page=1` });
    const err = await r.crawl([T.d1vote]).catch((e) => e);
    expect(err).toMatchObject({ name: 'PageMismatchError', exitCode: 3 });
    expect(err.message).toContain(`主题 ${T.d2vote}`);
    expect(r.store.data.threads).toEqual({});
  });

  test('another page number than the one asked for is refused', async () => {
    const r = await rig();
    r.srv.swapPage(T.d1talk, 3, pageHtml(T.d1talk, 5));
    const err = await r.crawl([T.d1talk], { concurrency: 1 }).catch((e) => e);
    expect(err).toMatchObject({ name: 'PageMismatchError', exitCode: 3 });
    expect(err.message).toMatch(new RegExp(`请求的是主题 ${T.d1talk} 第 3 页.*返回的却是第 5 页（共 7 页）`));
    expect(r.store.data.threads[String(T.d1talk)].pages['3']).toBeUndefined();
  });

  test('page 1 whose pager claims more pages than its reply count allows: refused after one request', async () => {
    const r = await rig();
    r.srv.swapPage(T.d1talk, 1, (html) => claimPages(html, 100_000));
    const err = await r.crawl([T.d1talk]).catch((e) => e);
    expect(err).toMatchObject({ name: 'PageMismatchError', exitCode: 3 });
    expect(err.message).toMatch(/分页显示共 100000 页，但该页自己显示 66 个回复、每页 10 帖，最多只能有 7 页（另加 5 页余量）/);
    expect(r.srv.requests).toHaveLength(1);
    expect(r.store.data.threads).toEqual({});
  });

  test('page 1 claiming a page more than its reply count allows (a moderator sees posts awaiting moderation) is followed', async () => {
    const r = await rig();
    r.srv.swapPage(T.d1talk, 1, (html) => claimPages(html, 8));
    const res = await r.crawl([T.d1talk]);
    expect(r.srv.requests.map((q) => q.path)).toContain(pageUrl(T.d1talk, 8));
    expect(storedPids(r.store, T.d1talk)).toEqual(expectedPids(T.d1talk));
    // page 8 comes back as page 7, whose pager says 7: the thread is stored as the 7 pages it has
    expect(res.threads[0].completeness).toMatchObject({ complete: true, pageCount: 7 });
  });

  test('a later page claiming 100,000 pages is refused, not followed', async () => {
    const r = await rig();
    r.srv.swapPage(T.d1talk, 4, (html) => claimPages(html, 100_000));
    const err = await r.crawl([T.d1talk], { concurrency: 1 }).catch((e) => e);
    expect(err).toMatchObject({ name: 'PageMismatchError', exitCode: 3 });
    expect(err.message).toMatch(/第 4 页显示共 100000 页，但第 1 页的回复数最多只允许 7 页（另加 5 页余量）；/);
    expect(r.srv.requests.length).toBeLessThanOrEqual(r.srv.pageCounts[T.d1talk]);
    expect(r.store.data.threads[String(T.d1talk)].pageCount).toBe(7);
  });

  test('incremental: a last page claiming far more than the stored reply count allows makes page 1 be read again, then refused', async () => {
    const r = await rig();
    await r.crawl([T.d1talk]);
    const before = structuredClone(r.store.data);
    r.srv.swapPage(T.d1talk, 7, (html) => claimPages(html, 100_000));
    const mark = r.srv.requests.length;
    const err = await r.crawl([T.d1talk]).catch((e) => e);
    expect(err).toMatchObject({ name: 'PageMismatchError', exitCode: 3 });
    expect(r.srv.requests.slice(mark).map((q) => q.path)).toEqual([7, 1].map((p) => pageUrl(T.d1talk, p)));
    expect(r.store.data.threads[String(T.d1talk)].pageCount).toBe(7);
    expect(Object.keys(r.store.data.posts)).toEqual(Object.keys(before.posts));
  });

  test('incremental: a thread that grew by a page or two is followed without reading page 1 again', async () => {
    const r = await rig();
    await r.crawl([T.d1talk]);
    const thread = r.store.data.threads[String(T.d1talk)];
    thread.pageCount = 5;
    delete thread.pages['6'];
    delete thread.pages['7'];
    const mark = r.srv.requests.length;
    const res = await r.crawl([T.d1talk]);
    expect(r.srv.requests.slice(mark).map((q) => q.path).sort()).toEqual([5, 6, 7].map((p) => pageUrl(T.d1talk, p)));
    expect(res.threads[0].completeness.complete).toBe(true);
  });
});

describe('limits: each breach a refusal naming the option that raises it', () => {
  test('more pages than --max-pages allows', async () => {
    const r = await rig();
    const err = await r.crawl([T.d1talk], { maxPagesPerThread: 5 }).catch((e) => e);
    expect(err).toMatchObject({ name: 'CrawlLimitError', exitCode: 3 });
    expect(err.message).toMatch(/显示共 7 页，超过每个主题 5 页的上限（--max-pages）/);
    expect(r.srv.requests).toHaveLength(1);
  });

  test('more requests than --max-requests allows: stops, keeps what it fetched, and the next crawl resumes', async () => {
    const r = await rig();
    const err = await r.crawl([T.d1talk], { maxRequests: 4, concurrency: 1 }).catch((e) => e);
    expect(err).toMatchObject({ name: 'CrawlLimitError', exitCode: 3 });
    expect(err.message).toMatch(/已发出 4 个请求，达到单次抓取的上限（--max-requests 4）/);
    expect(r.srv.requests).toHaveLength(4);
    expect(Object.keys(r.store.data.threads[String(T.d1talk)].pages)).toHaveLength(4);
    const res = await r.crawl([T.d1talk]);
    expect(res.threads[0].completeness.complete).toBe(true);
    expect(storedPids(r.store, T.d1talk)).toEqual(expectedPids(T.d1talk));
  });

  test('a response larger than --max-response-mb (declared length): refused unread, nothing stored', async () => {
    const r = await rig();
    const err = await r.crawl([T.d1vote], { maxResponseBytes: 20_000 }).catch((e) => e);
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(err.exitCode).toBe(3);
    expect(err.message).toMatch(/响应超过 0\.02 MiB.*--max-response-mb/);
    expect(r.store.data.threads).toEqual({});
    expect(r.srv.requests).toHaveLength(1);
  });

  test('an endless body without a length is cut off at the cap, never buffered whole', async () => {
    const r = await rig();
    let sent = 0;
    const endless: typeof fetch = async () => {
      const chunk = new Uint8Array(64 * 1024).fill(0x61);
      const body = new ReadableStream<Uint8Array>({
        pull(c) {
          sent += chunk.length;
          c.enqueue(chunk);
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } });
    };
    const err = await r.crawl([T.d1vote], { fetchImpl: endless, maxResponseBytes: 1024 * 1024 }).catch((e) => e);
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(sent).toBeLessThan(4 * 1024 * 1024);
    expect(r.store.data.threads).toEqual({});
  });
});
