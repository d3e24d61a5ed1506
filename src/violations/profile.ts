/**
 * Avatar or signature changed during the game (rules-spec §7; m107 l.277 禁止玩家使用头像、签名档透露信息,
 * 062 l.336). Discuz renders every post with the author's *current* avatar and signature, so a change
 * shows between fetches, on whatever posts a fetch happened to show: the store keeps what each fetch
 * showed on each post (StoredPost.profiles). Per player, every distinct value is one interval of
 * fetches [first seen, last seen]; each value after the first is one change (issue #15: one flag per
 * change, the right way round, whatever posts were refetched). A value that comes back after another
 * (A → B → A) reads as the single change A → B.
 */
import { postUrl, sightingsOf, type DigestPost, type SlicePost } from '../store/slice.js';

/**
 * A post the check reads: an earlier thread's digest (its sightings with it, shared by a fetched page's
 * posts: thread-digest.ts), or a post read in full, whose sightings are read off it here (sightingsOf) —
 * not a digest made of each of the day's posts first.
 */
export type ProfilePost = DigestPost | SlicePost;

/** A post a change names: where it is and who wrote it (a post given, or one of a ProfileBase's). */
export type ProfileRef = Pick<SlicePost, 'pid' | 'tid' | 'floor' | 'at' | 'url' | 'author'>;

export interface ProfileChange {
  player: string;
  what: 'avatar' | 'signature';
  before: string | null;
  after: string | null;
  /** The latest-posted post that showed the old value. */
  beforePost: ProfileRef;
  /** The post that is the evidence of the new value: the first one posted after the old value was last
   *  seen, or, when every post showing it is older (a recrawl), the latest-posted of those. */
  post: ProfileRef;
  /** Whether `post` was posted after the old value was last seen (then the change is timed by it). */
  postedAfter: boolean;
  /** When a fetch last showed the old value and first showed the new one (epoch ms). */
  oldLastSeen: number;
  newFirstSeen: number;
}

/**
 * What the check reads of some threads' posts, summed up to be read again beside other threads' (a day
 * report's earlier threads, which do not change while its own grow: src/derived/look-back.ts): per
 * account, its posts in posted order by column, and each value with its fetch interval and the posts
 * that showed it (as [start, end) index ranges: a value shows on runs of posts).
 */
export interface ProfileBase {
  accounts: BaseAccount[];
}

export interface BaseAccount {
  player: string;
  authorId: number | null;
  pid: number[];
  tid: number[];
  floor: Array<number | null>;
  at: number[];
  avatar: BaseValue[];
  signature: BaseValue[];
}

export interface BaseValue {
  value: string | null;
  first: number;
  last: number;
  /** Start and end indexes into the account's posts, pairs in ascending order. */
  ranges: number[];
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
  authorId: number | null;
  posts: ProfilePost[];
  lists: Map<object, ProfilePost>;
  avatar: Map<string | null, Seen>;
  signature: Map<string | null, Seen>;
  /** Its part summed up in a ProfileBase, when there is one. */
  base?: { account: BaseAccount; avatar: Map<string | null, BaseValue>; signature: Map<string | null, BaseValue> };
}

interface Seen {
  value: string | null;
  first: number;
  last: number;
  /** The latest-posted post that showed it. */
  latest: ProfileRef;
}

/** Posts in time order (pid within a second). */
const later = (a: ProfileRef, b: ProfileRef): boolean => a.at > b.at || (a.at === b.at && a.pid > b.pid);

/** The posts' accounts, and how a post's sightings read. */
function walkAccounts(threads: ReadonlyArray<readonly ProfilePost[]>, players: readonly string[], accounts = new Map<string, Map<number | null, Account>>()) {
  const inGame = new Set(players);
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
  const note = (values: Map<string | null, Seen>, value: string | null, first: number, last: number, p: ProfileRef): void => {
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
  // one list, so the values are noted once a list, not once a post.
  for (let t = 0; t < threads.length; t++) {
    const list = threads[t];
    for (let i = 0; i < list.length; i++) {
      const p = list[i];
      if (!inGame.has(p.author) || p.deleted || ('readable' in p && p.readable === false)) continue; // (a notice in its place: not the author's profile either)
      const account = accountOf(accounts, p.author, p.authorId);
      account.posts.push(p);
      const key = listOf(p);
      const latest = account.lists.get(key);
      if (!latest || later(p, latest)) account.lists.set(key, p);
    }
  }
  for (const ids of accounts.values()) {
    for (const account of ids.values()) {
      for (const p of account.lists.values()) {
        const sightings = read(p);
        for (let j = 0; j < sightings.length; j++) {
          const s = sightings[j];
          note(account.avatar, s.avatar, s.first, s.last, p);
          note(account.signature, s.signature, s.first, s.last, p);
        }
      }
      account.lists.clear(); // (noted: not held through the rest, a map of every page an account posted on)
    }
  }
  return { accounts, read };
}

function accountOf(accounts: Map<string, Map<number | null, Account>>, player: string, authorId: number | null): Account {
  let ids = accounts.get(player);
  if (!ids) accounts.set(player, (ids = new Map()));
  let account = ids.get(authorId);
  if (!account) ids.set(authorId, (account = { player, authorId, posts: [], lists: new Map(), avatar: new Map(), signature: new Map() }));
  return account;
}

const WHAT = ['avatar', 'signature'] as const;

/** The given threads' posts summed up for profileChanges (as seated; the posts of the players given). */
export function profileBase(threads: ReadonlyArray<readonly ProfilePost[]>, players: readonly string[]): ProfileBase {
  const sum = new ProfileSum(players);
  for (const t of threads) sum.add(t);
  return sum.done();
}

/**
 * profileBase a thread at a time: of each thread added it keeps each post's place (pid, thread, floor,
 * time) and which values it showed, not the post, so that summing a game's earlier threads holds one
 * thread's posts at a time (src/derived/look-back.ts).
 */
export class ProfileSum {
  readonly #players: readonly string[];
  readonly #accounts = new Map<string, Map<number | null, Account>>();
  readonly #rows = new Map<Account, { pid: number[]; tid: number[]; floor: Array<number | null>; at: number[]; shows: number[]; combos: Map<string, number>; shown: Array<{ avatar: Set<string | null>; signature: Set<string | null> }> }>();

  constructor(players: readonly string[]) {
    this.#players = players;
  }

  add(thread: readonly ProfilePost[]): void {
    const { accounts, read } = walkAccounts([thread], this.#players, this.#accounts);
    for (const ids of accounts.values()) {
      for (const a of ids.values()) {
        let rows = this.#rows.get(a);
        if (!rows) this.#rows.set(a, (rows = { pid: [], tid: [], floor: [], at: [], shows: [], combos: new Map(), shown: [] }));
        for (const p of a.posts) {
          rows.pid.push(p.pid);
          rows.tid.push(p.tid);
          rows.floor.push(p.floor);
          rows.at.push(p.at);
          // (what a post showed, as one of the account's few distinct combinations)
          const sightings = read(p);
          const combo = JSON.stringify(sightings.map((x) => [x.avatar, x.signature]));
          let n = rows.combos.get(combo);
          if (n === undefined) {
            rows.combos.set(combo, (n = rows.shown.length));
            rows.shown.push({ avatar: new Set(sightings.map((x) => x.avatar)), signature: new Set(sightings.map((x) => x.signature)) });
          }
          rows.shows.push(n);
        }
        a.posts = []; // (its places kept: the posts let go with the thread)
      }
    }
  }

  done(): ProfileBase {
    const out: BaseAccount[] = [];
    for (const ids of this.#accounts.values()) {
      for (const a of ids.values()) {
        const rows = this.#rows.get(a)!;
        const order = Array.from(rows.pid.keys()).sort((x, y) => rows.at[x] - rows.at[y] || rows.pid[x] - rows.pid[y]);
        const values = (what: 'avatar' | 'signature'): BaseValue[] =>
          [...a[what].values()].map((seen) => {
            const ranges: number[] = [];
            for (let i = 0; i < order.length; i++) {
              if (!rows.shown[rows.shows[order[i]]][what].has(seen.value)) continue;
              if (ranges.length && ranges[ranges.length - 1] === i) ranges[ranges.length - 1] = i + 1;
              else ranges.push(i, i + 1);
            }
            return { value: seen.value, first: seen.first, last: seen.last, ranges };
          });
        out.push({
          player: a.player, authorId: a.authorId,
          pid: order.map((i) => rows.pid[i]), tid: order.map((i) => rows.tid[i]), floor: order.map((i) => rows.floor[i]), at: order.map((i) => rows.at[i]),
          avatar: values('avatar'), signature: values('signature'),
        });
      }
    }
    return { accounts: out };
  }
}

/** The account's post at `i` of a ProfileBase, as a change names it. */
function baseRef(a: BaseAccount, i: number, forum: string): ProfileRef {
  return { pid: a.pid[i], tid: a.tid[i], floor: a.floor[i], at: a.at[i], url: postUrl(forum, a.tid[i], a.pid[i]), author: a.player };
}

/** The first of `n` posts in posted order (`at(i)`: the i-th's time) posted after `after` (n: none). */
function firstAfter(n: number, at: (i: number) => number, after: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (at(mid) > after) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The index of the earliest-posted post in `v`'s ranges posted after `after`, or -1. */
function baseEarliestAfter(a: BaseAccount, v: BaseValue, after: number): number {
  const lo = firstAfter(a.at.length, (i) => a.at[i], after);
  for (let r = 0; r < v.ranges.length; r += 2) if (v.ranges[r + 1] > lo) return Math.max(lo, v.ranges[r]);
  return -1;
}

/**
 * Every change of avatar or signature per player across the given threads' posts (all the game's threads,
 * as seated) and `base`'s — other threads' posts summed up (profileBase), their links on `forum`: the same
 * changes as from all the posts given.
 */
export function profileChanges(threads: ReadonlyArray<readonly ProfilePost[]>, players: readonly string[], base?: { profile: ProfileBase; forum: string }): ProfileChange[] {
  const start = new Map<string, Map<number | null, Account>>();
  for (const b of base?.profile.accounts ?? []) {
    const account = accountOf(start, b.player, b.authorId);
    account.base = { account: b, avatar: new Map(b.avatar.map((v) => [v.value, v])), signature: new Map(b.signature.map((v) => [v.value, v])) };
    for (const what of WHAT) {
      for (const v of b[what]) account[what].set(v.value, { value: v.value, first: v.first, last: v.last, latest: baseRef(b, v.ranges[v.ranges.length - 1] - 1, base!.forum) });
    }
  }
  const { accounts, read } = walkAccounts(threads, players, start);
  const out: ProfileChange[] = [];
  // Each account's posts in posted order, on first ask: the first that showed a value after a time is searched for there.
  const inOrder = new Map<Account, ProfilePost[]>();
  /** The earliest-posted of the account's posts that showed `value` and were posted after `after`. */
  const earliestAfter = (account: Account, what: 'avatar' | 'signature', value: string | null, after: number): ProfileRef | undefined => {
    let posts = inOrder.get(account);
    if (!posts) inOrder.set(account, (posts = [...account.posts].sort((a, b) => a.at - b.at || a.pid - b.pid)));
    let best: ProfileRef | undefined;
    for (let i = firstAfter(posts.length, (j) => posts[j].at, after); i < posts.length && !best; i++) if (read(posts[i]).some((s) => s[what] === value)) best = posts[i];
    const v = account.base?.[what].get(value);
    const i = v ? baseEarliestAfter(account.base!.account, v, after) : -1;
    if (i >= 0) {
      const p = baseRef(account.base!.account, i, base!.forum);
      if (!best || later(best, p)) best = p;
    }
    return best;
  };
  for (const ids of accounts.values()) {
    for (const account of ids.values()) {
      const player = account.player;
      for (const what of WHAT) {
        // (by first sighting; a tie by last, then the value: the same order whichever posts came summed up)
        const order = [...account[what].values()].sort((a, b) => a.first - b.first || a.last - b.last || byValue(a.value, b.value));
        for (let i = 1; i < order.length; i++) {
          const old = order[i - 1];
          const now = order[i];
          const shownAfter = earliestAfter(account, what, now.value, old.last);
          const post = shownAfter ?? now.latest;
          out.push({ player, what, before: old.value, after: now.value, beforePost: old.latest, post, postedAfter: shownAfter !== undefined, oldLastSeen: old.last, newFirstSeen: now.first });
        }
      }
    }
  }
  // (a tie in time and player by what changed, then by the evidence post: an order that does not follow the walk's;
  // names compared as localeCompare does, by one collator: localeCompare makes one a call — made at the first tie
  // in time, as most days have none: ICU's collator costs a process ~5 ms to make)
  let names: Intl.Collator | undefined;
  return out.sort((a, b) => a.newFirstSeen - b.newFirstSeen || (names ??= new Intl.Collator()).compare(a.player, b.player) || WHAT.indexOf(a.what) - WHAT.indexOf(b.what) || a.post.pid - b.post.pid || a.oldLastSeen - b.oldLastSeen);
}

const byValue = (a: string | null, b: string | null): number => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);
