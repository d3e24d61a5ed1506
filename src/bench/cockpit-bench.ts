/**
 * `cockpitRedrawVsFloor` (issue 33): the closing cockpit stays up, so it must redraw faster than any cold
 * process could read. After a warm-up round (the resident process: its store's derived files and the
 * day's analyses made once), each round records `postsPerRun` new posts into the day's threads through
 * the crawler's own write path (closing-bench.ts postArrivals: pages parsed and appended to the thread
 * logs, as the cockpit's crawl records them), then times the cockpit from there to the redrawn count —
 * the first view a round draws (Cockpit.round without a crawl: the count as `watch` makes it) and the
 * page's live HTML rendered (what the event stream sends) — and to the whole view (the report made again). Against the floor: a bare node process reading and
 * JSON-parsing the day's threads (floor-read.ts), run alternately first and second; the median ratio.
 */
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dayTids } from '../game/threads.js';
import { renderLive } from '../cockpit/render.js';
import { Cockpit, type CockpitView } from '../cockpit/state.js';
import { findDay } from '../game/roster.js';
import type { Game } from '../game/types.js';
import { threadLogPath } from '../store/store-file.js';
import { postArrivals, run, type Run } from './closing-bench.js';
import type { SynthGame } from './synth-game.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export interface CockpitBenchResult {
  day: number;
  postsPerRun: number;
  rounds: number;
  /** The warm-up round (the cockpit's first count and report of the day), ms. */
  firstMs: number;
  /** Median time from the new posts recorded to the redrawn count (the first view the page gets), ms. */
  redrawMs: number;
  /** Median time to the whole view redrawn (the report, flags and cards made again too), ms. */
  fullRedrawMs: number;
  /** Median of the floor's runs, ms. */
  floorMs: number;
  /** Median over the rounds of redraw / floor in the same round: must be ≤ 1. */
  cockpitRedrawVsFloor: number;
}

/** The cockpit's redraw of day `day` of `game` (its store made from `synth`) after new posts, against the floor. */
export async function runCockpitBench(game: Game, day: number, synth: SynthGame, opts: { rounds?: number; postsPerRun?: number; floor?: boolean; onView?: (v: CockpitView) => void } = {}): Promise<CockpitBenchResult> {
  const rounds = opts.rounds ?? 5;
  const d = findDay(game, day);
  const tids = dayTids(d);
  const floorArgs = [path.join(here, 'floor-read.js'), ...tids.map((t) => threadLogPath(game.storePath, t))];
  const scratch = mkdtempSync(path.join(tmpdir(), 'bansha-cockpit-bench-'));
  try {
    // A running count a moment before the close: every post of the day counts, nothing is posted.
    const cockpit = new Cockpit({ game, day, clock: { now: () => d.closes - 1 } });
    const t0 = performance.now();
    const first = await cockpit.round(false);
    const firstMs = performance.now() - t0;
    opts.onView?.(first);
    const perThread = Math.ceil((opts.postsPerRun ?? 20) / tids.length);
    const arrive = postArrivals(synth, game.storePath, tids, d.closes, perThread, rounds, 11);
    const redraws: number[] = [];
    const floors: number[] = [];
    const ratios: number[] = [];
    const fulls: number[] = [];
    // From the posts recorded to the first view drawn (the count), and to the whole view (the report too).
    const redraw = async (): Promise<number> => {
      let drawn = 0;
      const off = cockpit.subscribe((v) => {
        if (drawn) return;
        renderLive(v);
        drawn = performance.now();
      });
      const start = performance.now();
      const view = await cockpit.round(false);
      renderLive(view);
      fulls.push(performance.now() - start);
      off();
      opts.onView?.(view);
      return drawn - start;
    };
    for (let r = 0; r < rounds; r++) {
      await arrive();
      let floor: Run | null = null;
      if (opts.floor !== false && r % 2 === 1) floor = run(floorArgs, scratch);
      const ms = await redraw();
      if (opts.floor !== false && r % 2 === 0) floor = run(floorArgs, scratch);
      redraws.push(ms);
      if (floor) {
        floors.push(floor.ms);
        ratios.push(ms / floor.ms);
      }
    }
    return {
      day, postsPerRun: perThread * tids.length, rounds, firstMs, redrawMs: median(redraws), fullRedrawMs: median(fulls),
      floorMs: floors.length ? median(floors) : NaN, cockpitRedrawVsFloor: ratios.length ? median(ratios) : NaN,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
