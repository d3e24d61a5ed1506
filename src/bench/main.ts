/**
 * `npm run bench [-- --json] [-- --posts N] [-- --no-browser] [-- --no-crawl]`: bansha's performance
 * on a synthetic long game built from the real captured Discuz markup (20 players, 10 days, 50,000
 * posts by default, UTF-8 and GBK pages), every figure a ratio measured in the same run:
 *  - the offline pipeline (decode + parse + store one thread at a time, as a crawl does; then the last
 *    day's tally + report read from the store, src/bench/pipeline.ts) against a bare htmlparser2 parse of
 *    the same bytes (the floor measured on every `--baseline-every`-th batch of pages and scaled by
 *    bytes, so the default run stays near a minute), and the parser alone against it on those pages
 *    (also over the fixture pages, issue 2);
 *  - a Playwright DOM scrape in real Chromium of a sample of the same pages against bansha, per page;
 *  - crawling a subset from the replay server with a fixed latency at concurrency 1, 2, 4 against the
 *    latency-bound minimum, and the closing-time recrawl's request count;
 *  - peak memory and store bytes per 1k posts at 10k, 25k and 50k posts (one child process);
 *  - closing time: tally, report, elevator and report --html of the last day as real `bansha`
 *    processes against a bare node reading that day's threads from the store, their peak RSS (over
 *    the unchanged store, and each run right after new posts were recorded in the day's threads), and
 *    `bansha --version` against `node -e 0` (src/bench/closing-bench.ts); and, in this process, the
 *    banned-wording scan's share of every day's report (src/bench/wording-share.ts);
 *  - with --scale-posts N (e.g. 200000): the pipeline again at N posts, its peak RSS (also after each
 *    stage: the crawl's part, then the last day's tally and report) and time ratio.
 * With --json the last stdout line is one JSON object (names kept stable for scripts).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { runParseBench } from './parse-bench.js';
import { gameBatch, runPipeline, type PipelineResult } from './pipeline.js';
import type { FromPipelineChild, ToPipelineChild } from './pipeline-child.js';
import { synthGame, gamePage, type SynthGame } from './synth-game.js';
import { runBrowserScrape, type BrowserScrapeResult } from './browser-scrape.js';
import { runCrawlBench, type CrawlBenchResult } from './crawl-bench.js';
import { parsePage } from '../discuz/parse-page.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { runClosingBench, type ClosingBenchResult, type PairedFigure } from './closing-bench.js';
import { runCockpitBench, type CockpitBenchResult } from './cockpit-bench.js';
import { gameOf } from './pipeline.js';
import { measureWordingShare, type WordingShare } from './wording-share.js';

/** Command-line options of the bench. */
export interface BenchOptions {
  posts: number;
  json: boolean;
  browser: boolean;
  crawl: boolean;
  parseBench: boolean;
  /** Pages scraped by the browser (half UTF-8, half GBK). */
  browserPages: number;
  latencyMs: number;
  crawlPages: number;
  /** Measure the htmlparser2 floor on every n-th batch of 50 pages (1: every page). */
  baselineEvery: number;
  /** Run the pipeline in this process instead of a child (tests; peak memory then includes the caller). */
  inProcess?: boolean;
  /** Concurrencies of the crawl figure; default 1, 2, 4. */
  concurrencies?: number[];
  /** Run the closing-time commands as processes over the bench's store. */
  closing: boolean;
  /** Also run the pipeline at this many posts (peak memory and time ratio at scale); 0: not. */
  scalePosts: number;
}

/** The JSON the bench prints (the issue's interface plus details). */
export interface BenchReport {
  posts: number;
  pages: number;
  bytes: number;
  pipelineVsHtmlparser2: number;
  parseVsHtmlparser2: number;
  /** Against a bare parse5 parse (htmlparser2 adapter) of the same bytes: the HTML5 floor (issue 12: ≤ 1.2). */
  pipelineVsParse5: number;
  parseVsParse5: number;
  /** Fixture pages repeated to >= 20 MB (issue 2), when run. */
  parseBench: { ratio: number; ratioVsParse5: number; postsPerSecond: number; baselinePostsPerSecond: number; bytes: number } | null;
  stagesMs: PipelineResult['stages'];
  pipelineMs: number;
  /** The htmlparser2 floor over all pages (measured on `baselineSample`, scaled by bytes). */
  baselineMs: number;
  baselineSample: PipelineResult['baselineSample'];
  browserVsPipeline: number | null;
  browserVsParse: number | null;
  /** A userscript's way (fetch + DOMParser in one tab) per page, over bansha's pipeline per page; same run as browserVsPipeline. */
  browserDomParserVsPipeline: number | null;
  browser: (BrowserScrapeResult & { banshaPipelineMsPerPage: number; banshaParseMsPerPage: number }) | null;
  crawl: CrawlBenchResult['crawl'];
  crawlLatencyMs: number | null;
  recrawlRequests: number | null;
  recrawl: CrawlBenchResult['recrawl'] | null;
  peakMemoryMB: number;
  /** Peak RSS so far at the end of each pipeline stage, MB. */
  peakMemoryAfterMB: PipelineResult['peakMemoryAfterMB'];
  /** Heap in use with the whole store in memory, after a full GC, MB. */
  storeHeapMB: number | null;
  storeBytesPer1kPosts: number;
  /** Each closing command's time / the floor's (bare node reading that day's threads), median of rounds. */
  closingVsFloor: Record<'tally' | 'report' | 'elevator' | 'html', number> | null;
  /** `bansha --version` / `node -e 0`. */
  startupVsNode: number | null;
  /** Peak RSS of each closing command, MB. */
  commandPeakMB: Record<'tally' | 'report' | 'elevator' | 'html', number> | null;
  /** closingVsFloor for each command rerun right after new posts were recorded in the day's threads. */
  closingAfterPostsVsFloor: Record<'tally' | 'report' | 'elevator' | 'html', number> | null;
  /** Peak RSS of each closing command rerun after new posts, MB. */
  closingAfterPostsPeakMB: Record<'tally' | 'report' | 'elevator' | 'html', number> | null;
  closing: ClosingBenchResult | null;
  /** The closing cockpit's redraw after 20 new posts / the floor (issue 33: ≤ 1, a resident process beats a cold one). */
  cockpitRedrawVsFloor: number | null;
  cockpit: CockpitBenchResult | null;
  /** The banned-wording scan's CPU time over report's, every day summed (issue #15: ≤ 0.2). */
  wordingShareOfReport: number | null;
  wordingShare: WordingShare | null;
  /** The pipeline at --scale-posts: peak RSS, and its time per post over the main run's. */
  scale: {
    posts: number; pipelineMs: number; peakMemoryMB: number; peakMemoryAfterMB: PipelineResult['peakMemoryAfterMB'];
    postsRatio: number; timeRatio: number; timePerPostRatio: number;
  } | null;
  peakMemoryMB200k: number | null;
  /** Bytes written to the store per byte of new or changed post data: a full crawl written after every page, and the closing recrawl. */
  storeWriteAmplification: number | null;
  storeWrites: { fullCrawl: number; recrawl: number } | null;
  /** Bytes a recrawl with nothing changed wrote to the store. */
  noChangeRecrawlBytes: number | null;
  growth: Array<{ posts: number; storeBytes: number; storeBytesPer1kPosts: number; peakMemoryMB: number }>;
  totalBenchMs: number;
}

/** Parse argv (after `--`). */
export function parseArgs(argv: string[]): BenchOptions {
  const o: BenchOptions = { posts: 50_000, json: false, browser: true, crawl: true, parseBench: true, browserPages: 40, latencyMs: 20, crawlPages: 120, baselineEvery: 4, closing: true, scalePosts: 0 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const num = (): number => {
      const v = Number(argv[++i]);
      if (!Number.isFinite(v) || v <= 0) throw new Error(`${a} needs a positive number`);
      return v;
    };
    if (a === '--json') o.json = true;
    else if (a === '--posts') o.posts = Math.round(num());
    else if (a === '--no-browser') o.browser = false;
    else if (a === '--no-crawl') o.crawl = false;
    else if (a === '--no-parse-bench') o.parseBench = false;
    else if (a === '--browser-pages') o.browserPages = Math.round(num());
    else if (a === '--latency') o.latencyMs = num();
    else if (a === '--crawl-pages') o.crawlPages = Math.round(num());
    else if (a === '--baseline-every') o.baselineEvery = Math.round(num());
    else if (a === '--no-closing') o.closing = false;
    else if (a === '--scale-posts') o.scalePosts = Math.round(num());
    else throw new Error(`unknown option ${a} (--json --posts N --no-browser --no-crawl --no-parse-bench --no-closing --scale-posts N --browser-pages N --latency MS --crawl-pages N --baseline-every N)`);
  }
  return o;
}

/**
 * Run the pipeline in a child process (its peak memory is the pipeline's own): this process builds the
 * game's pages, a batch whenever the child asks, and hands them over (src/bench/pipeline-child.ts).
 */
function pipelineInChild(game: SynthGame, checkpoints: number[], baselineEvery: number, dir?: string, batchPages = 50): Promise<PipelineResult> {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pipeline-child.js');
  return new Promise((resolve, reject) => {
    const child = fork(file, [], { execArgv: ['--expose-gc'], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let next = 0;
    let result: PipelineResult | null = null;
    const send = (m: ToPipelineChild): void => void child.send(m);
    child.on('message', (m: FromPipelineChild) => {
      if (m.type === 'next') {
        if (next >= game.pages.length) send({ type: 'end' });
        else {
          send({ type: 'batch', pages: gameBatch(game, next, batchPages) });
          next += batchPages;
        }
      } else if (m.type === 'result') result = m.result;
      else reject(new Error(`pipeline child failed: ${m.message}`));
    });
    child.on('error', reject);
    child.on('exit', (code) => (result ? resolve(result) : reject(new Error(`pipeline child exited with ${code}`))));
    send({ type: 'start', gameYaml: game.gameYaml, posts: game.posts, pages: game.pages.length, checkpoints, baselineEvery, dir });
  });
}

const log = (s: string): void => void process.stderr.write(s + '\n');

/** Run everything and return the report. */
export async function runBench(o: BenchOptions): Promise<BenchReport> {
  const t0 = performance.now();
  const checkpoints = [10_000, 25_000, 50_000].map((n) => Math.round((n * o.posts) / 50_000));
  const game = synthGame({ posts: o.posts });
  log(`bench: pipeline over ${o.posts} posts (child process; htmlparser2 floor on every ${o.baselineEvery === 1 ? '' : `${o.baselineEvery}th `}batch of pages)…`);
  const dir = mkdtempSync(path.join(tmpdir(), 'bansha-bench-'));
  let pipe: PipelineResult;
  let closing: ClosingBenchResult | null = null;
  let wording: WordingShare | null = null;
  let cockpit: CockpitBenchResult | null = null;
  try {
    pipe = o.inProcess
      ? await runPipeline(game, { checkpoints, baselineEvery: o.baselineEvery, dir })
      : await pipelineInChild(game, checkpoints, o.baselineEvery, dir);
    if (pipe.parsedPosts !== pipe.posts || pipe.storedPosts !== pipe.posts) {
      throw new Error(`bench: the pipeline read ${pipe.parsedPosts} and stored ${pipe.storedPosts} of ${pipe.posts} posts`);
    }
    if (o.closing) {
      // the store the pipeline left, and its game file beside it, read by real `bansha` processes
      const g = gameOf(game, dir);
      writeFileSync(g.file, game.gameYaml);
      const day = Math.max(...g.days.map((d) => d.day));
      log(`bench: closing-time commands of day ${day} as processes, against a bare node reading that day's threads…`);
      closing = await runClosingBench(g, g.file, g.storePath, day, game);
      log('bench: the closing cockpit\'s redraw after 20 new posts, against the same floor…');
      cockpit = await runCockpitBench(g, day, game);
      log('bench: the banned-wording scan within report, every day…');
      wording = await measureWordingShare(g);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  let scale: BenchReport['scale'] = null;
  if (o.scalePosts > 0) {
    log(`bench: the pipeline again at ${o.scalePosts} posts (peak memory and time at scale)…`);
    const big = synthGame({ posts: o.scalePosts });
    const r = await pipelineInChild(big, [], 1000);
    if (r.storedPosts !== r.posts) throw new Error(`bench: the pipeline stored ${r.storedPosts} of ${r.posts} posts`);
    const postsRatio = r.posts / pipe.posts;
    const timeRatio = r.pipelineMs / pipe.pipelineMs;
    scale = { posts: r.posts, pipelineMs: r.pipelineMs, peakMemoryMB: r.peakMemoryMB, peakMemoryAfterMB: r.peakMemoryAfterMB, postsRatio, timeRatio, timePerPostRatio: timeRatio / postsRatio };
  }

  let parseBench: BenchReport['parseBench'] = null;
  if (o.parseBench) {
    log('bench: parse throughput over the fixture pages (>= 20 MB)…');
    const r = await runParseBench();
    parseBench = { ratio: r.ratio, ratioVsParse5: r.ratioVsParse5, postsPerSecond: r.postsPerSecond, baselinePostsPerSecond: r.baselinePostsPerSecond, bytes: r.bytes };
  }

  let browser: BenchReport['browser'] = null;
  if (o.browser) {
    log(`bench: Playwright DOM scrape of ${o.browserPages} pages in Chromium…`);
    const utf = game.pages.filter((p) => p.thread.family === 'utf8');
    const gbk = game.pages.filter((p) => p.thread.family === 'gbk');
    const half = Math.ceil(o.browserPages / 2);
    const every = (xs: typeof utf, n: number) => xs.filter((_x, i) => i % Math.max(1, Math.floor(xs.length / n)) === 0).slice(0, n);
    const sample = [...every(utf, half), ...every(gbk, o.browserPages - half)].map(gamePage);
    const b = await runBrowserScrape(sample);
    // bansha on the very same sample, in this process: parse only
    const fetchedAt = new Date();
    for (const p of [...sample, ...sample]) parsePage({ bytes: p.bytes, url: p.url, fetchedAt, contentType: p.contentType });
    const tp = performance.now();
    let posts = 0;
    for (const p of sample) posts += parsePage({ bytes: p.bytes, url: p.url, fetchedAt, contentType: p.contentType }).posts.length;
    const parseMsPerPage = (performance.now() - tp) / sample.length;
    if (posts !== b.posts) throw new Error(`bench: the browser scraped ${b.posts} posts, bansha parsed ${posts}`);
    browser = { ...b, banshaPipelineMsPerPage: pipe.pipelineMs / pipe.pages, banshaParseMsPerPage: parseMsPerPage };
  }

  let crawl: CrawlBenchResult | null = null;
  if (o.crawl) {
    log(`bench: crawl from the replay server (pages built on the fly), ${o.latencyMs} ms per request…`);
    crawl = await runCrawlBench(game, { latencyMs: o.latencyMs, maxPages: o.crawlPages, concurrencies: o.concurrencies });
  }

  const last = pipe.checkpoints[pipe.checkpoints.length - 1];
  return {
    posts: pipe.posts,
    pages: pipe.pages,
    bytes: pipe.bytes,
    pipelineVsHtmlparser2: pipe.pipelineVsHtmlparser2,
    parseVsHtmlparser2: pipe.parseVsHtmlparser2,
    pipelineVsParse5: pipe.pipelineVsParse5,
    parseVsParse5: pipe.parseVsParse5,
    parseBench,
    stagesMs: pipe.stages,
    pipelineMs: pipe.pipelineMs,
    baselineMs: pipe.baselineMs,
    baselineSample: pipe.baselineSample,
    browserVsPipeline: browser ? browser.msPerPage / browser.banshaPipelineMsPerPage : null,
    browserVsParse: browser ? browser.msPerPage / browser.banshaParseMsPerPage : null,
    browserDomParserVsPipeline: browser ? browser.domParserMsPerPage / browser.banshaPipelineMsPerPage : null,
    browser,
    crawl: crawl?.crawl ?? [],
    crawlLatencyMs: crawl?.latencyMs ?? null,
    recrawlRequests: crawl?.recrawl.requests ?? null,
    recrawl: crawl?.recrawl ?? null,
    peakMemoryMB: pipe.peakMemoryMB,
    peakMemoryAfterMB: pipe.peakMemoryAfterMB,
    storeHeapMB: pipe.storeHeapMB,
    storeBytesPer1kPosts: last ? last.storeBytesPer1kPosts : (pipe.storeBytes / pipe.posts) * 1000,
    closingVsFloor: closing ? mapFigures(closing.commands, (f) => f.vsFloor) : null,
    startupVsNode: closing?.startup.ratio ?? null,
    commandPeakMB: closing ? mapFigures(closing.commands, (f) => f.peakMB) : null,
    closingAfterPostsVsFloor: closing ? mapFigures(closing.afterPosts.commands, (f) => f.vsFloor) : null,
    closingAfterPostsPeakMB: closing ? mapFigures(closing.afterPosts.commands, (f) => f.peakMB) : null,
    closing,
    cockpitRedrawVsFloor: cockpit?.cockpitRedrawVsFloor ?? null,
    cockpit,
    wordingShareOfReport: wording?.share ?? null,
    wordingShare: wording,
    scale,
    peakMemoryMB200k: scale && scale.posts === 200_000 ? scale.peakMemoryMB : null,
    storeWriteAmplification: crawl ? Math.max(crawl.fullCrawlWrite.amplification, crawl.recrawl.bytesWritten / crawl.recrawl.newDataBytes) : null,
    storeWrites: crawl ? { fullCrawl: crawl.fullCrawlWrite.amplification, recrawl: crawl.recrawl.bytesWritten / crawl.recrawl.newDataBytes } : null,
    noChangeRecrawlBytes: crawl?.noChangeRecrawlBytes ?? null,
    growth: pipe.checkpoints,
    totalBenchMs: performance.now() - t0,
  };
}

function mapFigures(c: Record<'tally' | 'report' | 'elevator' | 'html', PairedFigure>, f: (x: PairedFigure) => number): Record<'tally' | 'report' | 'elevator' | 'html', number> {
  return { tally: f(c.tally), report: f(c.report), elevator: f(c.elevator), html: f(c.html) };
}

const f1 = (n: number | null | undefined, d = 2): string => (n === null || n === undefined ? '—' : n.toFixed(d));

/** The human-readable table. */
export function renderTable(r: BenchReport): string {
  const rows: Array<[string, string, string]> = [];
  rows.push(['offline pipeline vs htmlparser2 (same bytes)', `${f1(r.pipelineVsHtmlparser2)}×`, '≤ 1.5×']);
  rows.push(['  parse only vs htmlparser2 (synthetic game)', `${f1(r.parseVsHtmlparser2)}×`, '']);
  rows.push(['offline pipeline vs parse5 (HTML5 tree, same bytes)', `${f1(r.pipelineVsParse5)}×`, '≤ 1.2×']);
  rows.push(['  parse only vs parse5 (synthetic game)', `${f1(r.parseVsParse5)}×`, '']);
  if (r.parseBench) {
    rows.push(['  parse only vs htmlparser2 (fixtures ≥ 20 MB)', `${f1(r.parseBench.ratio)}× (${Math.round(r.parseBench.postsPerSecond)} posts/s)`, '']);
    rows.push(['  parse only vs parse5 (fixtures ≥ 20 MB)', `${f1(r.parseBench.ratioVsParse5)}×`, '']);
  }
  if (r.browser) {
    rows.push(['Chromium DOM scrape vs bansha pipeline, per page', `${f1(r.browserVsPipeline, 1)}×`, '≥ 20×']);
    rows.push(['  vs bansha parse only', `${f1(r.browserVsParse, 1)}×`, '']);
    rows.push(['Chromium fetch + DOMParser in one tab (a userscript) vs bansha pipeline', `${f1(r.browserDomParserVsPipeline, 1)}× (${f1(r.browser.domParserMsPerPage, 1)} vs ${f1(r.browser.msPerPage, 1)} ms/page navigating)`, 'same run']);
  }
  for (const c of r.crawl) {
    rows.push([
      `crawl, concurrency ${c.concurrency} (${c.pages} pages, ${r.crawlLatencyMs} ms latency)`,
      `${c.requests} requests, ${f1(c.wallVsMinimum)}× minimum (${f1(c.wallVsBound)}× max(minimum, parse ${Math.round(c.parseMs)} ms); ${c.storeWrites} writes)`,
      'requests = pages',
    ]);
  }
  if (r.recrawl) rows.push([`recrawl after ${r.recrawl.newPosts} new posts`, `${r.recrawl.requests} requests`, `${r.recrawl.expected} (new pages + last page per thread)`]);
  if (r.storeWrites) {
    rows.push(['store bytes written per byte of post data: full crawl / closing recrawl', `${f1(r.storeWrites.fullCrawl)}× / ${f1(r.storeWrites.recrawl)}×`, '≤ 3×']);
    rows.push(['store bytes written by a recrawl with nothing new', `${r.noChangeRecrawlBytes} B`, '≤ 1 KB']);
  }
  if (r.closing) {
    const c = r.closing;
    rows.push([`closing commands, day ${c.day}: floor (node reading threads ${c.floorThreads.join(', ')})`, `${Math.round(c.floorMs)} ms, ${f1(c.floorPeakMB, 0)} MB`, '']);
    const a = c.afterPosts;
    for (const [name, x] of Object.entries(c.commands)) {
      const y = a.commands[name as keyof typeof a.commands];
      rows.push([`  ${name === 'html' ? 'report --html' : name} vs floor`, `${f1(x.vsFloor)}× (${Math.round(x.ms)} ms, peak ${f1(x.peakMB, 0)} MB; first run ${Math.round(x.coldMs)} ms)`, '≤ 2×, ≤ 150 MB']);
      rows.push([`    right after ${a.postsPerRun} new posts`, `${f1(y.vsFloor)}× (${Math.round(y.ms)} ms, peak ${f1(y.peakMB, 0)} MB; floor ${Math.round(a.floorMs)} ms)`, '≤ 2×, ≤ 150 MB']);
    }
    if (r.cockpit) {
      const k = r.cockpit;
      rows.push([`closing cockpit: redraw after ${k.postsPerRun} new posts vs floor`, `${f1(k.cockpitRedrawVsFloor)}× (${Math.round(k.redrawMs)} ms; the whole view ${Math.round(k.fullRedrawMs)} ms; floor ${Math.round(k.floorMs)} ms; first round ${Math.round(k.firstMs)} ms)`, '≤ 1×']);
    }
    rows.push(['bansha --version vs node -e 0', `${f1(c.startup.ratio)}× (${Math.round(c.startup.banshaMs)} / ${Math.round(c.startup.nodeMs)} ms)`, '≤ 3×']);
  }
  if (r.wordingShare) {
    const w = r.wordingShare;
    rows.push([`banned-wording scan within report, ${w.days} days (lists compiled once, not counted)`, `${f1(100 * w.share, 0)}% (${Math.round(w.wordingMs)} of ${Math.round(w.reportMs)} ms CPU; highest day ${f1(100 * w.maxDayShare, 0)}%)`, '≤ 20%']);
  }
  rows.push(['peak memory (RSS)', `${f1(r.peakMemoryMB, 0)} MB at ${r.posts} posts`, '≤ 300 MB']);
  if (r.scale) {
    rows.push([`pipeline at ${r.scale.posts} posts`, `peak ${f1(r.scale.peakMemoryMB, 0)} MB; ${f1(r.scale.timeRatio)}× the time for ${f1(r.scale.postsRatio)}× the posts`, '≤ 300 MB; linear']);
    rows.push(['  peak after parse / persist / tally / report', `${Object.values(r.scale.peakMemoryAfterMB).map((v) => f1(v, 0)).join(' / ')} MB`, '']);
  }
  rows.push(['  peak after parse / persist / tally / report', `${Object.values(r.peakMemoryAfterMB).map((v) => f1(v, 0)).join(' / ')} MB; store heap ${f1(r.storeHeapMB, 0)} MB`, '']);
  for (const g of r.growth) rows.push([`store at ${g.posts} posts`, `${f1(g.storeBytesPer1kPosts / 1024, 1)} KiB per 1k posts, peak ${f1(g.peakMemoryMB, 0)} MB`, 'linear']);
  const w0 = Math.max(...rows.map((x) => x[0].length));
  const w1 = Math.max(...rows.map((x) => x[1].length));
  const head = `bansha bench — ${r.posts} posts, ${r.pages} pages, ${f1(r.bytes / 1048576, 1)} MiB of HTML; stages (ms): ` +
    Object.entries(r.stagesMs).map(([k, v]) => `${k} ${Math.round(v)}`).join(', ') + `; htmlparser2 ${Math.round(r.baselineMs)}` +
    ` (measured on ${r.baselineSample.pages} of ${r.pages} pages, scaled by bytes)`;
  return [head, ...rows.map(([a, b, c]) => `${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`), `(bench took ${f1(r.totalBenchMs / 1000, 0)} s)`].join('\n');
}

async function main(): Promise<void> {
  let o: BenchOptions;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(2);
  }
  const r = await runBench(o);
  process.stdout.write(renderTable(r) + '\n');
  if (o.json) process.stdout.write(JSON.stringify(r) + '\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e: unknown) => {
    process.stderr.write(`bench failed: ${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  });
}
