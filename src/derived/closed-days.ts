/**
 * The closed days' outcomes a count of day N reads — the day-1 election (the sheriff) and each earlier
 * day's result (carried forward: src/votes/carry-forward.ts) — without tallying days 1..N−1 again on
 * every run: each is kept in the store's derived files (src/store/derived-cache.ts) under the key of
 * what it was counted from — the game (file, rulings, uids learned), the day's vote threads (and the
 * day-1 vote thread when the sheriff comes from it) and whether those days were accelerated — and
 * counted again, from those threads only, when any of it changed. So a tally of day N reads its own
 * threads, plus the earlier days' vote threads once after they (or the game file) change.
 */
import fs from 'node:fs';
import { seatPosts } from '../game/roster.js';
import type { Game, GameDay } from '../game/types.js';
import { derivedKey, readDerived, threadLogKey, writeDerived } from '../store/derived-cache.js';
import { openStore, threadsDir } from '../store/store-file.js';
import { threadPosts, type SlicePost } from '../store/slice.js';
import type { StoreData } from '../store/types.js';
import { acceleratedIn, closedFromPosts, earlierClosedDays, postsFromStore, successionThreadsFor, threadsForTally, type ClosedOutcome, type ClosedOutcomes, type PostsOf } from '../votes/tally.js';

/** The game as far as a count depends on it: everything but where its files are. */
export function gameFingerprint(game: Game): unknown {
  return { ...game, file: undefined, storePath: undefined, sessionPath: undefined, browser: undefined, selectorFiles: undefined };
}

/** The days a count of `day` reads the outcome of: the earlier closed days and day 1 (the election). */
function daysRead(game: Game, day: number): GameDay[] {
  const days = new Set(earlierClosedDays(game, day));
  if (day > 1 && game.days.some((d) => d.day === 1 && d.vote)) days.add(1);
  return game.days.filter((d) => days.has(d.day)).sort((a, b) => a.day - b.day);
}

/**
 * The threads a closed day's outcome is counted from: its vote threads, day 1's when the sheriff comes
 * from the election, and those a sheriff's successor is read from (succession.ts; the process thread too
 * when it is one of them).
 */
function outcomeThreads(game: Game, d: GameDay): number[] {
  const d1 = game.days.find((x) => x.day === 1);
  const tids = new Set(d.votes.map((v) => v.tid));
  if (d1?.vote && threadsForTally(game, d.day).includes(d1.vote.tid)) for (const v of d1.votes) tids.add(v.tid);
  if (d.day > 1) for (const t of successionThreadsFor(game, d.day)) tids.add(t);
  return [...tids].sort((a, b) => a - b);
}

/**
 * The outcomes of the closed days a count of `day` reads, for `tallyDay`'s `closed` option: from the
 * derived files when their keys still hold, else counted from the store (threads `loaded` already holds
 * are not read again) and saved. `game` is the game as counted (withKnownUids applied).
 */
export async function closedOutcomes(game: Game, day: number, loaded: StoreData): Promise<ClosedOutcomes> {
  const days = daysRead(game, day);
  const fromLoaded = postsFromStore(loaded);
  const extra = new Map<number, readonly SlicePost[]>();
  /** The posts of threads, reading those neither `loaded` nor an earlier call holds (a version-1 store reads from its one file). */
  const postsOf = async (tids: readonly number[]): Promise<PostsOf> => {
    const missing = tids.filter((t) => !loaded.threads[String(t)] && !extra.has(t));
    if (missing.length) {
      const store = await openStore(game.storePath, { lock: false, forum: game.forum, threads: missing });
      for (const t of missing) extra.set(t, threadPosts(store.data, t));
      await store.close();
    }
    return (tid) => extra.get(tid) ?? fromLoaded(tid);
  };

  // A version-1 store (one file, not yet migrated by a crawl) has no thread logs to key on: count.
  if (!fs.existsSync(threadsDir(game.storePath))) {
    const all = await postsOf([...new Set(days.flatMap((d) => [...outcomeThreads(game, d), ...(game.process ? [game.process.tid] : [])]))]);
    return closedFromPosts(game, all);
  }

  const process = game.process ? await postsOf([game.process.tid]) : () => [];
  const seated: PostsOf = (tid) => seatPosts(game, process(tid)).posts;
  const fingerprint = gameFingerprint(game);
  const outcomes = new Map<number, ClosedOutcome | null>();
  const keys = new Map<number, string>();
  const misses: GameDay[] = [];
  for (const d of days) {
    const threads = outcomeThreads(game, d);
    const logs = threads.map((tid) => threadLogKey(game.storePath, tid));
    if (logs.every((k) => k === null)) {
      outcomes.set(d.day, null); // not stored: nothing to carry forward
      continue;
    }
    // whether the day and day 1 (its election gives the sheriff) were accelerated: the count's cut-offs
    const accelerated = [...new Set([d, ...game.days.filter((x) => x.day === 1)])].map((x) => acceleratedIn(game, x, seated));
    const key = derivedKey({ game: fingerprint, day: d.day, threads, logs, accelerated });
    keys.set(d.day, key);
    const saved = readDerived<{ outcome: ClosedOutcome | null }>(game.storePath, `closed-day-${d.day}`, key);
    if (saved && (saved.outcome === null || saved.outcome.day === d.day)) outcomes.set(d.day, saved.outcome);
    else misses.push(d);
  }
  if (misses.length) {
    const posts = await postsOf([...new Set(misses.flatMap((d) => [...outcomeThreads(game, d), ...(game.process ? [game.process.tid] : [])]))]);
    const counted = closedFromPosts(game, posts);
    for (const d of misses) {
      const outcome = counted(d.day);
      outcomes.set(d.day, outcome);
      writeDerived(game.storePath, `closed-day-${d.day}`, keys.get(d.day)!, { outcome });
    }
  }
  return (d) => {
    if (!outcomes.has(d)) throw new Error(`closed day ${d} was not prepared for the count of day ${day}`);
    return outcomes.get(d)!;
  };
}
