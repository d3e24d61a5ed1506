/**
 * `bansha watch --game G --day N [--interval 60]`: the last hour before closing (关门). Every interval it
 * recrawls, incrementally, exactly the threads `tally` reads (the vote thread, the process thread, and
 * every earlier day the count depends on, e.g. day 1's sheriff election) and redraws the running count
 * and who has not voted yet; at closing it crawls once more and prints the final count — the count
 * `bansha crawl` then `bansha tally` give, refused the same way (exit 5 for a page that could not be
 * fetched, 3 for an incomplete thread unless --allow-incomplete, 4 for a login needed) — and the final
 * count, like `close --post`, refused (exit 7) when a thread deciding it was not fetched whole after the
 * close (src/crawl/freshness.ts). A running
 * round that is refused shows the refusal and tries again next interval (a login needed stops the
 * watch). The clock, the sleep and the crawl are injectable so the loop is tested with a fake clock.
 *
 * `--serve [--open] [--port N]`: the closing cockpit instead (src/cockpit, issue 33) — the same crawl
 * (crawlForCount) and the count `close` makes, live in this computer's browser with the director's
 * rulings, cards and 发布, until Ctrl-C.
 */
import type { Command } from 'commander';
import pc from 'picocolors';
import { crawlGame, type CrawlOptions, type CrawlResult } from '../../crawl/crawler.js';
import { loadGame } from '../../game/game-file.js';
import { findDay } from '../../game/roster.js';
import type { Game } from '../../game/types.js';
import { threadsForTally } from '../../votes/tally.js';
import { privateVoteResult } from '../../votes/private-vote.js';
import { countFromStore, crawlWithHandovers } from '../../derived/closed-days.js';
import type { TallyResult } from '../../votes/types.js';
import { renderTallyTerminal } from '../../render/tally-terminal.js';
import { terminalSafe } from '../../text/safe-text.js';
import { forumTime } from '../../game/forum-time.js';
import { UserError } from '../../errors.js';
import { t as tr } from '../../i18n/index.js';
import { dayNumber, gameOptions, stdoutColor } from '../options.js';
import { assertFetched, crawlFlagOptions, crawlFlags, type CrawlFlags } from './crawl.js';
import { now as processNow, systemClock as processClock } from '../../clock.js';
import { countFreshness, goneThreads, refuseStale } from '../../crawl/freshness.js';

/** Time as the watch sees it. */
export interface WatchClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** The process clock (src/clock.ts: BANSHA_NOW or the machine's) and a real sleep. */
export const systemClock: WatchClock = { now: () => processNow(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };

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
  /** Count even when a thread's crawl has gaps, as `tally --allow-incomplete`. */
  allowIncomplete?: boolean;
  /** One frame of output (default: stdout, the screen cleared first on a terminal). */
  draw?: (frame: string, final: boolean) => void;
  color?: boolean;
}

/** One frame: the running (or final) count and who has not voted. */
export function watchFrame(t: TallyResult, color = false): string {
  const c = pc.createColors(color);
  const missing = t.players.filter((p) => p.state === 'none').map((p) => terminalSafe(p.player));
  const head = t.running ? c.bold(tr('watch.running', forumTime(t.countedAt, t.timezone), forumTime(t.closes, t.timezone))) : c.bold(tr('watch.final'));
  return `${head}\n${renderTallyTerminal(t, { color })}${t.kind === 'none' ? '' : `${tr('watch.notVoted', missing.length, missing.join(', '))}\n`}`;
}

/** A running round that was refused: what was refused, and when the next try is. */
export function refusedFrame(err: UserError, at: number, timezone: string): string {
  return `${tr('watch.refused', forumTime(at, timezone), terminalSafe(err.message))}\n`;
}

/**
 * Day `day`'s count at `at`, exactly as `bansha crawl` then `bansha tally` make it: the threads the
 * tally reads are crawled (incrementally) — its own, and those its sheriffs' handovers are read from as
 * the store names them (src/derived/closed-days.ts) — every page of them must have been fetched, and the
 * store must hold them completely (unless allowIncomplete) — else the same refusal.
 */
export async function countAsTally(game: Game, day: number, at: number, opts: { crawl?: CrawlOptions; allowIncomplete?: boolean } = {}): Promise<TallyResult> {
  const none = privateVoteResult(game, day, at); // 120b: nothing to read, as tally
  if (none) return none;
  const closed = at >= findDay(game, day).closes;
  // The final count: a failed page is named as stale (exit 7) when it decides the count, below.
  const failed = await crawlForCount(game, day, at, { crawl: opts.crawl, check: closed ? undefined : assertFetched });
  const freshness = closed ? await countFreshness(game, day) : [];
  if (closed) {
    // As tally --post and close: the final count only when every deciding thread was fetched whole after the close.
    refuseStale(game, freshness, 'watch');
    for (const c of failed) assertFetched(c);
  }
  const gone = goneThreads(game, freshness);
  return countFromStore(game, day, { at, allowIncomplete: opts.allowIncomplete }, (result) => (gone.length ? { ...result, gone } : result));
}

/**
 * The crawl of a round (the watch's, the cockpit's: src/cockpit): the threads day `day`'s count reads at
 * `at` — its own, and those its sheriffs' handovers are read from as the store names them — crawled
 * incrementally; each crawl handed to `check` as it ends (assertFetched refuses a page not fetched), and
 * all of them returned.
 */
export async function crawlForCount(game: Game, day: number, at: number, opts: { crawl?: CrawlOptions; check?: (crawl: CrawlResult) => void } = {}): Promise<CrawlResult[]> {
  const crawls: CrawlResult[] = [];
  await crawlWithHandovers(game, day, threadsForTally(game, day), async (threads) => {
    const crawl = await crawlGame(game, { progress: false, ...opts.crawl, threads });
    crawls.push(crawl);
    opts.check?.(crawl);
  }, at);
  return crawls;
}

/** Runs the watch until closing; returns the final tally. */
export async function runWatch(o: WatchOptions): Promise<TallyResult> {
  const clock = o.clock ?? systemClock;
  const day = findDay(o.game, o.day);
  const interval = o.intervalMs ?? 60_000;
  const start = day.closes - (o.windowMs ?? 3_600_000);
  const draw = o.draw ?? ((frame: string) => process.stdout.write(`${process.stdout.isTTY ? '\x1b[2J\x1b[H' : '\n'}${frame}`));
  const count = (at: number) => countAsTally(o.game, o.day, at, { crawl: o.crawl, allowIncomplete: o.allowIncomplete });
  if (clock.now() >= day.closes) {
    const final = await count(day.closes);
    draw(watchFrame(final, o.color), true);
    return final;
  }
  if (!o.now && clock.now() < start) {
    draw(`${tr('watch.waiting', o.day, forumTime(start, o.game.timezone), forumTime(day.closes, o.game.timezone))}\n`, false);
    await clock.sleep(start - clock.now());
  }
  while (clock.now() < day.closes) {
    const now = clock.now();
    try {
      draw(watchFrame(await count(now), o.color), false);
    } catch (err) {
      // Missing pages (5) or an incomplete store (3) may be gone next round; anything else ends the watch.
      if (!(err instanceof UserError) || (err.exitCode !== 3 && err.exitCode !== 5)) throw err;
      draw(refusedFrame(err, now, o.game.timezone), false);
    }
    await clock.sleep(Math.max(0, Math.min(interval, day.closes - clock.now())));
  }
  const final = await count(day.closes);
  draw(watchFrame(final, o.color), true);
  return final;
}

export function register(program: Command): void {
  const command = gameOptions(program.command('watch').description(tr('watch.description')))
    .requiredOption('--day <n>', tr('opt.day') + tr('cli.required'), dayNumber)
    .option('--interval <seconds>', tr('watch.interval'), (v) => {
      const n = Number(v);
      if (!Number.isFinite(n) || n < 5) throw new UserError(tr('watch.badInterval', v));
      return n;
    }, 60)
    .option('--now', tr('watch.now'))
    .option('--store <path>', tr('opt.store'))
    .option('--allow-incomplete', tr('opt.allowIncomplete'))
    .option('--serve', tr('watch.serve'))
    .option('--open', tr('watch.open'))
    .option('--port <n>', tr('watch.port'), (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 65535) throw new UserError(tr('watch.badPort', v));
      return n;
    });
  crawlFlagOptions(command)
    .action(async (o: CrawlFlags & { game: string; day: number; interval: number; now?: boolean; store?: string; allowIncomplete?: boolean; serve?: boolean; open?: boolean; port?: number }) => {
      if (!o.serve && o.open) throw new UserError(tr('watch.serveOnly', '--open'));
      if (!o.serve && o.port !== undefined) throw new UserError(tr('watch.serveOnly', '--port'));
      const game = loadGame(o.game, { store: o.store });
      findDay(game, o.day);
      if (o.serve) {
        // The closing cockpit (src/cockpit): the same crawl and count, live in the browser, until Ctrl-C.
        const { serveUntilStopped } = await import('../../cockpit/index.js');
        await serveUntilStopped({ game, day: o.day, clock: processClock(), intervalMs: o.interval * 1000, crawl: crawlFlags(o), port: o.port, open: o.open });
        return;
      }
      await runWatch({ game, day: o.day, intervalMs: o.interval * 1000, now: o.now, color: stdoutColor(), crawl: crawlFlags(o), allowIncomplete: o.allowIncomplete });
    });
}
