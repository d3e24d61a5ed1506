/**
 * Closing-time figures: each command a director runs at 21:00 (tally, report, elevator, report --html),
 * as a real `bansha` process over the bench's store, against the floor — a bare node process reading
 * and JSON-parsing the day's threads from the same store (src/bench/floor-read.ts) — run in pairs,
 * alternating, the median ratio kept; their peak RSS; and `bansha --version` against `node -e 0`.
 * Each command first runs once without the store's derived files (src/store/derived-cache.ts: the
 * earlier days' digests and outcomes) and the checked game (src/game/game-cache.ts), as after a change
 * to every earlier thread or the game file (`coldMs`); the rounds then measure the run a director
 * repeats at closing time.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dayTids } from '../activity/threads.js';
import { gameCachePath } from '../game/game-cache.js';
import { findDay } from '../game/roster.js';
import type { Game } from '../game/types.js';
import { derivedDir } from '../store/derived-cache.js';
import { threadLogPath } from '../store/store-file.js';

const here = path.dirname(fileURLToPath(import.meta.url));
// What bin/bansha.js runs: the bundled CLI (scripts/bundle-cli.mjs; `npm run bench` builds it).
const cli = path.join(here, '..', '..', 'bundle', 'cli.js');

/** One process run: wall time and peak RSS. */
interface Run {
  ms: number;
  peakMB: number;
}

function run(args: string[], scratch: string): Run {
  const rss = path.join(scratch, `rss-${process.hrtime.bigint()}`);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', path.join(here, 'rss-report.js'), ...args], {
    env: { ...process.env, BANSHA_BENCH_RSS: rss, NO_COLOR: '1' },
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

export interface ClosingFigure {
  ms: number;
  /** The first run, the derived files made from the thread logs (every earlier day read in full). */
  coldMs: number;
  peakMB: number;
  /** Median over the rounds of (command time / floor time) in the same round. */
  vsFloor: number;
}

export interface ClosingBenchResult {
  day: number;
  /** The threads the floor reads (the day's own). */
  floorThreads: number[];
  floorMs: number;
  floorPeakMB: number;
  commands: Record<'tally' | 'report' | 'elevator' | 'html', ClosingFigure>;
  startup: { banshaMs: number; nodeMs: number; ratio: number };
  rounds: number;
}

/** Measure the closing commands of day `day` of `game` (its file at `gameFile`, its store at `storePath`). */
export function runClosingBench(game: Game, gameFile: string, storePath: string, day: number, opts: { rounds?: number } = {}): ClosingBenchResult {
  const rounds = opts.rounds ?? 3;
  if (!existsSync(cli)) throw new Error(`bench: ${cli} is missing: \`npm run build\` makes it`);
  const scratch = mkdtempSync(path.join(tmpdir(), 'bansha-closing-'));
  try {
    const floorThreads = dayTids(findDay(game, day));
    const floorArgs = [path.join(here, 'floor-read.js'), ...floorThreads.map((t) => threadLogPath(storePath, t))];
    const common = ['--game', gameFile, '--store', storePath, '--day', String(day)];
    const commands: Record<keyof ClosingBenchResult['commands'], string[]> = {
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
    const floors: Run[] = [];
    const runs: Record<string, Run[]> = {};
    const ratios: Record<string, number[]> = {};
    for (let r = 0; r < rounds; r++) {
      for (const [name, args] of Object.entries(commands)) {
        // floor and command back to back, in alternating order
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
    const figure = (name: string): ClosingFigure => ({
      ms: median(runs[name].map((x) => x.ms)),
      coldMs: cold[name],
      peakMB: Math.max(...runs[name].map((x) => x.peakMB)),
      vsFloor: median(ratios[name]),
    });
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
      floorMs: median(floors.map((x) => x.ms)),
      floorPeakMB: Math.max(...floors.map((x) => x.peakMB)),
      commands: { tally: figure('tally'), report: figure('report'), elevator: figure('elevator'), html: figure('html') },
      startup: { banshaMs: median(bansha), nodeMs: median(node), ratio: median(startupRatios) },
      rounds,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
