/**
 * Crawl figures: bansha's crawler (src/crawl crawlThreads) fetching a synthetic game over HTTP from the
 * replay server (src/replay/server.ts, its pages built on the fly from the real captured markup by
 * `synthPageSource`, every answer after a fixed latency), at several concurrencies; and the
 * closing-time recrawl after new posts, counting the requests it makes. The server speaks Discuz's
 * thread URLs, requires the login session as the real board does, and answers a page past the end
 * with the last page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crawlThreads } from '../crawl/crawler.js';
import { parsePage } from '../discuz/parse-page.js';
import type { FetchedPage } from '../discuz/types.js';
import { openStore, type Store } from '../store/store-file.js';
import type { StoredPost } from '../store/types.js';
import { familyPpp, pageCountOf } from '../replay/synth.js';
import { startReplayServer, synthPageSource } from '../replay/server.js';
import type { SynthGame, SynthGameThread } from './synth-game.js';

/** One crawl at one concurrency. */
export interface CrawlFigure {
  concurrency: number;
  /** HTTP requests the crawler made. */
  requests: number;
  pages: number;
  wallMs: number;
  /** pages × latency / concurrency. */
  minimumMs: number;
  wallVsMinimum: number;
  /** Time spent in the page parser during the crawl (CPU the crawl cannot overlap with itself). */
  parseMs: number;
  /** Whole-store writes the crawl made (batched: src/store/write-batcher.ts). */
  storeWrites: number;
  /** The larger of the latency bound and the parse time: what the wall time cannot go below. */
  boundMs: number;
  wallVsBound: number;
}

/** What the crawl bench measured. */
export interface CrawlBenchResult {
  latencyMs: number;
  threads: number;
  posts: number;
  crawl: CrawlFigure[];
  /**
   * A full crawl writing after every page (what the polite 1 s rate amounts to with 1.5 s batches):
   * bytes written to the store per byte of post data stored.
   */
  fullCrawlWrite: { bytesWritten: number; postDataBytes: number; amplification: number };
  /** Bytes a recrawl right after the recrawl (nothing changed on the forum) wrote. */
  noChangeRecrawlBytes: number;
  recrawl: {
    newPosts: number;
    requests: number;
    /** New pages + the last known page of each thread: the aim. */
    expected: number;
    newPages: number;
    /** Bytes the recrawl wrote to the store, and the bytes of the post data that was new or changed. */
    bytesWritten: number;
    newDataBytes: number;
    wallMs: number;
  };
}

/** The store with its writes counted (everything else the store's own). */
function countingWrites(store: Store): Store & { writes: number } {
  const c: Store & { writes: number } = Object.assign(Object.create(store) as Store, {
    writes: 0,
    write: () => {
      c.writes++;
      return store.write();
    },
  });
  return c;
}

/** Bytes of the stored posts as JSON (every version): the evidence itself, without page records. */
function postDataBytes(posts: Record<string, StoredPost>): number {
  let n = 0;
  for (const p of Object.values(posts)) n += Buffer.byteLength(JSON.stringify(p));
  return n;
}

/** Crawl the game's first `threadCount` threads (smallest first) at each concurrency, then a recrawl. */
export async function runCrawlBench(
  game: SynthGame,
  opts: { concurrencies?: number[]; latencyMs?: number; maxPages?: number; newPosts?: number } = {},
): Promise<CrawlBenchResult> {
  const latencyMs = opts.latencyMs ?? 20;
  const maxPages = opts.maxPages ?? 120;
  // a subset of threads: whole threads, up to maxPages pages in all, always a discussion and a vote thread
  const ordered = [...game.threads].sort((a, b) => a.posts.length - b.posts.length);
  const subset: SynthGameThread[] = [];
  let pages = 0;
  const pagesOf = (t: SynthGameThread): number => pageCountOf(t.posts.length, t.ppp ?? familyPpp(t.family));
  for (const t of ordered) {
    if (pages + pagesOf(t) > maxPages && subset.length >= 2) continue;
    subset.push(t);
    pages += pagesOf(t);
  }
  // private copies: the recrawl adds posts to them
  const threads: SynthGameThread[] = subset.map((t) => ({ ...t, posts: [...t.posts] }));
  const server = await startReplayServer({ pages: synthPageSource(() => threads), latencyMs });
  const session = server.sessionState();
  const dir = mkdtempSync(path.join(tmpdir(), 'bansha-crawl-bench-'));
  const crawl: CrawlFigure[] = [];
  const concurrencies = opts.concurrencies ?? [1, 2, 4];
  try {
    // Warm-up, not timed: the server builds (and caches) every page once, the parser gets compiled.
    const warm = await openStore(path.join(dir, 'warm.store.json'), { forum: server.url });
    await crawlThreads(warm, server.url, threads.map((t) => t.tid), { session, concurrency: Math.max(...concurrencies), delayMs: 0, retries: 0, progress: false });
    await warm.close();

    let lastStore = '';
    for (const [i, concurrency] of concurrencies.entries()) {
      const storePath = path.join(dir, `run${i}-c${concurrency}.store.json`);
      const store = countingWrites(await openStore(storePath, { forum: server.url }));
      const before = server.requests.length;
      let parseMs = 0;
      const parse = (f: FetchedPage) => {
        const t = performance.now();
        const page = parsePage(f);
        parseMs += performance.now() - t;
        return page;
      };
      const t0 = performance.now();
      const res = await crawlThreads(store, server.url, threads.map((t) => t.tid), {
        session, concurrency, delayMs: 0, retries: 0, progress: false, parse,
      });
      const wallMs = performance.now() - t0;
      await store.close();
      const minimumMs = (pages * latencyMs) / concurrency;
      const boundMs = Math.max(minimumMs, parseMs);
      crawl.push({
        concurrency, requests: res.requests, pages, wallMs, minimumMs, wallVsMinimum: wallMs / minimumMs,
        parseMs, storeWrites: store.writes, boundMs, wallVsBound: wallMs / boundMs,
      });
      if (server.requests.length - before !== res.requests) throw new Error('bench: the crawler and the server disagree on the request count');
      lastStore = storePath;
    }

    // Write amplification: a fresh store, written after every page.
    const ampPath = path.join(dir, 'amp.store.json');
    const amp = await openStore(ampPath, { forum: server.url });
    await crawlThreads(amp, server.url, threads.map((t) => t.tid), { session, concurrency: 1, delayMs: 0, retries: 0, progress: false, writeIntervalMs: 0 });
    const fullCrawlWrite = { bytesWritten: amp.bytesWritten, postDataBytes: postDataBytes(amp.data.posts), amplification: 0 };
    fullCrawlWrite.amplification = fullCrawlWrite.bytesWritten / fullCrawlWrite.postDataBytes;
    const postsBefore = new Map(Object.values(amp.data.posts).map((p) => [p.pid, p.versions.length]));
    await amp.close();
    lastStore = ampPath;

    // closing time: new posts at the end of the threads, then an incremental crawl of the same store
    const newPosts = opts.newPosts ?? 50;
    const pagesBefore = new Map(threads.map((t) => [t.tid, pagesOf(t)]));
    let pid = Math.max(...game.threads.flatMap((t) => t.posts.map((p) => p.pid))) + 1;
    for (let i = 0; i < newPosts; i++) {
      const t = threads[i % threads.length];
      const prev = t.posts[t.posts.length - 1];
      const author = game.players[i % game.players.length];
      t.posts.push({ pid: pid++, author, uid: 100 + game.players.indexOf(author), at: (typeof prev.at === 'number' ? prev.at : Date.parse(prev.at)) + 1000, body: `关门前补一句：第${i + 1}条。` });
    }
    const newPages = threads.reduce((s, t) => s + pagesOf(t) - pagesBefore.get(t.tid)!, 0);
    const store = await openStore(lastStore, { forum: server.url });
    const t0 = performance.now();
    const res = await crawlThreads(store, server.url, threads.map((t) => t.tid), {
      session, concurrency: 2, delayMs: 0, retries: 0, progress: false, writeIntervalMs: 0,
    });
    const wallMs = performance.now() - t0;
    const bytesWritten = store.bytesWritten;
    // the post data that is new (whole posts) or changed (the versions added)
    let newDataBytes = 0;
    for (const p of Object.values(store.data.posts)) {
      const had = postsBefore.get(p.pid);
      if (had === undefined) newDataBytes += Buffer.byteLength(JSON.stringify(p));
      else for (const v of p.versions.slice(had)) newDataBytes += Buffer.byteLength(JSON.stringify(v));
    }
    await store.close();
    // and once more with nothing changed on the forum
    const idle = await openStore(lastStore, { forum: server.url });
    await crawlThreads(idle, server.url, threads.map((t) => t.tid), { session, concurrency: 2, delayMs: 0, retries: 0, progress: false, writeIntervalMs: 0 });
    const noChangeRecrawlBytes = idle.bytesWritten;
    await idle.close();
    return {
      latencyMs,
      threads: threads.length,
      posts: subset.reduce((s, t) => s + t.posts.length, 0),
      crawl,
      fullCrawlWrite,
      noChangeRecrawlBytes,
      recrawl: { newPosts, requests: res.requests, expected: newPages + threads.length, newPages, wallMs, bytesWritten, newDataBytes },
    };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
