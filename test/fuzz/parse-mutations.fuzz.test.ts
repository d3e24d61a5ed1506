/**
 * Mutated real pages through the parser (issue 8: "mutated real pages through the parser give a page or
 * a clear error"). Every captured desktop thread page of fixtures/discuz/public (UTF-8) and
 * fixtures/discuz/public-gbk (GBK, rewrite URLs, jammer) is mutated by fast-check — truncated at any
 * byte, a closing tag deleted, two bytes swapped, an attribute removed, a whole post block removed, or
 * several of these at once — and parsed.
 *
 * The invariants, and why they are the right ones:
 *
 * I1 (clear outcome) parsePage returns a Page or throws a ParseError — never a TypeError or any other
 *    crash. A ParseError is the parser's refusal (exit code 3, "incomplete or unreadable data"); any
 *    other exception would be an internal error the director cannot act on.
 *
 * I2 (no silent loss) Recording the mutated page into a store that holds every OTHER page of the thread
 *    (exactly what a crawl that received this response would hold) either keeps every post of the real
 *    page, or leaves the thread incomplete by the store's own completeness check (src/store/completeness.ts,
 *    the check tally/report run before counting), or is refused (ParseError / non-thread page). Counting
 *    is the only way a lost post can hurt — a missing ballot is a wrong count — and counting commands
 *    refuse an incomplete thread, so "lost ⇒ incomplete" is exactly "never a quietly wrong report".
 *    Checking "fewer posts ⇒ ParseError" instead would be too strong (a post deleted on the forum really
 *    is gone from the page) and checking only the post count would be too weak (it says nothing about
 *    whether anything downstream notices).
 *    No loss is exempt, not even posts missing from the END of the thread's LAST page — a page without
 *    its last post is byte-for-byte what Discuz serves after a moderator deletes that post, so the floors
 *    cannot tell; the thread's reply count (回复: N, shown on page 1) does: completeness requires floors
 *    up to N + 1.
 *
 * I3 (nothing invented) Outside byte swaps, every post the mutated page yields is a post of the real
 *    page, with its real floor or no floor at all (null: the floor link lost its id) — never another
 *    number. A post whose floor became unknown leaves a gap in the floors, so the thread must then read
 *    as incomplete (checked with I2's store). A swapped byte can land inside a digit — a floor, a time —
 *    and a single page carries no checksum for those, so under byte swaps only the pids are held to I3:
 *    a post block carries its pid in several ids (div#post_N, table#pidN, a#postnumN, em#authorpostonN,
 *    td#postmessage_N), which the parser cross-checks, so a damaged id is a ParseError, never a post
 *    under another pid.
 *
 * Also mutated: the captured refusal pages (login, not-found, guest-denied, anti-CC, antitheft, System
 * Error) — they must never yield a single post, so a damaged error page can never feed the store — and
 * the mobile and printable views (I1, never more posts, no invented pid).
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ParseError, parsePage } from '../../src/discuz/index.js';
import type { FetchedPage, Page } from '../../src/discuz/types.js';
import { applyPage, completeness, emptyStore } from '../../src/store/index.js';
import type { StoreData } from '../../src/store/types.js';
import { DISCUZ, fetched as fixturePage, ids, manifest } from '../helpers/captured.js';

interface RealPage {
  dir: string;
  file: string;
  fetched: FetchedPage;
  parsed: Page;
  tid: number;
}

function loadPages(dir: string, pattern: RegExp): RealPage[] {
  // public-defense has no ids.json: its refusal pages resolve against the public capture's base.
  const base = fs.existsSync(path.join(DISCUZ, dir, 'ids.json')) ? ids(dir).base : 'http://127.0.0.1:8081/';
  return manifest(dir)
    .filter((e) => pattern.test(e.file))
    .map((e) => {
      const fetched = fixturePage(dir, e, new Date('2026-11-30T08:00:00Z'), undefined, base);
      const parsed = parsePage(fetched);
      return { dir, file: e.file, fetched, parsed, tid: parsed.page.tid ?? -1 };
    });
}

const PAGES = [...loadPages('public', /^viewthread-t\d+-p\d+\.html$/), ...loadPages('public-gbk', /^thread-\d+-\d+-1\.html$/)];
/** Pages that are not a thread: login, not-found, guest-denied, anti-CC, antitheft, System Error. */
const REFUSALS = [
  ...loadPages('public', /^(login|notfound|guest-notfound|guest-denied-t1)\.html$/),
  ...loadPages('public-gbk', /^(login|notfound|guest-denied-t13)\.html$/),
  ...loadPages('public-defense', /^(anticc-|antitheft-t|system-error-).*\.html$/),
];
/** Other views of a thread: the mobile template and the printable view. */
const VIEWS = [...loadPages('public', /^(mobile2|printable)-t\d+(-p1)?\.html$/), ...loadPages('public-gbk', /^(mobile2|printable)-t\d+(-p1)?\.html$/)];
const byThread = new Map<string, RealPage[]>();
for (const p of PAGES) byThread.set(`${p.dir}:${p.tid}`, [...(byThread.get(`${p.dir}:${p.tid}`) ?? []), p]);

// ---------------------------------------------------------------------------------------------------
// Mutations on the raw bytes (tags and attributes are ASCII in both UTF-8 and GBK, so a latin1 view of
// the bytes lets us cut markup without touching the multi-byte text around it).

type Mutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'drop-closing-tag'; k: number }
  | { kind: 'swap-bytes'; i: number; j: number }
  | { kind: 'remove-attribute'; k: number }
  | { kind: 'remove-post-block'; k: number };

const latin1 = (b: Uint8Array) => Buffer.from(b).toString('latin1');
const bytesOf = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));

function nth(s: string, re: RegExp, k: number): RegExpExecArray | null {
  const all = [...s.matchAll(re)];
  return all.length ? (all[k % all.length] as RegExpExecArray) : null;
}

function mutate(bytes: Uint8Array, m: Mutation): Uint8Array {
  switch (m.kind) {
    case 'truncate':
      return bytes.slice(0, m.at % bytes.length);
    case 'swap-bytes': {
      const out = bytes.slice();
      const i = m.i % out.length;
      const j = m.j % out.length;
      [out[i], out[j]] = [out[j], out[i]];
      return out;
    }
    case 'drop-closing-tag': {
      const s = latin1(bytes);
      const hit = nth(s, /<\/[a-zA-Z][a-zA-Z0-9]*\s*>/g, m.k);
      return hit ? bytesOf(s.slice(0, hit.index) + s.slice(hit.index + hit[0].length)) : bytes;
    }
    case 'remove-attribute': {
      const s = latin1(bytes);
      const hit = nth(s, /\s[a-zA-Z_:][-a-zA-Z0-9_:.]*\s*=\s*("[^"]*"|'[^']*')/g, m.k);
      return hit ? bytesOf(s.slice(0, hit.index) + s.slice(hit.index + hit[0].length)) : bytes;
    }
    case 'remove-post-block': {
      const s = latin1(bytes);
      const hit = nth(s, /<div id="post_\d+" /g, m.k);
      if (!hit) return bytes;
      const rest = /<div id="post_\d+" |<div id="postlistreply"/.exec(s.slice(hit.index + 1));
      const end = rest ? hit.index + 1 + rest.index : s.length;
      return bytesOf(s.slice(0, hit.index) + s.slice(end));
    }
  }
}

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('drop-closing-tag' as const), k: fc.nat() }),
  fc.record({ kind: fc.constant('swap-bytes' as const), i: fc.nat(), j: fc.nat() }),
  fc.record({ kind: fc.constant('remove-attribute' as const), k: fc.nat() }),
  fc.record({ kind: fc.constant('remove-post-block' as const), k: fc.nat() }),
);

/** Pages are drawn by index so a counterexample prints as a file name, not megabytes of bytes. */
const pageIndex = fc.nat({ max: PAGES.length - 1 });

type Outcome = { page: Page } | { refused: ParseError };

/** I1: a Page or a ParseError; anything else fails the property with the exception. */
function parseOutcome(fetched: FetchedPage): Outcome {
  try {
    return { page: parsePage(fetched) };
  } catch (err) {
    if (err instanceof ParseError) return { refused: err };
    throw new Error(`parsePage crashed with ${(err as Error)?.name}: ${(err as Error)?.message}`);
  }
}

/** I2: a store of the thread's other pages plus the mutated one keeps every real post or is incomplete. */
function silentLoss(real: RealPage, fetched: FetchedPage, page: Page): string | null {
  if (page.page.kind !== 'thread') return null; // applyPage refuses every other kind: nothing is stored
  const data = storeWithout(real);
  applyPage(data, fetched, page);
  // Real posts the store no longer has, and real posts stored without their floor: both are gaps.
  const lost = real.parsed.posts.filter((p) => !data.posts[String(p.pid)]);
  const unnumbered = real.parsed.posts.filter((p) => p.floor !== null && data.posts[String(p.pid)] && page.posts.some((q) => q.pid === p.pid && q.floor === null));
  if (lost.length === 0 && unnumbered.length === 0) return null;
  const c = completeness(data, real.tid);
  if (!c.complete) return null;
  const gone = [...lost, ...unnumbered];
  return `posts ${gone.map((p) => `${p.pid} (floor ${p.floor})`).join(', ')} lost or unnumbered and the thread still reads as complete`;
}

const withoutCache = new Map<RealPage, string>();
/** A fresh store holding every page of the real page's thread except that page (cached as JSON). */
function storeWithout(real: RealPage): StoreData {
  let json = withoutCache.get(real);
  if (json === undefined) {
    const data = emptyStore(new URL(real.fetched.url).origin + '/');
    for (const other of byThread.get(`${real.dir}:${real.tid}`)!) if (other !== real) applyPage(data, other.fetched, other.parsed);
    withoutCache.set(real, (json = JSON.stringify(data)));
  }
  return JSON.parse(json) as StoreData;
}

/** I3 under byte swaps: every post is a post of the real page (its pid is one the real page has). */
function renamed(real: RealPage, page: Page): string | null {
  const pids = new Set(real.parsed.posts.map((p) => p.pid));
  for (const p of page.posts) if (!pids.has(p.pid)) return `post ${p.pid} is not on the real page`;
  return null;
}

/** I3: posts are posts of the real page, with their real floors. */
function invented(real: RealPage, page: Page): string | null {
  const floorOf = new Map(real.parsed.posts.map((p) => [p.pid, p.floor]));
  for (const p of page.posts) {
    if (!floorOf.has(p.pid!)) return `post ${p.pid} is not on the real page`;
    if (p.floor !== null && floorOf.get(p.pid!) !== p.floor) return `post ${p.pid} has floor ${p.floor}, really ${floorOf.get(p.pid!)}`;
  }
  return null;
}

function check(real: RealPage, muts: Mutation[]): void {
  const bytes = muts.reduce(mutate, real.fetched.bytes);
  const fetched = { ...real.fetched, bytes };
  const out = parseOutcome(fetched);
  if ('refused' in out) return;
  const loss = silentLoss(real, fetched, out.page);
  expect(loss, `${real.dir}/${real.file} ${JSON.stringify(muts)}`).toBeNull();
  if (!muts.some((m) => m.kind === 'swap-bytes')) {
    expect(invented(real, out.page), `${real.dir}/${real.file} ${JSON.stringify(muts)}`).toBeNull();
  } else {
    expect(renamed(real, out.page), `${real.dir}/${real.file} ${JSON.stringify(muts)}`).toBeNull();
  }
}

describe('mutated real pages through parsePage', () => {
  test(`fixtures: ${PAGES.length} real thread pages parse, each with posts`, () => {
    expect(PAGES.length).toBeGreaterThan(20);
    for (const p of PAGES) expect(p.parsed.posts.length, p.file).toBeGreaterThan(0);
  });

  test('one mutation: a Page or a ParseError, nothing lost silently, nothing invented (700 runs)', () => {
    fc.assert(fc.property(pageIndex, mutation, (i, m) => check(PAGES[i], [m])), { numRuns: 700 });
  });

  test('two to four mutations at once (300 runs)', () => {
    fc.assert(fc.property(pageIndex, fc.array(mutation, { minLength: 2, maxLength: 4 }), (i, ms) => check(PAGES[i], ms)), { numRuns: 300 });
  });

  test(`${REFUSALS.length} refusal pages (login, not-found, denied, anti-CC, antitheft, System Error) never turn into posts (300 runs)`, () => {
    expect(REFUSALS.length).toBeGreaterThanOrEqual(9);
    for (const p of REFUSALS) expect(p.parsed.posts, p.file).toEqual([]);
    fc.assert(
      fc.property(fc.nat({ max: REFUSALS.length - 1 }), fc.array(mutation, { minLength: 1, maxLength: 3 }), (i, ms) => {
        const real = REFUSALS[i];
        const out = parseOutcome({ ...real.fetched, bytes: ms.reduce(mutate, real.fetched.bytes) });
        // a refusal page stays a page the store refuses (or a ParseError): it never yields posts
        if ('page' in out) expect(out.page.posts, `${real.dir}/${real.file} ${JSON.stringify(ms)}`).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  test(`${VIEWS.length} mobile and printable views: a Page or a ParseError, never more posts (300 runs)`, () => {
    expect(VIEWS.length).toBeGreaterThanOrEqual(10);
    fc.assert(
      fc.property(fc.nat({ max: VIEWS.length - 1 }), mutation, (i, m) => {
        const real = VIEWS[i];
        const out = parseOutcome({ ...real.fetched, bytes: mutate(real.fetched.bytes, m) });
        if (!('page' in out)) return;
        expect(out.page.posts.length).toBeLessThanOrEqual(real.parsed.posts.length);
        if (m.kind !== 'swap-bytes') {
          const pids = new Set(real.parsed.posts.map((p) => p.pid));
          for (const p of out.page.posts) expect(pids.has(p.pid), `${real.file} ${JSON.stringify(m)}: pid ${p.pid}`).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  test('every post block of every page removed in turn: each loss is detected (exhaustive, the tail of the last page included)', () => {
    const undetected: string[] = [];
    for (const real of PAGES) {
      for (let k = 0; k < real.parsed.posts.length; k++) {
        const m: Mutation = { kind: 'remove-post-block', k };
        const fetched = { ...real.fetched, bytes: mutate(real.fetched.bytes, m) };
        const out = parseOutcome(fetched);
        if ('refused' in out) continue;
        const loss = silentLoss(real, fetched, out.page);
        if (loss) undetected.push(`${real.dir}/${real.file}: ${loss}`);
      }
    }
    expect(undetected).toEqual([]);
  });

  // Was KNOWN GAP 1: the last post of a thread's last page vanished without the store noticing. Page 1
  // shows the thread's reply count (td.pls "回复: N"), read into PageInfo.replies and stored per thread;
  // completeness() requires floors up to N + 1.
  test('the last post of the last page removed is detected (refused or incomplete)', () => {
    const undetected: string[] = [];
    for (const pages of byThread.values()) {
      const last = pages.reduce((a, b) => ((a.parsed.page.page ?? 1) >= (b.parsed.page.page ?? 1) ? a : b));
      const data = emptyStore(new URL(last.fetched.url).origin + '/');
      for (const other of pages) if (other !== last) applyPage(data, other.fetched, other.parsed);
      const fetched = { ...last.fetched, bytes: mutate(last.fetched.bytes, { kind: 'remove-post-block', k: last.parsed.posts.length - 1 }) };
      const out = parseOutcome(fetched);
      if ('refused' in out) continue; // a thread page left without any post: a ParseError, nothing stored
      applyPage(data, fetched, out.page);
      if (completeness(data, last.tid).complete) undetected.push(`${last.dir}/${last.file}`);
    }
    expect(undetected).toEqual([]);
  });

  // Was KNOWN GAP 2: one byte swapped into a post's id (div#post_101 → div#post_1) renamed the post. The
  // parser now cross-checks the block's other ids (table#pid101, a#postnum101, em#authorposton101,
  // td#postmessage_101), and applyPage refuses a pid stored in another thread (test/store/record.test.ts).
  test('a byte swap inside a post id yields a ParseError naming the post, never a post under a wrong pid', () => {
    const real = PAGES.find((p) => p.file === 'viewthread-t4-p2.html')!;
    const fetched = { ...real.fetched, bytes: mutate(real.fetched.bytes, { kind: 'swap-bytes', i: 1334524382, j: 1854994271 }) };
    const out = parseOutcome(fetched);
    if ('page' in out) expect(invented(real, out.page)).toBeNull();
    expect('refused' in out && out.refused.message).toMatch(/帖子 1：.*div#post_1 里是 table#pid101/);
  });
});
