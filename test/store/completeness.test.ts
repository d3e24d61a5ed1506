import { describe, expect, test } from 'vitest';
import { applyPage } from '../../src/store/record.js';
import { emptyStore } from '../../src/store/store-file.js';
import { assertComplete, completeness, formatRanges } from '../../src/store/completeness.js';
import { UserError } from '../../src/cli/errors.js';
import { removePost } from '../../src/replay/page-edits.js';
import { capture, capturedPages, idsPosts, ids, pageHtml } from './fixture-pages.js';

const tid = ids.threads.d1talk.tid;
const pages = capturedPages(tid);
const expected = idsPosts(tid);
const lastFloor = expected[expected.length - 1].floor;

function storeWith(pagesToRecord: number[], edit?: (page: number, html: string) => string) {
  const data = emptyStore(ids.base);
  for (const p of pagesToRecord) {
    const { fetched, parsed } = capture(tid, p, edit ? { html: edit(p, pageHtml(tid, p)) } : {});
    applyPage(data, fetched, parsed);
  }
  return data;
}

describe('completeness', () => {
  test('all pages fetched: pages N/N, floors 1..K with no gaps', () => {
    const c = completeness(storeWith(Array.from({ length: pages }, (_, i) => i + 1)), tid);
    expect(c).toEqual({ tid, pagesFetched: pages, pageCount: pages, missingPages: [], maxFloor: lastFloor, missingFloors: [], complete: true });
  });

  test('a page never fetched is listed, with the floors it held', () => {
    const skip = 3;
    const c = completeness(storeWith([1, 2, 4, 5, 6, 7].filter((p) => p <= pages)), tid);
    expect(c.missingPages).toEqual([skip]);
    const floorsOnSkipped = expected.filter((p) => Math.ceil(p.floor / 10) === skip).map((p) => p.floor);
    expect(c.missingFloors).toEqual(floorsOnSkipped);
    expect(c.complete).toBe(false);
  });

  test('a post never seen leaves a floor gap even when every page was fetched', () => {
    const gone = expected[24];
    const data = storeWith(Array.from({ length: pages }, (_, i) => i + 1), (p, html) => (html.includes(`id="post_${gone.pid}" `) ? removePost(html, gone.pid) : html));
    const c = completeness(data, tid);
    expect(c.missingPages).toEqual([]);
    expect(c.missingFloors).toEqual([gone.floor]);
    expect(c.complete).toBe(false);
  });

  test('a post seen and later marked missing is not a gap (it is in the store)', () => {
    const all = Array.from({ length: pages }, (_, i) => i + 1);
    const data = storeWith(all);
    const gone = expected[24];
    const page = Math.ceil(gone.floor / 10);
    const { fetched, parsed } = capture(tid, page, { html: removePost(pageHtml(tid, page), gone.pid) });
    applyPage(data, fetched, parsed);
    expect(data.posts[String(gone.pid)].missingSince).not.toBeNull();
    expect(completeness(data, tid).complete).toBe(true);
  });

  test('a thread never fetched is incomplete', () => {
    expect(completeness(emptyStore(), 999)).toMatchObject({ pageCount: 0, complete: false, missingPages: [1] });
  });

  test('assertComplete refuses (exit 3) listing exactly what is missing, unless allowIncomplete', () => {
    const data = storeWith([1, 2]);
    let err: unknown;
    try {
      assertComplete(data, [tid, 999]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).exitCode).toBe(3);
    const msg = (err as Error).message;
    expect(msg).toContain(`thread ${tid}: pages ${formatRanges(Array.from({ length: pages - 2 }, (_, i) => i + 3))} of ${pages} not fetched`);
    expect(msg).toContain('thread 999: never fetched');
    expect(msg).toContain('--allow-incomplete');
    const list = assertComplete(data, [tid], { allowIncomplete: true });
    expect(list[0].complete).toBe(false);
    expect(assertComplete(storeWith(Array.from({ length: pages }, (_, i) => i + 1)), [tid])[0].complete).toBe(true);
  });

  test('formatRanges writes runs compactly', () => {
    expect(formatRanges([5, 1, 2, 3, 9, 10])).toBe('1-3, 5, 9, 10');
  });
});
