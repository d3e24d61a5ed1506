/**
 * What a tally reads of a thread it reads only in part: the day's discussion thread, read for misplaced
 * ballots alone (misplaced.ts: posts whose current text has 票, votes/ballot.ts mayHoldBallot), and the
 * process thread, read for the day's acceleration requests and misplaced ballots (acceleration.ts,
 * misplaced.ts: posts of the day's window) — with how completely each is stored (the floors of all its
 * posts). The discussion is the day's longest thread (most of what a late day's tally reads)
 * and the process thread grows all game, and most of their posts are none of the count's
 * business. So the posts a count keeps are kept in the store's derived files as of where the log was
 * replayed to (store-file.ts LogPoint): a rerun parses only the lines appended since — none when the
 * thread did not change, the posts a crawl added when it did — not the whole thread. A log rewritten
 * (compaction, recovery) is replayed from its start.
 */
import type { Game, GameDay } from '../game/types.js';
import { threadCompleteness } from '../store/completeness.js';
import { appendDerived, memoKey, readDerivedAppended, readDerivedSave, writeDerived } from '../store/memo.js';
import { replayThreadFrom, type LogPoint } from '../store/store-file.js';
import { currentVersion, type FetchedPageRecord, type StoredPost, type StoredThread } from '../store/types.js';
import { sliceTime } from '../store/slice.js';
import type { ThreadRead } from '../store/with-store.js';
import { mayHoldBallot } from '../votes/ballot.js';
import { namesSuccessor, successionPatternsKey } from '../votes/succession.js';
import { strictlyBefore, timeSpan } from '../game/forum-time.js';

/**
 * What is kept of a thread's posts: `keep` gives what is kept of a stored post (undefined: nothing);
 * `name` and `key` name it (the file, and what it depends on besides the thread's log).
 */
export interface Keep<T extends { pid: number } = StoredPost> {
  name: string;
  key: unknown;
  keep: (sp: StoredPost) => T | undefined;
  /** The kept posts as saved and read back (default: as they are); its layout is named in `key`. */
  layout?: { pack: (posts: readonly T[]) => unknown; unpack: (packed: unknown) => T[] };
}

/** Keeps the stored posts `keeps` holds to. */
const storedPosts = (name: string, key: unknown, keeps: (sp: StoredPost) => boolean): Keep => ({ name, key, keep: (sp) => (keeps(sp) ? sp : undefined) });

/** The posts whose current text may hold a ballot: what misplacedBallots reads of a thread. */
export const ballotShaped: Keep = storedPosts('ballots', null, (sp) => mayHoldBallot(currentVersion(sp).post.text));

/**
 * The posts whose text names a successor, or which this account cannot read (votes/succession.ts
 * successionCandidates, with every version: one read before it became unreadable is read as then): all a
 * sheriff's handover reads of a thread.
 */
export function namingSuccessor(game: Game): Keep {
  const names = namesSuccessor(game);
  return storedPosts('succession', { patterns: successionPatternsKey(game) }, (sp) => {
    const { text, deleted, locked, readable } = currentVersion(sp).post;
    return names({ text, deleted, locked, readable, versions: sp.versions });
  });
}

/**
 * The posts whose time may fall in day `d`'s window (not surely before it opens nor surely at or after
 * it closes): all that the day's acceleration count and misplaced ballots read of the process thread.
 */
export function inWindow(d: GameDay): Keep {
  return storedPosts(`day${d.day}`, { window: [d.opens, d.closes] }, (sp) => {
    const span = timeSpan(sliceTime(currentVersion(sp).post));
    return strictlyBefore(span, d.opens) !== 'yes' && strictlyBefore(span, d.closes) !== 'no';
  });
}

/** The kept posts as saved: where the log was replayed to, the thread's record there, every post's current floor, the posts kept. */
interface Kept {
  point: LogPoint;
  thread: StoredThread | null;
  floors: Array<[pid: number, floor: number | null]>;
  posts: unknown;
}

/**
 * A replay's changes appended to a save: from which point to which, the thread's record there (its
 * pages only where they differ from the record before: a recrawl changes the last page or two of
 * hundreds), the floors and kept posts it set, and the pids it left without a floor or not kept.
 */
interface Appended extends Omit<Kept, 'thread'> {
  from: LogPoint;
  thread: RecordChange | null;
  noFloor: number[];
  notKept: number[];
}

/** A thread record as a change to the one before it: the pages that differ, and those it no longer has. */
interface RecordChange extends StoredThread {
  pagesGone: string[];
}

/** `next` as a change to `prev`. */
function recordChange(prev: StoredThread | null, next: StoredThread): RecordChange {
  const pages: Record<string, FetchedPageRecord> = {};
  for (const [n, page] of Object.entries(next.pages)) {
    const was = prev?.pages[n];
    if (!was || JSON.stringify(was) !== JSON.stringify(page)) pages[n] = page;
  }
  const pagesGone = prev ? Object.keys(prev.pages).filter((n) => !(n in next.pages)) : [];
  return { ...next, pages, pagesGone };
}

/** The record a change gives after `prev`. */
function withChange(prev: StoredThread | null, change: RecordChange): StoredThread {
  const { pagesGone, ...next } = change;
  const pages = { ...prev?.pages, ...next.pages };
  for (const n of pagesGone) delete pages[n];
  return { ...next, pages };
}

/** A thread's kept posts, in pid order, and how the thread is stored (`thread`: its record, null when not stored). */
export interface KeptPosts<T = StoredPost> {
  posts: T[];
  read: ThreadRead;
  thread: StoredThread | null;
}

const samePoint = (a: LogPoint, b: LogPoint): boolean => a.ino === b.ino && a.offset === b.offset && a.sum === b.sum;

/**
 * Thread `tid`'s posts that `keep` keeps, from the store's log, through the derived file
 * `kept-<name>-<tid>` and the changes appended to it. A rerun after a crawl appends what its replay
 * changed (the posts the crawl added, not every kept post written again), until the changes weigh half
 * the save: then the whole is saved again. A damaged line after the saved point is refused as openStore
 * refuses it; the lines before it are trusted as LogPoint says (`bansha store check` reads them all); a
 * missing, damaged or other-keyed derived file is only a replay from the log's start, and appended
 * changes that are torn or do not follow one another (two runs at once) only a replay from the last
 * that does. For a store with thread logs (a version-1 file is read whole: its caller opens the thread).
 */
export async function keptPosts<T extends { pid: number } = StoredPost>(storePath: string, tid: number, keep: Keep<T>): Promise<KeptPosts<T>> {
  const name = `kept-${keep.name}-${tid}`;
  // (floors saved signed: a post a refetch no longer shows has its floor negated, for completeness's live count)
  const key = memoKey({ kept: tid, keep: keep.key });
  const saved = readDerivedSave<Kept>(storePath, name, key);
  const unpack = keep.layout?.unpack ?? ((packed: unknown) => packed as T[]);
  const pack = (posts: readonly T[]): unknown => (keep.layout ? keep.layout.pack(posts) : posts);
  // The save, then each change appended that follows the one before: where the log was read to is the last one's point.
  const chain: Array<Kept | (Appended & { record: StoredThread | null })> = [];
  // (a change's record whole: the save's own, or the one its pages give after the record before)
  const recordAt = (k: (typeof chain)[number]): StoredThread | null => ('record' in k ? k.record : k.thread);
  // (whether a change appended now would be read: none before it torn, damaged or not following)
  let appendable = false;
  if (saved) {
    chain.push(saved.value);
    const appended = readDerivedAppended<Appended>(storePath, name, saved.head);
    for (const change of appended.values) {
      const before = chain[chain.length - 1];
      if (!samePoint(change.from, before.point)) break;
      chain.push({ ...change, record: change.thread && withChange(recordAt(before), change.thread) });
    }
    appendable = appended.whole && chain.length === appended.values.length + 1 && appended.bytes <= saved.bytes / 2;
  }
  const last = chain.at(-1);
  const from = last ? { point: last.point, thread: recordAt(last) } : null;
  const state = new KeptState<T>();
  let resumed = false;
  const replayed = await replayThreadFrom(storePath, tid, from, (fromPoint) => {
    // (a start from the log's beginning, after a resumed replay found damage: nothing kept so far holds)
    resumed = fromPoint;
    state.clear();
    // (the save first, then the changes appended to it)
    if (fromPoint) chain.forEach((k, i) => (i === 0 ? state.base(k.floors, unpack(k.posts)) : state.apply(k as Appended, unpack(k.posts))));
    return (sp) => {
      // (a post of another thread in this log is not this thread's, as threadPosts reads a store)
      if (sp.tid !== tid) state.set(sp.pid, undefined, null);
      else state.set(sp.pid, signedFloor(sp), keep.keep(sp) ?? null);
    };
  });
  const thread = replayed?.thread ?? null;
  const kept = state.posts();
  if (replayed?.moved) {
    // (saved whole the first time, after a replay from the start, once the changes weigh half the save, and after one torn)
    if (!resumed || !saved || !from || !appendable) {
      writeDerived(storePath, name, key, { point: replayed.point, thread, floors: state.floors(), posts: pack(kept) } satisfies Kept);
    } else {
      const pids = [...state.touched].sort((a, b) => a - b);
      const floorOf = (pid: number) => state.changedFloor.get(pid);
      const postOf = (pid: number) => state.changedPost.get(pid);
      appendDerived(storePath, name, saved.head, {
        from: from.point, point: replayed.point, thread: thread && recordChange(from.thread, thread),
        floors: pids.flatMap((pid): Array<[number, number | null]> => (floorOf(pid) !== undefined ? [[pid, floorOf(pid)!]] : [])),
        posts: pack(pids.flatMap((pid) => (postOf(pid) ? [postOf(pid)!] : []))),
        noFloor: pids.filter((pid) => floorOf(pid) === undefined),
        notKept: pids.filter((pid) => !postOf(pid)),
      } satisfies Appended);
    }
  }
  const seen = new Set<number>();
  const live = new Set<number>();
  state.eachFloor((f) => {
    if (f !== null && f !== 0) seen.add(Math.abs(f));
    if (f !== null && f > 0) live.add(f);
  });
  return { posts: kept, thread, read: { stored: thread !== null, completeness: threadCompleteness(thread ?? undefined, tid, seen, live.size) } };
}

/** A stored post's current floor as the save keeps it: negated for a post a refetch no longer shows (null: none). */
function signedFloor(sp: StoredPost): number | null {
  const floor = currentVersion(sp).post.floor;
  return floor !== null && sp.missingSince !== null ? -floor : floor;
}

/**
 * A thread's kept posts and current floors while its log is replayed: the save's lists as read (posts
 * in pid order), and by pid what changed since — the changes appended to the save, then the replay's
 * (`touched`). A rerun after a crawl changes a few posts of thousands: their lists are not copied into
 * maps of every post, only merged once at the end.
 */
class KeptState<T extends { pid: number }> {
  private savedFloors: ReadonlyArray<readonly [number, number | null]> = [];
  private savedPosts: readonly T[] = [];
  /** By pid, the floor (undefined: the thread no longer has the post) and the kept post (null: not kept) changed since the save. */
  readonly changedFloor = new Map<number, number | null | undefined>();
  readonly changedPost = new Map<number, T | null>();
  readonly touched = new Set<number>();

  clear(): void {
    this.savedFloors = [];
    this.savedPosts = [];
    this.changedFloor.clear();
    this.changedPost.clear();
    this.touched.clear();
  }

  base(floors: ReadonlyArray<readonly [number, number | null]>, posts: readonly T[]): void {
    this.savedFloors = floors;
    this.savedPosts = posts;
  }

  apply(change: Appended, posts: readonly T[]): void {
    for (const pid of change.noFloor) this.changedFloor.set(pid, undefined);
    for (const pid of change.notKept) this.changedPost.set(pid, null);
    for (const [pid, floor] of change.floors) this.changedFloor.set(pid, floor);
    for (const p of posts) this.changedPost.set(p.pid, p);
  }

  set(pid: number, floor: number | null | undefined, post: T | null): void {
    this.touched.add(pid);
    this.changedFloor.set(pid, floor);
    this.changedPost.set(pid, post);
  }

  /** The kept posts, in pid order. */
  posts(): T[] {
    const changed = [...this.changedPost.values()].filter((p): p is T => p !== null).sort((a, b) => a.pid - b.pid);
    const out: T[] = [];
    let j = 0;
    for (const p of this.savedPosts) {
      if (this.changedPost.has(p.pid)) continue;
      while (j < changed.length && changed[j].pid < p.pid) out.push(changed[j++]);
      out.push(p);
    }
    while (j < changed.length) out.push(changed[j++]);
    return out;
  }

  /** Each post's current floor (a post the thread no longer has left out). */
  eachFloor(f: (floor: number | null, pid: number) => void): void {
    for (const [pid, floor] of this.savedFloors) if (!this.changedFloor.has(pid)) f(floor, pid);
    for (const [pid, floor] of this.changedFloor) if (floor !== undefined) f(floor, pid);
  }

  floors(): Array<[number, number | null]> {
    const out: Array<[number, number | null]> = [];
    this.eachFloor((floor, pid) => out.push([pid, floor]));
    return out;
  }
}
