/**
 * Acceleration (rules-spec §5) from the real process thread (fixtures/discuz/public t6) and variants:
 * distinct alive players in the day's window before the cut-off, against each preset's threshold.
 */
import { describe, expect, test } from 'vitest';
import { accelerationFor, requestKind } from '../../src/votes/acceleration.js';
import { findDay } from '../../src/game/roster.js';
import { tallyDay } from '../../src/votes/tally.js';
import { publicGame } from '../helpers/captured.js';
import { at, capturePosts, publicGameWith, publicPostsWith, readIds, variant } from './fixtures.js';

const ids = readIds('public');
const process_ = capturePosts('public', 'process');
const game = publicGame();
const day2 = findDay(game, 2);
const asker = process_.find((p) => p.author === '油条')!;
const more = (author: string, local: string, text = '申请加速', pid = 9300) => variant(asker, { pid, author, ...at(local), text });

describe('m107: more than half of the alive players, until closing', () => {
  test('the real thread: 5 alive askers of 11 is not more than half (馒头 is out)', () => {
    const r = accelerationFor(game, day2, process_);
    expect(r).toMatchObject({ accelerated: false, alive: 11, needed: 6 });
    expect(r.requests).toHaveLength(5);
    expect(r.ignored).toEqual([expect.objectContaining({ author: '馒头', code: 'out', reason: '馒头 已出局（11-22 10:00 起）' })]);
    expect(r.explanation).toBe('11-22 21:00 前，11 名存活玩家中 5 人申请加速（须过半：6 人）：未加速');
  });
  test('one more alive asker accelerates the day, and every change is void', () => {
    const posts = [...process_, more('豆浆', '2026-11-22 16:30:00')];
    expect(accelerationFor(game, day2, posts).accelerated).toBe(true);
    const store = publicPostsWith('process', posts);
    const r = tallyDay(game, store, 2);
    expect(r.accelerated).toBe(true);
    const change = r.ballots.find((b) => b.pid === ids.posts['d2vote-jiaozi-2'].pid)!;
    expect(change.details?.map((d) => d.code)).toEqual(['accelerated-change-void']);
    expect(r.ballots.find((b) => b.pid === ids.posts['d2vote-jiaozi'].pid)!.status).toBe('counted');
  });
  test('the same player asking twice counts once; a request at or after closing does not count', () => {
    expect(accelerationFor(game, day2, [...process_, more('饺子', '2026-11-22 16:30:00')]).requests).toHaveLength(5);
    expect(accelerationFor(game, day2, [...process_, more('豆浆', '2026-11-22 21:00:00')]).accelerated).toBe(false);
  });
  test('a request on another day does not count; a withdrawal does', () => {
    expect(accelerationFor(game, day2, [...process_, more('豆浆', '2026-11-21 16:30:00')]).accelerated).toBe(false);
    const withdrawn = [...process_, more('豆浆', '2026-11-22 16:30:00'), more('汤圆', '2026-11-22 17:00:00', '取消申请加速', 9301)];
    const r = accelerationFor(game, day2, withdrawn);
    expect(r.accelerated).toBe(false);
    expect(r.ignored.some((i) => i.author === '汤圆' && i.code === 'withdrew')).toBe(true);
  });
});

describe('the day\'s window read off each post\'s span (every day counts the whole process thread)', () => {
  const sixth = (local: string, timePrecision: 'second' | 'minute') => [...process_, { ...more('豆浆', local), timePrecision }];
  const opens = new Date(day2.opens);
  const local = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
  test('a stamp of the minute before opening may be in the day: read; one a minute earlier is not', () => {
    expect(accelerationFor(game, day2, sixth(local(opens.getTime() - 30_000), 'minute')).accelerated).toBe(true);
    expect(accelerationFor(game, day2, sixth(local(opens.getTime() - 60_000), 'minute')).accelerated).toBe(false);
    expect(accelerationFor(game, day2, sixth(local(opens.getTime() - 1_000), 'second')).accelerated).toBe(false);
    expect(accelerationFor(game, day2, sixth(local(opens.getTime()), 'second')).accelerated).toBe(true);
  });
  test('a stamp of the minute before closing may be after it, one at closing is: neither read; one just before it counts', () => {
    for (const [ms, precision] of [[day2.closes - 30_000, 'minute'], [day2.closes, 'second'], [day2.closes + 60_000, 'minute']] as const) {
      const r = accelerationFor(game, day2, sixth(local(ms), precision));
      expect([r.accelerated, r.audit.some((a) => a.player === '豆浆'), r.ignored.some((i) => i.author === '豆浆')]).toEqual([false, false, false]);
    }
    expect(accelerationFor(game, day2, sixth(local(day2.closes - 60_000), 'minute')).accelerated).toBe(true);
  });
});

describe('062: at least half, until 3 hours before closing; a delay cancels it', () => {
  const g062 = publicGameWith((y) => y.replace('ruleset: m107', 'ruleset: "062"'));
  const d = findDay(g062, 2);
  test('5 askers is not half of 11; a sixth before 18:00 is', () => {
    expect(accelerationFor(g062, d, process_)).toMatchObject({ accelerated: false, needed: 6 });
    expect(accelerationFor(g062, d, [...process_, more('豆浆', '2026-11-22 17:59:59')]).accelerated).toBe(true);
  });
  test('a request after the cut-off (closing − 3 h) does not count', () => {
    const r = accelerationFor(g062, d, [...process_, more('豆浆', '2026-11-22 18:00:00')]);
    expect(r.accelerated).toBe(false);
    expect(r.ignored.some((i) => i.author === '豆浆' && i.code === 'after-cutoff')).toBe(true);
  });
  test('申请延时 by at least half cancels acceleration (062 l.248)', () => {
    const delays = ['烧卖', '豆浆', '花卷', '粽子', '月饼', '麻花'].map((p, i) => more(p, '2026-11-22 17:00:00', '申请延时', 9400 + i));
    const r = accelerationFor(g062, d, [...process_, more('豆浆', '2026-11-22 17:10:00', '申请加速', 9399), ...delays]);
    expect(r.accelerated).toBe(false);
    expect(r.explanation).toContain('但 6 人申请延时，加速取消（062 l.248');
  });
});

test('request words: plain, inside a sentence, withdrawn', () => {
  expect(requestKind('申请加速', ['申请加速'], [])).toBe('request');
  expect(requestKind('我也申请加速！', ['申请加速'], [])).toBe('request');
  expect(requestKind('撤回申请加速', ['申请加速'], [])).toBe('withdraw');
  expect(requestKind('申请延时', ['申请加速'], ['申请延时'])).toBe('delay');
  expect(requestKind('同意楼上', ['申请加速'], [])).toBeNull();
});
