/**
 * Avatar or signature changed during the game (rules-spec §7; m107 l.277 禁止玩家使用头像、签名档透露信息,
 * 062 l.336). Discuz renders every post with the author's *current* avatar and signature, so a change
 * shows between fetches, on whatever posts a fetch happened to show: the store keeps what each fetch
 * showed on each post (StoredPost.profiles). Per player, every distinct value is one interval of
 * fetches [first seen, last seen]; each value after the first is one change (issue #15: one flag per
 * change, the right way round, whatever posts were refetched). A value that comes back after another
 * (A → B → A) reads as the single change A → B.
 */
import { sightingsOf, type DigestPost, type SlicePost } from '../store/slice.js';

/**
 * A post the check reads: an earlier thread's digest (its sightings with it, shared by a fetched page's
 * posts: thread-digest.ts), or a post read in full, whose sightings are read off it here (sightingsOf) —
 * not a digest made of each of the day's posts first.
 */
export type ProfilePost = DigestPost | SlicePost;

export interface ProfileChange {
  player: string;
  what: 'avatar' | 'signature';
  before: string | null;
  after: string | null;
  /** The latest-posted post that showed the old value. */
  beforePost: ProfilePost;
  /** The post that is the evidence of the new value: the first one posted after the old value was last
   *  seen, or, when every post showing it is older (a recrawl), the latest-posted of those. */
  post: ProfilePost;
  /** Whether `post` was posted after the old value was last seen (then the change is timed by it). */
  postedAfter: boolean;
  /** When a fetch last showed the old value and first showed the new one (epoch ms). */
  oldLastSeen: number;
  newFirstSeen: number;
}

function norm(v: string | null | undefined): string | null {
  const t = (v ?? '').replace(/\s+/g, ' ').trim();
  return t || null;
}

/** A sighting read as values: the normalised avatar and signature, the fetch interval in epoch ms. */
interface Read {
  avatar: string | null;
  signature: string | null;
  first: number;
  last: number;
}

/** One account's posts (as given), the latest-posted post of each sightings list they have, and its values, each with the fetches that showed it. */
interface Account {
  player: string;
  posts: ProfilePost[];
  lists: Map<object, ProfilePost>;
  avatar: Map<string | null, Seen>;
  signature: Map<string | null, Seen>;
}

interface Seen {
  value: string | null;
  first: number;
  last: number;
  /** The latest-posted post that showed it. */
  latest: ProfilePost;
}

/** Posts in time order (pid within a second). */
const later = (a: ProfilePost, b: ProfilePost): boolean => a.at > b.at || (a.at === b.at && a.pid > b.pid);

/** Every change of avatar or signature per player across the given threads' posts (all the game's threads, as seated). */
export function profileChanges(threads: ReadonlyArray<readonly ProfilePost[]>, players: readonly string[]): ProfileChange[] {
  const inGame = new Set(players);
  const out: ProfileChange[] = [];
  // A crawl's fetch times are shared by thousands of sightings: each ISO time parsed once, each value normalised once.
  const times = new Map<string, number>();
  const ms = (iso: string): number => {
    let t = times.get(iso);
    if (t === undefined) times.set(iso, (t = Date.parse(iso)));
    return t;
  };
  const norms = new Map<string | null, string | null>();
  const normed = (v: string | null): string | null => {
    let n = norms.get(v);
    if (n === undefined) norms.set(v, (n = norm(v)));
    return n;
  };
  // A list of sightings read as values once: a fetched page's posts share one list (thread-digest.ts);
  // a post read in full has its own, read off it once.
  const resolved = new Map<object, Read[]>();
  const listOf = (p: ProfilePost): object => ('sightings' in p ? p.sightings : p);
  const read = (p: ProfilePost): Read[] => {
    const key = listOf(p);
    let r = resolved.get(key);
    if (!r) {
      const list = 'sightings' in p ? p.sightings : sightingsOf(p);
      resolved.set(key, (r = list.map((s) => ({ avatar: normed(s.avatar), signature: normed(s.signature), first: ms(s.firstSeen), last: ms(s.lastSeen) }))));
    }
    return r;
  };
  const note = (values: Map<string | null, Seen>, value: string | null, first: number, last: number, p: ProfilePost): void => {
    const seen = values.get(value);
    if (!seen) values.set(value, { value, first, last, latest: p });
    else {
      if (first < seen.first) seen.first = first;
      if (last > seen.last) seen.last = last;
      if (later(p, seen.latest)) seen.latest = p;
    }
  };
  // By account (the seat's name, then the account's uid): a substitute (替补) playing the seat has its own avatar.
  // One pass over the posts (indexed loops: this walks every post of the game, and an iterator would allocate
  // per step until optimised), keeping each sightings list's latest-posted post: a fetched page's posts share
  // one list, so the values are noted once a list, not once a post — in the order the lists were first met,
  // as a walk noting every post would meet them (avatar, then signature, in the output's order).
  const byAccount = new Map<string, Map<number | null, Account>>();
  for (let t = 0; t < threads.length; t++) {
    const list = threads[t];
    for (let i = 0; i < list.length; i++) {
      const p = list[i];
      if (!inGame.has(p.author) || p.deleted) continue;
      let ids = byAccount.get(p.author);
      if (!ids) byAccount.set(p.author, (ids = new Map()));
      let account = ids.get(p.authorId);
      if (!account) ids.set(p.authorId, (account = { player: p.author, posts: [], lists: new Map(), avatar: new Map(), signature: new Map() }));
      account.posts.push(p);
      const key = listOf(p);
      const latest = account.lists.get(key);
      if (!latest || later(p, latest)) account.lists.set(key, p);
    }
  }
  for (const ids of byAccount.values()) {
    for (const account of ids.values()) {
      for (const p of account.lists.values()) {
        const sightings = read(p);
        for (let j = 0; j < sightings.length; j++) {
          const s = sightings[j];
          note(account.avatar, s.avatar, s.first, s.last, p);
          note(account.signature, s.signature, s.first, s.last, p);
        }
      }
    }
  }
  /** The earliest-posted of the account's posts that showed `value` and were posted after `after`. */
  const earliestAfter = (account: Account, what: 'avatar' | 'signature', value: string | null, after: number): ProfilePost | undefined => {
    let best: ProfilePost | undefined;
    for (const p of account.posts) {
      if (p.at > after && (!best || later(best, p)) && read(p).some((s) => s[what] === value)) best = p;
    }
    return best;
  };
  for (const ids of byAccount.values()) {
    for (const account of ids.values()) {
      const player = account.player;
      for (const what of ['avatar', 'signature'] as const) {
        const order = [...account[what].values()].sort((a, b) => a.first - b.first);
        for (let i = 1; i < order.length; i++) {
          const old = order[i - 1];
          const now = order[i];
          const firstAfter = earliestAfter(account, what, now.value, old.last);
          const post = firstAfter ?? now.latest;
          out.push({ player, what, before: old.value, after: now.value, beforePost: old.latest, post, postedAfter: firstAfter !== undefined, oldLastSeen: old.last, newFirstSeen: now.first });
        }
      }
    }
  }
  return out.sort((a, b) => a.newFirstSeen - b.newFirstSeen || a.player.localeCompare(b.player));
}
