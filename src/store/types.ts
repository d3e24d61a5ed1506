/**
 * The evidence store's shape in memory (on disk: src/store/store-file.ts). Every post version ever seen is kept;
 * nothing is ever dropped. Analyses read it through src/store/slice.ts, never by poking at it.
 */
import type { Post, VanishedSlot } from '../discuz/types.js';

/** One distinct version of a post, keyed by the hash of what matters (text, fonts, links, edit marker...). */
export interface PostVersion {
  hash: string;
  /**
   * ISO times: when this exact content was first and last seen on a fetched page. On disk lastSeen is
   * as of the thread's last change written: a refetch that changed nothing writes nothing.
   */
  firstSeen: string;
  lastSeen: string;
  post: Post;
}

export interface StoredPost {
  pid: number;
  tid: number;
  /** Oldest first; the last one is the current version. */
  versions: PostVersion[];
  /** Set when a refetch of the page that held this post no longer shows it; cleared if it returns. */
  missingSince: string | null;
  /**
   * The author's avatar and signature as fetches showed them on this post, oldest first (issue #15),
   * kept from the first fetch that showed a change: Discuz renders every post with the author's current
   * ones, so they change between fetches without the post changing, and a recrawl must not overwrite
   * them. Absent while they never changed (the versions hold them).
   */
  profiles?: ProfileSighting[];
}

/** A stored post's current version: the newest it was seen in (its versions are oldest first, never empty). */
export function currentVersion(sp: Pick<StoredPost, 'versions'>): PostVersion {
  return sp.versions[sp.versions.length - 1];
}

/** One avatar/signature pair as fetches showed it on a post, from firstSeen to lastSeen (ISO). */
export interface ProfileSighting {
  avatar: string | null;
  signature: string | null;
  firstSeen: string;
  /** Absent on the newest: it lasts to the post's latest fetch (its current version's lastSeen). */
  lastSeen?: string;
}

export interface FetchedPageRecord {
  page: number;
  url: string;
  fetchedAt: string;
  /** sha256 of the body bytes, to skip re-parsing an unchanged page. */
  bodyHash: string;
  pids: number[];
  /** Some post on this page showed 点评 comments (Discuz counts them into the shown reply count). */
  comments?: boolean;
  /** Slots of deleted posts the page showed (无效楼层，该帖已经被删除: PageInfo.vanished); absent when none. */
  vanished?: VanishedSlot[];
}

export interface StoredThread {
  tid: number;
  title: string;
  /** Page count from the last fetched page's pager. */
  pageCount: number;
  /**
   * The reply count the thread showed ("回复: M", page 1 only), from the most recently fetched page
   * that showed it; null or absent when never seen (stores written before it was read, or a theme
   * that hides it). Completeness requires floors up to M + 1 when no stored page shows 点评.
   */
  replies?: number | null;
  /** When the page that showed `replies` was fetched (ISO). */
  repliesSeenAt?: string | null;
  pages: Record<string, FetchedPageRecord>;
  lastCrawl: string | null;
  /** Set when the thread came back as not-found after having been seen. */
  deletedSince: string | null;
}

export interface StoreData {
  version: 1;
  forum: string;
  threads: Record<string, StoredThread>;
  posts: Record<string, StoredPost>;
  /** uid by forum name, learned from posts (for the elevator floor). */
  users: Record<string, number>;
}

/** What a thread's pages and floors look like after a crawl: counting commands refuse when not complete. */
export interface Completeness {
  tid: number;
  pagesFetched: number;
  pageCount: number;
  missingPages: number[];
  /** Highest floor seen and the floors in 1..maxFloor never seen. */
  maxFloor: number;
  missingFloors: number[];
  /**
   * The reply count the completeness check held the thread to (floors 1..replies+1 required), or null
   * when it is unknown or unusable (a stored page shows 点评, which Discuz adds into the count).
   */
  replies: number | null;
  /**
   * Posts no longer on the forum, in floor order: floors the thread's pages skip when every page was
   * fetched whole (no post there), and the slots Discuz keeps for deleted posts (无效楼层). Not gaps: a
   * count goes on without them and lists them as notes (stored posts a refetch no longer shows are
   * the posts' own `missing` mark). Absent in values made before it was read (derived files).
   */
  vanished?: VanishedFloor[];
  complete: boolean;
}

/** A post no longer on the forum (see Completeness.vanished). */
export interface VanishedFloor {
  floor: number | null;
  /** Its pid when known (a slot's, or a stored post's). */
  pid: number | null;
  /** How it is known: a floor the fetched pages skip, or a deleted-post slot a page showed. */
  how: 'skipped' | 'slot';
  /** The slot's notice as printed (how: 'slot'). */
  notice?: string;
}
