/**
 * The crawler against the replay server: a clean crawl, incremental and --full recrawls, and the fault
 * matrix (timeout, reset, 5xx, 429, anti-CC, truncated HTML, slow drip, login expiring mid-crawl,
 * missing and duplicated floors, a thread deleted between crawls, antitheft, off-host redirects). Each
 * fault test checks the store afterwards: every version it had is still there and completeness is right.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { crawlThreads, LoginRequiredError, type CrawlOptions } from '../../src/crawl/crawler.js';
import { ROBOT_WORDS, USER_AGENT } from '../../src/crawl/http.js';
import { openStore, threadLogPath, type Store } from '../../src/store/store-file.js';
import { completeness, assertComplete } from '../../src/store/completeness.js';
import { startReplayServer, type ReplayServer, type ReplayOptions } from '../../src/replay/server.js';
import { removePost, duplicatePost } from '../../src/replay/page-edits.js';
import { parsePage } from '../../src/discuz/parse-page.js';
import type { FetchedPage } from '../../src/discuz/types.js';
import { ids, idsPosts } from '../store/fixture-pages.js';
import { countedStore } from '../helpers/counted-store.js';

const T = { d1talk: ids.threads.d1talk.tid, d1vote: ids.threads.d1vote.tid, d2vote: ids.threads.d2vote.tid, process: ids.threads.process.tid };
const fast: Partial<CrawlOptions> = { delayMs: 0, backoffMs: 5, maxBackoffMs: 50, challengeWaitMs: 5, timeoutMs: 2000, retries: 3, progress: false };

interface Rig { srv: ReplayServer; store: Store; dir: string; crawl(tids: number[], o?: Partial<CrawlOptions>): ReturnType<typeof crawlThreads>; paths(from?: number): string[] }
const rigs: Rig[] = [];
afterEach(async () => {
  for (const r of rigs.splice(0)) {
    await r.store.close();
    await r.srv.close();
    fs.rmSync(r.dir, { recursive: true, force: true });
  }
});

async function rig(opts: ReplayOptions = {}): Promise<Rig> {
  const srv = await startReplayServer(opts);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-crawl-'));
  const store = await openStore(path.join(dir, 'game.store.json'), { forum: srv.url });
  const session = srv.sessionState();
  const r: Rig = {
    srv, store, dir,
    crawl: (tids, o = {}) => crawlThreads(store, srv.url, tids, { ...fast, session, gameFile: 'game.yaml', ...o }),
    paths: (from = 0) => srv.requests.slice(from).map((q) => q.path),
  };
  rigs.push(r);
  return r;
}

const pageUrl = (tid: number, page: number) => `/forum.php?mod=viewthread&tid=${tid}&page=${page}&ordertype=2`;
const allPages = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const storedPids = (store: Store, tid: number) => Object.values(store.data.posts).filter((p) => p.tid === tid).map((p) => p.pid).sort((a, b) => a - b);
const expectedPids = (tid: number) => idsPosts(tid).map((p) => p.pid).sort((a, b) => a - b);


/**
 * The store without the times that only say when something was last looked at (lastSeen, fetchedAt,
 * bodyHash, lastCrawl, repliesSeenAt): a refetch that changed nothing does not write them.
 */
function withoutSeenTimes(data: unknown): unknown {
  return JSON.parse(JSON.stringify(data, (k, v) => (['lastSeen', 'fetchedAt', 'bodyHash', 'lastCrawl', 'repliesSeenAt'].includes(k) ? undefined : v)));
}

describe('a clean crawl', () => {
  test('stores every post of every page, page 1 first, with a browser User-Agent and only the forum host', async () => {
    const r = await rig();
    const res = await r.crawl([T.d1vote, T.d2vote, T.process]);
    for (const tid of [T.d1vote, T.d2vote, T.process]) {
      expect(storedPids(r.store, tid)).toEqual(expectedPids(tid));
      expect(completeness(r.store, tid).complete).toBe(true);
      expect(r.paths().indexOf(pageUrl(tid, 1))).toBeLessThan(Math.max(0, r.paths().lastIndexOf(pageUrl(tid, r.srv.pageCounts[tid]))) + 1);
    }
    expect(res.incomplete).toBe(false);
    expect(res.requests).toBe(r.srv.requests.length);
    const host = new URL(r.srv.url).host;
    for (const q of r.srv.requests) {
      expect(q.host).toBe(host);
      expect(q.userAgent).toBe(USER_AGENT);
      expect(q.authenticated).toBe(true);
    }
    for (const w of ROBOT_WORDS) expect(USER_AGENT.toLowerCase()).not.toContain(w);
    expect(USER_AGENT).toMatch(/^Mozilla\/5\.0 .*bansha/);
  });

  test('posts linking elsewhere (example.com) never lead to a request off the forum', async () => {
    const r = await rig();
    const seen: string[] = [];
    const spy: typeof fetch = (input, init) => {
      seen.push(String(input));
      return fetch(input, init);
    };
    await r.crawl([T.d1talk], { fetchImpl: spy, concurrency: 3 });
    const links = Object.values(r.store.data.posts).flatMap((p) => [...p.versions[0].post.links, ...p.versions[0].post.images]);
    expect(links.some((l) => l.includes('example.com'))).toBe(true);
    expect(seen.length).toBe(r.srv.pageCounts[T.d1talk]);
    for (const u of seen) expect(new URL(u).host).toBe(new URL(r.srv.url).host);
  });

  test('requests are spaced by delayMs and at most `concurrency` run at once', async () => {
    const r = await rig();
    r.srv.setFault({ fault: { kind: 'latency', ms: 40 } });
    const stamps: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const spy: typeof fetch = async (input, init) => {
      stamps.push(Date.now());
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      try {
        const res = await fetch(input, init);
        const body = await res.arrayBuffer();
        return new Response(body, { status: res.status, headers: res.headers });
      } finally {
        inFlight--;
      }
    };
    await r.crawl([T.d1talk], { fetchImpl: spy, delayMs: 60, concurrency: 2 });
    for (let i = 1; i < stamps.length; i++) expect(stamps[i] - stamps[i - 1]).toBeGreaterThanOrEqual(55);
    expect(maxInFlight).toBeLessThanOrEqual(2);
  });
});

describe('incremental and full recrawls', () => {
  test('a repeat crawl fetches only the last known page and any newer pages', async () => {
    const r = await rig();
    const tid = T.d1talk;
    const n = r.srv.pageCounts[tid];
    await r.crawl([tid]);
    // Make the store look as it did when the thread had 3 pages.
    const thread = r.store.data.threads[String(tid)];
    thread.pageCount = 3;
    for (let p = 4; p <= n; p++) delete thread.pages[String(p)];
    const mark = r.srv.requests.length;
    const res = await r.crawl([tid]);
    expect(r.paths(mark).sort()).toEqual(allPages(n).slice(2).map((p) => pageUrl(tid, p)).sort());
    expect(r.paths(mark)[0]).toBe(pageUrl(tid, 3));
    expect(res.threads[0].completeness.complete).toBe(true);
    const again = r.srv.requests.length;
    await r.crawl([tid]);
    expect(r.paths(again)).toEqual([pageUrl(tid, n)]);
  });

  test('--full refetches every page', async () => {
    const r = await rig();
    await r.crawl([T.d1vote]);
    const mark = r.srv.requests.length;
    await r.crawl([T.d1vote], { full: true });
    expect(r.paths(mark).sort()).toEqual(allPages(r.srv.pageCounts[T.d1vote]).map((p) => pageUrl(T.d1vote, p)).sort());
  });

  test('a page past the end is served as the last page and not taken for a new page', async () => {
    const r = await rig();
    const tid = T.d1vote;
    await r.crawl([tid]);
    const thread = r.store.data.threads[String(tid)];
    thread.pageCount = 5; // a stale, too-high count (posts were deleted since)
    const res = await r.crawl([tid]);
    expect(Object.keys(r.store.data.threads[String(tid)].pages)).toEqual(allPages(r.srv.pageCounts[tid]).map(String));
    expect(res.threads[0].completeness).toMatchObject({ complete: true, pageCount: r.srv.pageCounts[tid] });
  });

  test('after a deletion and floor recount, posts moved to the previous page are found there (walk back)', async () => {
    const r = await rig();
    const tid = T.d1talk;
    const n = r.srv.pageCounts[tid];
    await r.crawl([tid]);
    const pages = r.store.data.threads[String(tid)].pages;
    const deleted = pages[String(n - 1)].pids[4];
    const moved = pages[String(n)].pids[0];
    // Page n-1 loses a post and gains the first post of page n; page n loses that post.
    const moverBlock = (html: string) => html.match(new RegExp(`<div id="post_${moved}" [\\s\\S]*?(?=<div id="post_\\d+" )`))![0];
    let block = '';
    r.srv.swapPage(tid, n, (html) => {
      block = moverBlock(html);
      return removePost(html, moved);
    });
    r.srv.swapPage(tid, n - 1, (html) => removePost(html, deleted).replace('<div id="postlistreply"', `${block}<div id="postlistreply"`));
    const mark = r.srv.requests.length;
    const res = await r.crawl([tid]);
    expect(r.paths(mark)).toEqual([pageUrl(tid, n), pageUrl(tid, n - 1)]);
    expect(res.threads[0].missingPosts).toEqual([deleted]);
    expect(r.store.data.posts[String(moved)].missingSince).toBeNull();
    expect(r.store.data.posts[String(deleted)].missingSince).not.toBeNull();
    expect(r.store.data.posts[String(deleted)].versions).toHaveLength(1);
  });
});

describe('fault matrix', () => {
  const transient = [
    ['HTTP 503 System Error page', { kind: 'status', status: 503 }],
    ['HTTP 500', { kind: 'status', status: 500 }],
    ['HTTP 429 with Retry-After', { kind: 'status', status: 429, retryAfterSeconds: 0 }],
    ['connection reset', { kind: 'reset' }],
    ['truncated HTML (short, well-formed response)', { kind: 'truncate' }],
    ['truncated body (connection dropped before Content-Length)', { kind: 'truncate', lieLength: true }],
    ['timeout (no answer within timeoutMs)', { kind: 'latency', ms: 1500 }],
  ] as const;

  for (const [name, fault] of transient) {
    test(`${name}: retried with backoff, then the page is stored`, async () => {
      const r = await rig();
      const tid = T.d1vote;
      r.srv.setFault({ fault: fault as never, path: 'page=2', times: 2 });
      const res = await r.crawl([tid], { timeoutMs: 600 });
      expect(r.paths().filter((p) => p === pageUrl(tid, 2))).toHaveLength(3);
      expect(res.threads[0].completeness.complete).toBe(true);
      expect(storedPids(r.store, tid)).toEqual(expectedPids(tid));
    });
  }

  test('anti-CC reload page: repeated with its lastrequest cookie, once per path', async () => {
    const r = await rig();
    const tid = T.d1talk;
    r.srv.setFault({ fault: { kind: 'anticc' } });
    const res = await r.crawl([tid]);
    for (const p of allPages(r.srv.pageCounts[tid])) expect(r.paths().filter((x) => x === pageUrl(tid, p))).toHaveLength(2);
    expect(res.threads[0].completeness.complete).toBe(true);
  });

  test('a slow drip that finishes within the timeout is fine', async () => {
    const r = await rig();
    r.srv.setFault({ fault: { kind: 'drip', chunkBytes: 8192, intervalMs: 5 }, path: 'page=2' });
    const res = await r.crawl([T.d1vote]);
    expect(res.threads[0].completeness.complete).toBe(true);
  });

  test('retries exhausted: fails with what is missing, keeps what was fetched, and the next crawl resumes', async () => {
    const r = await rig();
    const tid = T.d1talk;
    const n = r.srv.pageCounts[tid];
    r.srv.setFault({ fault: { kind: 'drip', chunkBytes: 1024, intervalMs: 40 }, path: 'page=3' });
    const res = await r.crawl([tid], { timeoutMs: 200, retries: 1 });
    expect(res.incomplete).toBe(true);
    expect(res.threads[0].failures).toEqual([{ page: 3, reason: expect.stringContaining('timed out'), cause: 'transient' }]);
    expect(res.threads[0].completeness.missingPages).toEqual([3]);
    expect(() => assertComplete(r.store, [tid])).toThrow(/共 7 页，第 3 页未抓取/);
    // The store on disk has the other pages.
    const onDisk = (await openStore(r.store.path, { lock: false })).data;
    expect(Object.keys(onDisk.threads[String(tid)].pages).map(Number).sort((a, b) => a - b)).toEqual(allPages(n).filter((p) => p !== 3));
    r.srv.setFault();
    const mark = r.srv.requests.length;
    const again = await r.crawl([tid]);
    expect(r.paths(mark).sort()).toEqual([pageUrl(tid, 3), pageUrl(tid, n)].sort());
    expect(again.threads[0].completeness.complete).toBe(true);
  });

  test('login expiring in the middle of a crawl: stops with exit 4, stores nothing from the guest page, keeps every version', async () => {
    const r = await rig();
    const tid = T.d1talk;
    await r.crawl([tid]);
    const before = structuredClone(r.store.data);
    r.srv.setFault({ fault: { kind: 'session-expiry', afterRequests: 2 } });
    const err = await r.crawl([tid], { full: true, concurrency: 1 }).catch((e) => e);
    expect(err).toBeInstanceOf(LoginRequiredError);
    expect(err.exitCode).toBe(4);
    expect(err.message).toContain('bansha login --game game.yaml');
    expect(err.message).toContain('该页内容没有存入存档');
    const after = r.store.data;
    expect(after.posts).toEqual(Object.fromEntries(Object.entries(before.posts).map(([k, p]) => [k, { ...p, versions: p.versions.map((v, i) => ({ ...v, lastSeen: after.posts[k].versions[i].lastSeen })) }])));
    // The stop is prompt: nothing is requested after the first guest page answers.
    const guest = r.srv.requests.findIndex((q) => !q.authenticated);
    expect(r.srv.requests.length - guest).toBeLessThanOrEqual(2);
    expect(completeness(r.store, tid).complete).toBe(true);
    // Everything recorded before the stop was written before the error was thrown.
    expect(withoutSeenTimes((await openStore(r.store.path, { lock: false })).data)).toEqual(withoutSeenTimes(r.store.data));
  });

  test('a thread deleted between crawls is marked deleted; its posts stay', async () => {
    const r = await rig();
    const tid = T.d1vote;
    await r.crawl([tid]);
    const posts = structuredClone(r.store.data.posts);
    r.srv.deleteThread(tid);
    const res = await r.crawl([tid]);
    expect(res.threads[0].deleted).toBe(true);
    expect(r.store.data.threads[String(tid)].deletedSince).not.toBeNull();
    expect(r.store.data.posts).toEqual(posts);
  });

  test('a thread that never existed is reported, not stored', async () => {
    const r = await rig();
    const res = await r.crawl([424242]);
    expect(res.threads[0].failures[0].reason).toMatch(/帖子不存在/);
    expect(r.store.data.threads['424242']).toBeUndefined();
  });

  test('a floor missing on the forum is reported; a duplicated floor is stored once', async () => {
    const r = await rig();
    const tid = T.d1vote;
    const posts = idsPosts(tid);
    const gone = posts[3];
    const dup = posts[12];
    r.srv.swapPage(tid, 1, (html) => removePost(html, gone.pid));
    r.srv.swapPage(tid, 2, (html) => duplicatePost(html, dup.pid));
    const res = await r.crawl([tid]);
    expect(res.threads[0].completeness.missingFloors).toEqual([gone.floor]);
    expect(() => assertComplete(r.store, [tid])).toThrow(new RegExp(`楼层 ${gone.floor} 从未见到`));
    expect(r.store.data.threads[String(tid)].pages['2'].pids.filter((p) => p === dup.pid)).toHaveLength(1);
  });

  test('the antitheft script page stops the crawl with a clear message and stores nothing', async () => {
    const r = await rig();
    r.srv.setFault({ fault: { kind: 'antitheft' } });
    const err = await r.crawl([T.d1vote]).catch((e) => e);
    expect(err).toBeInstanceOf(LoginRequiredError);
    expect(err.message).toMatch(/防采集脚本页/);
    expect(r.store.data.threads).toEqual({});
    expect(r.paths().every((p) => !p.includes('_dsign'))).toBe(true);
  });

  test('a redirect to another host is refused; that host never sees a request', async () => {
    const r = await rig();
    const other = await startReplayServer();
    try {
      r.srv.setFault({ fault: { kind: 'redirect', location: `${other.url}forum.php?mod=viewthread&tid=3&page=1` } });
      const err = await r.crawl([T.d1vote]).catch((e) => e);
      expect(err.name).toBe('OutOfScopeError');
      expect(other.requests).toEqual([]);
      expect(r.store.data.threads).toEqual({});
    } finally {
      await other.close();
    }
  });
});

describe('store writes during a crawl', () => {
  test('the store is written in batches, not after every page, and holds everything when the crawl returns', async () => {
    const r = await rig();
    const store = countedStore(r.store);
    const tids = [T.d1talk, T.d1vote, T.d2vote, T.process];
    const res = await crawlThreads(store, r.srv.url, tids, { ...fast, session: r.srv.sessionState(), concurrency: 2 });
    const fetched = res.threads.reduce((s, t) => s + t.fetchedPages.length, 0);
    expect(fetched).toBe(tids.reduce((s, t) => s + r.srv.pageCounts[t], 0));
    // at most one write per thread end (and the crawl's end), whatever the page count
    expect(store.writes).toBeGreaterThanOrEqual(1);
    expect(store.writes).toBeLessThanOrEqual(tids.length + 1);
    expect(store.writes).toBeLessThan(fetched);
    expect(withoutSeenTimes((await openStore(r.store.path, { lock: false })).data)).toEqual(withoutSeenTimes(r.store.data));
  });

  test('pages recorded but never written (the writer died) are fetched by the next crawl as never fetched', async () => {
    const r = await rig();
    const tid = T.d1talk;
    const n = r.srv.pageCounts[tid];
    const store = countedStore(r.store, 2); // the first write lands, every later one fails
    const err = await crawlThreads(store, r.srv.url, [tid], { ...fast, session: r.srv.sessionState(), concurrency: 1, writeIntervalMs: 0 }).catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toBe('disk full');
    await r.store.close();
    // What reached the disk is one consistent snapshot: some pages, every post they list, not all pages.
    const disk = (await openStore(r.store.path, { lock: false })).data;
    const have = Object.keys(disk.threads[String(tid)].pages).map(Number);
    expect(have).toContain(1);
    expect(have.length).toBeLessThan(n);
    for (const p of have) for (const pid of disk.threads[String(tid)].pages[String(p)].pids) expect(disk.posts[String(pid)]).toBeDefined();

    const again = await openStore(r.store.path);
    try {
      const mark = r.srv.requests.length;
      const res = await crawlThreads(again, r.srv.url, [tid], { ...fast, session: r.srv.sessionState() });
      const missing = allPages(n).filter((p) => !have.includes(p));
      const last = disk.threads[String(tid)].pageCount;
      expect(r.paths(mark).sort()).toEqual([...new Set([last, ...missing])].map((p) => pageUrl(tid, p)).sort());
      expect(res.threads[0].completeness.complete).toBe(true);
      expect(storedPids(again, tid)).toEqual(expectedPids(tid));
    } finally {
      await again.close();
    }
  });
});

describe('one thread at a time (a store handle opened on no thread, as crawlGame opens it)', () => {
  const all = [T.d1talk, T.d1vote, T.d2vote, T.process];
  /** A handle on the rig's store file holding no thread; closed by the test. */
  const partial = (r: Rig) => openStore(r.store.path, { forum: r.srv.url, threads: [] });

  test('holds only the thread being crawled, and leaves the same store as a crawl holding every thread', async () => {
    const r = await rig();
    await r.store.close();
    const store = await partial(r);
    const seen: number[][] = [];
    // what the handle holds whenever a page is parsed: one thread's record and only its posts
    const parse = (f: FetchedPage) => {
      const tids = new Set([...Object.keys(store.data.threads).map(Number), ...Object.values(store.data.posts).map((p) => p.tid)]);
      seen.push([...tids]);
      return parsePage(f);
    };
    try {
      const res = await crawlThreads(store, r.srv.url, all, { ...fast, session: r.srv.sessionState(), concurrency: 2, parse });
      for (const t of res.threads) expect(t.completeness.complete).toBe(true);
      expect(seen.length).toBe(all.reduce((s, t) => s + r.srv.pageCounts[t], 0));
      for (const held of seen) expect(held.length).toBeLessThanOrEqual(1);
      expect(store.data.threads).toEqual({});
      expect(store.data.posts).toEqual({});
    } finally {
      await store.close();
    }
    // the same crawl, from the same server, into a handle holding every thread
    const whole = await openStore(path.join(r.dir, 'whole.store.json'), { forum: r.srv.url });
    try {
      await crawlThreads(whole, r.srv.url, all, { ...fast, session: r.srv.sessionState(), concurrency: 2 });
    } finally {
      await whole.close();
    }
    const disk = (await openStore(r.store.path, { lock: false })).data;
    const firstSeenToo = (d: unknown) => JSON.parse(JSON.stringify(withoutSeenTimes(d), (k, v) => (k === 'firstSeen' ? undefined : v)));
    expect(firstSeenToo(disk)).toEqual(firstSeenToo((await openStore(whole.path, { lock: false })).data));
    for (const tid of all) expect(storedPids({ data: disk } as Store, tid)).toEqual(expectedPids(tid));
  });

  test('a recrawl asks for the last known page of each thread only, as with every thread open', async () => {
    const r = await rig();
    await r.crawl(all);
    await r.store.close();
    const store = await partial(r);
    try {
      const mark = r.srv.requests.length;
      const res = await crawlThreads(store, r.srv.url, all, { ...fast, session: r.srv.sessionState() });
      expect(r.paths(mark).sort()).toEqual(all.map((tid) => pageUrl(tid, r.srv.pageCounts[tid])).sort());
      for (const t of res.threads) expect(t.completeness.complete).toBe(true);
      expect(store.bytesWritten).toBe(0);
    } finally {
      await store.close();
    }
  });

  test("a page showing another thread's post is refused whether that thread was crawled before it (released) or after it (stored: learned up front)", async () => {
    const d2talk = ids.threads.d2talk.tid;
    const foreign = idsPosts(d2talk)[5].pid;
    // d1talk page 2 with one post carrying the pid of a d2talk post
    const parse = (f: FetchedPage) => {
      const page = parsePage(f);
      if (page.page.tid === T.d1talk && page.page.page === 2) page.posts[4] = { ...page.posts[4], pid: foreign };
      return page;
    };
    for (const [order, stored] of [[[d2talk, T.d1talk], false], [[T.d1talk, d2talk], true]] as const) {
      const r = await rig();
      if (stored) await r.crawl([d2talk]);
      await r.store.close();
      const store = await partial(r);
      try {
        const err = await crawlThreads(store, r.srv.url, [...order], { ...fast, session: r.srv.sessionState(), parse }).catch((e) => e);
        expect(err.exitCode).toBe(3);
        expect(err.message).toContain(`该页显示帖子 pid ${foreign} 属于帖子 ${T.d1talk}，但存档中 pid ${foreign} 属于帖子 ${d2talk}`);
      } finally {
        await store.close();
      }
      const disk = (await openStore(r.store.path, { lock: false })).data;
      expect(disk.posts[String(foreign)].tid).toBe(d2talk);
      expect(disk.posts[String(foreign)].versions).toHaveLength(1);
      expect(disk.threads[String(T.d1talk)]?.pages['2']).toBeUndefined();
    }
  });

  test('a damaged log is refused before anything is fetched, even when it is not the first thread', async () => {
    const r = await rig();
    await r.crawl([T.d1vote]);
    await r.store.close();
    const log = threadLogPath(r.store.path, T.d1vote);
    fs.writeFileSync(log, fs.readFileSync(log, 'utf8').replace(/"/, "'"));
    const store = await partial(r);
    try {
      const mark = r.srv.requests.length;
      const err = await crawlThreads(store, r.srv.url, [T.d1talk, T.d1vote], { ...fast, session: r.srv.sessionState() }).catch((e) => e);
      expect(err.exitCode).toBe(3);
      expect(err.message).toContain(log);
      expect(r.srv.requests.length).toBe(mark);
    } finally {
      await store.close();
    }
  });
});

describe('which threads a crawl covers', () => {
  test('every day\'s threads plus the process thread, or day N\'s plus the process thread', async () => {
    const { parseGame } = await import('../../src/game/game-file.js');
    const { gameThreads } = await import('../../src/crawl/crawler.js');
    const game = parseGame([
      'forum: http://127.0.0.1:8081/', 'ruleset: m107', 'players: [饺子, 包子]', 'process: 6', 'days:',
      '  - {day: 1, discussion: 2, vote: 3, opens: "2026-11-20 10:00", closes: "2026-11-21 21:00"}',
      '  - {day: 2, discussion: "http://127.0.0.1:8081/thread-4-1-1.html", vote: 5, opens: "2026-11-22 10:00", closes: "2026-11-22 21:00"}',
    ].join('\n'), 'g.yaml');
    expect(gameThreads(game)).toEqual([2, 3, 4, 5, 6]);
    expect(gameThreads(game, 2)).toEqual([4, 5, 6]);
    expect(() => gameThreads(game, 9)).toThrow(/g\.yaml 中没有第 9 日/);
  });
});
