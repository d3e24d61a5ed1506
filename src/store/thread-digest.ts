/**
 * A thread as the day report looks back at it (the activity table, lurking streaks, avatar and signature
 * changes, evidence links), without its posts' words: per post who wrote it when, where it is, whether it
 * is deleted, and the avatar/signature each fetch showed on it. Earlier days' threads are read through
 * this digest instead of in full, so a report of day N parses day N's threads and not the whole game.
 *
 * A digest is derived from the thread's log alone (no game file: seats, days and players are applied
 * by the reader) and kept in the store's derived files under the log's key (src/store/memo.ts):
 * a thread that changed is digested again from its log, any other is read from its digest.
 */
import { memoKey, derivedKeyOf, readDerived, threadLogKey, writeDerived, type MemoKey } from './memo.js';
import { digestPost, postUrlStem, threadPosts, type DigestPost, type Sighting } from './slice.js';
import { openStore } from './store-file.js';
import type { StoreData } from './types.js';

export interface ThreadDigest {
  tid: number;
  title: string;
  /** In thread order (by pid). */
  posts: DigestPost[];
}

/** Threads by tid, as digests: what a day report reads of the threads it does not read in full. */
export type LookBack = ReadonlyMap<number, ThreadDigest>;

/** Thread `tid` of an opened store, digested. */
export function digestThread(store: StoreData, tid: number): ThreadDigest {
  return { tid, title: store.threads[String(tid)]?.title ?? '', posts: threadPosts(store, tid).map(digestPost) };
}

/**
 * On disk a digest is compact and by column (a column of numbers parses into one unboxed array, not a
 * small array and a number object per post): the distinct sighting values once, each distinct list of
 * sightings once (as value indexes, four per sighting), and per post its pid, floor, time, author (an
 * index into `authors`), uid, whether deleted and its list of sightings; the url is rebuilt.
 */
interface SavedDigest extends DigestColumns {
  title: string;
  values: Array<string | null>;
  sightings: number[][];
}

/** A digest post's fields by column, as saved (`author`: an index into `authors`; `seen`: into the saver's lists of sightings). */
export interface DigestColumns {
  authors: string[];
  pid: number[];
  floor: Array<number | null>;
  at: number[];
  author: number[];
  authorId: Array<number | null>;
  deleted: Array<0 | 1>;
  seen: number[];
}

/** An index per distinct value, in order of first use. */
function indexer<T>(): { list: T[]; ix: (v: T) => number } {
  const list: T[] = [];
  const index = new Map<T, number>();
  return {
    list,
    ix: (v) => {
      let i = index.get(v);
      if (i === undefined) index.set(v, (i = list.push(v) - 1));
      return i;
    },
  };
}

function save(d: ThreadDigest): SavedDigest {
  const values = indexer<string | null>();
  const authors = indexer<string>();
  const lists = indexer<string>();
  const sightings: number[][] = [];
  const seenOf = (list: readonly Sighting[]): number => {
    const row = list.flatMap((x) => [values.ix(x.avatar), values.ix(x.signature), values.ix(x.firstSeen), values.ix(x.lastSeen)]);
    const i = lists.ix(row.join(','));
    if (i === sightings.length) sightings.push(row);
    return i;
  };
  const ps = d.posts;
  return {
    title: d.title,
    values: values.list,
    sightings,
    authors: authors.list,
    pid: ps.map((p) => p.pid),
    floor: ps.map((p) => p.floor),
    at: ps.map((p) => p.at),
    author: ps.map((p) => authors.ix(p.author)),
    authorId: ps.map((p) => p.authorId),
    deleted: ps.map((p) => (p.deleted ? 1 : 0)),
    seen: ps.map((p) => seenOf(p.sightings)),
  };
}

function load(tid: number, forum: string, s: SavedDigest): ThreadDigest {
  const v = (i: number): string | null => s.values[i];
  // The posts of one fetched page share their sightings (same avatar, signature and fetch times): one
  // frozen list per distinct set, not a list and an object per post (~240 bytes each, 44,000 posts at 50k).
  const shared = s.sightings.map((row) => {
    const list: Sighting[] = [];
    for (let i = 0; i < row.length; i += 4) list.push(Object.freeze({ avatar: v(row[i]), signature: v(row[i + 1]), firstSeen: v(row[i + 2])!, lastSeen: v(row[i + 3])! }));
    return Object.freeze(list);
  });
  const Post = lookBackPost(forum);
  const posts: DigestPost[] = new Array(s.pid.length);
  for (let i = 0; i < posts.length; i++) {
    posts[i] = new Post(s.pid[i], tid, s.floor[i], s.at[i], s.authors[s.author[i]], s.authorId[i], s.deleted[i] === 1, shared[s.seen[i]]);
  }
  return { tid, title: s.title, posts };
}

/**
 * The class of a forum's look-back posts (the posts of the digests read back): each post's link
 * (postUrl's text) is made when read — a report links a few hundred of them — not kept by every post
 * (its string and slot: ~64 bytes a post, 11 MB of the look-back's 176,000 posts at 200,000). One class
 * per forum, not per thread: the code that walks every thread's posts then sees one shape.
 */
function lookBackPost(forum: string) {
  let Post = lookBackClasses.get(forum);
  if (!Post) lookBackClasses.set(forum, (Post = lookBackClass(forum)));
  return Post;
}

const lookBackClasses = new Map<string, ReturnType<typeof lookBackClass>>();

function lookBackClass(forum: string) {
  return class LookBackPost implements DigestPost {
    // (declared, not class fields: a field is defined on each instance before the constructor's
    // assignments, which made reading a look-back's 44,000 posts at 50,000 twice as slow)
    declare readonly pid: number;
    declare readonly tid: number;
    declare readonly floor: number | null;
    declare readonly at: number;
    declare readonly author: string;
    declare readonly authorId: number | null;
    declare readonly deleted: boolean;
    declare readonly sightings: readonly Sighting[];

    constructor(pid: number, tid: number, floor: number | null, at: number, author: string, authorId: number | null, deleted: boolean, sightings: readonly Sighting[]) {
      this.pid = pid;
      this.tid = tid;
      this.floor = floor;
      this.at = at;
      this.author = author;
      this.authorId = authorId;
      this.deleted = deleted;
      this.sightings = sightings;
    }

    get url(): string {
      return postUrlStem(forum, this.tid) + this.pid;
    }
  };
}

const digestKey = (tid: number, log: string): MemoKey => memoKey({ digest: tid, log });

/** Digests thread `tid` from its log alone and saves it under `key`. */
async function digestFromLog(storePath: string, tid: number, key: MemoKey): Promise<SavedDigest> {
  // One thread at a time: a digest costs one thread's memory, not the game's.
  const store = await openStore(storePath, { lock: false, threads: [tid] });
  const saved = save(digestThread(store.data, tid));
  await store.close();
  writeDerived(storePath, `thread-${tid}`, key, saved);
  return saved;
}

/**
 * The digests of the stored threads among `tids` (a thread without a log is left out), from the derived
 * files where the log did not change since, else digested from the log (read once for all of them) and saved.
 */
export async function threadDigests(storePath: string, forum: string, tids: readonly number[]): Promise<Map<number, ThreadDigest>> {
  const out = new Map<number, ThreadDigest>();
  const misses: Array<{ tid: number; key: MemoKey }> = [];
  for (const tid of tids) {
    const log = threadLogKey(storePath, tid);
    if (log === null) continue;
    const key = digestKey(tid, log);
    const saved = readDerived<SavedDigest>(storePath, `thread-${tid}`, key);
    if (saved) out.set(tid, load(tid, forum, saved));
    else misses.push({ tid, key });
  }
  for (const { tid, key } of misses) out.set(tid, load(tid, forum, await digestFromLog(storePath, tid, key))); // as a later run reads it
  return out;
}

/**
 * Digests the stored threads among `tids` whose derived file is missing or saved under another key,
 * reading no other (only each file's key line): a report calls it before it opens the day's threads,
 * so that a first run reads the earlier threads' logs with nothing else held. A file with the right
 * key that is damaged is found when threadDigests reads it, and made again then.
 */
export async function makeMissingDigests(storePath: string, tids: readonly number[]): Promise<void> {
  for (const tid of tids) {
    const log = threadLogKey(storePath, tid);
    if (log === null) continue;
    const key = digestKey(tid, log);
    if (derivedKeyOf(storePath, `thread-${tid}`) !== key) await digestFromLog(storePath, tid, key);
  }
}
