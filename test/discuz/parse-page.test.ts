/**
 * Every captured page in fixtures/discuz/public and public-gbk parses, and what it yields matches
 * manifest.json (kind), ids.json (pids, floors, authors, uids, times) and the scenario (text).
 */
import { describe, expect, test } from 'vitest';
import { parsePage } from '../../src/discuz/index.js';
import type { Page } from '../../src/discuz/types.js';
import { fetched, ids, idsThreadPosts, manifest, scenario, site, type IdsPost, type ManifestEntry } from '../helpers/captured.js';
import { captureTime, expectedText, scenarioById, squash } from './fixtures.js';

const DIRS = [
  { dir: 'public', scenario: 'public' as const, desktop: 'viewthread-t7-p1.html' },
  { dir: 'public-gbk', scenario: 'public-gbk' as const, desktop: 'viewthread-t13-p1.html' },
];

/** The kind a page must have, from what the manifest says was requested and by whom. */
function expectedKind(e: ManifestEntry): Page['page']['kind'] {
  if (e.status >= 300 && e.status < 400) return 'unknown'; // an empty redirect body
  if (e.status === 404) return 'not-found';
  if (e.url.includes('mod=logging')) return 'login';
  if (e.as === 'guest') return 'no-permission'; // the board is login-only (site.json)
  if (e.url.includes('forumdisplay') || /^forum-\d+/.test(e.url)) return 'unknown';
  if (e.url.includes('action=printable')) return 'printable';
  if (e.url.includes('authorid=')) return 'author-only';
  return 'thread';
}

for (const { dir, scenario: scName, desktop } of DIRS) {
  describe(`fixtures/discuz/${dir}`, () => {
    const id = ids(dir);
    const st = site(dir);
    const sc = scenarioById(scenario(scName));
    const relative = new Set(id.relative.map((r) => r.pid));
    const at = captureTime(dir, desktop);
    const pages = manifest(dir).filter((e) => e.file.endsWith('.html'));
    const keyOf = new Map(Object.entries(id.posts).map(([k, p]) => [p.pid, k]));

    const checkPost = (got: Page['posts'][number], want: IdsPost, floor: number | null) => {
      expect(got.pid).toBe(want.pid);
      expect(got.tid).toBe(want.tid);
      expect(got.floor).toBe(floor);
      expect(got.author).toBe(want.author);
      expect(got.authorId).toBe(want.authorid);
      expect(got.postedAt).toMatch(/\+08:00$/);
      const t = Date.parse(got.postedAt) / 1000;
      if (got.timeSource === 'relative' && !relative.has(want.pid)) {
        // A relative time with no title (touch template): the true time lies in [timeEarliest, postedAt].
        expect(got.timeEarliest).toBeDefined();
        expect(want.dateline).toBeGreaterThanOrEqual(Date.parse(got.timeEarliest!) / 1000);
        expect(want.dateline).toBeLessThanOrEqual(t + 59);
      } else if (relative.has(want.pid)) {
        // @now-relative posts: ids.json's dateline was computed at scenario time, the page's own at
        // capture time; they must agree within two minutes and never lie after the capture.
        const earliest = got.timeEarliest ? Date.parse(got.timeEarliest) / 1000 : t;
        expect(want.dateline).toBeGreaterThanOrEqual(earliest - 120);
        expect(want.dateline).toBeLessThanOrEqual(t + 120);
        expect(t).toBeLessThanOrEqual(at.getTime() / 1000);
      } else if (got.timePrecision === 'second') {
        expect(t).toBe(want.dateline);
      } else {
        expect(t).toBe(want.dateline - (want.dateline % 60));
      }
      const s = sc.get(keyOf.get(want.pid)!);
      expect(s, `scenario post for pid ${want.pid}`).toBeDefined();
      expect(squash(got.text)).toBe(squash(expectedText(s!.edit?.body ?? s!.body)));
    };

    test.each(pages.map((e) => [e.file, e] as const))('%s', (_file, e) => {
      const page = parsePage(fetched(dir, e, at));
      const kind = expectedKind(e);
      expect(page.page.kind).toBe(kind);
      if (kind !== 'thread' && kind !== 'author-only' && kind !== 'printable') {
        expect(page.posts).toHaveLength(0);
        return;
      }
      const thread = id.threads[e.thread!];
      const all = idsThreadPosts(id, thread.tid);
      expect(page.page.tid).toBe(thread.tid);
      expect(page.page.title).toBe(thread.title);
      const mobile = e.url.includes('mobile=2');
      expect(page.page.template).toBe(mobile ? 'mobile' : 'desktop');
      if (kind === 'printable') {
        // The printable view lists the first 100 posts by post time (dateline), not by floor.
        const want = [...all].sort((a, b) => a.dateline - b.dateline || a.pid - b.pid).slice(0, 100);
        expect(page.posts).toHaveLength(want.length);
        page.posts.forEach((p, i) => {
          expect(p.pid).toBeNull();
          expect(p.floor).toBeNull();
          expect(p.authorId).toBeNull();
          expect(p.author).toBe(want[i].author);
          if (!relative.has(want[i].pid)) expect(Date.parse(p.postedAt) / 1000).toBe(want[i].dateline - (want[i].dateline % 60));
          expect(squash(p.text)).toBe(squash(expectedText((sc.get(keyOf.get(want[i].pid)!)!.edit?.body ?? sc.get(keyOf.get(want[i].pid)!)!.body))));
        });
        return;
      }
      if (kind === 'author-only') {
        const uid = +/authorid=(\d+)/.exec(e.url)![1];
        expect(page.page.authorFilter).toBe(uid);
        const want = all.filter((p) => p.authorid === uid).slice(0, st.ppp);
        expect(page.posts.map((p) => p.pid)).toEqual(want.map((p) => p.pid));
        // The only-author view renumbers floors 1, 2, 3... (楼主, 沙发, 板凳...).
        page.posts.forEach((p, i) => checkPost(p, want[i], i + 1));
        return;
      }
      const ppp = mobile ? (st.mobile_api_ppp ?? st.ppp) : st.ppp;
      const pageNo = e.page ?? 1;
      const want = all.slice((pageNo - 1) * ppp, pageNo * ppp);
      expect(page.page.page).toBe(pageNo);
      expect(page.page.pageCount).toBe(Math.ceil(all.length / ppp));
      expect(page.posts.map((p) => p.pid)).toEqual(want.map((p) => p.pid));
      page.posts.forEach((p, i) => checkPost(p, want[i], want[i].floor));
      expect(new Set(page.posts.map((p) => p.pid)).size).toBe(page.posts.length);
    });
  });
}

describe('fixtures/discuz/public-defense', () => {
  const at = captureTime('public', 'viewthread-t7-p1.html');
  const dir = 'public-defense';
  const defense = manifest(dir);
  const expected: Record<string, Page['page']['kind']> = {};
  for (const e of defense) {
    // The manifest notes say what each page is.
    expected[e.file] = /System Error/.test(e.notes ?? '')
      ? 'server-error'
      : /redirects to the same URL|页面重载开启/.test(e.notes ?? '')
        ? 'challenge'
        : 'thread';
  }
  test.each(defense.map((e) => [e.file, e] as const))('%s', (_f, e) => {
    const page = parsePage(fetched(dir, e, at, undefined, ids('public').base));
    expect(page.page.kind).toBe(expected[e.file]);
    if (page.page.kind !== 'thread') {
      expect(page.posts).toHaveLength(0);
      expect(page.page.message).toBeTruthy();
    } else {
      const want = idsThreadPosts(ids('public'), 2).slice(0, 10);
      expect(page.posts.map((p) => p.pid)).toEqual(want.map((p) => p.pid));
    }
  });
  test('the anti-CC page with an empty <meta charset=""> decodes by the header and says so', () => {
    const e = defense.find((x) => x.file === 'anticc-t2-p2.html')!;
    const page = parsePage(fetched(dir, e, at, undefined, ids('public').base));
    expect(page.page.charset).toBe('utf-8');
    expect(page.page.message).toContain('页面重载开启');
    expect(page.page.warnings!.join()).toMatch(/meta.*为空/);
  });
  test('a System Error page counts as server-error even without the 503 status', () => {
    const e = defense.find((x) => x.file === 'system-error-t2-p2.html')!;
    const fp = fetched(dir, e, at, undefined, ids('public').base);
    delete fp.status;
    expect(parsePage(fp).page.kind).toBe('server-error');
  });
});
