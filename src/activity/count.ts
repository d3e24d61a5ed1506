/**
 * Posts per player per game day (rules-spec §6): each player's posts in the day's counted threads
 * (ruleset lurking.countedThreads; m107 l.310 / 062 l.328: the discussion thread) within [opens, closes).
 * Directors never count (§1). A player out before the day opened is exempt; one voted out at its close
 * is not (§6). Posts after closing are kept apart (shown, not counted).
 */
import { isDirector, isOut } from '../game/roster.js';
import type { Game, GameDay } from '../game/types.js';
import type { SlicePost } from '../store/slice.js';
import { countedTids, type PostsByThread } from './threads.js';

export interface PlayerDayPosts {
  player: string;
  /** Posts counted: in a counted thread, by the player, at or after opening and before closing. */
  posts: number;
  /** The counted posts' pids, oldest first (evidence). */
  pids: number[];
  /** Posts in the counted threads after closing (not counted). */
  late: SlicePost[];
  /** Out before the day opened: no duty to post or vote (§6). */
  exempt: boolean;
}

export interface DayPosts {
  day: number;
  /** The counted threads; empty when the day has none. */
  tids: number[];
  /** Counted threads that were not supplied (not stored): the counts are then unknown. */
  missing: number[];
  players: PlayerDayPosts[];
}

/** Counts one day's posts for every player in elevator order. */
export function countDayPosts(game: Game, day: GameDay, posts: PostsByThread): DayPosts {
  const tids = countedTids(game, day);
  const missing = tids.filter((t) => !posts.has(t));
  const rows = new Map<string, PlayerDayPosts>(
    game.players.map((p) => [p, { player: p, posts: 0, pids: [], late: [], exempt: isOut(game, p, day.opens) }]),
  );
  for (const tid of tids) {
    for (const post of posts.get(tid) ?? []) {
      if (isDirector(game, post.author)) continue;
      const row = rows.get(post.author);
      if (!row || post.at < day.opens) continue;
      if (post.at < day.closes) {
        row.posts++;
        row.pids.push(post.pid);
      } else row.late.push(post);
    }
  }
  for (const r of rows.values()) r.pids.sort((a, b) => a - b);
  return { day: day.day, tids, missing, players: [...rows.values()] };
}
