/**
 * Which threads a day's rules look at. The posts arrive as a map tid → posts (the store's slices), so
 * every analysis here stays a pure function of (game, posts).
 */
import type { Game, GameDay } from './types.js';
import type { SlicePost } from '../store/slice.js';

/** Posts by thread id, as read from the store (src/store/slice.ts threadPosts). */
export type PostsByThread = ReadonlyMap<number, readonly SlicePost[]>;

/** The tids of the day's threads that count towards a player's posts (ruleset lurking.countedThreads). */
export function countedTids(game: Game, day: GameDay): number[] {
  const tids: number[] = [];
  for (const which of game.rules.lurking.countedThreads) {
    for (const ref of which === 'vote' ? day.votes : day[which] ? [day[which]] : []) tids.push(ref.tid);
  }
  return tids;
}

/** Every game thread of the day (discussion, vote, duel-rule vote, auction), without the process thread. */
export function dayTids(day: GameDay): number[] {
  return [day.discussion, ...day.votes, day.rules, day.auction].filter((r): r is NonNullable<typeof r> => !!r).map((r) => r.tid);
}

/** Every thread of the game: each day's threads and the process thread. */
export function gameTids(game: Game): number[] {
  const tids = new Set<number>();
  for (const d of game.days) for (const t of dayTids(d)) tids.add(t);
  if (game.process) tids.add(game.process.tid);
  return [...tids];
}

/** When the day's business ends for flags: the next day's opening (or never, for the last day). */
export function dayEnd(game: Game, day: GameDay): number {
  const next = game.days.filter((d) => d.day > day.day).sort((a, b) => a.day - b.day)[0];
  return next ? next.opens : Number.POSITIVE_INFINITY;
}
