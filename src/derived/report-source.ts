/**
 * The day report's source (src/report/source.ts) at closing, over what the closing keeps: the earlier
 * days' threads the report does not open, as digests (src/store/thread-digest.ts) or summed up
 * (look-back.ts), the wording hits of versions scanned before (wording-hits.ts), and the threads read
 * apart as scanned posts with those that may hold a ballot in full (scanned-thread.ts). Its answers are
 * the plain source's over every thread in full (test/derived compares every view).
 */
import { countDayPosts, type CountedPost, type DayPosts } from '../activity/count.js';
import { seatPosts } from '../game/roster.js';
import { gameTids } from '../game/threads.js';
import type { Game } from '../game/types.js';
import { ballotsOutOfPlace, plainReportSource, type ReportSource } from '../report/source.js';
import type { DigestPost, SlicePost } from '../store/slice.js';
import type { WordingOf } from '../violations/scan.js';
import { isScanned, type ScannedPost } from '../violations/scanned-post.js';
import type { ProfileBase } from '../violations/profile.js';

/** A thread of a day counted already: each player's counted pids there (oldest first; its late posts not listed). */
export type PrecountedRows = ReadonlyArray<readonly [player: string, pids: readonly number[]]>;

/** Earlier days' threads summed up (look-back.ts): each earlier day's counts there, by day and thread, and their part of the avatar/signature check. */
export interface SummedUp {
  counts: ReadonlyMap<number, ReadonlyMap<number, PrecountedRows>>;
  profile: ProfileBase;
}

/** What the kept source holds besides the report's posts. */
export interface KeptReportInputs {
  /** Earlier days' threads not among the report's posts, as digests. */
  lookBack?: ReadonlyMap<number, readonly DigestPost[]>;
  /** Or those threads summed up. */
  summedUp?: SummedUp;
  /** Where the wording hits come from. */
  wording: WordingOf;
  /** The threads given as scanned: their posts in full that may hold a ballot (votes/ballot.ts mayHoldBallot). */
  ballotPosts?: ReadonlyMap<number, readonly SlicePost[]>;
}

/** The report's source over posts in full or scanned, and the earlier threads as `kept` holds them. */
export function keptReportSource(game: Game, kept: KeptReportInputs): ReportSource<SlicePost | ScannedPost> {
  const plain = plainReportSource(game, { wording: kept.wording });
  // (seated as the report's posts are; read beside them where the report's posts do not hold the thread)
  const lookBackOf = (posts: ReadonlyMap<number, unknown>) => {
    const out = new Map<number, readonly DigestPost[]>();
    for (const [tid, list] of kept.lookBack ?? []) if (!posts.has(tid)) out.set(tid, seatPosts(game, list).posts);
    return out;
  };
  const full = (posts: readonly (SlicePost | ScannedPost)[]): readonly SlicePost[] => {
    for (const p of posts) if (isScanned(p)) throw new Error(`post ${p.pid} of thread ${p.tid} was read as scanned where its content is needed`);
    return posts as readonly SlicePost[];
  };
  return {
    // (a scanned post's flags were found before it was seated: under its seat now)
    contentFlags: (post) => (isScanned(post) ? post.flags.map((f) => (f.player === post.author ? f : { ...f, player: post.author })) : plain.contentFlags(post)),
    full,
    profile: (posts) => {
      const lookBack = lookBackOf(posts);
      if (game.rules.flagFiller && (lookBack.size || kept.summedUp)) {
        throw new Error('the filler check reads every thread of the game in full: pass them in posts, not as digests');
      }
      return { threads: gameTids(game).map((t) => posts.get(t) ?? lookBack.get(t) ?? []), base: kept.summedUp?.profile };
    },
    dayPosts: (g, posts) => {
      const counted = new Map<number, readonly CountedPost[]>([...lookBackOf(posts), ...posts]);
      return withPrecounted(countDayPosts(game, g, counted), counted, kept.summedUp?.counts.get(g.day));
    },
    ballotsOutOfPlace: (d, posts, read) => {
      const part = (tid: number) => kept.ballotPosts?.get(tid);
      return ballotsOutOfPlace(game, d, (tid) => (part(tid) ? seatPosts(game, part(tid)!).posts : full(posts.get(tid) ?? [])), read);
    },
  };
}

/**
 * A day's count with the threads counted already added: those not among `posts` (each player's pids,
 * sorted in with the rest; such a thread lists no late posts) — as counting their posts adds them.
 */
function withPrecounted(counted: DayPosts<CountedPost>, posts: ReadonlyMap<number, unknown>, precounted?: ReadonlyMap<number, PrecountedRows>): DayPosts<CountedPost> {
  if (!precounted) return counted;
  const rows = new Map(counted.players.map((r) => [r.player, r]));
  for (const tid of counted.tids) {
    const thread = posts.has(tid) ? undefined : precounted.get(tid);
    if (!thread) continue;
    for (const [player, pids] of thread) {
      const row = rows.get(player);
      if (!row) continue;
      row.posts += pids.length;
      row.pids.push(...pids);
    }
  }
  for (const r of counted.players) r.pids.sort((a, b) => a - b);
  return { ...counted, missing: counted.missing.filter((t) => !precounted.has(t)) };
}
