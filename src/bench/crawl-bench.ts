/**
 * Crawl figures: bansha's crawler (src/crawl crawlThreads) fetching a synthetic game over HTTP from a
 * local server that answers every page after a fixed latency, at several concurrencies; and the
 * closing-time recrawl after new posts, counting the requests it makes.
 *
 * The server here is a minimal page provider over node:http (loopback only): the replay server
 * (src/replay/server.ts) serves the captured fixture pages and has no hook yet for pages built on the
 * fly, so the bench serves the synthetic game itself. It speaks the query-form thread URL the crawler
 * always uses (forum.php?mod=viewthread&tid=T&page=P) and answers a page past the end with the last
 * page, as Discuz does.
 */
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { crawlThreads } from '../crawl/crawler.js';
import { openStore } from '../store/store-file.js';
import { familyPpp, pageCountOf, type SynthPage } from '../replay/synth.js';
import { gamePage, type SynthGame, type SynthGameThread } from './synth-game.js';

/** A running page server. */
export interface BenchServer {
  url: string;
  /** Requests answered so far (thread pages and anything else). */
  requests: number;
  latencyMs: number;
  close(): Promise<void>;
}

/** Serve `threads` (read live, so posts added later show) at `forum`-relative query URLs. */
export async function startBenchServer(threads: () => SynthGameThread[], latencyMs: number): Promise<BenchServer> {
  const cache = new Map<string, { posts: number; page: SynthPage }>();
  const state = { requests: 0 };
  const server = http.createServer((req, res) => {
    state.requests++;
    const u = new URL(req.url ?? '/', 'http://127.0.0.1/');
    const tid = Number(u.searchParams.get('tid'));
    const thread = threads().find((t) => t.tid === tid);
    const send = (): void => {
      if (!thread || u.searchParams.get('mod') !== 'viewthread') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const count = pageCountOf(thread.posts.length, thread.ppp ?? familyPpp(thread.family));
      const page = Math.min(Math.max(1, Number(u.searchParams.get('page') ?? 1) || 1), count);
      const key = `${tid}:${page}`;
      let hit = cache.get(key);
      if (!hit || hit.posts !== thread.posts.length) {
        hit = { posts: thread.posts.length, page: gamePage({ thread: { ...thread, base: baseUrl }, page }) };
        cache.set(key, hit);
      }
      res.writeHead(200, { 'content-type': hit.page.contentType, 'content-length': hit.page.bytes.length });
      res.end(hit.page.bytes);
    };
    if (latencyMs > 0) setTimeout(send, latencyMs);
    else send();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url: baseUrl,
    get requests() {
      return state.requests;
    },
    latencyMs,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

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
}

/** What the crawl bench measured. */
export interface CrawlBenchResult {
  latencyMs: number;
  threads: number;
  posts: number;
  crawl: CrawlFigure[];
  recrawl: {
    newPosts: number;
    requests: number;
    /** New pages + the last known page of each thread: the aim. */
    expected: number;
    newPages: number;
    wallMs: number;
  };
}

const SESSION = { cookies: [], origins: [] as [] };

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
  const server = await startBenchServer(() => threads, latencyMs);
  const dir = mkdtempSync(path.join(tmpdir(), 'bansha-crawl-bench-'));
  const crawl: CrawlFigure[] = [];
  try {
    let lastStore = '';
    for (const concurrency of opts.concurrencies ?? [1, 2, 4]) {
      const storePath = path.join(dir, `c${concurrency}.store.json`);
      const store = await openStore(storePath, { forum: server.url });
      const before = server.requests;
      const t0 = performance.now();
      const res = await crawlThreads(store, server.url, threads.map((t) => t.tid), {
        session: SESSION, concurrency, delayMs: 0, retries: 0, progress: false,
      });
      const wallMs = performance.now() - t0;
      await store.close();
      const minimumMs = (pages * latencyMs) / concurrency;
      crawl.push({ concurrency, requests: res.requests, pages, wallMs, minimumMs, wallVsMinimum: wallMs / minimumMs });
      if (server.requests - before !== res.requests) throw new Error('bench: the crawler and the server disagree on the request count');
      lastStore = storePath;
    }

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
      session: SESSION, concurrency: 2, delayMs: 0, retries: 0, progress: false,
    });
    const wallMs = performance.now() - t0;
    await store.close();
    return {
      latencyMs,
      threads: threads.length,
      posts: subset.reduce((s, t) => s + t.posts.length, 0),
      crawl,
      recrawl: { newPosts, requests: res.requests, expected: newPages + threads.length, newPages, wallMs },
    };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
