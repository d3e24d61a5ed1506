/**
 * `bansha watch --game G --day N [--interval 60]`: the last hour before closing (关门). Every interval it
 * recrawls the day's threads incrementally and redraws the running count and who has not voted yet; at
 * closing it crawls once more and prints the final count. The clock, the sleep and the crawl are
 * injectable so the loop is tested with a fake clock and a short interval.
 */
import type { Command } from 'commander';
import pc from 'picocolors';
import { crawlGame, type CrawlOptions } from '../../crawl/crawler.js';
import { loadGame } from '../../game/game-file.js';
import { findDay } from '../../game/roster.js';
import type { Game } from '../../game/types.js';
import { postsFromStore, tallyDay } from '../../votes/tally.js';
import { withKnownUids } from '../../game/roster.js';
import type { TallyResult } from '../../votes/types.js';
import { renderTallyTerminal } from '../../render/tally-terminal.js';
import { forumTime } from '../../votes/time.js';
import { UserError } from '../errors.js';
import { dayNumber, stdoutColor, withStore } from '../options.js';

/** Time as the watch sees it. */
export interface WatchClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: WatchClock = { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };

export interface WatchOptions {
  game: Game;
  day: number;
  /** Between recrawls, ms (default 60 s). */
  intervalMs?: number;
  /** How long before closing the watch starts, ms (default one hour). */
  windowMs?: number;
  /** Start at once instead of waiting for the window. */
  now?: boolean;
  clock?: WatchClock;
  /** Options passed to each crawl (tests: fetch, delays). */
  crawl?: CrawlOptions;
  /** One frame of output (default: stdout, the screen cleared first on a terminal). */
  draw?: (frame: string, final: boolean) => void;
  color?: boolean;
}

/** One frame: the running (or final) count and who has not voted. */
export function watchFrame(t: TallyResult, color = false): string {
  const c = pc.createColors(color);
  const missing = t.players.filter((p) => p.state === 'none').map((p) => p.player);
  const head = t.running ? c.bold(`running count at ${forumTime(t.countedAt, t.timezone)} — closes ${forumTime(t.closes, t.timezone)}`) : c.bold('final count');
  return `${head}\n${renderTallyTerminal(t, { color })}${t.kind === 'none' ? '' : `not voted yet (${missing.length}): ${missing.join(', ') || '—'}\n`}`;
}

/** Runs the watch until closing; returns the final tally. */
export async function runWatch(o: WatchOptions): Promise<TallyResult> {
  const clock = o.clock ?? systemClock;
  const day = findDay(o.game, o.day);
  const interval = o.intervalMs ?? 60_000;
  const start = day.closes - (o.windowMs ?? 3_600_000);
  const draw = o.draw ?? ((frame: string) => process.stdout.write(`${process.stdout.isTTY ? '\x1b[2J\x1b[H' : '\n'}${frame}`));
  const count = async (at: number) => {
    await crawlGame(o.game, { progress: false, ...o.crawl, day: o.day });
    return withStore(o.game, (store) => tallyDay(withKnownUids(o.game, store.users), postsFromStore(store), o.day, { at }));
  };
  if (clock.now() >= day.closes) {
    const final = await count(day.closes);
    draw(watchFrame(final, o.color), true);
    return final;
  }
  if (!o.now && clock.now() < start) {
    draw(`watching day ${o.day} from ${forumTime(start, o.game.timezone)} (an hour before closing at ${forumTime(day.closes, o.game.timezone)})\n`, false);
    await clock.sleep(start - clock.now());
  }
  while (clock.now() < day.closes) {
    const now = clock.now();
    draw(watchFrame(await count(now), o.color), false);
    await clock.sleep(Math.max(0, Math.min(interval, day.closes - clock.now())));
  }
  const final = await count(day.closes);
  draw(watchFrame(final, o.color), true);
  return final;
}

export function register(program: Command): void {
  program
    .command('watch')
    .description('the last hour before closing: recrawl every interval, redraw the running count and who has not voted; then the final count')
    .requiredOption('--game <file>', 'the game file (YAML)')
    .requiredOption('--day <n>', 'the game day', dayNumber)
    .option('--interval <seconds>', 'seconds between recrawls', (v) => {
      const n = Number(v);
      if (!Number.isFinite(n) || n < 5) throw new UserError(`--interval must be at least 5 seconds (got "${v}")`);
      return n;
    }, 60)
    .option('--now', 'start at once instead of an hour before closing')
    .option('--store <path>', 'the store file (default: beside the game file)')
    .action(async (o: { game: string; day: number; interval: number; now?: boolean; store?: string }) => {
      const game = loadGame(o.game, { store: o.store });
      await runWatch({ game, day: o.day, intervalMs: o.interval * 1000, now: o.now, color: stdoutColor() });
    });
}
