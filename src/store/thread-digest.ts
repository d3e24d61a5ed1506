/**
 * A thread as the day report looks back at it (the activity table, lurking streaks, avatar and signature
 * changes, evidence links), without its posts' words: per post who wrote it when, where it is, whether it
 * is deleted, and the avatar/signature each fetch showed on it. Earlier days' threads are read through
 * this digest instead of in full, so a report of day N parses day N's threads and not the whole game.
 *
 * A digest is derived from the thread's log alone (no game file: seats, days and players are applied
 * by the reader) and kept in the store's derived files under the log's key (src/store/derived-cache.ts):
 * a thread that changed is digested again from its log, any other is read from its digest.
 */
import { derivedKey, readDerived, threadLogKey, writeDerived } from './derived-cache.js';
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
 * On disk a digest is compact: the distinct sighting values once, and each post as
 * [pid, floor, at, author, authorId, deleted, ...sighting value indexes]; the url is rebuilt.
 */
interface SavedDigest {
  title: string;
  values: Array<string | null>;
  posts: Array<[number, number | null, number, string, number | null, 0 | 1, ...number[]]>;
}

function save(d: ThreadDigest): SavedDigest {
  const values: Array<string | null> = [];
  const index = new Map<string | null, number>();
  const ix = (v: string | null): number => {
    let i = index.get(v);
    if (i === undefined) index.set(v, (i = values.push(v) - 1));
    return i;
  };
  return {
    title: d.title,
    values,
    posts: d.posts.map((p) => {
      const row: SavedDigest['posts'][number] = [p.pid, p.floor, p.at, p.author, p.authorId, p.deleted ? 1 : 0];
      for (const s of p.sightings) row.push(ix(s.avatar), ix(s.signature), ix(s.firstSeen), ix(s.lastSeen));
      return row;
    }),
  };
}

function load(tid: number, forum: string, s: SavedDigest): ThreadDigest {
  const v = (i: number): string | null => s.values[i];
  // The posts of one fetched page share their sightings (same avatar, signature and fetch times): one
  // frozen list per distinct set, not a list and an object per post (~240 bytes each, 44,000 posts at 50k).
  const shared = new Map<string, readonly Sighting[]>();
  const stem = postUrlStem(forum, tid);
  return {
    tid,
    title: s.title,
    posts: s.posts.map((row) => {
      const [pid, floor, at, author, authorId, deleted] = row;
      const key = row.slice(6).join(',');
      let sightings = shared.get(key);
      if (!sightings) {
        const list: Sighting[] = [];
        for (let i = 6; i < row.length; i += 4) {
          list.push(Object.freeze({ avatar: v(row[i] as number), signature: v(row[i + 1] as number), firstSeen: v(row[i + 2] as number)!, lastSeen: v(row[i + 3] as number)! }));
        }
        shared.set(key, (sightings = Object.freeze(list)));
      }
      return { pid, tid, floor, at, url: stem + pid, author, authorId, deleted: deleted === 1, sightings };
    }),
  };
}

/**
 * The digests of the stored threads among `tids` (a thread without a log is left out), from the derived
 * files where the log did not change since, else digested from the log (read once for all of them) and saved.
 */
export async function threadDigests(storePath: string, forum: string, tids: readonly number[]): Promise<Map<number, ThreadDigest>> {
  const out = new Map<number, ThreadDigest>();
  const misses: Array<{ tid: number; key: string }> = [];
  for (const tid of tids) {
    const log = threadLogKey(storePath, tid);
    if (log === null) continue;
    const key = derivedKey({ digest: tid, log });
    const saved = readDerived<SavedDigest>(storePath, `thread-${tid}`, key);
    if (saved) out.set(tid, load(tid, forum, saved));
    else misses.push({ tid, key });
  }
  for (const { tid, key } of misses) {
    // One thread at a time: a digest costs one thread's memory, not the game's.
    const store = await openStore(storePath, { lock: false, forum, threads: [tid] });
    const saved = save(digestThread(store.data, tid));
    await store.close();
    writeDerived(storePath, `thread-${tid}`, key, saved);
    out.set(tid, load(tid, forum, saved)); // as a later run reads it
  }
  return out;
}
