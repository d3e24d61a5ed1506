/**
 * Avatar or signature changed during the game (rules-spec §7; m107 l.277 禁止玩家使用头像、签名档透露信息,
 * 062 l.336). Discuz renders every post with the author's *current* avatar and signature, so a change
 * shows between fetches: the store keeps each post as first fetched, and a post first seen after the
 * change carries the new value. Observations are ordered by when they were fetched (version firstSeen).
 */
import type { SlicePost } from '../store/slice.js';

export interface ProfileChange {
  player: string;
  what: 'avatar' | 'signature';
  before: string | null;
  after: string | null;
  /** The post (version) that first showed the new value. */
  post: SlicePost;
  /** When that fetch happened (epoch ms). */
  seenAt: number;
}

function norm(v: string | null | undefined): string | null {
  const t = (v ?? '').replace(/\s+/g, ' ').trim();
  return t || null;
}

/** Every change of avatar or signature per player across the given posts (all the game's threads). */
export function profileChanges(posts: readonly SlicePost[], players: readonly string[]): ProfileChange[] {
  const inGame = new Set(players);
  // By account (the seat's name and the account's uid): a substitute (替补) playing the seat has its own avatar.
  const obs = new Map<string, Array<{ seenAt: number; avatar: string | null; signature: string | null; post: SlicePost }>>();
  for (const p of posts) {
    if (!inGame.has(p.author) || p.deleted) continue;
    const account = `${p.author}\u0000${p.authorId ?? ''}`;
    const list = obs.get(account) ?? [];
    for (const v of p.versions) {
      list.push({ seenAt: Date.parse(v.firstSeen), avatar: norm(v.post.avatar), signature: norm(v.post.signature), post: p });
    }
    obs.set(account, list);
  }
  const out: ProfileChange[] = [];
  for (const list of obs.values()) {
    const player = list[0].post.author;
    list.sort((a, b) => a.seenAt - b.seenAt || a.post.pid - b.post.pid);
    for (const what of ['avatar', 'signature'] as const) {
      let current = list[0]?.[what] ?? null;
      for (const o of list.slice(1)) {
        if (o[what] !== current) {
          out.push({ player, what, before: current, after: o[what], post: o.post, seenAt: o.seenAt });
          current = o[what];
        }
      }
    }
  }
  return out.sort((a, b) => a.seenAt - b.seenAt);
}
