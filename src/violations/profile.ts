/**
 * Avatar or signature changed during the game (rules-spec §7; m107 l.277 禁止玩家使用头像、签名档透露信息,
 * 062 l.336). Discuz renders every post with the author's *current* avatar and signature, so a change
 * shows between fetches, on whatever posts a fetch happened to show: the store keeps what each fetch
 * showed on each post (StoredPost.profiles). Per player, every distinct value is one interval of
 * fetches [first seen, last seen]; each value after the first is one change (issue #15: one flag per
 * change, the right way round, whatever posts were refetched). A value that comes back after another
 * (A → B → A) reads as the single change A → B.
 */
import type { DigestPost } from '../store/slice.js';

export interface ProfileChange {
  player: string;
  what: 'avatar' | 'signature';
  before: string | null;
  after: string | null;
  /** The latest-posted post that showed the old value. */
  beforePost: DigestPost;
  /** The post that is the evidence of the new value: the first one posted after the old value was last
   *  seen, or, when every post showing it is older (a recrawl), the latest-posted of those. */
  post: DigestPost;
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

interface Seen {
  value: string | null;
  first: number;
  last: number;
  posts: DigestPost[];
}

/** Posts in time order (pid within a second): one pass for the first or the last, not a sort per change. */
const later = (a: DigestPost, b: DigestPost): boolean => a.at > b.at || (a.at === b.at && a.pid > b.pid);
function earliest(posts: readonly DigestPost[]): DigestPost | undefined {
  let best: DigestPost | undefined;
  for (const p of posts) if (!best || later(best, p)) best = p;
  return best;
}
function latest(posts: readonly DigestPost[]): DigestPost {
  let best = posts[0];
  for (const p of posts) if (later(p, best)) best = p;
  return best;
}

/** Every change of avatar or signature per player across the given posts (all the game's threads, as seated). */
export function profileChanges(posts: readonly DigestPost[], players: readonly string[]): ProfileChange[] {
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
  // By account (the seat's name, then the account's uid): a substitute (替补) playing the seat has its own avatar.
  const byAccount = new Map<string, Map<number | null, DigestPost[]>>();
  for (const p of posts) {
    if (!inGame.has(p.author) || p.deleted) continue;
    let ids = byAccount.get(p.author);
    if (!ids) byAccount.set(p.author, (ids = new Map()));
    const mine = ids.get(p.authorId);
    if (mine) mine.push(p);
    else ids.set(p.authorId, [p]);
  }
  const note = (values: Map<string | null, Seen>, value: string | null, first: number, last: number, p: DigestPost): void => {
    const seen = values.get(value);
    if (!seen) values.set(value, { value, first, last, posts: [p] });
    else {
      if (first < seen.first) seen.first = first;
      if (last > seen.last) seen.last = last;
      if (seen.posts[seen.posts.length - 1] !== p) seen.posts.push(p);
    }
  };
  for (const ids of byAccount.values()) {
    for (const mine of ids.values()) {
      const player = mine[0].author;
      // One pass over the account's sightings for both (avatar, then signature, in the output's order).
      const seenBy = { avatar: new Map<string | null, Seen>(), signature: new Map<string | null, Seen>() };
      for (const p of mine) {
        const sightings = p.sightings;
        for (let i = 0; i < sightings.length; i++) {
          const s = sightings[i];
          const first = ms(s.firstSeen);
          const last = ms(s.lastSeen);
          note(seenBy.avatar, normed(s.avatar), first, last, p);
          note(seenBy.signature, normed(s.signature), first, last, p);
        }
      }
      for (const what of ['avatar', 'signature'] as const) {
        const order = [...seenBy[what].values()].sort((a, b) => a.first - b.first);
        for (let i = 1; i < order.length; i++) {
          const old = order[i - 1];
          const now = order[i];
          const beforePost = latest(old.posts);
          const firstAfter = earliest(now.posts.filter((p) => p.at > old.last));
          const post = firstAfter ?? latest(now.posts);
          out.push({ player, what, before: old.value, after: now.value, beforePost, post, postedAfter: firstAfter !== undefined, oldLastSeen: old.last, newFirstSeen: now.first });
        }
      }
    }
  }
  return out.sort((a, b) => a.newFirstSeen - b.newFirstSeen || a.player.localeCompare(b.player));
}
