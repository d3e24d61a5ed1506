/**
 * The threads a count of a day reads (src/votes/tally.ts re-exports these): apart from the count's own
 * code, so a caller that only needs to know which threads (src/crawl/freshness.ts, a kept count's
 * command) does not load it.
 */
import { findDay } from '../game/roster.js';
import type { Game } from '../game/types.js';

/** The threads a tally of `day` reads (for the CLI's completeness check). */
export function threadsForTally(game: Game, day: number, opts: { rules?: boolean } = {}): number[] {
  // (A sheriff who left passes the badge: where the successor is read depends on who held it, which the
  // posts say — src/derived/closed-days.ts reads those threads, tally.ts badgePath walks the holders.)
  return [...new Set([...postThreadsForTally(game, day, opts), ...electionThreads(game, day)])];
}

/** The threads whose posts a tally of `day` reads itself (threadsForTally without the election's). */
export function postThreadsForTally(game: Game, day: number, opts: { rules?: boolean } = {}): number[] {
  const d = findDay(game, day);
  const tids = new Set<number>();
  for (const t of opts.rules ? (d.rules ? [d.rules] : []) : d.votes) tids.add(t.tid);
  // Ballots posted in the discussion thread are reported (misplacedBallots), so it is read too.
  if (!opts.rules && d.discussion && game.rules.publicVote) tids.add(d.discussion.tid);
  if (game.process && game.rules.acceleration.enabled && d.accelerated === undefined) tids.add(game.process.tid);
  if (opts.rules) {
    for (const e of game.days) if (e.day < day && e.rules) tids.add(e.rules.tid);
  }
  return [...tids];
}

/**
 * The day-1 vote thread a tally of `day` reads for the election's outcome alone (its sheriff): none on
 * day 1, or when the game file names a sheriff on or before the day.
 */
export function electionThreads(game: Game, day: number): number[] {
  const d1 = game.days.find((x) => x.day === 1);
  return day > 1 && d1?.vote && !game.days.some((x) => x.day <= day && x.sheriff) ? [d1.vote.tid] : [];
}

