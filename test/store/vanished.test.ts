/**
 * Posts no longer on the forum (issue 31): Discuz numbers floors by position and keeps a deleted reply's
 * number unused (and lowers the thread's reply count), and on some threads keeps the deleted post's slot
 * (无效楼层，该帖已经被删除). A floor a thread fetched whole skips is such a post — listed, never a gap that
 * blocks — while what may really be missing (a page not fetched, a post page 1's reply count still
 * counts) stays a gap. A posts-per-page change never marks a post still on the forum as gone.
 * Real captured pages (fixtures/discuz/public), edited as the forum would show them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { keptPosts } from '../../src/derived/kept-posts.js';
import { FIXTURES } from '../helpers/captured.js';
import { storeOnDisk } from '../helpers/store-on-disk.js';
import { applyPage } from '../../src/store/record.js';
import { emptyStore } from '../../src/store/store-file.js';
import { completeness, describeVanished, vanishedPosts } from '../../src/store/completeness.js';
import { threadPosts } from '../../src/store/slice.js';
import { removePost } from '../../src/replay/page-edits.js';
import { deletedSlot } from '../discuz/discuz-markup.js';
import { capture, capturedPages, idsPosts, ids, pageHtml } from './fixture-pages.js';

const tid = ids.threads.d1talk.tid;
const pages = capturedPages(tid);
const expected = idsPosts(tid);
const replies = expected.length - 1;

/** Page 1's reply count as Discuz prints it, lowered by `by` (a deletion lowers it). */
function fewerReplies(html: string, by: number): string {
  const at = `回复:</span> <span class="xi1">${replies}`;
  if (!html.includes(at)) throw new Error('page 1 does not print its reply count as expected');
  return html.replace(at, `回复:</span> <span class="xi1">${replies - by}`);
}

/** The thread recorded with posts `gone` deleted as Discuz shows it: their floors skipped, page 1 counting one reply fewer each. */
function deleted(gone: number[], opts: { keepCount?: boolean; skipPages?: number[] } = {}) {
  const data = emptyStore(ids.base);
  for (let p = 1; p <= pages; p++) {
    if (opts.skipPages?.includes(p)) continue;
    let html = pageHtml(tid, p);
    for (const pid of gone) if (html.includes(`id="post_${pid}" `)) html = removePost(html, pid);
    if (p === 1 && !opts.keepCount) html = fewerReplies(html, gone.length);
    const { fetched, parsed } = capture(tid, p, { html });
    applyPage(data, fetched, parsed);
  }
  return data;
}

describe('posts no longer on the forum', () => {
  test('a deleted reply: its floor is skipped, the thread is complete, and the floor is listed as gone', () => {
    const gone = expected[18];
    const c = completeness(deleted([gone.pid]), tid);
    expect(c.complete).toBe(true);
    expect(c.missingFloors).toEqual([]);
    expect(c.vanished).toEqual([{ floor: gone.floor, pid: null, how: 'skipped' }]);
    expect(describeVanished(c)).toContain(`楼层 ${gone.floor} 已不在论坛上`);
  });

  test('what may really be missing stays a gap: page 1 still counting the post, or a page not fetched', () => {
    const gone = expected[18];
    const counted = completeness(deleted([gone.pid], { keepCount: true }), tid);
    expect(counted).toMatchObject({ complete: false, missingFloors: [gone.floor], vanished: [] });
    const lastPage = completeness(deleted([gone.pid], { skipPages: [pages] }), tid);
    expect(lastPage.complete).toBe(false);
    expect(lastPage.missingPages).toEqual([pages]);
    expect(lastPage.vanished).toEqual([]);
  });

  test('a deleted last post is still a gap (the pages cannot show it is gone)', () => {
    const last = expected[expected.length - 1];
    const c = completeness(deleted([last.pid], { keepCount: true }), tid);
    expect(c.complete).toBe(false);
    expect(c.missingFloors).toEqual([last.floor]);
  });

  test('a deleted-post slot (无效楼层) the page shows is gone, with its notice, whatever the reply count says', () => {
    const gone = expected[18];
    const data = emptyStore(ids.base);
    for (let p = 1; p <= pages; p++) {
      const html = pageHtml(tid, p);
      // Discuz's slot (viewthread_node.htm's deleted branch): div#post_PID with the floor and the language pack's notice
      const { fetched, parsed } = capture(tid, p, { html: html.includes(`id="post_${gone.pid}" `) ? deletedSlot(html, gone.pid, `${gone.floor}#`) : html });
      applyPage(data, fetched, parsed);
    }
    const c = completeness(data, tid);
    expect(c.complete).toBe(true);
    expect(c.vanished).toEqual([{ floor: gone.floor, pid: gone.pid, how: 'slot', notice: '无效楼层，该帖已经被删除' }]);
    expect(describeVanished(c)).toContain('“无效楼层”');
    // What a count's note is made of: the slot with its notice, from the thread's page records.
    expect(vanishedPosts(data.forum, tid, threadPosts(data, tid), data.threads[String(tid)])).toEqual([
      { tid, floor: gone.floor, how: 'slot', pid: gone.pid, notice: '无效楼层，该帖已经被删除', url: `${ids.base}forum.php?mod=redirect&ptid=${tid}&authorid=0&postno=${gone.floor}` },
    ]);
  });

  test('vanishedPosts lists a skipped floor with its postno link, and a post seen before with its author and link', () => {
    const gone = expected[18];
    const data = deleted([gone.pid]);
    const list = vanishedPosts(data.forum, tid, threadPosts(data, tid));
    expect(list).toEqual([{ tid, floor: gone.floor, how: 'skipped', pid: null, url: `${ids.base}forum.php?mod=redirect&ptid=${tid}&authorid=0&postno=${gone.floor}` }]);
    // With the thread's record: page 1's reply count (one fewer) confirmed it — the same entry.
    expect(vanishedPosts(data.forum, tid, threadPosts(data, tid), data.threads[String(tid)])).toEqual(list);
    // Without a usable count (a store from before the count was read): judged on whole pages alone, and marked.
    delete data.threads[String(tid)].replies;
    expect(vanishedPosts(data.forum, tid, threadPosts(data, tid), data.threads[String(tid)])).toEqual([{ ...list[0], unconfirmed: true }]);
    // A floor the record still calls missing (page 1 counting the post) is a gap: a plain skipped floor.
    const gap = deleted([gone.pid], { keepCount: true });
    expect(vanishedPosts(gap.forum, tid, threadPosts(gap, tid), gap.threads[String(tid)])).toEqual(list);
    // Seen first, deleted since: a refetch of its page no longer shows it.
    const seen = deleted([]);
    const page = Math.ceil(gone.floor / 10);
    const { fetched, parsed } = capture(tid, page, { html: removePost(pageHtml(tid, page), gone.pid), at: new Date('2026-11-30T00:00:00Z') });
    expect(applyPage(seen, fetched, parsed).nowMissing).toEqual([gone.pid]);
    const later = vanishedPosts(seen.forum, tid, threadPosts(seen, tid));
    expect(later).toMatchObject([{ floor: gone.floor, how: 'gone', pid: gone.pid, author: gone.author }]);
    expect(later[0].url).toContain(`pid=${gone.pid}`);
  });
});

describe('a posts-per-page change', () => {
  test('10 → 5: a refetched page 1 holding floors 1–5 marks none of floors 6–10 gone; a real deletion still is', () => {
    const data = deleted([]);
    // The same page 1 as the forum serves it at 5 posts a page: floors 1–5, twice the pages.
    const { fetched, parsed } = capture(tid, 1, { at: new Date('2026-11-30T00:00:00Z') });
    const moved = parsed.posts.filter((p) => p.floor !== null && p.floor > 5).map((p) => p.pid);
    expect(moved.length).toBe(5);
    parsed.posts = parsed.posts.filter((p) => p.floor !== null && p.floor <= 5);
    parsed.page.pageCount = (parsed.page.pageCount ?? 1) * 2;
    const r = applyPage(data, fetched, parsed);
    expect(r.nowMissing).toEqual([]);
    for (const pid of moved) expect(data.posts[String(pid)].missingSince).toBeNull();
    // Within the page's own floors a post not shown is gone.
    const again = capture(tid, 1, { at: new Date('2026-11-30T01:00:00Z') });
    const third = again.parsed.posts.find((p) => p.floor === 3)!;
    again.parsed.posts = again.parsed.posts.filter((p) => p.floor !== null && p.floor <= 5 && p !== third);
    again.parsed.page.pageCount = parsed.page.pageCount;
    expect(applyPage(data, again.fetched, again.parsed).nowMissing).toEqual([third.pid]);
  });

  test('5 → 10: a crawl at 10 a page (page 1: floors 1–10, then page 2: 11–20) marks none of the floors 6–10 page 2 held at 5 a page', () => {
    const data = emptyStore(ids.base);
    // First crawled at 5 a page: page 2 held floors 6–10.
    const first = capture(tid, 1, { at: new Date('2026-11-29T00:00:00Z') });
    const p2 = { ...first.parsed, page: { ...first.parsed.page, page: 2, pageCount: pages * 2 }, posts: first.parsed.posts.filter((p) => p.floor !== null && p.floor > 5) };
    first.parsed.posts = first.parsed.posts.filter((p) => p.floor !== null && p.floor <= 5);
    first.parsed.page.pageCount = pages * 2;
    applyPage(data, first.fetched, first.parsed);
    applyPage(data, { ...first.fetched, url: first.fetched.url.replace('page=1', 'page=2') }, p2);
    const held = p2.posts.map((p) => p.pid);
    // Then at 10 a page.
    for (const page of [1, 2]) {
      const { fetched, parsed } = capture(tid, page, { at: new Date('2026-11-30T00:00:00Z') });
      expect(applyPage(data, fetched, parsed).nowMissing).toEqual([]);
    }
    for (const pid of held) expect(data.posts[String(pid)].missingSince).toBeNull();
  });
});

describe('read in part (the derived files) as read whole', () => {
  test('a post gone since and a post never seen that page 1 still counts: a gap both ways', async () => {
    // One reply deleted after it was stored (page 1 counting one fewer), and another never seen although
    // page 1 still counts it: the posts shown are one fewer than Discuz counts, so the skipped floor is a gap.
    const [gone, unseen] = [expected[12], expected[25]]; // (on pages 2 and 3)
    const data = deleted([unseen.pid], { keepCount: true });
    const page = Math.ceil(gone.floor / 10);
    const later = new Date('2026-11-30T00:00:00Z');
    const p1 = capture(tid, 1, { html: fewerReplies(pageHtml(tid, 1), 1), at: later });
    applyPage(data, p1.fetched, p1.parsed);
    const { fetched, parsed } = capture(tid, page, { html: removePost(pageHtml(tid, page), gone.pid), at: later });
    applyPage(data, fetched, parsed);
    const whole = completeness(data, tid);
    expect(whole).toMatchObject({ complete: false, missingFloors: [unseen.floor], vanished: [] });
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-vanished-'));
    try {
      const game = await storeOnDisk(root, 'g', path.join(FIXTURES, 'games', 'public.yaml'), data);
      const part = await keptPosts(game.storePath, tid, { name: 'none', key: 'none', keep: () => undefined });
      expect(part.read.completeness).toEqual(whole);
      // Read again from the saved derived file: the same.
      expect((await keptPosts(game.storePath, tid, { name: 'none', key: 'none', keep: () => undefined })).read.completeness).toEqual(whole);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
