/**
 * Which threads decide a closing count and the close each must be fetched after (src/crawl/freshness.ts),
 * on the public game file (fixtures/games/public.yaml: m107 with acceleration, a process thread, day 1 the
 * sheriff election): stated here from the rules — the day's vote thread, its discussion thread (ballots
 * posted there are reported), the process thread (acceleration is read there, the game file declaring
 * none), and for day 2 day 1's election thread (who is sheriff, and so whose vote weighs 1.5), which
 * decides by day 1's close.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { closesPassed, decidingThreads, oldestPageFetch } from '../../src/crawl/freshness.js';
import { parseGame } from '../../src/game/game-file.js';
import type { StoredThread } from '../../src/store/types.js';
import { FIXTURES, ids as readIds } from '../helpers/captured.js';

const game = parseGame(fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8'), path.join(FIXTURES, 'games', 'public.yaml'));
const tid = readIds('public').threads;
const close1 = Date.parse('2026-11-21T21:00:00+08:00');
const close2 = Date.parse('2026-11-22T21:00:00+08:00');

describe('the threads that decide a count, and by when', () => {
  test('day 1: its vote and discussion threads and the process thread, by day 1\'s close', () => {
    expect(new Map(decidingThreads(game, 1).map((x) => [x.tid, x.due]))).toEqual(new Map([
      [tid.d1vote.tid, close1], [tid.d1talk.tid, close1], [tid.process.tid, close1],
    ]));
  });

  test('day 2: its own threads and the process thread by day 2\'s close; day 1\'s election by day 1\'s', () => {
    expect(new Map(decidingThreads(game, 2).map((x) => [x.tid, x.due]))).toEqual(new Map([
      [tid.d2vote.tid, close2], [tid.d2talk.tid, close2], [tid.process.tid, close2], [tid.d1vote.tid, close1],
    ]));
  });

  test('a crawl refetches pages older than the latest close passed that reads the thread', () => {
    const before = closesPassed(game, close1 - 1);
    expect(before(tid.d1vote.tid)).toBeUndefined();
    const between = closesPassed(game, close1 + 60_000);
    expect([between(tid.d1vote.tid), between(tid.process.tid), between(tid.d2vote.tid)]).toEqual([close1, close1, undefined]);
    const after = closesPassed(game, close2);
    expect([after(tid.d1vote.tid), after(tid.process.tid), after(tid.d2vote.tid)]).toEqual([close1, close2, close2]);
  });
});

describe('as of when a stored thread is', () => {
  const page = (n: number, at: string) => ({ page: n, url: '', fetchedAt: at, bodyHash: '', pids: [] });
  const thread = (pages: ReturnType<typeof page>[], pageCount = pages.length): StoredThread => ({
    tid: 5, title: '', pageCount, pages: Object.fromEntries(pages.map((p) => [String(p.page), p])), lastCrawl: null, deletedSince: null,
  });

  test('the oldest fetch of its pages 1..N; none when a page was never fetched, or nothing stored', () => {
    expect(oldestPageFetch(thread([page(1, '2026-11-22T12:30:00Z'), page(2, '2026-11-22T13:05:00Z')]))).toBe(Date.parse('2026-11-22T12:30:00Z'));
    expect(oldestPageFetch(thread([page(1, '2026-11-22T13:05:00Z')], 2))).toBeNull();
    expect(oldestPageFetch(undefined)).toBeNull();
  });
});
