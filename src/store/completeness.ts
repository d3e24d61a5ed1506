/**
 * Is a thread fully in the store? Pages 1..N fetched (N from the last pager seen) and floors 1..K all
 * seen, K the highest floor stored or, when the thread's reply count M is known, at least M + 1 — the
 * floors alone cannot show a lost last post, since a page without it is exactly what Discuz serves
 * after a deletion. Counting commands refuse to work from an incomplete thread unless told
 * --allow-incomplete, so a missed page or post can never become a quietly wrong count.
 */
import { UserError } from '../errors.js';
import { t } from '../i18n/index.js';
import type { Store } from './store-file.js';
import { currentVersion, type Completeness, type StoreData, type StoredThread, type VanishedFloor } from './types.js';

/**
 * The reply count the thread's floors must reach (M: floors 1..M+1), or null to rely on the floors
 * alone. Discuz shows allreplies = replies + 点评 comments (forum_viewthread.php, viewthread.htm), so
 * the count is used only while no stored page of the thread shows a 点评; it is only ever a floor to
 * reach, never a ceiling, because floors legitimately run past it (a moderator sees posts awaiting
 * moderation, and a post added after page 1 was fetched). Floors recounted after a deletion come
 * down with the count (Discuz recounts replies on deletion); floors kept by position leave a gap,
 * which the floor check already reports.
 */
function tailCount(thread: StoredThread): number | null {
  const replies = thread.replies;
  if (typeof replies !== 'number' || !Number.isInteger(replies) || replies < 0) return null;
  for (const rec of Object.values(thread.pages)) if (rec.comments) return null;
  return replies;
}

function dataOf(store: Store | StoreData): StoreData {
  return 'data' in store && 'write' in store ? store.data : (store as StoreData);
}

/**
 * The completeness of thread `tid`. Floors are taken from the current version of every stored post of
 * the thread, including posts since marked missing (they were seen, so their floor is not a gap).
 * Floors can be recounted after deletions while pids stay stable: a recount can make a gap vanish or
 * two posts share a floor, never hide a post (posts are keyed by pid).
 */
export function completeness(store: Store | StoreData, tid: number): Completeness {
  return completenessOf(store, [tid])[0];
}

/** The completeness of each thread of `tids`, the store's posts walked once for all of them. */
export function completenessOf(store: Store | StoreData, tids: readonly number[]): Completeness[] {
  const data = dataOf(store);
  const floors = new Map<number, Set<number>>(tids.map((tid) => [tid, new Set<number>()]));
  const live = new Map<number, Set<number>>(tids.map((tid) => [tid, new Set<number>()]));
  for (const stored of Object.values(data.posts)) {
    const of = floors.get(stored.tid);
    if (!of) continue;
    const floor = currentVersion(stored).post.floor;
    if (floor !== null && floor > 0) {
      of.add(floor);
      if (stored.missingSince === null) live.get(stored.tid)!.add(floor);
    }
  }
  return tids.map((tid) => threadCompleteness(data.threads[String(tid)], tid, floors.get(tid)!, live.get(tid)!.size));
}

/**
 * The completeness of thread `tid` from its record (undefined: not stored) and the floors of its posts' current versions (those > 0).
 *
 * A floor no post holds is a post no longer on the forum — not a gap — when a page showed its slot
 * (无效楼层: the record's `vanished`), or when every page of the thread was fetched whole and the floor
 * lies below the highest floor seen: Discuz numbers floors by position and keeps the numbers of deleted
 * replies unused, so a page fetched whole that skips a floor is the forum as it is. What stays a gap is
 * what may really be missing: a page not fetched, and floors past the highest seen that the thread's
 * reply count calls for (a last post the pages did not show) — and every skipped floor while the posts
 * the pages show are fewer than the reply count says (Discuz counts no deleted reply: fewer posts than it
 * counts means one of them was not seen, a page read before or after it moved). `live`: how many of
 * `floors` hold a post the forum still shows (default: all).
 */
export function threadCompleteness(thread: StoredThread | undefined, tid: number, floors: ReadonlySet<number>, live = floors.size): Completeness {
  if (!thread) {
    return { tid, pagesFetched: 0, pageCount: 0, missingPages: [1], maxFloor: 0, missingFloors: [], replies: null, vanished: [], complete: false };
  }
  const missingPages: number[] = [];
  let pagesFetched = 0;
  for (let p = 1; p <= thread.pageCount; p++) {
    if (thread.pages[String(p)]) pagesFetched++;
    else missingPages.push(p);
  }
  let maxFloor = 0;
  for (const f of floors) if (f > maxFloor) maxFloor = f;
  const vanished: VanishedFloor[] = [];
  const slots = new Map<number, VanishedFloor>();
  // (the records of the thread's current pages: a record past the page count is stale)
  for (let p = 1; p <= thread.pageCount; p++) {
    for (const slot of thread.pages[String(p)]?.vanished ?? []) {
      const v: VanishedFloor = { floor: slot.floor, pid: slot.pid, how: 'slot', notice: slot.notice };
      if (slot.floor !== null && floors.has(slot.floor)) continue; // (a floor recounted onto a live post)
      if (slot.floor !== null) slots.set(slot.floor, v);
      else vanished.push(v);
    }
  }
  const replies = tailCount(thread);
  const lastFloor = replies === null ? maxFloor : Math.max(maxFloor, replies + 1);
  const wholeThread = thread.pageCount > 0 && missingPages.length === 0 && (replies === null || live >= replies + 1);
  const missingFloors: number[] = [];
  for (let f = 1; f <= lastFloor; f++) {
    if (floors.has(f)) continue;
    const slot = slots.get(f);
    if (slot) vanished.push(slot);
    else if (wholeThread && f < maxFloor) vanished.push({ floor: f, pid: null, how: 'skipped' });
    else missingFloors.push(f);
  }
  for (const [f, slot] of slots) if (f > lastFloor) vanished.push(slot);
  vanished.sort((a, b) => (a.floor ?? Infinity) - (b.floor ?? Infinity));
  return {
    tid,
    pagesFetched,
    pageCount: thread.pageCount,
    missingPages,
    maxFloor,
    missingFloors,
    replies,
    vanished,
    complete: thread.pageCount > 0 && missingPages.length === 0 && missingFloors.length === 0 && maxFloor > 0,
  };
}

/** One line naming the posts of a thread no longer on the forum ("" when none): what a count went on without. */
export function describeVanished(c: Pick<Completeness, 'tid' | 'vanished'>): string {
  const list = c.vanished ?? [];
  if (!list.length) return '';
  const floors = list.filter((v) => v.floor !== null).map((v) => v.floor as number);
  const slots = list.filter((v) => v.how === 'slot').length;
  return t('vanished.thread', c.tid, floors.length ? formatRanges(floors) : '?', slots);
}

/** "1, 2, 5-9": a short human list of numbers. */
export function formatRanges(nums: number[]): string {
  const sorted = [...new Set(nums)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(j > i + 1 ? `${sorted[i]}-${sorted[j]}` : j === i + 1 ? `${sorted[i]}, ${sorted[j]}` : `${sorted[i]}`);
    i = j;
  }
  return parts.join(', ');
}

/** One line saying what is missing from a thread ("" when complete). */
export function describeGaps(c: Completeness): string {
  if (c.complete) return '';
  if (c.pageCount === 0) return t('gaps.neverFetched', c.tid);
  const bits: string[] = [];
  if (c.missingPages.length) bits.push(t('gaps.pages', formatRanges(c.missingPages), c.pageCount));
  if (c.missingFloors.length) {
    const r = c.replies;
    const tail = r !== null && c.missingFloors.some((f) => f > c.maxFloor);
    bits.push(t('gaps.floors', formatRanges(c.missingFloors)) + (tail ? t('gaps.floorsTail', r) : ''));
  }
  if (!bits.length) bits.push(t('gaps.noPosts'));
  return t('gaps.thread', c.tid, bits.join('; '));
}

/** Throws a UserError (exit code 3) listing exactly what is missing of `list`, unless every thread is complete or `allowIncomplete`. */
export function refuseGaps(list: readonly Completeness[], allowIncomplete?: boolean): void {
  const gaps = list.filter((c) => !c.complete);
  if (gaps.length && !allowIncomplete) {
    throw new UserError(t('gaps.refusal', gaps.map(describeGaps).join('\n  ')), 3);
  }
}

/** The completeness of each thread, refused as `refuseGaps` does. */
export function assertComplete(
  store: Store | StoreData,
  tids: number[],
  opts: { allowIncomplete?: boolean } = {},
): Completeness[] {
  const all = completenessOf(store, tids);
  refuseGaps(all, opts.allowIncomplete);
  return all;
}

/** Discuz's link to floor `floor` of thread `tid` (forum_redirect.php: postno, what 跳转到 N 楼 uses). */
export function floorUrl(forum: string, tid: number, floor: number): string {
  return `${forum}forum.php?mod=redirect&ptid=${tid}&authorid=0&postno=${floor}`;
}

/** A post a count went on without, or read from the store after the forum stopped showing it (a note's line). */
export interface VanishedPost {
  tid: number;
  floor: number;
  /**
   * 'skipped': no post was ever seen there; 'slot': a page shows the deleted post's slot (无效楼层…, `notice`);
   * 'gone': a post seen before that a refetch no longer shows.
   */
  how: 'skipped' | 'slot' | 'gone';
  url: string;
  pid: number | null;
  /** For 'gone': its author and when its last version was last seen (epoch ms). */
  author?: string;
  lastSeen?: number;
  /** For 'slot': the slot's notice as the page printed it (the forum's text: escape it where it is drawn). */
  notice?: string;
  /**
   * For 'skipped', when the thread's record was given: false when page 1 shows no usable reply count (a
   * 点评 on the thread, a theme without it), so the floor is judged deleted on whole pages alone — weaker
   * evidence than a reply count agreeing. Absent: not known (no record given) or confirmed.
   */
  unconfirmed?: true;
}

type FloorPost = { pid: number; tid: number; floor: number | null; missing: boolean; url: string; author: string; versions?: ReadonlyArray<{ lastSeen: string }> };

/**
 * The posts of one thread that are no longer on the forum, from its stored posts (pure): floors below
 * the highest one stored that no post holds (a deleted reply, a 无效楼层 slot: completeness.ts says
 * when these are not gaps), and stored posts a refetch no longer shows, with their last version's
 * sighting. In floor order. With the thread's record (`thread`: its page records), what the pages say of
 * each such floor: a slot with its notice (also a slot past the highest floor stored), and whether a
 * skipped floor was judged deleted on whole pages alone (no usable reply count on page 1: `unconfirmed`).
 * A floor the record's completeness still calls missing stays a plain skipped floor (a gap, which
 * --allow-incomplete lists apart: tally.ts withoutGapNotes).
 */
export function vanishedPosts(forum: string, tid: number, posts: readonly FloorPost[], thread?: StoredThread): VanishedPost[] {
  const floors = new Set<number>();
  let live = 0;
  const out: VanishedPost[] = [];
  for (const p of posts) {
    if (p.tid !== tid || p.floor === null || p.floor <= 0) continue;
    floors.add(p.floor);
    if (p.missing) {
      const seen = p.versions?.at(-1)?.lastSeen;
      out.push({ tid, floor: p.floor, how: 'gone', url: p.url, pid: p.pid, author: p.author, ...(seen ? { lastSeen: Date.parse(seen) } : {}) });
    } else live++;
  }
  let max = 0;
  for (const f of floors) if (f > max) max = f;
  // What the pages say of the floors no post holds (only with the record of every page: else nothing more is known).
  const c = thread && thread.pageCount > 0 ? threadCompleteness(thread, tid, floors, live) : null;
  const known = new Map<number, VanishedFloor>();
  if (c && c.missingPages.length === 0) for (const v of c.vanished ?? []) if (v.floor !== null) known.set(v.floor, v);
  const unconfirmed = thread !== undefined && tailCount(thread) === null;
  const listed = (f: number): VanishedPost => {
    const v = known.get(f);
    if (v?.how === 'slot') return { tid, floor: f, how: 'slot', url: floorUrl(forum, tid, f), pid: v.pid, notice: v.notice ?? '' };
    return { tid, floor: f, how: 'skipped', url: floorUrl(forum, tid, f), pid: null, ...(v && unconfirmed ? { unconfirmed: true as const } : {}) };
  };
  for (let f = 1; f < max; f++) if (!floors.has(f)) out.push(listed(f));
  for (const [f, v] of known) if (f > max && v.how === 'slot') out.push(listed(f));
  return out.sort((a, b) => a.floor - b.floor);
}
