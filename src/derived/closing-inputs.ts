/**
 * What a report of day N reads, so that it costs day N's work: the day's threads, its tally's and the
 * process thread in full; the earlier days' threads as digests (src/store/thread-digest.ts); the closed
 * days' outcomes from src/derived/closed-days.ts. Both are kept between runs in the store's derived files
 * and rebuilt from a thread's log when it changes. A 120b game (filler reads every earlier post's words)
 * and a version-1 store (no thread logs to key a digest on) read every thread of days 1..N in full.
 */
import fs from 'node:fs';
import { dayTids } from '../game/threads.js';
import { closingDay, markIncomplete, threadsForReport, threadsThroughDay, type ApartThread, type ClosingDay, type ClosingDayOptions } from '../day/closing-day.js';
import { findDay, withKnownUids } from '../game/roster.js';
import type { Game } from '../game/types.js';
import { language } from '../i18n/index.js';
import { jsonPlain } from '../store/memo.js';
import { toSlicePost, type SlicePost } from '../store/slice.js';
import type { ReportSource } from '../report/source.js';
import type { WordingOf } from '../violations/scan.js';
import type { ScannedPost } from '../violations/scanned-post.js';
import { keptReportSource } from './report-source.js';
import { indexUsers, threadsDir } from '../store/store-file.js';
import { makeMissingDigests, threadDigests, type LookBack } from '../store/thread-digest.js';
import type { Completeness, StoreData, StoredThread } from '../store/types.js';
import type { ThreadRead } from '../store/with-store.js';
import { postsFromStore, type PostsOf } from '../votes/tally.js';
import { closedOutcomes, vouchedElection, withHandoverGaps } from './closed-days.js';
import { keptPosts } from './kept-posts.js';
import { lookBackSummary, type LookBackRead } from './look-back.js';
import { scannedThread } from './scanned-thread.js';
import { wordingMemo, type WordingMemo } from './wording-hits.js';
import { markGone } from './gone.js';
import type { StaleThread } from '../votes/types.js';

/**
 * The threads a report of `day` counts (checked complete), those it opens in full, and (withCountingStore
 * `vouched`) day 1's vote thread when its saved outcome vouches for it: the tally reads the election's
 * outcome alone there, and the report reads the thread through its digest like the other earlier ones.
 */
export function reportThreads(game: Game, day: number): { tids: number[]; load: number[]; vouched?: (users: Readonly<Record<string, number>>) => Set<number> } {
  const tids = threadsForReport(game, day);
  if (!readsDigests(game)) return { tids, load: threadsThroughDay(game, day) };
  return { tids, load: [...new Set([...tids, ...(game.process ? [game.process.tid] : [])])], vouched: (users) => vouchedElection(game, day, users) };
}

function readsDigests(game: Game): boolean {
  return !game.rules.flagFiller && fs.existsSync(threadsDir(game.storePath));
}

/**
 * What a report of `day` does before it opens the store: the earlier threads' digests a first run
 * lacks, made one thread at a time with nothing else held (made later, each would be read beside the
 * day's threads: at 200,000 posts a 20,000-post day and a 17,000-post thread at once).
 */
export async function beforeReport(game: Game, day: number): Promise<void> {
  if (!readsDigests(game)) return;
  const users = await indexUsers(game.storePath);
  const vouched = users ? [...vouchedElection(game, day, users)] : [];
  await makeMissingDigests(game.storePath, [...lookBackThreads(game, day), ...vouched]);
}

/** The threads of days 1..N a report of `day` reads through their digests. */
function lookBackThreads(game: Game, day: number): number[] {
  const { tids, load } = reportThreads(game, day);
  const opened = new Set([...tids, ...load]);
  return threadsThroughDay(game, day).filter((tid) => !opened.has(tid));
}

/** What a report looks back at of the earlier threads it does not open: their digests, or (`summed`) their sum kept (look-back.ts). */
export interface LookedBack {
  lookBack?: LookBack;
  summed?: LookBackRead;
}

/**
 * The rest of what `closingDay` reads for `day`, given the store opened with `reportThreads(…).load`,
 * and the threads read incompletely: `checked`, those of the report's own (with-store.ts), with those of
 * its tally's handovers (refused, unless allowIncomplete, as the report's own are). `posts`: the store's
 * posts by thread as the report reads them (postsFromStore), not made again for the handovers. `apart`:
 * the threads read apart from the store (readApart), not looked back at. With `code` (the code kept
 * files are kept under: kept-closing.ts) the earlier threads are read as their sum kept, else as digests.
 */
export async function reportInputs(
  game: Game, day: number, store: StoreData, checked: readonly Completeness[] = [], allowIncomplete?: boolean, posts?: PostsOf,
  apart?: ReadonlyMap<number, unknown>, code: string | null = null,
): Promise<Pick<ClosingDayOptions, 'closed'> & LookedBack & { incomplete: Completeness[] }> {
  const seated = withKnownUids(game, store.users);
  const earlier = await closedOutcomes(seated, day, store, { loadedPosts: posts });
  const incomplete = withHandoverGaps(game, checked, earlier, allowIncomplete);
  if (!readsDigests(game)) return { closed: earlier.closed, incomplete };
  const before = threadsThroughDay(game, day).filter((tid) => !store.threads[String(tid)] && !apart?.has(tid));
  // (kept under the game as seated, which says whose each post is: not kept when JSON would not carry it whole)
  if (code !== null && jsonPlain(seated)) return { closed: earlier.closed, summed: await lookBackSummary(seated, day, before, code), incomplete };
  return { closed: earlier.closed, lookBack: await threadDigests(game.storePath, store.forum, before), incomplete };
}

/**
 * The report's source (report-source.ts) over what reportInputs looked back at and the threads read
 * `apart`, its wording hits from `wording`: for the game as closingDay seats it.
 */
export function reportSource(looked: LookedBack, wording: WordingOf, apart?: ReadonlyMap<number, ApartThread>): (game: Game) => ReportSource<SlicePost | ScannedPost> {
  const lookBack = looked.lookBack && new Map([...looked.lookBack].map(([tid, d]) => [tid, d.posts]));
  const ballotPosts = apart && new Map([...apart].map(([tid, a]) => [tid, a.ballots]));
  return (game) => keptReportSource(game, { lookBack, summedUp: looked.summed?.summedUp, wording, ballotPosts });
}

/** A thread a report reads apart from the store (readApart): as closingDay reads it, with its record (null: not stored) and how it is stored. */
export interface ReadApart extends ApartThread {
  thread: StoredThread | null;
  read: ThreadRead;
}

/**
 * The threads a report of `day` reads apart from the store, when `code` names the code (else none, as
 * kept-closing.ts keeps nothing then): the day's discussion — its longest thread, which the report
 * reads for counts and flags and its count for misplaced ballots alone — when it has no other role that
 * day (a vote, the process thread): as src/derived/scanned-thread.ts keeps it (its wording through
 * `wording`), so that a rerun after new posts scans and parses what was appended, not the thread. Kept
 * under the code, the game whole (its rules, names and forum are in what a scan finds), the wording's
 * key and the language.
 */
export async function readApart(game: Game, day: number, wording: WordingMemo, code: string | null): Promise<Map<number, ReadApart>> {
  const out = new Map<number, ReadApart>();
  const d = findDay(game, day);
  const tid = d.discussion?.tid;
  if (code === null || tid === undefined || !readsDigests(game) || !jsonPlain(game)) return out;
  if ([...dayTids(d).filter((t) => t !== tid), game.process?.tid].includes(tid)) return out;
  const kept = await keptPosts(game.storePath, tid, scannedThread(game, wording.hitsOf, { code, wording: wording.key, lang: language() }));
  const ballots = kept.posts.flatMap((e) => (e.ballot ? [toSlicePost(game.forum, e.ballot)] : []));
  out.set(tid, { scanned: kept.posts.map((e) => e.post), ballots, thread: kept.thread, read: kept.read });
  return out;
}

/**
 * Day `day` at closing from the store opened with `reportThreads(…).load` (but the threads read
 * `apart`), as `report` and `close` read it: the earlier days through reportInputs, the wording hits of
 * the versions scanned before through src/derived/wording-hits.ts (`wording`, default made here; those
 * scanned now kept for the next run), marked with the threads read incompletely.
 */
export async function closingDayFromStore(
  game: Game, day: number, store: StoreData,
  opts: {
    ledgerFile: string | null; checked?: readonly Completeness[]; allowIncomplete?: boolean; apart?: ReadonlyMap<number, ReadApart>; wording?: WordingMemo;
    /** The code kept files are kept under (reportInputs); default none: the earlier threads read as digests. */
    code?: string | null;
    /** Count as of this moment (a running count before the close: src/close/index.ts); default the close. */
    at?: number;
    /** The threads gone from the forum whose kept versions a ruling accepted, marked on the count (gone.ts). */
    gone: readonly StaleThread[];
  },
): Promise<{ closing: ClosingDay; incomplete: Completeness[] } & Pick<ClosingDayOptions, 'closed'> & LookedBack> {
  const posts = postsFromStore(store);
  const { closed, lookBack, summed, incomplete } = await reportInputs(game, day, store, opts.checked, opts.allowIncomplete, posts, opts.apart, opts.code);
  const wording = opts.wording ?? wordingMemo(game.storePath, game);
  // (a thread read apart that is not stored is not read, as one missing from the store)
  const apart = opts.apart && new Map([...opts.apart].filter(([, a]) => a.thread !== null));
  const source = reportSource({ lookBack, summed }, wording.hitsOf, apart);
  const closing = closingDay(game, store, day, { ledgerFile: opts.ledgerFile, closed, source, posts, apart, at: opts.at });
  wording.save();
  markGone(closing.tally, opts.gone);
  return { closing: markIncomplete(closing, incomplete, game), closed, lookBack, summed, incomplete };
}
