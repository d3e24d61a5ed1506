/**
 * The store's read side (src/store/slice.ts) on real captured pages: a slice post is exactly the
 * current version plus pid, tid, time, link, history and missing flag — every Post field, in Post's
 * order (toSlicePost lists them by hand to keep slices small; this catches a field it forgets).
 */
import { describe, expect, test } from 'vitest';
import { emptyStore } from '../../src/store/store-file.js';
import { applyPage } from '../../src/store/record.js';
import { postUrl, threadPosts } from '../../src/store/slice.js';
import { capture, capturedPages, ids } from './fixture-pages.js';

describe('threadPosts', () => {
  test('every field of the current version, in order, plus the slice fields', () => {
    const data = emptyStore(ids.base);
    const tid = ids.threads.d1talk.tid;
    for (let p = 1; p <= capturedPages(tid); p++) {
      const c = capture(tid, p);
      applyPage(data, c.fetched, c.parsed);
    }
    const posts = threadPosts(data, tid);
    expect(posts.length).toBe(Object.values(ids.posts).filter((p) => p.tid === tid).length);
    for (const sp of posts) {
      const stored = data.posts[String(sp.pid)];
      const current = stored.versions.at(-1)!.post;
      const expected = {
        ...current, pid: stored.pid, tid: stored.tid, at: Date.parse(current.postedAt), url: postUrl(ids.base, tid, sp.pid),
        versions: stored.versions, missing: false,
      };
      expect(sp).toEqual(expected);
      expect(Object.keys(sp)).toEqual(Object.keys(expected));
    }
    expect(posts.map((p) => p.pid)).toEqual([...posts.map((p) => p.pid)].sort((a, b) => a - b));
  });
});
