/**
 * What a tally reads of the day's discussion thread: the posts that may hold a ballot (their current text
 * has 票, votes/ballot.ts mayHoldBallot — misplacedBallots reads no other) and how completely the thread
 * is stored (the floors of all its posts). The discussion is the day's longest thread (3.2 of the 4.3 MB
 * a day-10 tally read at 50k posts) and most of its posts are none of the count's business, so this is
 * kept in the store's derived files as of where its log was replayed to (store-file.ts LogPoint): a rerun
 * parses only the lines appended since — none when the thread did not change, the posts a crawl added
 * when it did — not the whole thread. A log rewritten (compaction, recovery) is replayed from its start.
 */
import { threadCompleteness } from '../store/completeness.js';
import { derivedKey, readDerived, writeDerived } from '../store/derived-cache.js';
import { replayThreadFrom, type LogPoint } from '../store/store-file.js';
import type { StoredPost, StoredThread } from '../store/types.js';
import type { ThreadRead } from '../store/with-store.js';
import { mayHoldBallot } from '../votes/ballot.js';

/** A thread's ballot posts as kept: where its log was replayed to, its record there, every post's current floor, the posts kept. */
interface Kept {
  point: LogPoint;
  thread: StoredThread | null;
  floors: Array<[pid: number, floor: number | null]>;
  posts: StoredPost[];
}

/** A thread's posts that may hold a ballot, in pid order, and how the thread is stored. */
export interface BallotPosts {
  posts: StoredPost[];
  read: ThreadRead;
}

/** Whether a stored post is kept: its current version's text may hold a ballot. */
const keeps = (sp: StoredPost): boolean => mayHoldBallot(sp.versions[sp.versions.length - 1].post.text);

/** (The key names what is kept: a change to `keeps` must change it.) */
const keyOf = (tid: number): string => derivedKey({ ballotPosts: tid, keeps: 'current text has 票' });

/**
 * Thread `tid`'s ballot posts from the store's log, through the derived file `ballots-<tid>` (saved
 * again when the log grew or was replayed afresh). A damaged log is refused as openStore refuses it; a
 * missing, damaged or other-keyed derived file is only a replay from the log's start. For a store with
 * thread logs (a version-1 file is read whole: its caller opens the thread as any other).
 */
export async function ballotPosts(storePath: string, tid: number): Promise<BallotPosts> {
  const name = `ballots-${tid}`;
  const key = keyOf(tid);
  const saved = readDerived<Kept>(storePath, name, key);
  const floors = new Map<number, number | null>();
  const posts = new Map<number, StoredPost>();
  const replayed = await replayThreadFrom(storePath, tid, saved ?? null, (resumed) => {
    if (resumed && saved) {
      for (const [pid, floor] of saved.floors) floors.set(pid, floor);
      for (const sp of saved.posts) posts.set(sp.pid, sp);
    }
    return (sp) => {
      // (a post of another thread in this log is not this thread's, as threadPosts reads a store)
      if (sp.tid !== tid) {
        floors.delete(sp.pid);
        posts.delete(sp.pid);
        return;
      }
      floors.set(sp.pid, sp.versions[sp.versions.length - 1].post.floor);
      if (keeps(sp)) posts.set(sp.pid, sp);
      else posts.delete(sp.pid);
    };
  });
  const thread = replayed?.thread ?? null;
  const kept = [...posts.values()].sort((a, b) => a.pid - b.pid);
  if (replayed && (!saved || !replayed.resumed || replayed.point.offset !== saved.point.offset)) {
    writeDerived(storePath, name, key, { point: replayed.point, thread, floors: [...floors], posts: kept } satisfies Kept);
  }
  const seen = new Set<number>();
  for (const f of floors.values()) if (f !== null && f > 0) seen.add(f);
  return { posts: kept, read: { stored: thread !== null, completeness: threadCompleteness(thread ?? undefined, tid, seen) } };
}
