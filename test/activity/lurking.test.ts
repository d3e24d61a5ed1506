/**
 * The three-day rule and acceleration waivers on the public capture, with a third day (thread 7, the
 * captured day-3 discussion) added to the game file; expectations derived from ids.json counts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DateTime } from 'luxon';
import { describe, expect, test } from 'vitest';
import { parseGame } from '../../src/game/game-file.js';
import { isOut } from '../../src/game/roster.js';
import { buildDayReport } from '../../src/report/day-report.js';
import { FIXTURES } from '../helpers/captured.js';
import { postsByThread, publicIds, publicStore } from './captured.js';
import { flagDetail, publicFlagDetail } from '../../src/violations/details.js';
import { withLanguage } from '../../src/i18n/index.js';

const ids = publicIds();
const d3 = Object.values(ids.posts).filter((p) => p.tid === 7);
const local = (s: number) => DateTime.fromSeconds(s, { zone: 'Asia/Shanghai' }).toFormat('yyyy-LL-dd HH:mm');
const source = fs
  .readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8')
  .replace(
    /(  - \{day: 2,[^\n]*\n)/,
    `$1  - {day: 3, discussion: 7, opens: "${local(Math.min(...d3.map((p) => p.dateline)) - 60)}", closes: "${local(Math.max(...d3.map((p) => p.dateline)) + 120)}"}\n`,
  );
const game = parseGame(source, path.join(FIXTURES, 'games', 'public-3days.yaml'));
const posts = postsByThread(publicStore(), [2, 3, 4, 5, 6, 7]);

function countOf(player: string, day: number): number {
  const d = game.days.find((x) => x.day === day)!;
  return Object.values(ids.posts).filter((p) => p.tid === d.discussion!.tid && p.author === player && p.dateline * 1000 >= d.opens && p.dateline * 1000 < d.closes).length;
}

describe('three consecutive non-accelerated days each under 10 (m107 l.310)', () => {
  test('day 3 completes the streak for every player in the game all three days with < 10 each', () => {
    const report = buildDayReport(game, posts, 3, { accelerated: { 1: false, 2: false, 3: false } });
    const expected = game.players.filter((p) => [1, 2, 3].every((d) => !isOut(game, p, game.days[d - 1].opens) && countOf(p, d) < 10));
    expect(expected.length).toBeGreaterThan(0);
    const streaks = report.flags.filter((f) => f.kind === 'low-streak');
    expect(streaks.map((f) => f.player).sort()).toEqual([...expected].sort());
    const one = streaks[0];
    expect(one.facts).toEqual({ kind: 'low-streak', days: [1, 2, 3].map((d) => ({ day: d, posts: countOf(one.player, d) })), min: 10 });
    expect(one.snippet).toBe(''); // a count quotes no post
    expect(publicFlagDetail(one, game.timezone)).toBe(`潜水：连续3个未加速的讨论日均不足10帖（${[1, 2, 3].map((d) => `第${d}日 ${countOf(one.player, d)} 帖`).join('，')}）`);
    expect(withLanguage('en', () => flagDetail(one, game.timezone))).toBe(
      `lurking: under 10 posts on each of 3 non-accelerated days running (${[1, 2, 3].map((d) => `day ${d}: ${countOf(one.player, d)}`).join(', ')})`,
    );
    // No vote thread on day 3 in this file: no ballot rule, voted is null.
    expect(report.activity.every((a) => a.voted === null)).toBe(true);
  });
  test('an accelerated day in between breaks the run', () => {
    const report = buildDayReport(game, posts, 3, { accelerated: { 1: false, 2: true, 3: false } });
    expect(report.flags.filter((f) => f.kind === 'low-streak')).toEqual([]);
  });
  test('a day whose thread is not stored breaks the run too', () => {
    const partial = new Map([...posts].filter(([tid]) => tid !== 4));
    const report = buildDayReport(game, partial, 3, { accelerated: { 1: false, 2: false, 3: false } });
    expect(report.flags.filter((f) => f.kind === 'low-streak')).toEqual([]);
  });
});

describe('acceleration waives the per-day penalties (062 l.247; m107 waivesLurking)', () => {
  test('day 2 accelerated: counts shown, no few-posts or no-ballot flags', () => {
    const plain = buildDayReport(game, posts, 2, { accelerated: false });
    const acc = buildDayReport(game, posts, 2, { accelerated: true });
    expect(plain.flags.some((f) => f.kind === 'few-posts')).toBe(true);
    expect(acc.flags.filter((f) => f.kind === 'few-posts' || f.kind === 'no-ballot')).toEqual([]);
    expect(acc.activity).toEqual(plain.activity);
    expect(acc.waived).toBe(true);
  });
  test('a ruleset that does not waive keeps them', () => {
    const noWaive = { ...game, rules: { ...game.rules, acceleration: { ...game.rules.acceleration, waivesLurking: false } } };
    const acc = buildDayReport(noWaive, posts, 2, { accelerated: true });
    expect(acc.flags.some((f) => f.kind === 'few-posts')).toBe(true);
  });
  test('ballots supplied by the tally replace reading the vote thread', () => {
    const r = buildDayReport(game, posts, 1, { accelerated: false, ballots: new Set(['饺子']) });
    expect(r.activity.filter((a) => a.voted).map((a) => a.player)).toEqual(['饺子']);
  });
});
