/**
 * A thread as a report keeps it when it does not open it (src/derived/closing-inputs.ts readApart):
 * every post scanned once (violations/scanned-post.ts scannedPost: what counting, the avatar/signature check
 * and the post flags read of it, and its content's flags), with the posts that may hold a ballot in
 * full (what the count reads of the thread: votes/ballot.ts mayHoldBallot), kept in the store's derived
 * files as of where the log was read to (kept-posts.ts): a rerun scans what was appended since.
 *
 * Saved by column, as a thread digest is (src/store/thread-digest.ts): a column of numbers parses
 * into one array, not an object per post; each distinct list of sightings once (a fetched page's
 * posts share theirs); the link rebuilt, and a flag saved without what it repeats of its post.
 */
import type { Game } from '../game/types.js';
import { postUrlStem, toSlicePost, type Sighting } from '../store/slice.js';
import type { DigestColumns } from '../store/thread-digest.js';
import { currentVersion, type StoredPost } from '../store/types.js';
import type { Flag } from '../violations/flag.js';
import type { WordingOf } from '../violations/scan.js';
import { scannedPost, type ScannedPost } from '../violations/scanned-post.js';
import { mayHoldBallot } from '../votes/ballot.js';
import type { Keep } from './kept-posts.js';

/** What is kept of a post: it scanned, and in full when it may hold a ballot. */
export interface ScannedEntry {
  pid: number;
  post: ScannedPost;
  ballot?: StoredPost;
}

/**
 * The thread's posts scanned with `wording` under the game's rules, kept under `key` (what else the
 * scan depends on: the code, the wording's lists and names, the language).
 */
export function scannedThread(game: Game, wording: WordingOf, key: unknown): Keep<ScannedEntry> {
  return {
    name: 'scanned',
    key: { key, game },
    keep: (sp) => {
      const post = scannedPost(game, toSlicePost(game.forum, sp), wording);
      return mayHoldBallot(currentVersion(sp).post.text) ? { pid: sp.pid, post, ballot: sp } : { pid: sp.pid, post };
    },
    layout: { pack, unpack: (saved) => unpack(game.forum, saved as Saved) },
  };
}

/** A flag as saved: without the fields it shares with its post (postFlag's), which are restored in their place. */
type SavedFlag = Omit<Flag, 'player' | 'pid' | 'tid' | 'floor' | 'at' | 'url'>;

interface Saved extends DigestColumns {
  tid: number | null;
  sightings: Sighting[][];
  missing: Array<0 | 1>;
  text: string[];
  /** By row, the rows that have any. */
  flags: Record<string, SavedFlag[]>;
  ballots: Record<string, StoredPost>;
}

const NO_FLAGS: readonly Flag[] = Object.freeze([]);

function pack(entries: readonly ScannedEntry[]): Saved {
  const authors = new Map<string, number>();
  const lists = new Map<string, number>();
  const s: Saved = {
    tid: entries[0]?.post.tid ?? null, authors: [], sightings: [], pid: [], floor: [], at: [], author: [], authorId: [], deleted: [], missing: [], text: [], seen: [], flags: {}, ballots: {},
  };
  const ix = <T>(map: Map<string, number>, list: T[], k: string, v: T): number => {
    let i = map.get(k);
    if (i === undefined) map.set(k, (i = list.push(v) - 1));
    return i;
  };
  entries.forEach(({ post: p, ballot }, row) => {
    s.pid.push(p.pid);
    s.floor.push(p.floor);
    s.at.push(p.at);
    s.author.push(ix(authors, s.authors, p.author, p.author));
    s.authorId.push(p.authorId);
    s.deleted.push(p.deleted ? 1 : 0);
    s.missing.push(p.missing ? 1 : 0);
    s.text.push(p.text);
    s.seen.push(ix(lists, s.sightings, JSON.stringify(p.sightings), [...p.sightings]));
    if (p.flags.length) {
      s.flags[row] = p.flags.map((f) => {
        const { player, pid, tid, floor, at, url, ...rest } = f;
        if (player !== p.author || pid !== p.pid || tid !== p.tid || floor !== p.floor || at !== p.at || url !== p.url) throw new Error(`flag of post ${p.pid} is not about it`);
        return rest;
      });
    }
    if (ballot) s.ballots[row] = ballot;
  });
  return s;
}

function unpack(forum: string, s: Saved): ScannedEntry[] {
  if (s.tid === null) return [];
  const tid = s.tid;
  const stem = postUrlStem(forum, tid);
  const shared = s.sightings.map((list) => Object.freeze(list.map((x) => Object.freeze(x))));
  const out: ScannedEntry[] = new Array(s.pid.length);
  for (let i = 0; i < out.length; i++) {
    const pid = s.pid[i];
    const author = s.authors[s.author[i]];
    const floor = s.floor[i];
    const at = s.at[i];
    const url = stem + pid; // postUrl's text
    const saved = s.flags[i];
    const flags = saved ? saved.map(({ kind, ...rest }): Flag => ({ kind, player: author, pid, tid, floor, at, url, ...rest })) : NO_FLAGS;
    const post: ScannedPost = {
      pid, tid, floor, at, url, author, authorId: s.authorId[i], deleted: s.deleted[i] === 1, sightings: shared[s.seen[i]], text: s.text[i], missing: s.missing[i] === 1, flags,
    };
    const ballot = s.ballots[i];
    out[i] = ballot ? { pid, post, ballot } : { pid, post };
  }
  return out;
}
