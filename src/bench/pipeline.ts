/**
 * The offline pipeline of what a director runs, stage by stage, over every page of a synthetic game:
 * the crawl's work — decode + parse (parsePage) → store (applyPage into the evidence store holding
 * one thread at a time, as src/crawl/crawler.ts does: each thread opened when its first page comes,
 * written and released at its end) — then the last day's closing commands from that store, as
 * `bansha tally` and `bansha report --html` read it: the day's threads from disk, the earlier days
 * through the store's derived files (src/derived/closing-inputs.ts), made on this first run. Beside
 * it, in the same run and on the same bytes, the floor: decoding plus a bare htmlparser2 parseDocument of each page, and decoding
 * plus a bare parse5 parse (htmlparser2 tree adapter: the HTML5 tree bansha reads,
 * src/discuz/tree.ts) — of every `baselineEvery`-th batch of pages (a fixed sample, all sides on the
 * same pages in rotating order), scaled to all pages by bytes; the parser alone is compared with them
 * on the sampled pages only. Pages arrive batch by batch (built from the real markup here, or by the
 * parent process: src/bench/pipeline-child.ts), so the HTML of a 50,000-post game never sits in
 * memory at once; building them is not timed.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import iconv from 'iconv-lite';
import { parseDocument } from 'htmlparser2';
import { parsePage } from '../discuz/parse-page.js';
import { buildTree } from '../discuz/tree.js';
import type { FetchedPage } from '../discuz/types.js';
import { parseGame } from '../game/game-file.js';
import type { Game } from '../game/types.js';
import { storedPostLinks } from '../day/closing-day.js';
import { writeDayHtml } from '../day/day-html.js';
import { dayPage } from '../day/day-page.js';
import { beforeReport, closingDayFromStore, reportThreads } from '../derived/closing-inputs.js';
import { countFromStore } from '../derived/closed-days.js';
import { withCountingStore } from '../store/with-store.js';
import { openStore, storeBytesOnDisk, storedTids, type Store } from '../store/store-file.js';
import { applyPage, tidFromUrl } from '../store/record.js';
import { peakRssKiB } from './peak-rss.js';
import { gamePage, type SynthGame } from './synth-game.js';

/**
 * Milliseconds spent in each stage, summed over the run: parse, store (recording pages in memory),
 * persist (opening each thread, writing and releasing it at its end), then the last day's tally
 * (reading the store from disk included) and report.
 */
export interface StageTimes {
  parse: number;
  store: number;
  persist: number;
  tally: number;
  report: number;
}

/** What one pipeline run measured. */
export interface PipelineResult {
  posts: number;
  pages: number;
  bytes: number;
  /** Posts the parser read (must equal `posts`). */
  parsedPosts: number;
  /** Posts in the store on disk at the end (counted thread by thread). */
  storedPosts: number;
  stages: StageTimes;
  pipelineMs: number;
  /** decode + htmlparser2 parseDocument of all the bytes (measured on the sample, scaled by bytes). */
  baselineMs: number;
  /** The sample the floor was measured on: pages, bytes, the floor's time and bansha's parse time on it. */
  baselineSample: { pages: number; bytes: number; baselineMs: number; parse5Ms: number; parseMs: number; every: number };
  /** pipelineMs / baselineMs. */
  pipelineVsHtmlparser2: number;
  /** Parse time / floor time on the sampled pages: the parser alone against the floor. */
  parseVsHtmlparser2: number;
  /** decode + bare parse5 (htmlparser2 adapter) of all the bytes: the HTML5 floor (sampled, scaled by bytes). */
  parse5Ms: number;
  /** pipelineMs / parse5Ms (issue #12 aims at ≤ 1.2). */
  pipelineVsParse5: number;
  /** Parse time / parse5 floor time on the sampled pages. */
  parseVsParse5: number;
  /** Size of the store file written at the end. */
  storeBytes: number;
  /** Days of the game (the last one is tallied and reported). */
  days: number;
  /** Bytes of the last day's HTML report. */
  reportBytes: number;
  /** Store size and peak memory as the store grew (at the first batch boundary past each checkpoint). */
  checkpoints: Checkpoint[];
  /** Peak resident set size of the process at the end, MB. */
  peakMemoryMB: number;
  /** Peak RSS so far (MB) at the end of each stage: where the peak is reached. */
  peakMemoryAfterMB: { parse: number; persist: number; tally: number; report: number };
  /** V8 heap in use after a full GC once every thread is stored and released (when run with --expose-gc), MB. */
  storeHeapMB: number | null;
}

/** The store and the process at one size of the game. */
export interface Checkpoint {
  posts: number;
  storeBytes: number;
  storeBytesPer1kPosts: number;
  /** Peak RSS so far, MB. */
  peakMemoryMB: number;
}

/** Peak resident set size of this process so far, in MB. */
export function peakRssMB(): number {
  return peakRssKiB() / 1024;
}

const utf8 = new TextDecoder('utf-8');

/** The floor: what any reader of the page must at least do (decode + build a DOM). */
function baselineParse(bytes: Uint8Array, contentType: string): number {
  return parseDocument(decodeKnown(bytes, contentType)).children.length;
}

/** The HTML5 floor: decode + the browser's tree (parse5, htmlparser2 adapter), nothing read from it. */
function parse5Parse(bytes: Uint8Array, contentType: string): number {
  return buildTree(decodeKnown(bytes, contentType)).children.length;
}

function decodeKnown(bytes: Uint8Array, contentType: string): string {
  return /charset=utf-8/i.test(contentType) ? utf8.decode(bytes) : iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), 'gb18030');
}

const now = (): number => performance.now();

/** The Game of a synthetic game (its store file under `dir`). */
export function gameOf(game: { gameYaml: string }, dir: string): Game {
  return parseGame(game.gameYaml, path.join(dir, 'bench-game.yaml'), { store: path.join(dir, 'bench.store.json') });
}

/** The game as the pipeline needs it: its game file, its size and its pages in batches. */
export interface PipelineInput {
  gameYaml: string;
  posts: number;
  pages: number;
  /** The pages as a crawler fetched them, a batch at a time. */
  batches: Iterable<FetchedPage[]> | AsyncIterable<FetchedPage[]>;
}

/** When the bench pretends the pages were fetched. */
export const FETCHED_AT = new Date(Date.parse('2026-12-20T00:00:00Z'));

/** Build one batch of the game's pages (pages `from` to `from + n - 1` in crawl order). */
export function gameBatch(game: SynthGame, from: number, n: number): FetchedPage[] {
  return game.pages.slice(from, from + n).map((ref) => {
    const p = gamePage(ref);
    return { bytes: p.bytes, url: p.url, fetchedAt: FETCHED_AT, status: 200, contentType: p.contentType };
  });
}

/** The game's pages built here, `batchPages` at a time. */
export function* gameBatches(game: SynthGame, batchPages = 50): Generator<FetchedPage[]> {
  for (let i = 0; i < game.pages.length; i += batchPages) yield gameBatch(game, i, batchPages);
}

/** Options of a pipeline run. */
export interface PipelineOptions {
  /** Pages per batch when the pages are built here. Default 50. */
  batchPages?: number;
  dir?: string;
  keepDir?: boolean;
  /** Post counts at which to record store size and peak memory. */
  checkpoints?: number[];
  /** Measure the htmlparser2 floor on every n-th batch (1: all). Default 1. */
  baselineEvery?: number;
}

/** Run the whole pipeline over the game's pages (built here from a SynthGame, or handed over in batches). */
export async function runPipeline(source: SynthGame | PipelineInput, opts: PipelineOptions = {}): Promise<PipelineResult> {
  const input: PipelineInput = 'threads' in source
    ? { gameYaml: source.gameYaml, posts: source.posts, pages: source.pages.length, batches: gameBatches(source, opts.batchPages ?? 50) }
    : source;
  const dir = opts.dir ?? mkdtempSync(path.join(tmpdir(), 'bansha-bench-'));
  const g = gameOf(input, dir);
  // as the crawler opens it: no thread held but the one being recorded
  let crawl: Store | null = await openStore(g.storePath, { forum: g.forum, threads: [] });
  const store = (): Store => {
    if (!crawl) throw new Error('the crawl part of the pipeline is over');
    return crawl;
  };
  const closeCrawl = async (): Promise<void> => {
    await crawl?.close();
    crawl = null;
  };
  const stages: StageTimes = { parse: 0, store: 0, persist: 0, tally: 0, report: 0 };
  const every = Math.max(1, Math.round(opts.baselineEvery ?? 1));
  const sample = { pages: 0, bytes: 0, baselineMs: 0, parse5Ms: 0, parseMs: 0, every };
  let bytes = 0;
  let parsedPosts = 0;
  let recordedPosts = 0;
  let sink = 0;
  /** The thread being recorded: written and released when the next one starts (the crawler's thread end). */
  let held: number | null = null;
  const releaseHeld = async (): Promise<void> => {
    if (held === null) return;
    const t0 = now();
    await store().release([held]);
    held = null;
    stages.persist += now() - t0;
  };
  const pending = [...(opts.checkpoints ?? [])].sort((a, b) => a - b);
  const checkpoints: Checkpoint[] = [];
  const checkpoint = async (): Promise<void> => {
    // not timed: the store as it would be written at this size
    await store().write();
    const size = storeBytesOnDisk(g.storePath);
    checkpoints.push({ posts: recordedPosts, storeBytes: size, storeBytesPer1kPosts: (size / recordedPosts) * 1000, peakMemoryMB: peakRssMB() });
  };
  try {
    let b = 0;
    for await (const pages of input.batches) {
      const sampled = b % every === 0;
      // rotate the order of the sides per sampled batch so none always runs on a warmer heap
      const order = ['base', 'parse5', 'bansha'];
      const turn = (b / every) % order.length;
      const sides = !sampled ? ['bansha'] : [...order.slice(turn), ...order.slice(0, turn)];
      b++;
      for (const side of sides) {
        if (side === 'base') {
          const t0 = now();
          for (const p of pages) sink += baselineParse(p.bytes, p.contentType!);
          sample.baselineMs += now() - t0;
        } else if (side === 'parse5') {
          const t0 = now();
          for (const p of pages) sink += parse5Parse(p.bytes, p.contentType!);
          sample.parse5Ms += now() - t0;
        } else {
          for (const p of pages) {
            bytes += p.bytes.length;
            const t0 = now();
            const parsed = parsePage(p);
            const t1 = now();
            stages.parse += t1 - t0;
            const tid = parsed.page.tid ?? tidFromUrl(p.url)!;
            if (tid !== held) {
              await releaseHeld();
              const t = now();
              await store().open([tid]);
              held = tid;
              stages.persist += now() - t;
            }
            const t2 = now();
            const s = store();
            recordedPosts += applyPage(s.data, p, parsed, (pid) => s.threadOfPost(pid)).newPosts.length;
            stages.store += now() - t2;
            if (sampled) {
              sample.parseMs += t1 - t0;
              sample.bytes += p.bytes.length;
              sample.pages++;
            }
            parsedPosts += parsed.posts.length;
          }
        }
      }
      while (pending.length && parsedPosts >= pending[0] && pending[0] < input.posts) {
        pending.shift();
        await checkpoint();
      }
    }
    await releaseHeld();
    // the crawl ends here, as `bansha crawl` does: its handle (the lock, the pid → thread map of every post) let go
    await closeCrawl();
    const peakAfter = { parse: peakRssMB(), persist: peakRssMB(), tally: 0, report: 0 };
    const gc = (globalThis as { gc?: () => void }).gc;
    let storeHeapMB: number | null = null;
    if (gc) {
      gc();
      storeHeapMB = process.memoryUsage().heapUsed / 1048576;
    }

    // the last day at closing, read from disk as `bansha tally --day N` and then `bansha report --day N`
    // read it: the day's threads (the tally's kept posts of the discussion and process threads), the closed
    // days' outcomes and the earlier threads' digests through the store's derived files (made here, as on a
    // director's first run after the crawl)
    const day = Math.max(...g.days.map((d) => d.day));
    let t0 = now();
    sink += await countFromStore(g, day, { gone: [] }, (result) => result.ballots.length); // as `bansha tally`
    stages.tally = now() - t0;
    peakAfter.tally = peakRssMB();

    t0 = now();
    await beforeReport(g, day);
    // the page written as `bansha report --html` writes it: as it is drawn, never held whole (day-html.ts)
    const page = path.join(dir, `day${day}.html`);
    await withCountingStore(g, reportThreads(g, day), async (store) => {
      const { closing, lookBack } = await closingDayFromStore(g, day, store, { ledgerFile: null, gone: [] });
      writeDayHtml(page, closing, dayPage(g, store, day, lookBack), storedPostLinks(g, store, lookBack?.values()));
    });
    const reportBytes = statSync(page).size;
    stages.report = now() - t0;
    peakAfter.report = peakRssMB();
    const peakMemoryMB = peakRssMB();

    // not timed: what reached the disk, one thread at a time
    let storedPosts = 0;
    for (const tid of await storedTids(g.storePath)) {
      const one = await openStore(g.storePath, { lock: false, threads: [tid] });
      storedPosts += Object.keys(one.data.posts).length;
      await one.close();
    }
    const storeBytes = storeBytesOnDisk(g.storePath);
    if (pending.length) checkpoints.push({ posts: storedPosts, storeBytes, storeBytesPer1kPosts: (storeBytes / storedPosts) * 1000, peakMemoryMB });
    const pipelineMs = stages.parse + stages.store + stages.persist + stages.tally + stages.report;
    const baselineMs = sample.baselineMs * (bytes / sample.bytes);
    const parse5Ms = sample.parse5Ms * (bytes / sample.bytes);
    void sink;
    return {
      posts: input.posts,
      pages: input.pages,
      bytes,
      parsedPosts,
      storedPosts,
      stages,
      pipelineMs,
      baselineMs,
      baselineSample: sample,
      pipelineVsHtmlparser2: pipelineMs / baselineMs,
      parseVsHtmlparser2: sample.parseMs / sample.baselineMs,
      parse5Ms,
      pipelineVsParse5: pipelineMs / parse5Ms,
      parseVsParse5: sample.parseMs / sample.parse5Ms,
      storeBytes,
      days: g.days.length,
      reportBytes,
      checkpoints,
      peakMemoryMB,
      peakMemoryAfterMB: peakAfter,
      storeHeapMB,
    };
  } finally {
    await closeCrawl();
    if (!opts.keepDir && !opts.dir) rmSync(dir, { recursive: true, force: true });
  }
}

