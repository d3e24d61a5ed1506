/**
 * Writing fetched pages into the evidence store. Every distinct version of a post is kept (keyed by a
 * hash of what matters as evidence); a post that vanished from a refetched page is marked missing, never
 * dropped; a thread that answers "not found" after having been seen is marked deleted.
 */
import { createHash } from 'node:crypto';
import type { FetchedPage, Page, Post } from '../discuz/types.js';
import { flatString } from '../discuz/flat-string.js';
import { UserError } from '../errors.js';
import { t } from '../i18n/index.js';
import type { Store } from './store-file.js';
import { currentVersion, type FetchedPageRecord, type StoreData, type StoredPost, type StoredThread } from './types.js';

/** What recording one page changed, so the crawler can react (walk back, report). */
export interface RecordResult {
  tid: number;
  /** The page number as the page itself says (a page past the end is served as the last page). */
  page: number | null;
  kind: 'thread' | 'not-found';
  /** pids seen for the first time. */
  newPosts: number[];
  /** pids whose content changed (a new version was added). */
  changedPosts: number[];
  /** pids that were on this page before and are now on no fetched page of the thread. */
  nowMissing: number[];
  /** pids that had been marked missing and are back. */
  returned: number[];
  /** The thread was known and now answers not-found. */
  threadDeleted: boolean;
}

/** Names that are not forum accounts (guests). */
const ANONYMOUS = new Set(['匿名', '']);

/**
 * The content hash of a post version: text, fonts, links, images, edit marker, deletion state and what
 * Discuz marked about the body (state, readable, hidden parts) — what a ruling can depend on. Floor,
 * time rendering and avatar are not part of it. The marks enter only when present, so a normal post's
 * hash is what it was before they existed (a store's versions do not all change at once).
 */
export function postHash(post: Post): string {
  const material = {
    text: post.text,
    colors: post.colors,
    sizes: post.sizes,
    links: post.links,
    images: post.images,
    edited: post.edited,
    deleted: post.deleted,
    ...(post.state !== undefined && post.state !== 'normal' ? { state: post.state } : {}),
    ...(post.readable === false ? { readable: false } : {}),
    ...(post.hiddenParts?.length ? { hiddenParts: post.hiddenParts } : {}),
  };
  return createHash('sha256').update(JSON.stringify(material)).digest('hex');
}

/** The tid a URL names (query form tid=T or rewrite form thread-T-P-1.html), or null. */
export function tidFromUrl(url: string): number | null {
  const q = /[?&]tid=(\d+)/.exec(url) ?? /thread-(\d+)-\d+-\d+\.html/.exec(url);
  return q ? Number(q[1]) : null;
}

/** sha256 of a body, hex. */
export function bodyHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * One post per pid, in page order. Page 1 may repeat a post as a hot-reply (推荐) or stuck (来自 N#)
 * copy: the copy with a real floor number wins.
 */
function uniquePosts(posts: Post[]): Post[] {
  const byPid = new Map<number, Post>();
  for (const p of posts) {
    if (p.pid === null) continue;
    const prev = byPid.get(p.pid);
    if (!prev || (prev.floor === null && p.floor !== null)) byPid.set(p.pid, p);
  }
  return [...byPid.values()];
}

function precisionRank(p: Post): number {
  return (p.timePrecision === 'second' ? 2 : 0) + (p.timeSource === 'relative' ? 0 : 1);
}

/**
 * Keep the avatar and signature this fetch showed on the post when they differ from what the store
 * holds (issue #15: a change is evidence, so a recrawl adds a sighting instead of overwriting the one
 * before). Nothing is written for a post whose avatar and signature never changed: its versions say it.
 * Called before the versions are updated, so the current version's lastSeen is the previous fetch.
 */
function recordProfile(stored: StoredPost, post: Post, at: string): void {
  const current = currentVersion(stored);
  const held = stored.profiles?.[stored.profiles.length - 1] ?? { avatar: current.post.avatar ?? null, signature: current.post.signature ?? null };
  const seen = { avatar: post.avatar ?? null, signature: post.signature ?? null };
  if ((held.avatar === seen.avatar && held.signature === seen.signature) || at <= current.lastSeen) return;
  const profiles = (stored.profiles ??= [{ ...held, firstSeen: stored.versions[0].firstSeen }]);
  profiles[profiles.length - 1].lastSeen = current.lastSeen;
  profiles.push({ ...seen, firstSeen: at });
}

/** Record one post as seen at `at`: a new version if its hash differs from the current one. */
function upsertPost(data: StoreData, tid: number, post: Post & { pid: number }, at: string, out: RecordResult): void {
  const hash = postHash(post);
  const key = String(post.pid);
  const stored: StoredPost | undefined = data.posts[key];
  if (!stored) {
    data.posts[key] = { pid: post.pid, tid, versions: [{ hash, firstSeen: at, lastSeen: at, post }], missingSince: null };
    out.newPosts.push(post.pid);
    return;
  }
  recordProfile(stored, post, at);
  if (stored.missingSince !== null) {
    stored.missingSince = null;
    out.returned.push(post.pid);
  }
  const current = currentVersion(stored);
  if (current.hash === hash) {
    if (at > current.lastSeen) current.lastSeen = at;
    // Same evidence; take the fresh floor (floors can be recounted) but never a less precise time.
    if (precisionRank(current.post) > precisionRank(post)) {
      const { postedAt, timePrecision, timeSource, timeEarliest } = current.post;
      current.post = { ...post, postedAt, timePrecision, timeSource };
      if (timeEarliest === undefined) delete current.post.timeEarliest;
      else current.post.timeEarliest = timeEarliest;
    } else {
      current.post = post;
    }
    return;
  }
  stored.versions.push({ hash, firstSeen: at, lastSeen: at, post });
  out.changedPosts.push(post.pid);
}

function learnUser(data: StoreData, post: Post): void {
  if (post.authorId !== null && post.authorId > 0 && !ANONYMOUS.has(post.author)) data.users[post.author] = post.authorId;
}

/**
 * Mark as missing (at `at`) those of `pids` that are on no current page record of the thread and not
 * already marked: never dropped. Returns the pids newly marked. `page`, when given, is the refetched page
 * that no longer shows them: a post whose floor lies past the floors that page now holds, on a page
 * before the thread's last, was not deleted but moved on to a later page (the forum's posts-per-page
 * went down: 10 → 5 puts floors 6–10 on page 2) and is not marked. A post or page without floors is
 * judged by the records alone.
 */
function markMissing(data: StoreData, thread: StoredThread, pids: number[], at: string, page?: { floors: number[]; last: boolean }): number[] {
  const everywhere = new Set<number>();
  for (const rec of Object.values(thread.pages)) for (const pid of rec.pids) everywhere.add(pid);
  const hi = page?.floors.length ? Math.max(...page.floors) : null;
  const marked: number[] = [];
  for (const pid of pids) {
    const stored = data.posts[String(pid)];
    if (everywhere.has(pid) || !stored || stored.missingSince !== null) continue;
    const floor = currentVersion(stored).post.floor;
    // (past the page's end, on a page before the last: moved on to a later page — a smaller page size, not a
    // deletion. One before the page's start is marked: a deletion with floors recounted moves posts back a
    // page, and the crawler walks back on what is marked here and finds them, which clears the mark.)
    if (hi !== null && floor !== null && floor > hi && !page!.last) continue;
    stored.missingSince = at;
    marked.push(pid);
  }
  return marked;
}

/**
 * Apply one fetched and parsed page to the store data (in memory). Only thread pages and not-found
 * pages may be recorded: login, permission, challenge and error pages are refused with an Error, so
 * nothing from them can ever reach the store. `threadOf` names the thread of a post that is not in
 * `data` (a store handle's threadOfPost: threads released or not opened), for the check below.
 */
export function applyPage(data: StoreData, fetched: FetchedPage, parsed: Page, threadOf?: (pid: number) => number | undefined): RecordResult {
  const kind = parsed.page.kind;
  const at = fetched.fetchedAt.toISOString();
  const tid = parsed.page.tid ?? tidFromUrl(fetched.url);
  if (tid === null) throw new Error(`cannot tell which thread ${fetched.url} belongs to`);
  const out: RecordResult = {
    tid, page: parsed.page.page, kind: kind === 'not-found' ? 'not-found' : 'thread',
    newPosts: [], changedPosts: [], nowMissing: [], returned: [], threadDeleted: false,
  };
  const key = String(tid);

  if (kind === 'not-found') {
    const thread = data.threads[key];
    if (thread && thread.deletedSince === null) {
      thread.deletedSince = at;
      out.threadDeleted = true;
    }
    return out;
  }
  if (kind !== 'thread') throw new Error(`refusing to store a ${kind} page (${fetched.url})`);

  const pageNo = parsed.page.page ?? 1;
  const posts = uniquePosts(parsed.posts);
  // A pid is one post of one thread: a page claiming a stored post of another thread is damaged
  // (or misread) and must not add a version to it. Checked before anything is written.
  for (const post of posts) {
    const owner = data.posts[String(post.pid)]?.tid ?? threadOf?.(post.pid as number);
    if (owner !== undefined && owner !== tid) {
      throw new UserError(
        t('store.postMoved', fetched.url, post.pid as number, tid, owner),
        3,
      );
    }
  }
  const thread: StoredThread = data.threads[key] ?? {
    tid, title: '', pageCount: 0, pages: {}, lastCrawl: null, deletedSince: null,
  };
  data.threads[key] = thread;
  if (parsed.page.title) thread.title = flatString(parsed.page.title); // not a view into the page text
  thread.pageCount = Math.max(parsed.page.pageCount ?? 1, pageNo);
  const replies = parsed.page.replies;
  if (typeof replies === 'number' && (!thread.repliesSeenAt || at >= thread.repliesSeenAt)) {
    thread.replies = replies;
    thread.repliesSeenAt = at;
  }
  thread.deletedSince = null;
  thread.lastCrawl = at;

  const previous = thread.pages[String(pageNo)];
  const record: FetchedPageRecord = {
    page: pageNo,
    url: fetched.url,
    fetchedAt: at,
    bodyHash: bodyHash(fetched.bytes),
    pids: posts.map((p) => p.pid as number),
  };
  if (parsed.page.comments) record.comments = true;
  if (parsed.page.vanished?.length) record.vanished = parsed.page.vanished.map((v) => ({ pid: v.pid, floor: v.floor, notice: flatString(v.notice) }));
  thread.pages[String(pageNo)] = record;

  for (const post of posts) {
    upsertPost(data, tid, post as Post & { pid: number }, at, out);
    learnUser(data, post);
  }

  // Posts that were on this page and are now on no page of the thread (moved to another page is not gone).
  if (previous) {
    const floors = posts.flatMap((p) => (p.floor !== null && p.floor > 0 ? [p.floor] : []));
    for (const v of parsed.page.vanished ?? []) if (v.floor !== null && v.floor > 0) floors.push(v.floor);
    out.nowMissing = markMissing(data, thread, previous.pids, at, { floors, last: pageNo >= thread.pageCount });
  }
  return out;
}

/**
 * Drop page records past the thread's page count (the thread shrank) and mark the posts only they
 * held as missing. Call after a thread's crawl has fetched its last page.
 */
export function trimPages(data: StoreData, tid: number, at: Date): number[] {
  const thread = data.threads[String(tid)];
  if (!thread) return [];
  const stale = Object.keys(thread.pages).filter((p) => Number(p) > thread.pageCount);
  if (stale.length === 0) return [];
  const stalePids = stale.flatMap((p) => thread.pages[p].pids);
  for (const p of stale) delete thread.pages[p];
  return markMissing(data, thread, stalePids, at.toISOString());
}

/**
 * Record a fetched page in the store and persist it atomically. See applyPage for what is kept.
 * Throws (and stores nothing) for login, no-permission, challenge and error pages.
 */
export async function recordPage(store: Store, fetched: FetchedPage, parsed: Page): Promise<RecordResult> {
  const result = applyPage(store.data, fetched, parsed, (pid) => store.threadOfPost(pid));
  await store.write();
  return result;
}
