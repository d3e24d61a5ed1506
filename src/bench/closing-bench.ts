/**
 * Closing-time figures: each command a director runs at 21:00 (tally, report, elevator, report --html),
 * as a real `bansha` process over the bench's store, against the floor — a bare node process reading
 * and JSON-parsing the day's threads from the same store (src/bench/floor-read.ts) — run in pairs,
 * alternating, the median ratio kept; their peak RSS; and `bansha --version` against `node -e 0`.
 * Each command first runs once without the store's derived files (src/store/memo.ts: the
 * earlier days' digests and outcomes) and the checked game (src/game/game-cache.ts), as after a change
 * to every earlier thread or the game file (`coldMs`); the rounds then measure the run a director
 * repeats at closing time over an unchanged store, and then (`afterPosts`) the rerun right after new
 * posts arrived: before each such run a few posts are added to the day's discussion and vote threads,
 * made as the synthetic game makes them and recorded through the crawler's own write path (pages
 * parsed and recorded into the store's logs), the floor reading the grown threads.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dayTids } from '../game/threads.js';
import { parsePage } from '../discuz/parse-page.js';
import { gameCachePath } from '../game/game-cache.js';
import { findDay } from '../game/roster.js';
import type { Game } from '../game/types.js';
import { buildThreadPage, familyPpp, forumTimeMs, pageCountOf } from '../replay/synth.js';
import { derivedDir } from '../store/memo.js';
import { recordPage } from '../store/record.js';
import { openStore, threadLogPath } from '../store/store-file.js';
import { FETCHED_AT } from './pipeline.js';
import { writeFetch } from '../crawl/freshness.js';
import { latePosts, type SynthGame, type SynthGameThread } from './synth-game.js';

const here = path.dirname(fileURLToPath(import.meta.url));
// What bin/bansha.js runs: the bundled CLI (scripts/bundle-cli.mjs; `npm run bench` builds it).
const cli = path.join(here, '..', '..', 'bundle', 'cli.js');
// Where bin/bansha.js keeps V8's compiled code of the bundle between runs (Node ≥ 22.1: module.enableCompileCache;
// Node 20 has none): a command run here uses it as a director's `bansha` does (NODE_COMPILE_CACHE is the same cache).
const compileCache = path.join(here, '..', '..', 'bundle', '.compile-cache');

/** One process run: wall time and peak RSS. */
export interface Run {
  ms: number;
  peakMB: number;
}

/** The bench's "now" for the closing commands: a day after the synthetic pages were fetched. */
const CLOSING_NOW = new Date(FETCHED_AT.getTime() + 24 * 3600_000).toISOString();

export function run(args: string[], scratch: string): Run {
  const rss = path.join(scratch, `rss-${process.hrtime.bigint()}`);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', path.join(here, 'rss-report.js'), ...args], {
    // At closing time: after every day of the synthetic game has closed and its pages were fetched (a day
    // still open is a running count, as of each run's own moment: not what the closing commands' aims are about).
    env: { ...process.env, BANSHA_BENCH_RSS: rss, NO_COLOR: '1', BANSHA_NOW: CLOSING_NOW, ...(args[0] === cli ? { NODE_COMPILE_CACHE: compileCache } : {}) },
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`bench: ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const peakMB = Number(readFileSync(rss, 'utf8')) / 1024;
  rmSync(rss, { force: true });
  return { ms, peakMB };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A command's runs paired with the floor's. */
export interface PairedFigure {
  ms: number;
  peakMB: number;
  /** Median over the rounds of (command time / floor time) in the same round. */
  vsFloor: number;
}

export interface ClosingFigure extends PairedFigure {
  /** The first run, the derived files made from the thread logs (every earlier day read in full). */
  coldMs: number;
}

type Command = 'tally' | 'report' | 'elevator' | 'html';

export interface ClosingBenchResult {
  day: number;
  /** The threads the floor reads (the day's own). */
  floorThreads: number[];
  floorMs: number;
  floorPeakMB: number;
  commands: Record<Command, ClosingFigure>;
  /** Each command rerun right after `postsPerRun` new posts (spread over the day's threads). */
  afterPosts: { postsPerRun: number; floorMs: number; floorPeakMB: number; commands: Record<Command, PairedFigure> };
  startup: { banshaMs: number; nodeMs: number; ratio: number };
  rounds: number;
}

/** Floor and command back to back, in alternating order, `rounds` times each (`before` runs ahead of every pair). */
async function pairedRounds(
  floorArgs: string[], commands: Record<Command, string[]>, rounds: number, scratch: string, before: () => Promise<void> = async () => {},
): Promise<{ floors: Run[]; figures: Record<Command, PairedFigure> }> {
  const floors: Run[] = [];
  const runs: Record<string, Run[]> = {};
  const ratios: Record<string, number[]> = {};
  for (let r = 0; r < rounds; r++) {
    for (const [name, args] of Object.entries(commands)) {
      await before();
      let floor: Run;
      let cmd: Run;
      if (r % 2 === 0) {
        floor = run(floorArgs, scratch);
        cmd = run(args, scratch);
      } else {
        cmd = run(args, scratch);
        floor = run(floorArgs, scratch);
      }
      floors.push(floor);
      (runs[name] ??= []).push(cmd);
      (ratios[name] ??= []).push(cmd.ms / floor.ms);
    }
  }
  const figure = (name: Command): PairedFigure => ({
    ms: median(runs[name].map((x) => x.ms)),
    peakMB: Math.max(...runs[name].map((x) => x.peakMB)),
    vsFloor: median(ratios[name]),
  });
  return { floors, figures: { tally: figure('tally'), report: figure('report'), elevator: figure('elevator'), html: figure('html') } };
}

/**
 * What arrives before each "after new posts" run: `perThread` more posts at the end of each of the
 * day's threads (copies of the synthetic game's), their new and changed pages recorded into the store
 * as a crawl records them (parsePage, recordPage: the thread's log appended). The posts stay before
 * the day's close, spaced to fit every run's; `seed` chooses their texts (latePosts).
 */
export function postArrivals(
  synth: SynthGame, storePath: string, tids: readonly number[], closes: number, perThread: number, runs: number, seed?: number,
): () => Promise<void> {
  const more = latePosts(synth, seed);
  const threads = tids.map((tid): SynthGameThread => {
    const t = synth.threads.find((x) => x.tid === tid);
    if (!t) throw new Error(`bench: thread ${tid} is not in the synthetic game`);
    return { ...t, posts: [...t.posts] };
  });
  const lastAt = (t: SynthGameThread): number => forumTimeMs(t.posts[t.posts.length - 1].at);
  const step = new Map(threads.map((t) => [t.tid, Math.max(1, Math.floor((closes - lastAt(t)) / (perThread * runs + 1)))]));
  let fetches = 0;
  return async () => {
    const store = await openStore(storePath, { threads: tids });
    try {
      for (const t of threads) {
        const ppp = t.ppp ?? familyPpp(t.family);
        const from = pageCountOf(t.posts.length, ppp);
        more(t, perThread, step.get(t.tid)!);
        // the crawler's closing recrawl: the last page it had, then every new one
        for (let p = from; p <= pageCountOf(t.posts.length, ppp); p++) {
          const page = buildThreadPage(t, p);
          const fetched = { bytes: page.bytes, url: page.url, fetchedAt: new Date(FETCHED_AT.getTime() + ++fetches * 1000), status: 200, contentType: page.contentType };
          await recordPage(store, fetched, parsePage(fetched));
        }
      }
    } finally {
      await store.close();
    }
  };
}

/**
 * Measure the closing commands of day `day` of `game` (its file at `gameFile`, its store at `storePath`,
 * made from `synth`). The "after new posts" rounds leave the store grown by their posts.
 */
export async function runClosingBench(
  game: Game, gameFile: string, storePath: string, day: number, synth: SynthGame, opts: { rounds?: number; postsPerRun?: number } = {},
): Promise<ClosingBenchResult> {
  const rounds = opts.rounds ?? 3;
  const postsPerRun = opts.postsPerRun ?? 20;
  if (!existsSync(cli)) throw new Error(`bench: ${cli} is missing: \`npm run build\` makes it`);
  const scratch = mkdtempSync(path.join(tmpdir(), 'bansha-closing-'));
  try {
    const d = findDay(game, day);
    const floorThreads = dayTids(d);
    // What a crawl leaves beside the store: each thread's last crawl, every page fetched at FETCHED_AT.
    for (const tid of new Set(game.days.flatMap(dayTids).concat(game.process ? [game.process.tid] : []))) {
      writeFetch(storePath, tid, { asOf: FETCHED_AT.toISOString(), crawledAt: FETCHED_AT.toISOString(), failure: null, cause: null });
    }
    const floorArgs = [path.join(here, 'floor-read.js'), ...floorThreads.map((t) => threadLogPath(storePath, t))];
    const common = ['--game', gameFile, '--store', storePath, '--day', String(day)];
    const commands: Record<Command, string[]> = {
      tally: [cli, 'tally', ...common, '--json'],
      report: [cli, 'report', ...common, '--json', '--no-ledger'],
      elevator: [cli, 'elevator', ...common],
      html: [cli, 'report', ...common, '--html', '--no-ledger', '--out', path.join(scratch, 'day.html')],
    };
    run(floorArgs, scratch); // warm the page cache
    const cold: Record<string, number> = {};
    for (const [name, args] of Object.entries(commands)) {
      rmSync(derivedDir(storePath), { recursive: true, force: true });
      rmSync(gameCachePath(gameFile), { force: true }); // the checked game too (src/game/game-cache.ts)
      cold[name] = run(args, scratch).ms;
    }
    const unchanged = await pairedRounds(floorArgs, commands, rounds, scratch);
    const perThread = Math.ceil(postsPerRun / floorThreads.length);
    const arrivals = postArrivals(synth, storePath, floorThreads, d.closes, perThread, rounds * Object.keys(commands).length);
    const grown = await pairedRounds(floorArgs, commands, rounds, scratch, arrivals);
    const withCold = (name: Command): ClosingFigure => ({ ...unchanged.figures[name], coldMs: cold[name] });
    const bansha: number[] = [];
    const node: number[] = [];
    const startupRatios: number[] = [];
    for (let r = 0; r < 5; r++) {
      const b = run([cli, '--version'], scratch).ms;
      const n = run(['-e', '0'], scratch).ms;
      bansha.push(b);
      node.push(n);
      startupRatios.push(b / n);
    }
    return {
      day,
      floorThreads,
      floorMs: median(unchanged.floors.map((x) => x.ms)),
      floorPeakMB: Math.max(...unchanged.floors.map((x) => x.peakMB)),
      commands: { tally: withCold('tally'), report: withCold('report'), elevator: withCold('elevator'), html: withCold('html') },
      afterPosts: {
        postsPerRun: perThread * floorThreads.length,
        floorMs: median(grown.floors.map((x) => x.ms)),
        floorPeakMB: Math.max(...grown.floors.map((x) => x.peakMB)),
        commands: grown.figures,
      },
      startup: { banshaMs: median(bansha), nodeMs: median(node), ratio: median(startupRatios) },
      rounds,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
