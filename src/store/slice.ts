/**
 * The read side of the store: the posts of one thread as analyses need them — current version first
 * class, every earlier version kept beside it, a time as epoch ms and a link to the post. Pure.
 */
import type { Post } from '../discuz/types.js';
import type { PostVersion, StoreData, StoredPost } from './types.js';

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
}

/** The findpost link Discuz resolves to the right page and anchor. */
export function postUrl(forum: string, tid: number, pid: number): string {
  return `${forum}forum.php?mod=redirect&goto=findpost&ptid=${tid}&pid=${pid}`;
}

export function toSlicePost(forum: string, stored: StoredPost): SlicePost {
  const current = stored.versions[stored.versions.length - 1].post;
  return {
    ...current,
    pid: stored.pid,
    tid: stored.tid,
    at: Date.parse(current.postedAt),
    url: postUrl(forum, stored.tid, stored.pid),
    versions: stored.versions,
    missing: stored.missingSince !== null,
  };
}

/** All stored posts of a thread in thread order (floor, then pid: pids only grow). */
export function threadPosts(store: StoreData, tid: number): SlicePost[] {
  const out: SlicePost[] = [];
  for (const stored of Object.values(store.posts)) {
    if (stored.tid === tid) out.push(toSlicePost(store.forum, stored));
  }
  return out.sort((a, b) => a.pid - b.pid);
}
