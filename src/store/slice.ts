/**
 * The read side of the store: the posts of one thread as analyses need them — current version first
 * class, every earlier version kept beside it, a time as epoch ms and a link to the post. Pure.
 */
import type { Post } from '../discuz/types.js';
import { currentVersion, type PostVersion, type ProfileSighting, type StoreData, type StoredPost } from './types.js';

export interface SlicePost extends Post {
  pid: number;
  tid: number;
  /** postedAt as epoch milliseconds. */
  at: number;
  /** Link to the post on the forum (findpost redirect: works whatever page it is on). */
  url: string;
  /** Every version seen, oldest first; the last is this post's current content. */
  versions: PostVersion[];
  /** The post vanished from a later fetch of its page (deleted or hidden since). */
  missing: boolean;
  /** The author's avatar/signature as each fetch showed them here (absent: read them off the versions). */
  profiles?: ProfileSighting[];
}

/** The findpost link Discuz resolves to the right page and anchor. */
export function postUrl(forum: string, tid: number, pid: number): string {
  return postUrlStem(forum, tid) + pid;
}

/**
 * The thread's findpost link without the pid: `postUrlStem(forum, tid) + pid` is postUrl's text, and
 * the thread's posts then share the stem in memory (the look-back holds 44,000 links at 50k posts).
 */
export function postUrlStem(forum: string, tid: number): string {
  return `${forum}forum.php?mod=redirect&goto=findpost&ptid=${tid}&pid=`;
}

/** A post version's time as SlicePost holds it (postedAt as epoch ms), what a time span is built from (game/forum-time.ts). */
export function sliceTime(c: Post): Pick<SlicePost, 'at' | 'timePrecision' | 'timeEarliest'> {
  return { at: Date.parse(c.postedAt), timePrecision: c.timePrecision, timeEarliest: c.timeEarliest };
}

/**
 * The analyses' view of a stored post: its current version plus pid, tid, time, link and history.
 * Built as one object literal listing every Post field (in Post's order), not `{...current, ...}`:
 * V8 stores a spread-then-extended object in ~1.2 KB, the literal in ~0.4 KB, and a tally plus a
 * report slice every post of a game (50,000 at once in the bench). `urlStem`: postUrlStem of the
 * post's thread, when the caller has it for all the thread's posts (their links then share it).
 */
export function toSlicePost(forum: string, stored: StoredPost, urlStem = postUrlStem(forum, stored.tid)): SlicePost {
  const c = currentVersion(stored).post;
  const { at, timePrecision, timeEarliest } = sliceTime(c);
  return {
    pid: stored.pid,
    tid: stored.tid,
    floor: c.floor,
    floorLabel: c.floorLabel,
    author: c.author,
    authorId: c.authorId,
    postedAt: c.postedAt,
    timePrecision,
    timeSource: c.timeSource,
    text: c.text,
    quotes: c.quotes,
    replyTo: c.replyTo,
    edited: c.edited,
    colors: c.colors,
    sizes: c.sizes,
    links: c.links,
    images: c.images,
    attachments: c.attachments,
    signature: c.signature,
    avatar: c.avatar,
    deleted: c.deleted,
    locked: c.locked,
    ...(timeEarliest !== undefined ? { timeEarliest } : {}),
    ...(c.state !== undefined ? { state: c.state } : {}),
    ...(c.readable !== undefined ? { readable: c.readable } : {}),
    at,
    url: urlStem + stored.pid, // postUrl's text
    versions: stored.versions,
    missing: stored.missingSince !== null,
    ...(stored.profiles ? { profiles: stored.profiles } : {}),
  };
}

/** All stored posts of a thread in thread order: by pid, which only grows (floors can be recounted). */
export function threadPosts(store: StoreData, tid: number): SlicePost[] {
  const out: SlicePost[] = [];
  const stem = postUrlStem(store.forum, tid);
  for (const stored of Object.values(store.posts)) {
    if (stored.tid === tid) out.push(toSlicePost(store.forum, stored, stem));
  }
  return out.sort((a, b) => a.pid - b.pid);
}

/** What a post's avatar and signature were over an interval of fetches (ISO times). */
export type Sighting = Required<ProfileSighting>;

/** A post as the look-back reads it: the fields of SlicePost it needs, and its avatar/signature sightings. */
export interface DigestPost extends Pick<SlicePost, 'pid' | 'tid' | 'floor' | 'at' | 'url' | 'author' | 'authorId' | 'deleted'> {
  sightings: readonly Sighting[];
}

/** What each fetch showed of the post's author's avatar and signature (StoredPost.profiles, else its versions). */
export function sightingsOf(p: Pick<SlicePost, 'versions' | 'profiles'>): Sighting[] {
  const latest = currentVersion(p).lastSeen;
  if (p.profiles) return p.profiles.map((s) => ({ ...s, lastSeen: s.lastSeen ?? latest }));
  return p.versions.map((v) => ({ avatar: v.post.avatar ?? null, signature: v.post.signature ?? null, firstSeen: v.firstSeen, lastSeen: v.lastSeen }));
}

/** A full post as the look-back reads it. */
export function digestPost(p: SlicePost): DigestPost {
  // (a post whose body is a notice — banned, shielded… — shows no profile of the author's own: read as deleted here)
  return { pid: p.pid, tid: p.tid, floor: p.floor, at: p.at, url: p.url, author: p.author, authorId: p.authorId, deleted: p.deleted || p.readable === false, sightings: sightingsOf(p) };
}
