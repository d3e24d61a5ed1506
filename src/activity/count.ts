/**
 * Posts per player per game day (rules-spec §6): each player's posts in the day's counted threads
 * (ruleset lurking.countedThreads; m107 l.310 / 062 l.328: the discussion thread) within [opens, closes).
 * Directors never count (§1). A player out before the day opened is exempt; one voted out at its close
 * is not (§6). Posts after closing are kept apart (shown, not counted).
 */
import { isDirector, isOut } from '../game/roster.js';
import type { Game, GameDay } from '../game/types.js';
import type { SlicePost } from '../store/slice.js';
import { countedTids } from '../game/threads.js';

export interface PlayerDayPosts<P = SlicePost> {
  player: string;
  /** Posts counted: in a counted thread, by the player, at or after opening and before closing. */
  posts: number;
  /** The counted posts' pids, oldest first (evidence). */
  pids: number[];
  /** Posts in the counted threads after closing (not counted). */
  late: P[];
  /** Out before the day opened: no duty to post or vote (§6). */
  exempt: boolean;
}

export interface DayPosts<P = SlicePost> {
  day: number;
  /** The counted threads; empty when the day has none. */
  tids: number[];
  /** Counted threads that were not supplied (not stored): the counts are then unknown. */
  missing: number[];
  players: Array<PlayerDayPosts<P>>;
}

/** What counting reads of a post (full posts, or the digests of earlier days' threads: src/store/slice.ts). */
export type CountedPost = Pick<SlicePost, 'pid' | 'at' | 'author'>;

/** Counts one day's posts (as seated) for every player in elevator order. */
export function countDayPosts<P extends CountedPost = SlicePost>(game: Game, day: GameDay, posts: ReadonlyMap<number, readonly P[]>): DayPosts<P> {
  const tids = countedTids(game, day);
  const missing = tids.filter((t) => !posts.has(t));
  const rows = new Map<string, PlayerDayPosts<P>>(
    game.players.map((p) => [p, { player: p, posts: 0, pids: [], late: [], exempt: isOut(game, p, day.opens) }]),
  );
  for (const tid of tids) {
    // (indexed: each earlier day walks its threads' posts, and an iterator allocates per step until optimised)
    const list = posts.get(tid) ?? [];
    for (let i = 0; i < list.length; i++) {
      const post = list[i];
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
