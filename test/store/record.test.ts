import { describe, expect, test } from 'vitest';
import { applyPage, postHash } from '../../src/store/record.js';
import { emptyStore } from '../../src/store/store-file.js';
import { UserError } from '../../src/errors.js';
import { editPostText, removePost, duplicatePost } from '../../src/replay/page-edits.js';
import { capture, capturedPages, idsPosts, ids, pageHtml } from './fixture-pages.js';

const d1talk = ids.threads.d1talk.tid;
const at = (iso: string) => new Date(iso);

function recordThread(data = emptyStore(ids.base), tid = d1talk, when = at('2026-11-23T00:00:00Z')) {
  for (let p = 1; p <= capturedPages(tid); p++) {
    const { fetched, parsed } = capture(tid, p, { at: when });
    applyPage(data, fetched, parsed);
  }
  return data;
}

describe('recordPage / applyPage', () => {
  test('every post of a real thread is stored by pid with its floor, and authors\' uids are learned', () => {
    const data = recordThread();
    const expected = idsPosts(d1talk);
    const stored = Object.values(data.posts).filter((p) => p.tid === d1talk);
    expect(stored.map((p) => p.pid).sort((a, b) => a - b)).toEqual(expected.map((p) => p.pid).sort((a, b) => a - b));
    for (const e of expected) {
      const s = data.posts[String(e.pid)];
      expect(s.versions).toHaveLength(1);
      expect(s.versions[0].post.floor).toBe(e.floor);
      expect(data.users[e.author]).toBe(e.authorid);
    }
    const thread = data.threads[String(d1talk)];
    expect(thread.pageCount).toBe(capturedPages(d1talk));
    expect(thread.title).toBe(ids.threads.d1talk.title);
  });

  test('a refetch of an unchanged page adds no version, only moves lastSeen', () => {
    const data = recordThread();
    const later = at('2026-11-24T00:00:00Z');
    const { fetched, parsed } = capture(d1talk, 2, { at: later });
    const r = applyPage(data, fetched, parsed);
    expect(r.newPosts).toEqual([]);
    expect(r.changedPosts).toEqual([]);
    for (const pid of data.threads[String(d1talk)].pages['2'].pids) {
      const v = data.posts[String(pid)].versions;
      expect(v).toHaveLength(1);
      expect(v[0].firstSeen).toBe('2026-11-23T00:00:00.000Z');
      expect(v[0].lastSeen).toBe(later.toISOString());
    }
  });

  test('an edited post keeps every version it had (A, B, and A again)', () => {
    const data = recordThread();
    const pid = data.threads[String(d1talk)].pages['3'].pids[2];
    const original = data.posts[String(pid)].versions[0];
    const edited = capture(d1talk, 3, { html: editPostText(pageHtml(d1talk, 3), pid, '我改主意了，投 花卷'), at: at('2026-11-24T00:00:00Z') });
    expect(applyPage(data, edited.fetched, edited.parsed).changedPosts).toEqual([pid]);
    const back = capture(d1talk, 3, { at: at('2026-11-25T00:00:00Z') });
    expect(applyPage(data, back.fetched, back.parsed).changedPosts).toEqual([pid]);
    const v = data.posts[String(pid)].versions;
    expect(v.map((x) => x.post.text)).toEqual([original.post.text, '我改主意了，投 花卷', original.post.text]);
    expect(v[0]).toEqual(original);
    expect(v[1].firstSeen).toBe('2026-11-24T00:00:00.000Z');
    expect(new Set(v.map((x) => x.hash)).size).toBe(2);
  });

  test('a post gone from a refetched page is marked missing, never dropped, and unmarked when it returns', () => {
    const data = recordThread();
    const pid = data.threads[String(d1talk)].pages['4'].pids[5];
    const before = structuredClone(data.posts[String(pid)]);
    const gone = capture(d1talk, 4, { html: removePost(pageHtml(d1talk, 4), pid), at: at('2026-11-24T00:00:00Z') });
    const r = applyPage(data, gone.fetched, gone.parsed);
    expect(r.nowMissing).toEqual([pid]);
    expect(data.posts[String(pid)].versions).toEqual(before.versions);
    expect(data.posts[String(pid)].missingSince).toBe('2026-11-24T00:00:00.000Z');
    const back = capture(d1talk, 4, { at: at('2026-11-25T00:00:00Z') });
    expect(applyPage(data, back.fetched, back.parsed).returned).toEqual([pid]);
    expect(data.posts[String(pid)].missingSince).toBeNull();
  });

  test('a post that moved to another fetched page (floors recounted) is not marked missing', () => {
    const data = recordThread();
    const p5 = data.threads[String(d1talk)].pages['5'].pids;
    const moved = p5[0];
    // Page 4 now also shows the first post of page 5, and page 5 no longer does.
    const html4 = pageHtml(d1talk, 4);
    const block = pageHtml(d1talk, 5).match(new RegExp(`<div id="post_${moved}" [\\s\\S]*?(?=<div id="post_\\d+" )`))![0];
    const with4 = html4.replace('<div id="postlistreply"', `${block}<div id="postlistreply"`);
    const a = capture(d1talk, 4, { html: with4 });
    applyPage(data, a.fetched, a.parsed);
    const b = capture(d1talk, 5, { html: removePost(pageHtml(d1talk, 5), moved) });
    expect(applyPage(data, b.fetched, b.parsed).nowMissing).toEqual([]);
    expect(data.posts[String(moved)].missingSince).toBeNull();
  });

  test('a post repeated on a page (a 推荐 hot copy, a duplicated block) is stored once, with its real floor', () => {
    const data = emptyStore(ids.base);
    const pid = ids.threads.d1talk.first_pid + 3;
    const { fetched, parsed } = capture(d1talk, 1, { html: duplicatePost(pageHtml(d1talk, 1), pid) });
    const real = parsed.posts.find((p) => p.pid === pid)!;
    parsed.posts.unshift({ ...real, floor: null, floorLabel: '推荐' });
    applyPage(data, fetched, parsed);
    expect(data.threads[String(d1talk)].pages['1'].pids.filter((p) => p === pid)).toHaveLength(1);
    expect(data.posts[String(pid)].versions).toHaveLength(1);
    expect(data.posts[String(pid)].versions[0].post.floor).toBe(real.floor);
  });

  test('a thread answering not-found after being seen is marked deleted and keeps its posts', () => {
    const data = recordThread();
    const posts = structuredClone(data.posts);
    const nf = capture(d1talk, 1, { file: 'notfound.html', status: 404, at: at('2026-11-26T00:00:00Z') });
    expect(nf.parsed.page.kind).toBe('not-found');
    const r = applyPage(data, nf.fetched, nf.parsed);
    expect(r.threadDeleted).toBe(true);
    expect(data.threads[String(d1talk)].deletedSince).toBe('2026-11-26T00:00:00.000Z');
    expect(data.posts).toEqual(posts);
  });

  test('login and guest-denied pages are refused and change nothing', () => {
    const data = recordThread();
    const snapshot = structuredClone(data);
    for (const file of ['login.html', 'guest-denied-t1.html']) {
      const page = capture(d1talk, 2, { file });
      expect(['login', 'no-permission']).toContain(page.parsed.page.kind);
      expect(() => applyPage(data, page.fetched, page.parsed)).toThrow(/refusing to store/);
    }
    expect(data).toEqual(snapshot);
  });

  test('the version hash covers text, fonts, links, images, edit marker, deletion and the body\'s state, not the floor', () => {
    const { parsed } = capture(d1talk, 1);
    const p = parsed.posts[1];
    const h = postHash(p);
    expect(postHash({ ...p, floor: 99, floorLabel: '99#' })).toBe(h);
    for (const change of [
      { text: p.text + '!' }, { colors: [{ value: 'Red', text: 'x' }] }, { sizes: [{ value: '7', text: 'x' }] },
      { links: ['https://example.com/'] }, { images: ['https://example.com/a.png'] },
      { edited: { by: 'x', at: '2026-11-22T20:30:00+08:00' } }, { deleted: !p.deleted },
      // what Discuz marked about the body: the same text shielded, or shown to a moderator only
      { state: 'shielded' as const }, { readable: false }, { hiddenParts: ['本帖隐藏的内容需要回复才可以浏览'] },
    ]) {
      expect(postHash({ ...p, ...change })).not.toBe(h);
    }
    // a normal post's hash is as before the marks existed: a store's versions do not all change at once
    expect(postHash({ ...p, state: 'normal', readable: true, hiddenParts: [] })).toBe(h);
  });
});

test('a refetch that shows a post\'s time less precisely (relative) keeps the precise time it had', () => {
  const data = recordThread();
  const { fetched, parsed } = capture(d1talk, 1, { at: new Date('2026-11-24T00:00:00Z') });
  const pid = parsed.posts[2].pid!;
  const precise = data.posts[String(pid)].versions[0].post;
  parsed.posts[2] = { ...parsed.posts[2], postedAt: '2026-11-21T10:00:00+08:00', timePrecision: 'minute', timeSource: 'relative', timeEarliest: '2026-11-21T09:00:00+08:00', floor: 77 };
  applyPage(data, fetched, parsed);
  const kept = data.posts[String(pid)].versions;
  expect(kept).toHaveLength(1);
  expect(kept[0].post).toMatchObject({ postedAt: precise.postedAt, timeSource: precise.timeSource, floor: 77 });
  expect(kept[0].post.timeEarliest).toBeUndefined();
});

describe('a pid belongs to one thread', () => {
  test('a page showing a stored post of another thread is refused (exit 3) and nothing is written', () => {
    const d2talk = ids.threads.d2talk.tid;
    const data = recordThread(recordThread(), d2talk);
    const before = JSON.stringify(data);
    // d1talk page 2, with one of its real posts carrying the pid of a d2talk post (what a damaged id
    // that slipped past the parser, or a moderator's move between threads, would hand the store)
    const { fetched, parsed } = capture(d1talk, 2, { at: at('2026-11-25T00:00:00Z') });
    const foreign = idsPosts(d2talk)[5].pid;
    const victim = parsed.posts[4];
    parsed.posts[4] = { ...victim, pid: foreign, text: `${victim.text} (changed)` };
    let err: unknown;
    try {
      applyPage(data, fetched, parsed);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).exitCode).toBe(3);
    expect((err as Error).message).toContain(`该页显示帖子 pid ${foreign} 属于帖子 ${d1talk}，但存档中 pid ${foreign} 属于帖子 ${d2talk}`);
    expect(JSON.stringify(data)).toBe(before);
    expect(data.posts[String(foreign)].versions).toHaveLength(1);
  });

  test('the same page with its real pids is recorded as usual', () => {
    const data = recordThread(recordThread(), ids.threads.d2talk.tid);
    const { fetched, parsed } = capture(d1talk, 2, { at: at('2026-11-25T00:00:00Z') });
    expect(applyPage(data, fetched, parsed)).toMatchObject({ newPosts: [], changedPosts: [] });
  });
});
