/**
 * The whole game's activity table: players × days, posts counted as countDayPosts counts them — the
 * overview the director scans for quiet players (like the tallies of mafiascum's modtools).
 */
import type { Game } from '../game/types.js';
import { countDayPosts, type DayPosts } from './count.js';
import type { PostsByThread } from '../game/threads.js';

export interface ActivityTable {
  days: number[];
  rows: Array<{
    player: string;
    /** Posts per day in `days` order; null when exempt (out before the day) or the day is not stored. */
    counts: Array<number | null>;
    total: number;
  }>;
  /** Days whose counted threads are not (all) stored. */
  unstored: number[];
}

/** Counts every day of the game (days up to `through`, default all). */
export function activityTable(game: Game, posts: PostsByThread, through?: number): ActivityTable {
  const days = game.days.filter((d) => through === undefined || d.day <= through);
  return activityTableOf(game, days.map((d) => countDayPosts(game, d, posts)));
}

/** The table of days already counted (countDayPosts), in the order given. */
export function activityTableOf(game: Game, perDay: ReadonlyArray<DayPosts<unknown>>): ActivityTable {
  const unstored = perDay.filter((p) => p.missing.length > 0 || p.tids.length === 0).map((p) => p.day);
  const rows = game.players.map((player) => {
    const counts = perDay.map((p) => {
      const r = p.players.find((x) => x.player === player)!;
      return r.exempt || p.missing.length > 0 || p.tids.length === 0 ? null : r.posts;
    });
    return { player, counts, total: counts.reduce<number>((s, c) => s + (c ?? 0), 0) };
  });
  return { days: perDay.map((p) => p.day), rows, unstored };
}
