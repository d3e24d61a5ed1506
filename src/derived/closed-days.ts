/**
 * What a count of day N reads of the days before it — the closed days' outcomes (the day-1 election for
 * the sheriff, each earlier day's result carried forward: src/votes/carry-forward.ts) and the posts a
 * sheriff's successor is read from (src/votes/succession.ts) — without tallying days 1..N−1 again or
 * reading their discussion threads on every run. Kept in the store's derived files
 * (src/store/memo.ts):
 *  - `closed-day-<D>`: day D's outcome, saved with the threads its count read and their logs' keys
 *    (taken before reading them), and used only while the code (memo.ts: in every key) and the game
 *    (file, rulings, uids learned) are the same and every one of those logs is unchanged — or, for a thread the count read in full, what the count
 *    depends on of it is (dependenceKey: the process thread, which every day's count reads, grows all
 *    game long, and a post after day D's close is none of day D's business unless it names a successor);
 *  - `kept-succession-<tid>`: the posts of a thread that name someone as a successor would be named (all
 *    a handover reads of it) and how completely the thread is stored, as of where its log was read to
 *    (src/derived/kept-posts.ts: a thread that grew is read from there, not again);
 *  - `handover-<tid>`: those posts and how completely the thread is stored alone, under the key of the
 *    log they were read from (handoverCandidates): a count at closing reads its badge's handover threads
 *    on every run, closed days' threads that no longer change, without kept-succession's every floor
 *    and page record.
 * The badge's path (tally.ts badgePath) is walked ahead of the count, so only the threads of the
 * departures of the sheriffs who held the badge are read — not those of every player who left.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { findDay, withKnownUids } from '../game/roster.js';
import type { Game, GameDay } from '../game/types.js';
import { completeness } from '../store/completeness.js';
import { jsonPlain, memoKey, readDerived, threadLogKey, writeDerived, type MemoKey } from '../store/memo.js';
import { threadsDir } from '../store/store-file.js';
import { threadPosts, toSlicePost, type SlicePost } from '../store/slice.js';
import type { Completeness, StoreData, StoredPost } from '../store/types.js';
import { countingGaps, threadReads, openCountingStore, withStore, type ThreadRead } from '../store/with-store.js';
import { successionCandidates, successionPatternsKey } from '../votes/succession.js';
import {
  badgePath, closedFromPosts, postsWithClosed, earlierClosedDays, withoutGapNotes, electionThreads, handoverFor, handoverThreads, outcomeOf, postsFromStore, postThreadsForTally, sheriffStart, tallyDay, threadsForTally,
  type ClosedOutcome, type ClosedOutcomes, type PostsOf, type TallySource,
} from '../votes/tally.js';
import { timeSpan } from '../game/forum-time.js';
import { ballotShaped, inWindow, keptPosts, namingSuccessor, type Keep, type KeptPosts } from './kept-posts.js';
import type { StaleThread, TallyResult } from '../votes/types.js';
import { markGone } from './gone.js';

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

/** A thread as read here: its posts (all, or a handover's candidates), how it is stored, its log's key before the read (undefined: not known, read by the caller). */
interface Read {
  posts: readonly SlicePost[];
  read: ThreadRead;
  log?: string | null;
}

/**
 * A thread a closed day's count read, as saved with its outcome: its log's key and, for a thread it read
 * in full, the key of what that count depends on of it (`dependenceKey`, for day `day`'s count).
 */
type ReadKey = [tid: number, log: string | null, dependence?: [day: number, key: string]];

/** A closed day's outcome as saved: with the threads its count read and their keys. */
interface SavedOutcome {
  outcome: ClosedOutcome | null;
  reads: ReadKey[];
}

/** The key of day `day`'s saved outcome: the game as counted (its digest, `gameKey`) and the day. */
const closedDayKey = (gameKey: string, day: number): MemoKey => memoKey({ game: gameKey, day });

/**
 * Day `day`'s saved outcome (saved for that day, with the threads it read) and those of its reads whose
 * log changed since; undefined when there is none.
 */
function savedOutcome(
  game: Game, gameKey: string, day: number, logKey: (tid: number) => string | null = (t) => threadLogKey(game.storePath, t),
): { saved: SavedOutcome; changed: ReadKey[] } | undefined {
  const saved = readDerived<SavedOutcome>(game.storePath, `closed-day-${day}`, closedDayKey(gameKey, day));
  if (!saved || !saved.reads.length || (saved.outcome !== null && saved.outcome.day !== day)) return undefined;
  return { saved, changed: saved.reads.filter(([t, log]) => logKey(t) !== log) };
}

/** A thread's handover candidates as kept (`handover-<tid>`): with the key of its log they were read under. */
interface KeptCandidates {
  log: string;
  posts: SlicePost[];
  read: ThreadRead;
}

/**
 * Thread `tid`'s handover candidates (its posts naming a successor, as namingSuccessor keeps them) and
 * how it is stored, its log's key `log` taken before: kept in the derived file `handover-<tid>` while
 * the log's key is the same — a few posts and the thread's completeness, where kept-posts.ts's save
 * holds every floor and the thread's page records to read the log on from (a count at closing reads the
 * threads of the badge's handovers on every run, and they are closed days' threads: unchanged). Keyed
 * on the code, the forum (the posts' links) and what names a successor (kept-posts.ts's key for it).
 */
async function handoverCandidates(game: Game, tid: number, log: string): Promise<{ posts: readonly SlicePost[]; read: ThreadRead }> {
  const name = `handover-${tid}`;
  const key = memoKey({ candidates: tid, forum: game.forum, patterns: successionPatternsKey(game) });
  const saved = readDerived<KeptCandidates>(game.storePath, name, key);
  if (saved && saved.log === log) return saved;
  // as of where its log was read to: a thread that grew is read from there (kept-posts.ts)
  const kept = await keptPosts(game.storePath, tid, namingSuccessor(game));
  const value: KeptCandidates = { log, posts: kept.posts.map((sp) => toSlicePost(game.forum, sp)), read: kept.read };
  if (jsonPlain(value)) writeDerived(game.storePath, name, key, value);
  return value;
}

/**
 * What the count of closed day `d` depends on of a thread it read in full, as a key: its posts that may
 * be from before the day's close (a later ballot is late, a later acceleration request another day's:
 * votes/select.ts, acceleration.ts), those naming a successor whenever written (a handover reads them:
 * succession.ts), each with every version and whether it went missing, and whether the thread is
 * completely stored. So the process thread, which every day's count reads and which grows every day, can
 * grow without the closed days being counted again. `named`: the thread's successionCandidates.
 */
function dependenceKey(d: GameDay, posts: readonly SlicePost[], named: ReadonlySet<SlicePost>, complete: boolean, json: (p: SlicePost) => string): string {
  const hash = createHash('sha256').update(JSON.stringify([d.day, d.closes, complete]));
  for (const p of posts) if (named.has(p) || !(timeSpan(p).lo >= d.closes)) hash.update(json(p)); // (a time not read: kept)
  return hash.digest('hex');
}

/** A post as dependenceKey weighs it: every version (not when it was last seen), and whether it went missing. */
const postMaterial = (p: SlicePost): string => JSON.stringify([p.pid, p.missing, p.versions.map((v) => [v.hash, v.firstSeen, v.post])]);

/**
 * Of the threads a tally of `day` reads, the day-1 vote thread it reads for the election's outcome alone
 * (tally.ts electionThreads) when day 1's saved outcome vouches for it: counted from it completely stored
 * (not among its `unread`), its log unchanged since — so it is complete still. The tally need not open it:
 * the election's outcome is what it reads of it, and closedOutcomes gives that outcome (saved, or counted
 * again from the thread read there, when another thread it read changed what it depends on): for
 * with-store.ts withCountingStore `vouched`. `users`: the store index's uids (the game as counted). Nothing
 * is vouched for in a version-1 store (no logs to key on).
 */
export function vouchedElection(game: Game, day: number, users: Readonly<Record<string, number>>, opts: { rules?: boolean } = {}): Set<number> {
  const own = postThreadsForTally(game, day, opts);
  const candidates = electionThreads(game, day).filter((t) => !own.includes(t));
  if (!candidates.length || !fs.existsSync(threadsDir(game.storePath))) return new Set();
  const day1 = savedOutcome(game, memoKey(gameFingerprint(withKnownUids(game, users))), 1);
  const unread = day1?.saved.outcome?.unread;
  if (!day1 || !unread) return new Set();
  const changed = new Set(day1.changed.map(([t]) => t));
  return new Set(candidates.filter((t) => !unread.includes(t) && !changed.has(t) && day1.saved.reads.some(([read]) => read === t)));
}

/** What `closedOutcomes` gives a count: the closed days and handovers, and the threads the badge's path read (for the completeness check). */
export interface EarlierDays {
  closed: ClosedOutcomes;
  reads: ThreadRead[];
}

/**
 * The closed days' outcomes and the handovers' candidates as the count of `day` reads them (prepared by
 * closedOutcomes). Made apart so that what a caller keeps of them holds these two maps alone: closures
 * made in closedOutcomes would share its scope, the count's own posts with it (a 20,000-post day's at
 * 200,000 posts, through the report's HTML).
 */
function closedView(outcomes: ReadonlyMap<number, SavedOutcome>, candidates: ReadonlyMap<number, Read>, day: number): ClosedOutcomes {
  return {
    outcome: (d) => {
      const o = outcomes.get(d);
      if (!o) throw new Error(`closed day ${d} was not prepared for the count of day ${day}`);
      return o.outcome;
    },
    successionPosts: (tid) => {
      const c = candidates.get(tid);
      if (!c) throw new Error(`thread ${tid} was not read ahead for the count of day ${day}`);
      return c.posts;
    },
  };
}

/**
 * What a count of `day` (as of `at`) reads of the days before it, for `tallyDay`'s `closed` option: from
 * the derived files when their keys still hold, else counted again from the store and saved. `loaded`
 * holds the count's own threads (not read again for the handovers; `loadedPosts`: the count's view of
 * them, not made twice; `loadedLogs`: their logs' keys, taken before they were read). `reads`: how the threads of the count's own handovers are stored — the caller
 * checks them as it checks its own (with-store.ts countingGaps). `outcomesOnly`: day `day` itself is not
 * counted (the elevator: the closed days' results only), so its handovers are not read. `game` is the
 * game as counted (withKnownUids applied).
 */
export async function closedOutcomes(
  game: Game, day: number, loaded: StoreData, opts: { at?: number; loadedPosts?: PostsOf; loadedLogs?: ReadonlyMap<number, string | null>; outcomesOnly?: boolean } = {},
): Promise<EarlierDays> {
  const reader = new ClosedDaysReader(game, day, loaded, opts);
  // One closed day's threads at a time (ClosedDaysReader.letGoAfter).
  for (const [i, d] of reader.days.entries()) {
    await reader.prepare(d);
    reader.letGoAfter(i);
  }
  const d = game.days.find((x) => x.day === day)!;
  const own = reader.countsSheriff(d) && !opts.outcomesOnly ? await reader.readBadgePath(d, Math.min(opts.at ?? d.closes, d.closes)) : [];
  return { closed: reader.view, reads: [...new Set(own)].map((t) => reader.candidates.get(t)!.read) };
}

/**
 * What closedOutcomes reads and keeps while it prepares the closed days for the count of `day`: the
 * threads read in full (`full`, let go day by day), the handovers' candidates, and each day's outcome
 * (saved and standing, or counted again).
 */
class ClosedDaysReader {
  /** A version-1 store (one file, not yet migrated by a crawl) has no thread logs to key on: nothing saved. */
  readonly keyed: boolean;
  readonly #fromLoaded: PostsOf;
  readonly #full = new Map<number, Read>();
  /** Threads read in full here at some point (`full` lets them go day by day: letGoAfter). */
  readonly #readInFull = new Set<number>();
  readonly candidates = new Map<number, Read>();
  readonly #outcomes = new Map<number, SavedOutcome>();
  /** The closed days and handovers as the count reads them (closedView: holding these two maps alone). */
  readonly view: ClosedOutcomes;
  /** The closed days read, in order (daysRead). */
  readonly days: GameDay[];
  readonly #gameKey: MemoKey;
  // (dependence: candidates and posts' material made once)
  readonly #named = new Map<number, Set<SlicePost>>();
  readonly #material = new WeakMap<SlicePost, string>();
  /**
   * The logs' keys, each taken once for the whole preparation: the closed days' saved outcomes name the
   * same threads again and again (every day the process thread; each election and handover thread
   * again on every later day). A key taken earlier is still one taken before the thread is read: a write
   * since only makes the next run find it changed.
   */
  readonly #logs = new Map<number, string | null>();

  constructor(
    readonly game: Game,
    day: number,
    readonly loaded: StoreData,
    readonly opts: { loadedPosts?: PostsOf; loadedLogs?: ReadonlyMap<number, string | null> },
  ) {
    this.keyed = fs.existsSync(threadsDir(game.storePath));
    this.#fromLoaded = opts.loadedPosts ?? postsFromStore(loaded);
    this.view = closedView(this.#outcomes, this.candidates, day);
    this.days = daysRead(game, day);
    this.#gameKey = memoKey(gameFingerprint(game));
  }

  #logKey(tid: number): string | null {
    if (!this.keyed) return null;
    let log = this.#logs.get(tid);
    if (log === undefined) this.#logs.set(tid, (log = threadLogKey(this.game.storePath, tid)));
    return log;
  }

  /** (day 1's election has no sheriff to weigh) */
  countsSheriff(d: GameDay): boolean {
    return !(d.day === 1 && this.game.rules.day1Election);
  }

  /** Day `d`'s outcome: saved, when its keys still hold (or what it depends on of a changed log is the same), else counted again and saved. */
  async prepare(d: GameDay): Promise<void> {
    const { game } = this;
    const found = this.keyed ? savedOutcome(game, this.#gameKey, d.day, (t) => this.#logKey(t)) : undefined;
    const saved = found && (found.changed.length ? await this.#standsAfter(found.saved, found.changed) : found.saved);
    if (saved) {
      if (found.changed.length) writeDerived(game.storePath, `closed-day-${d.day}`, closedDayKey(this.#gameKey, d.day), saved);
      this.#outcomes.set(d.day, saved);
    } else {
      const value = await this.#countAgain(d);
      if (this.keyed && value.reads.length) writeDerived(game.storePath, `closed-day-${d.day}`, closedDayKey(this.#gameKey, d.day), value);
      this.#outcomes.set(d.day, value);
    }
  }

  /** Read these threads in full (those not read yet), their logs' keys taken first. */
  async #readFull(tids: readonly number[]): Promise<void> {
    const missing = [...new Set(tids)].filter((t) => !this.#full.has(t));
    if (!missing.length) return;
    const logs = missing.map((t) => this.#logKey(t));
    await withStore(this.game, (store) => {
      const reads = threadReads(store, missing);
      missing.forEach((t, i) => this.#full.set(t, { posts: threadPosts(store, t), read: reads[i], log: logs[i] }));
    }, missing);
    for (const t of missing) this.#readInFull.add(t);
  }

  /**
   * A thread's handover candidates: from a thread read in full here, the derived file, or the thread at
   * hand in `loaded` or else its log (one thread at a time, then let go). A loaded thread's derived file
   * is used and made only under its log's key taken before it was read (`loadedLogs`: a key taken after
   * might be a later write's).
   */
  async #readCandidates(tid: number): Promise<void> {
    const { game, candidates } = this;
    if (candidates.has(tid)) return;
    const inFull = this.#full.get(tid);
    if (inFull) {
      candidates.set(tid, { ...inFull, posts: successionCandidates(game, inFull.posts) });
      return;
    }
    const atHand = Boolean(this.loaded.threads[String(tid)]);
    if (atHand) {
      candidates.set(tid, { posts: successionCandidates(game, this.#fromLoaded(tid)), read: threadReads(this.loaded, [tid])[0], log: this.opts.loadedLogs?.get(tid) });
      return;
    }
    const log = this.#logKey(tid); // (taken before the thread is read)
    if (log === null) {
      const value = await withStore(game, (store) => ({ posts: successionCandidates(game, threadPosts(store, tid)), read: threadReads(store, [tid])[0] }), [tid]);
      candidates.set(tid, { ...value, log });
      return;
    }
    candidates.set(tid, { ...(await handoverCandidates(game, tid, log)), log });
  }

  /** Read ahead the threads of each handover on the badge's path for a count of day `d` at `countAt`; returns them. */
  async readBadgePath(d: GameDay, countAt: number): Promise<number[]> {
    const { game } = this;
    const start = sheriffStart(game, d, this.view);
    if (start.name === null) return [];
    const read: number[] = [];
    const walk = badgePath(game, start.name, countAt);
    for (let step = walk.next(); !step.done; ) {
      const threads = handoverThreads(game, step.value, d.day);
      for (const t of threads) await this.#readCandidates(t);
      read.push(...threads);
      step = walk.next(handoverFor(game, this.view, step.value, d.day));
    }
    return read;
  }

  /** Day `d`'s outcome counted again from its vote threads and the process thread (acceleration), read apart from `loaded`. */
  async #countAgain(d: GameDay): Promise<SavedOutcome> {
    const { game } = this;
    const full = this.#full;
    await this.#readFull([...d.votes.map((v) => v.tid), ...(game.process ? [game.process.tid] : [])]);
    if (!d.vote || !full.get(d.vote.tid)!.posts.length) return { outcome: null, reads: d.votes.map((v): ReadKey => [v.tid, full.get(v.tid)!.log ?? null]) };
    if (this.countsSheriff(d)) await this.readBadgePath(d, d.closes);
    // What the count reads, as it reads it: the day-1 outcome brings the threads it was counted from.
    const reads = new Map<number, Read>();
    const track = (from: Map<number, Read>): PostsOf => (tid) => {
      const r = from.get(tid);
      if (!r) return [];
      reads.set(tid, r);
      return r.posts;
    };
    const earlier = new Map<number, ReadKey>();
    const source: TallySource = {
      posts: track(full),
      outcome: (x) => {
        for (const r of this.#outcomes.get(x)?.reads ?? []) earlier.set(r[0], r);
        return this.view.outcome(x);
      },
      successionPosts: track(this.candidates),
    };
    const counted = outcomeOf(tallyDay(game, source, d.day, { carryForward: false }));
    counted.unread = [...reads].filter(([, r]) => !r.read.completeness.complete).map(([t]) => t).sort((a, b) => a - b);
    const unkeyed = [...reads.values()].some((r) => r.log === undefined);
    // a thread an earlier day read in full and let go is keyed on what this day depends on of it, as when held
    await this.#readFull([...reads.keys()].filter((t) => this.#readInFull.has(t)));
    // (this day's keys over the earlier day's: a thread read in full is keyed on its posts before this
    // day's close, which hold those before the earlier day's)
    // (read again: keyed so only when the log is still the one counted from — a crawl in between
    // leaves the key on the log as counted, which the next run finds changed)
    const own = [...reads].map(([t, r]): ReadKey => (full.get(t)?.log === r.log ? [t, r.log ?? null, [d.day, this.#dependence(t, d)]] : [t, r.log ?? null]));
    const all = new Map([...earlier, ...own.map((r) => [r[0], r] as const)]);
    return { outcome: counted, reads: unkeyed ? [] : [...all.values()].sort((a, b) => a[0] - b[0]) };
  }

  /** Thread `t` (read in full) as day `d`'s count depends on it: its dependenceKey. */
  #dependence(t: number, d: GameDay): string {
    const r = this.#full.get(t)!;
    const named = this.#named;
    if (!named.has(t)) named.set(t, new Set(successionCandidates(this.game, r.posts)));
    return dependenceKey(d, r.posts, named.get(t)!, r.read.completeness.complete, this.#json);
  }

  readonly #json = (p: SlicePost): string => {
    let m = this.#material.get(p);
    if (m === undefined) this.#material.set(p, (m = postMaterial(p)));
    return m;
  };

  /**
   * Whether a saved outcome stands though logs it read changed: each changed thread read again (its log's
   * key taken first) and what the count depends on of it the same. Then saved again under the new keys.
   */
  async #standsAfter(saved: SavedOutcome, changed: readonly ReadKey[]): Promise<SavedOutcome | undefined> {
    for (const [t, , dep] of changed) {
      if (!dep) return undefined;
      await this.#readFull([t]);
      if (this.#dependence(t, findDay(this.game, dep[0])) !== dep[1]) return undefined;
    }
    const fresh = new Set(changed.map(([t]) => t));
    return { ...saved, reads: saved.reads.map(([t, log, dep]): ReadKey => (fresh.has(t) ? [t, this.#full.get(t)!.log ?? null, dep!] : dep ? [t, log, dep] : [t, log])) };
  }

  /**
   * One closed day's threads at a time: once day `days[i]` is counted (or its saved outcome stands), what
   * it read in full that no later day reads is let go (a cold run held every closed day's vote threads at once).
   */
  letGoAfter(i: number): void {
    const { game } = this;
    const later = new Set(this.days.slice(i + 1).flatMap((x) => [...x.votes.map((v) => v.tid), ...(game.process ? [game.process.tid] : [])]));
    for (const t of [...this.#full.keys()]) {
      if (later.has(t)) continue;
      this.#full.delete(t);
      this.#named.delete(t);
    }
  }
}

/**
 * Day `day`'s count from a store opened on its threads (with-store.ts openCountingStore: `incomplete` is
 * what that check let through), as `bansha tally` makes it: the closed days and handovers from the
 * derived files, the threads of the count's handovers
 * checked as its own are (refused, or listed as incomplete with --allow-incomplete).
 */
export async function tallyFromStore(
  game: Game, store: StoreData, day: number, incomplete: readonly Completeness[],
  opts: { at?: number; rules?: boolean; allowIncomplete?: boolean; partOf?: ReadonlyMap<number, readonly StoredPost[]>; loadedLogs?: ReadonlyMap<number, string | null> } = {},
): Promise<TallyResult> {
  const counted = withKnownUids(game, store.users);
  const posts = postsFromStore(store);
  const read = await closedOutcomes(counted, day, store, { at: opts.at, loadedPosts: posts, loadedLogs: opts.loadedLogs });
  const gaps = withHandoverGaps(game, incomplete, read, opts.allowIncomplete);
  const partOf = opts.partOf && new Map([...opts.partOf].map(([tid, part]) => [tid, part.map((sp) => toSlicePost(store.forum, sp))]));
  // The count asks for posts and closed days: the threads read in part answer with their kept posts, the closed days from the derived files.
  const source = postsWithClosed((tid) => partOf?.get(tid) ?? posts(tid), read.closed);
  const result = tallyDay(counted, source, day, { at: opts.at, rules: opts.rules, threadRecord: (tid) => store.threads[String(tid)] });
  if (gaps.length) {
    result.incomplete = gaps;
    result.notes = withoutGapNotes(result.notes, game, gaps);
  }
  return result;
}

/**
 * Day `day`'s count as `bansha tally` and `watch` make it from the store (checked as openCountingStore
 * checks it, then tallyFromStore), handed to `use` with the store it was counted from: the threads the
 * count reads only in part — the day's discussion (misplaced ballots), the process thread (the day's
 * window) — read as their kept posts (kept-posts.ts) instead of opened; day 1's vote thread not opened
 * while its saved outcome vouches for it. Marked with the threads `gone` from the forum a ruling accepted (gone.ts).
 */
export async function countFromStore<T>(
  game: Game, day: number, opts: { at?: number; rules?: boolean; allowIncomplete?: boolean; gone: readonly StaleThread[] },
  use: (result: TallyResult, store: StoreData) => T | Promise<T>,
): Promise<T> {
  const tids = threadsForTally(game, day, { rules: opts.rules });
  const vouched = (users: Readonly<Record<string, number>>) => vouchedElection(game, day, users, { rules: opts.rules });
  const parts = new Map<number, KeptPosts>();
  for (const [tid, keep] of readInPart(game, day, tids, opts.rules)) parts.set(tid, await keptPosts(game.storePath, tid, keep));
  // (the keys of the logs about to be opened: their handover candidates are kept under them)
  const loadedLogs = fs.existsSync(threadsDir(game.storePath)) ? new Map(tids.filter((t) => !parts.has(t)).map((t) => [t, threadLogKey(game.storePath, t)])) : undefined;
  const apart = new Map([...parts].map(([tid, p]) => [tid, p.read]));
  const partOf = new Map([...parts].map(([tid, p]) => [tid, p.posts]));
  // (opened, then counted here: the count's walk goes on down from this file, not back into it from the store's)
  const { store, incomplete, close } = await openCountingStore(game, { tids, allowIncomplete: opts.allowIncomplete, vouched, apart });
  try {
    return await use(markGone(await tallyFromStore(game, store, day, incomplete, { ...opts, partOf, loadedLogs }), opts.gone), store);
  } finally {
    await close();
  }
}

/**
 * Of the threads `tids` a count of `day` reads, those it reads only in part, with what it keeps of each
 * (tally.ts postThreadsForTally): the discussion thread for misplaced ballots, the process thread for the
 * day's acceleration and misplaced ballots — each when it is no vote thread of the day nor the other —
 * in a store with thread logs.
 */
function readInPart(game: Game, day: number, tids: readonly number[], rules?: boolean): Map<number, Keep> {
  const d = findDay(game, day);
  const out = new Map<number, Keep>();
  if (rules || !fs.existsSync(threadsDir(game.storePath))) return out;
  const discussion = d.discussion?.tid;
  const process = game.process?.tid;
  const own = (tid: number | undefined): tid is number => tid !== undefined && tids.includes(tid) && !d.votes.some((v) => v.tid === tid) && discussion !== process;
  if (own(discussion)) out.set(discussion, ballotShaped);
  if (own(process)) out.set(process, inWindow(d));
  return out;
}

/** A count's incomplete threads (`incomplete`, of its own) with its handovers' threads, checked as its own are (refused unless allowIncomplete). */
export function withHandoverGaps(game: Game, incomplete: readonly Completeness[], earlier: EarlierDays, allowIncomplete?: boolean): Completeness[] {
  const known = new Set(incomplete.map((c) => c.tid));
  return [...incomplete, ...countingGaps(game, earlier.reads.filter((r) => !known.has(r.completeness.tid)), { allowIncomplete })];
}

/**
 * Crawl (with `crawl`) the threads `tids`, then the threads a count of `day` (as of `at`) reads its
 * sheriffs' handovers from as the store then names them, until there is none left uncrawled (a crawl
 * can bring the post naming a successor who left too): what `watch` and `close` fetch before counting.
 */
export async function crawlWithHandovers(game: Game, day: number, tids: readonly number[], crawl: (tids: number[]) => Promise<void>, at?: number): Promise<void> {
  const crawled = new Set<number>();
  for (let fresh = [...new Set(tids)]; fresh.length; ) {
    await crawl(fresh);
    for (const t of fresh) crawled.add(t);
    fresh = (await handoverReads(game, day, at)).filter((t) => !crawled.has(t));
  }
}

/**
 * The threads a count of `day` (as of `at`) reads its sheriffs' handovers from, as the store names them
 * (the badge's path walked ahead of the count: closedOutcomes' `reads`): what src/crawl/freshness.ts
 * adds to the threads that decide the count. None without a store.
 */
export async function handoverReads(game: Game, day: number, at?: number): Promise<number[]> {
  return (await handoverReadsOf(game, [day], at)).get(day) ?? [];
}

/** handoverReads for each of `days` (as of each day's close, or `at`), the store opened once. */
export async function handoverReadsOf(game: Game, days: readonly number[], at?: number): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (!days.length || (!fs.existsSync(game.storePath) && !fs.existsSync(threadsDir(game.storePath)))) return out;
  await withStore(game, async (store) => {
    const counted = withKnownUids(game, store.users);
    for (const day of days) out.set(day, [...new Set((await closedOutcomes(counted, day, store, { at })).reads.map((r) => r.completeness.tid))]);
  }, []);
  return out;
}

/**
 * The closed days' outcomes counted again from a store held in memory (no derived files: a library
 * caller's, a test's), each with the threads its count read that the store does not hold completely.
 */
export function closedInStore(game: Game, store: StoreData): ClosedOutcomes {
  const posts = postsFromStore(store);
  return {
    outcome: (day) => {
      const read = new Set<number>();
      const outcome = closedFromPosts(game, (tid) => {
        read.add(tid);
        return posts(tid);
      }).outcome(day);
      return outcome && { ...outcome, unread: [...read].filter((t) => !completeness(store, t).complete).sort((a, b) => a - b) };
    },
    successionPosts: posts,
  };
}
