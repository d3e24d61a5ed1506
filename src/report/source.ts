/**
 * What a day's report reads of the game's posts beyond the posts it is given (buildDayReport): one
 * source, asked after seating — an earlier day's counts, each post's content flags, the threads the
 * avatar/signature check reads, the day's ballots posted out of place. The plain source answers from the
 * posts given, read whole; what else a source holds (earlier threads summed up, posts scanned before:
 * src/derived/report-source.ts) is its own business, and its answers are the plain source's.
 */
import { countDayPosts, type CountedPost, type DayPosts } from '../activity/count.js';
import { otherSeatNames } from '../game/roster.js';
import type { Game, GameDay } from '../game/types.js';
import type { SlicePost } from '../store/slice.js';
import { plainScanSource, type ReportPost, type ScanSource, type WordingOf } from '../violations/scan.js';
import type { WordLists } from '../violations/word-lists.js';
import { misplacedBallots, type MisplacedBallot } from '../votes/misplaced.js';

/** A ballot posted in the discussion or process thread, with its post (as seated). */
export interface BallotOutOfPlace {
  ballot: MisplacedBallot;
  post: SlicePost;
}

export interface ReportSource<P extends ReportPost = SlicePost> extends ScanSource<P> {
  /** Day `g`'s posts counted (countDayPosts): those of `posts` (as seated), and of the game's threads the source holds beyond them. */
  dayPosts(g: GameDay, posts: ReadonlyMap<number, readonly P[]>): DayPosts<CountedPost>;
  /**
   * Day `d`'s ballots posted in its discussion and the process thread (not counted), read from `posts`;
   * `read`: those ballots as the day's closing count read them already from the same posts.
   */
  ballotsOutOfPlace(d: GameDay, posts: ReadonlyMap<number, readonly P[]>, read?: readonly MisplacedBallot[]): BallotOutOfPlace[];
}

/** The report's source over posts given in full: plainScanSource's flags (its `lists`, `wording`), the counts of the posts given. */
export function plainReportSource(game: Game, opts: { lists?: WordLists; wording?: WordingOf } = {}): ReportSource<SlicePost> {
  return {
    ...plainScanSource(game, opts.lists, opts.wording),
    dayPosts: (g, posts) => countDayPosts(game, g, posts),
    ballotsOutOfPlace: (d, posts, read) => ballotsOutOfPlace(game, d, (tid) => posts.get(tid) ?? [], read),
  };
}

/** Day `d`'s ballots out of place, read from `full` (a thread's posts in full, as seated) unless `read`. */
export function ballotsOutOfPlace(game: Game, d: GameDay, full: (tid: number) => readonly SlicePost[], read?: readonly MisplacedBallot[]): BallotOutOfPlace[] {
  const threads = [
    ...(d.discussion ? [{ thread: 'discussion' as const, posts: full(d.discussion.tid) }] : []),
    ...(game.process ? [{ thread: 'process' as const, posts: full(game.process.tid) }] : []),
  ];
  const misplaced = read ?? misplacedBallots(game, d, threads, { kind: 'players', players: game.players, otherNames: otherSeatNames(game) });
  return misplaced.map((ballot) => ({ ballot, post: threads.flatMap((t) => t.posts).find((p) => p.pid === ballot.pid)! }));
}
