import { describe, expect, test } from 'vitest';
import { applyPage } from '../../src/store/record.js';
import { emptyStore } from '../../src/store/store-file.js';
import fs from 'node:fs';
import path from 'node:path';
import { assertComplete, completeness, describeGaps, formatRanges } from '../../src/store/completeness.js';
import { parsePage } from '../../src/discuz/parse-page.js';
import { UserError } from '../../src/errors.js';
import { removePost } from '../../src/replay/page-edits.js';
import { DISCUZ } from '../helpers/captured.js';
import { capture, capturedPages, fetchedPage, idsPosts, ids, pageHtml, PUBLIC } from './fixture-pages.js';

const GBK = path.join(DISCUZ, 'public-gbk');

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
    expect(c).toEqual({ tid, pagesFetched: pages, pageCount: pages, missingPages: [], maxFloor: lastFloor, missingFloors: [], replies: expected.length - 1, vanished: [], complete: true });
  });

  test('every captured thread (UTF-8 and GBK) reads complete, held to its page-1 reply count', () => {
    for (const [dir, pageFile] of [[PUBLIC, (t: number, p: number) => `viewthread-t${t}-p${p}.html`], [GBK, (t: number, p: number) => `thread-${t}-${p}-1.html`]] as const) {
      const dirIds = JSON.parse(fs.readFileSync(path.join(dir, 'ids.json'), 'utf8')) as typeof ids;
      for (const th of Object.values(dirIds.threads)) {
        const data = emptyStore(dirIds.base);
        for (let p = 1; fs.existsSync(path.join(dir, pageFile(th.tid, p))); p++) {
          const fetched = { ...fetchedPage(th.tid, p, { file: path.relative(PUBLIC, path.join(dir, pageFile(th.tid, p))) }), contentType: undefined };
          applyPage(data, fetched, parsePage(fetched));
        }
        const posts = Object.values(dirIds.posts).filter((p) => p.tid === th.tid).length;
        expect(completeness(data, th.tid), `${dir} t${th.tid}`).toMatchObject({ complete: true, replies: posts - 1, maxFloor: posts, missingFloors: [] });
      }
    }
  });

  test('the last post of the last page gone (as after a deletion): the tail floor is missing, and said why', () => {
    const last = expected[expected.length - 1];
    const data = storeWith(Array.from({ length: pages }, (_, i) => i + 1), (p, html) => (p === pages ? removePost(html, last.pid) : html));
    const c = completeness(data, tid);
    expect(c).toMatchObject({ missingPages: [], maxFloor: lastFloor - 1, missingFloors: [lastFloor], replies: lastFloor - 1, complete: false });
    expect(describeGaps(c)).toBe(`帖子 ${tid}：楼层 ${lastFloor} 从未见到（第 1 页显示 ${lastFloor - 1} 个回复，所以楼层应到 ${lastFloor}）`);
  });

  test('the count comes from the most recently fetched page 1; unknown (older store, theme without it) keeps the floors rule', () => {
    const all = Array.from({ length: pages }, (_, i) => i + 1);
    const data = storeWith(all);
    // page 1 fetched again later, showing two more replies: floors up to the new count are required
    const grown = pageHtml(tid, 1).replace(`回复:</span> <span class="xi1">${lastFloor - 1}<`, `回复:</span> <span class="xi1">${lastFloor + 1}<`);
    expect(grown).not.toBe(pageHtml(tid, 1));
    const later = capture(tid, 1, { html: grown, at: new Date('2026-11-24T00:00:00Z') });
    applyPage(data, later.fetched, later.parsed);
    expect(completeness(data, tid)).toMatchObject({ replies: lastFloor + 1, missingFloors: [lastFloor + 1, lastFloor + 2], complete: false });
    // an older fetch of page 1 recorded afterwards does not take the count back
    const older = capture(tid, 1, { at: new Date('2026-11-22T00:00:00Z') });
    applyPage(data, older.fetched, older.parsed);
    expect(completeness(data, tid).replies).toBe(lastFloor + 1);
    // a store written before the count was read: floors alone, as before
    delete data.threads[String(tid)].replies;
    expect(completeness(data, tid)).toMatchObject({ replies: null, missingFloors: [], complete: true });
  });

  test('a stored page showing 点评: the count (replies + 点评) is not used, the floors rule stays', () => {
    const last = expected[expected.length - 1];
    const cm = expected[3];
    const data = storeWith(Array.from({ length: pages }, (_, i) => i + 1), (p, html) => {
      let out = p === pages ? removePost(html, last.pid) : html;
      out = out.replace(`<div id="comment_${cm.pid}" class="cm">`, `<div id="comment_${cm.pid}" class="cm"><h3 class="psth xs1">点评</h3><div class="pstl xs1 cl"><div class="psti">好</div></div>`);
      return out;
    });
    expect(Object.values(data.threads[String(tid)].pages).filter((r) => r.comments)).toHaveLength(1);
    expect(completeness(data, tid)).toMatchObject({ replies: null, maxFloor: lastFloor - 1, missingFloors: [], complete: true });
  });

  test('a page never fetched is listed, with the floors it held', () => {
    const skip = 3;
    const c = completeness(storeWith([1, 2, 4, 5, 6, 7].filter((p) => p <= pages)), tid);
    expect(c.missingPages).toEqual([skip]);
    const floorsOnSkipped = expected.filter((p) => Math.ceil(p.floor / 10) === skip).map((p) => p.floor);
    expect(c.missingFloors).toEqual(floorsOnSkipped);
    expect(c.complete).toBe(false);
  });

  test('a post never seen while page 1 still counts it in its replies leaves a floor gap, even when every page was fetched', () => {
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
    expect(msg).toContain(`帖子 ${tid}：共 ${pages} 页，第 ${formatRanges(Array.from({ length: pages - 2 }, (_, i) => i + 3))} 页未抓取`);
    expect(msg).toContain('帖子 999：从未抓取');
    expect(msg).toContain('--allow-incomplete');
    const list = assertComplete(data, [tid], { allowIncomplete: true });
    expect(list[0].complete).toBe(false);
    expect(assertComplete(storeWith(Array.from({ length: pages }, (_, i) => i + 1)), [tid])[0].complete).toBe(true);
  });

  test('formatRanges writes runs compactly', () => {
    expect(formatRanges([5, 1, 2, 3, 9, 10])).toBe('1-3, 5, 9, 10');
  });
});
