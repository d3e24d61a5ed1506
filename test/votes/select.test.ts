/**
 * Which ballot counts (rules-spec §3), on the real day-2 vote thread and variants of its real posts
 * (text, time, author or versions changed) for the cases the captures do not hold.
 */
import { describe, expect, test } from 'vitest';
import { tallyDay } from '../../src/votes/tally.js';
import { playersWithBallot } from '../../src/activity/ballots.js';
import { findDay } from '../../src/game/roster.js';
import type { SlicePost } from '../../src/store/slice.js';
import { publicGame } from '../helpers/captured.js';
import { at, capturePosts, publicGameWith, publicPostsWith, readIds, variant, gbkGame, captureStore } from './fixtures.js';
import { postsFromStore } from '../../src/votes/tally.js';

const ids = readIds('public');
const game = publicGame();
const d2 = capturePosts('public', 'd2vote');
const pidOf = (id: string) => ids.posts[id].pid;
const post = (id: string) => d2.find((p) => p.pid === pidOf(id))!;
/** Day 2 counted with the thread edited. */
const day2 = (posts: SlicePost[], g = game) => tallyDay(g, publicPostsWith('d2vote', posts), 2);
const ballot = (r: ReturnType<typeof day2>, pid: number) => r.ballots.find((b) => b.pid === pid)!;
/** The codes of a ballot's reasons, in order. */
const codes = (r: ReturnType<typeof day2>, pid: number) => (ballot(r, pid).details ?? []).map((d) => d.code);
const without = (...drop: string[]) => d2.filter((p) => !drop.map(pidOf).includes(p.pid));
const NEW = 9001;

describe('the vote and corrections', () => {
  test('a malformed first ballot is not a vote; the next well-formed one is, and the player keeps their change', () => {
    const bad = variant(post('d2vote-6'), { text: '我投月饼，理由同上。' }); // 油条's vote made malformed
    const fixed = variant(post('d2vote-6'), { pid: NEW, ...at('2026-11-22 13:40:00'), text: '投票对象：花卷\n投票理由：重新投' });
    const change = variant(post('d2vote-6'), { pid: NEW + 1, ...at('2026-11-22 15:00:00'), text: '改票对象：月饼\n改票理由：还是月饼', quotes: [NEW] });
    const r = day2([...without('d2vote-6'), bad, fixed, change]);
    expect(ballot(r, bad.pid)).toMatchObject({ status: 'rejected', details: [{ code: 'malformed-no-heads' }] });
    expect(ballot(r, NEW)).toMatchObject({ status: 'superseded' });
    expect(ballot(r, NEW + 1)).toMatchObject({ status: 'counted', target: '月饼' });
  });
  test('an invalid target is not a vote and can be corrected', () => {
    const unknown = variant(post('d2vote-6'), { text: '投票对象：月併\n投票理由：划水' });
    const fixed = variant(post('d2vote-6'), { pid: NEW, ...at('2026-11-22 14:00:00'), text: '投票对象：月饼\n投票理由：打错字了' });
    const r = day2([...without('d2vote-6'), unknown, fixed]);
    expect(ballot(r, unknown.pid).details).toEqual([{ code: 'unknown-target', written: '月併', hint: '月饼' }]);
    expect(ballot(r, unknown.pid).reason).toBe('投票对象有误：月併（不是本局玩家）');
    expect(ballot(r, unknown.pid).note).toMatch(/^是否为 月饼？/);
    expect(ballot(r, NEW).status).toBe('counted');
  });
  test('改票 heads with no vote before them are not a vote', () => {
    const r = day2([...without('d2vote-6'), variant(post('d2vote-6'), { text: '改票对象：月饼\n改票理由：划水' })]);
    expect(ballot(r, pidOf('d2vote-6'))).toMatchObject({ status: 'rejected', details: [{ code: 'change-without-vote', voter: '油条' }] });
  });
});

describe('change validity', () => {
  test('quoting the vote post (引用) makes a valid change (real post)', () => {
    expect(ballot(day2(d2), pidOf('d2vote-jiaozi-2')).status).toBe('counted');
  });
  test('a 回复 N# header naming the vote post makes a valid change (real GBK post, replyTo)', () => {
    const gIds = readIds('public-gbk');
    const r = tallyDay(gbkGame(), postsFromStore(captureStore('public-gbk')), 1);
    expect(r.ballots.find((b) => b.pid === gIds.posts['d1vote-9'].pid)).toMatchObject({ status: 'counted', target: '孙三' });
    expect(r.ballots.find((b) => b.pid === gIds.posts['d1vote-2'].pid)).toMatchObject({ status: 'superseded' });
  });
  test('a change must use the 改票 heads', () => {
    const again = variant(post('d2vote-jiaozi-2'), { text: '投票对象：月饼\n投票理由：再投一次' });
    const r = day2([...without('d2vote-jiaozi-2', 'd2vote-14'), again]);
    expect(codes(r, again.pid)).toContain('change-wrong-heads');
    expect(ballot(r, again.pid).reason).toContain(`饺子 已在 ${ids.posts['d2vote-jiaozi'].floor}# 投票，改票须使用 改票对象/改票理由 格式`);
    expect(ballot(r, pidOf('d2vote-jiaozi')).status).toBe('counted');
  });
  test('a change quoting another post is not a change', () => {
    const other = variant(post('d2vote-jiaozi-2'), { quotes: [pidOf('d2vote-2')] });
    const r = day2([...without('d2vote-jiaozi-2', 'd2vote-14'), other]);
    expect(codes(r, other.pid)).toEqual(['change-quotes-other-post']);
    expect(ballot(r, other.pid).reason).toMatch(/^改票引用\/回复的是 \d+#，不是 饺子 的原投票帖 \d+#（m107 l\.205 改票时必须引用原投票帖/);
  });
  test('exactly 60 minutes before closing is on time; a second later is not', () => {
    const ok = variant(post('d2vote-jiaozi-2'), at('2026-11-22 20:00:00'));
    expect(ballot(day2([...without('d2vote-jiaozi-2', 'd2vote-14'), ok]), ok.pid).status).toBe('counted');
    const late = variant(post('d2vote-jiaozi-2'), at('2026-11-22 20:00:01'));
    const r = day2([...without('d2vote-jiaozi-2', 'd2vote-14'), late]);
    expect(ballot(r, late.pid).details).toEqual([
      { code: 'change-too-late', at: late.at, by: at('2026-11-22 20:00:00').at, closes: at('2026-11-22 21:00:00').at, minutes: 60, proxy: false, precision: null },
    ]);
    expect(ballot(r, late.pid).reason).toBe('改票距关门不足 1 小时：20:00:01 发帖，须在 20:00 前改票（m107 l.205 白天结束前一个小时不得改票）');
  });
  test('a minute-precision time in the deadline minute fails it, saying the precision was minutes', () => {
    const m = variant(post('d2vote-jiaozi-2'), { ...at('2026-11-22 20:00:00'), timePrecision: 'minute' });
    const b = ballot(day2([...without('d2vote-jiaozi-2', 'd2vote-14'), m]), m.pid);
    expect(b.details).toEqual([expect.objectContaining({ code: 'change-too-late', precision: 'minute' })]);
    expect(b.reason).toContain('论坛只显示到分钟');
  });
  test('on an accelerated day every change is void (declared in the game file)', () => {
    const g = publicGameWith((y) => y.replace('vote: 5, opens: "2026-11-22 10:00"', 'vote: 5, accelerated: true, opens: "2026-11-22 10:00"'));
    const r = day2(d2, g);
    expect(r.accelerated).toBe(true);
    expect(codes(r, pidOf('d2vote-jiaozi-2'))).toEqual(['accelerated-change-void']);
    expect(ballot(r, pidOf('d2vote-jiaozi-2')).reason).toBe('进程已加速，所有改票作废（m107 l.202 进程加速后不允许改票，所有改票作废）');
    expect(ballot(r, pidOf('d2vote-jiaozi')).status).toBe('counted');
  });
  test('maxChanges from the ruleset: with 2 allowed, 饺子\'s second change still fails to quote the vote post', () => {
    const g = publicGameWith((y) => y.replace('ruleset: m107', 'ruleset: m107\nrules: {maxChanges: 2}'));
    const r = day2(d2, g);
    expect(codes(r, pidOf('d2vote-14'))).toEqual(['change-quotes-other-post']);
  });
});

describe('on time, voters and targets', () => {
  const closing = (local: string, precision: 'second' | 'minute') => variant(post('d2vote-11'), { ...at(local), timePrecision: precision });
  test.each([
    ['2026-11-22 20:59:59', 'second', 'counted'],
    ['2026-11-22 21:00:00', 'second', 'rejected'],
    ['2026-11-22 20:59:00', 'minute', 'counted'],
    ['2026-11-22 21:00:00', 'minute', 'rejected'],
  ] as const)('posted %s (%s precision): %s', (time, precision, status) => {
    const p = closing(time, precision);
    const r = day2([...without('d2vote-11'), p]);
    expect(ballot(r, p.pid).status).toBe(status);
    if (status === 'rejected') expect(ballot(r, p.pid).details).toEqual([{ code: 'late', at: p.at, closes: p.at, precision: precision === 'minute' ? 'minute' : null }]);
    if (precision === 'minute' && status === 'rejected') {
      expect(ballot(r, p.pid).reason).toBe('迟到：21:00 发帖，关门时间 21:00（论坛只显示到分钟，而这一分钟已到截止时间）');
    }
  });
  test('a vote for a player who is out is an invalid target', () => {
    const p = variant(post('d2vote-11'), { text: '投票对象：馒头\n投票理由：他出局了吗' });
    const b = ballot(day2([...without('d2vote-11'), p]), p.pid);
    expect(b.details).toEqual([{ code: 'target-out', target: '馒头', since: at('2026-11-22 10:00:00').at, beforeClose: false }]);
    expect(b.reason).toBe('投票对象有误：馒头 已出局（11-22 10:00 起）');
  });
  test('the white idiot who used 装傻 may neither vote nor be voted', () => {
    const g = publicGameWith((y) => y.replace('events:\n', 'events:\n  - {player: 麻花, idiot: "2026-11-21 21:00"}\n'));
    const voteFor = variant(post('d2vote-6'), { text: '投票对象：麻花\n投票理由：白痴' });
    const r = day2([...without('d2vote-6'), voteFor], g);
    expect(codes(r, pidOf('d2vote-11'))).toEqual(['voter-idiot']);
    expect(ballot(r, pidOf('d2vote-11')).reason).toContain('麻花 已翻牌装傻（11-21 21:00），不能投票');
    expect(codes(r, voteFor.pid)).toEqual(['target-idiot']);
    expect(r.players.find((p) => p.player === '麻花')!.state).toBe('idiot');
  });
  test('a player red-carded before closing has no vote at the count', () => {
    const g = publicGameWith((y) => y.replace('events:\n', 'events:\n  - {player: 麻花, out: "2026-11-22 20:00", how: card}\n'));
    const b = ballot(day2(d2, g), pidOf('d2vote-11'));
    expect(b.details).toEqual([{ code: 'voter-out', voter: '麻花', since: at('2026-11-22 20:00:00').at, beforeClose: true }]);
    expect(b.reason).toBe('麻花 于 11-22 20:00 出局（关门前），出局玩家没有投票权');
  });
  test('directors\' posts are not ballots; a non-player\'s ballot is rejected', () => {
    const r = day2([...d2, variant(post('d2vote-11'), { pid: NEW, author: '路人甲' })]);
    expect(r.ballots.some((b) => b.voter === '导演A')).toBe(false);
    expect(ballot(r, NEW)).toMatchObject({ details: [{ code: 'not-a-player', author: '路人甲' }], reason: '路人甲 不是本局玩家' });
  });
});

describe('edits (an edit is not a change)', () => {
  const edited = (before: string, after: string) => {
    const p = post('d2vote-11'); // 麻花 → 花卷
    const v0 = { ...p.versions[0].post, text: before, edited: null };
    const v1 = { ...p.versions[0].post, text: after, edited: { by: '麻花', at: '2026-11-22T20:30:00+08:00' } };
    return { ...p, text: after, edited: v1.edited, versions: [{ ...p.versions[0], post: v0 }, { ...p.versions[0], hash: 'b', post: v1 }] };
  };
  test('an earlier version with another target counts; the edit is shown with both versions', () => {
    const p = edited('投票对象：花卷\n投票理由：跟票', '投票对象：月饼\n投票理由：跟票');
    const b = ballot(day2([...without('d2vote-11'), p]), p.pid);
    expect(b).toMatchObject({ status: 'counted', target: '花卷' });
    expect(b.edit).toEqual({ before: '投票对象：花卷\n投票理由：跟票', after: '投票对象：月饼\n投票理由：跟票', at: '2026-11-22T20:30:00+08:00' });
    expect(b.details).toEqual([{ code: 'edited-earlier-version-counts', at: at('2026-11-22 20:30:00').at, from: '花卷', to: '月饼' }]);
    expect(b.reason).toBe('11-22 20:30 编辑，由 花卷 改为 月饼：编辑不算改票（m107 l.206 修改错别字不算做改票），以原版本为准');
  });
  test('a typo fix keeps the target: counted, edit shown, not flagged', () => {
    const p = edited('投票对象：花卷\n投票理由：跟票', '投票对象：花卷\n投票理由：跟票，错别字');
    const b = ballot(day2([...without('d2vote-11'), p]), p.pid);
    expect(b).toMatchObject({ status: 'counted', target: '花卷', flags: [], details: [{ code: 'edited-same-ballot' }] });
  });
  test('a deleted post is read from the stored copy and flagged', () => {
    const p = { ...post('d2vote-11'), missing: true };
    const b = ballot(day2([...without('d2vote-11'), p]), p.pid);
    expect(b.status).toBe('counted');
    expect(b.flags).toEqual(['帖子已不在论坛上（之后被删除或隐藏）：按存档内容读取']);
  });
});

describe('director proxy posts (代投)', () => {
  const opener = d2.find((p) => p.author === '导演A')!;
  const proxy = (local: string, text: string, extra: Partial<SlicePost> = {}) => variant(opener, { pid: NEW, floor: 99, ...at(local), text, ...extra });
  test('counts as the player\'s ballot when ≥ 30 minutes before closing', () => {
    const p = proxy('2026-11-22 20:30:00', '代投：麻花\n投票对象：月饼\n投票理由：麻花委托', {});
    const r = day2([...without('d2vote-11'), p]);
    expect(ballot(r, NEW)).toMatchObject({ voter: '麻花', proxyBy: '导演A', status: 'counted', target: '月饼' });
    // The report's "posted a ballot" reads the same deadline the same way.
    expect(playersWithBallot(game, findDay(game, 2), [...without('d2vote-11'), p]).has('麻花')).toBe(true);
    const late = proxy('2026-11-22 20:30:01', '代投：麻花\n投票对象：月饼\n投票理由：麻花委托');
    expect(playersWithBallot(game, findDay(game, 2), [...without('d2vote-11'), late]).has('麻花')).toBe(false);
  });
  test('a proxy ballot within the last 30 minutes is void', () => {
    const p = proxy('2026-11-22 20:31:00', '代投：麻花\n投票对象：月饼\n投票理由：麻花委托');
    const b = ballot(day2([...without('d2vote-11'), p]), NEW);
    expect(b.details).toEqual([expect.objectContaining({ code: 'proxy-too-late', minutes: 30 })]);
    expect(b.reason).toBe('代投过晚：20:31 发帖，代投须在关门前至少 30 分钟（20:30 前）');
  });
  test('a proxy change needs 60 minutes and the quote of the vote post', () => {
    const ok = proxy('2026-11-22 19:55:00', '代投：麻花\n改票对象：月饼\n改票理由：委托改票', { quotes: [pidOf('d2vote-11')] });
    expect(ballot(day2([...d2, ok]), NEW).status).toBe('counted');
    const late = proxy('2026-11-22 20:05:00', '代投：麻花\n改票对象：月饼\n改票理由：委托改票', { quotes: [pidOf('d2vote-11')] });
    const b = ballot(day2([...d2, late]), NEW);
    expect(b.details).toEqual([expect.objectContaining({ code: 'change-too-late', proxy: true, minutes: 60 })]);
    expect(b.reason).toMatch(/^代投改票距关门不足 1 小时：20:05 发帖/);
  });
});
