/**
 * Counting (rules-spec §4) on the real captured ballots and variants: weights per preset, the day-1
 * first-to-reach replay with changes at their own times, elimination ties per preset, the sheriff's
 * source, and wuhui's duel-rule vote.
 */
import { describe, expect, test } from 'vitest';
import { withLanguage } from '../../src/i18n/index.js';
import type { SlicePost } from '../../src/store/slice.js';
import { postsFromList, tallyDay } from '../../src/votes/tally.js';
import { publicGame } from '../helpers/captured.js';
import { at, capturePosts, gameFrom, publicGameWith, publicPostsWith, readIds, variant } from './fixtures.js';

const ids = readIds('public');
const d1 = capturePosts('public', 'd1vote');
const d2 = capturePosts('public', 'd2vote');
const pidOf = (id: string) => ids.posts[id].pid;
const p1 = (id: string) => d1.find((p) => p.pid === pidOf(id))!;
const NEW = 9100;

describe('weights', () => {
  test.each([['m107', 1.5], ['062', 2.5], ['wuhui', 1]] as const)('%s: the sheriff\'s vote weighs %s', (preset, w) => {
    const g = publicGameWith((y) => y.replace('ruleset: m107', `ruleset: ${preset}`));
    const r = tallyDay(g, publicPostsWith('d2vote', d2), 2);
    expect(r.sheriff).toBe('包子');
    expect(r.ballots.find((b) => b.voter === '包子' && b.status === 'counted')!.weight).toBe(w);
    const mine = r.totals.find((l) => l.name === '月饼')!;
    expect(mine.votes).toBe(mine.voters.length - 1 + w);
  });
  test('abstentions are shown and weigh nothing', () => {
    const r = tallyDay(publicGame(), publicPostsWith('d1vote', d1), 1);
    expect(r.abstentions).toEqual(['粽子']);
    expect(r.ballots.find((b) => b.voter === '粽子')!.weight).toBe(0);
    expect(r.totals.some((l) => l.name === '弃权')).toBe(false);
  });
  test('a sheriff named in the game file wins over the election', () => {
    const g = publicGameWith((y) => y.replace('vote: 5, opens', 'vote: 5, sheriff: 花卷, opens'));
    const r = tallyDay(g, publicPostsWith('d2vote', d2), 2);
    expect(r.sheriff).toBe('花卷');
    expect(r.sheriffSource).toBe('游戏文件指定（第 2 日）');
    expect(r.sheriffFrom).toEqual({ code: 'named', day: 2 });
    expect(withLanguage('en', () => tallyDay(g, publicPostsWith('d2vote', d2), 2).sheriffSource)).toBe('游戏文件指定（第 2 日）'); // the HTML report's Chinese
    expect(r.ballots.find((b) => b.voter === '花卷' && b.status === 'counted')!.weight).toBe(1.5);
  });
  test('a sheriff out of the game has no weight: no successor read from the posts', () => {
    const g = publicGameWith((y) => y.replace('events:\n', 'events:\n  - {player: 包子, out: "2026-11-22 10:00", how: night}\n'));
    const r = tallyDay(g, publicPostsWith('d2vote', d2), 2);
    expect(r.sheriff).toBeNull();
    expect(r.sheriffSource).toMatch(/^警长 包子（第 1 日竞选当选（.*）已于 11-22 10:00 夜间出局：警徽须由 包子 移交.*：请在游戏文件中指定继任警长/);
  });
});

describe('day-1 election: first to reach the top, replayed with changes at their own times', () => {
  // 汤圆 first votes 饺子 at 11:00, then changes to 包子 (quoting the vote): 包子 reaches 4 only at the change.
  const withChange = (changeAt: string) => {
    const vote = variant(p1('d1vote-10'), { ...at('2026-11-21 11:00:00'), text: '投票对象：饺子\n投票理由：先投饺子' });
    const change = variant(p1('d1vote-10'), { pid: NEW, floor: 20, ...at(changeAt), text: '改票对象：包子\n改票理由：跟票', quotes: [vote.pid] });
    return tallyDay(publicGame(), publicPostsWith('d1vote', [...d1.filter((p) => p.pid !== vote.pid), vote, change]), 1);
  };
  test('change after 花卷 reached 4 (13:00): 花卷 is first', () => {
    const r = withChange('2026-11-21 13:30:00');
    expect(r.result.tie.sort()).toEqual(['包子', '花卷'].sort());
    expect(r.result.name).toBe('花卷');
    expect(r.result.detail).toMatchObject({ code: 'tie-first-reach', name: '花卷', votes: 4, at: at('2026-11-21 13:00:00').at });
    expect(r.result.rule).toBe(`包子、花卷 平票 4 票，花卷 最先达到 4 票（11-21 13:00，${r.ballots.find((b) => b.at === at('2026-11-21 13:00:00').at)!.floor}#），当选警长（m107 l.118 竞岗：最先获得投票数最多的角色当选警长）`);
  });
  test('change before it (12:30): 包子 is first', () => {
    const r = withChange('2026-11-21 12:30:00');
    expect(r.result.name).toBe('包子');
    expect(r.result.detail).toMatchObject({ code: 'tie-first-reach', name: '包子', at: at('2026-11-21 12:30:00').at, floor: 20 });
    expect(r.result.rule).toContain('包子 最先达到 4 票（11-21 12:30，20#）');
  });
});

describe('elimination ties', () => {
  // 麻花 votes 月饼 instead of 花卷 and 包子 (sheriff, 1.5) abstains … build a tie 月饼 vs 花卷.
  const tie = (sheriffTarget: string) => {
    const posts = d2
      .filter((p) => ![pidOf('d2vote-jiaozi-2'), pidOf('d2vote-14')].includes(p.pid))
      .map((p) => (p.pid === pidOf('d2vote-2') ? variant(p, { text: `投票对象：${sheriffTarget}\n投票理由：警长票` }) : p));
    return posts;
  };
  // Without 饺子's change: 花卷 = 饺子, 汤圆, 豆浆, 月饼, 麻花 = 5; 月饼 = 烧卖, 春卷, 油条, 花卷, 粽子 = 5 (+ sheriff).
  test('m107: a tie means nobody is out', () => {
    const r = tallyDay(publicGame(), publicPostsWith('d2vote', tie('弃权')), 2);
    expect(r.result).toMatchObject({ name: null, tie: expect.arrayContaining(['月饼', '花卷']) });
    expect(r.result.detail).toMatchObject({ code: 'tie-nobody-out' });
    expect(r.result.rule).toMatch(/^(月饼、花卷|花卷、月饼) 平票 5 票，无人出局（m107 l\.44 平票则无人出局）$/);
  });
  const wuhui = publicGameWith((y) => y.replace('ruleset: m107', 'ruleset: wuhui'));
  test('wuhui: the tied candidate the sheriff voted for is out', () => {
    const posts = tie('弃权').map((p) => (p.pid === pidOf('d2vote-2') ? variant(p, { text: '投票对象：花卷\n投票理由：警长票' }) : p));
    // 包子 (sheriff, weight 1 in wuhui) now adds to 花卷: 6 vs 5 — no tie. Take 汤圆's vote away to tie again.
    const tied = posts.filter((p) => p.pid !== pidOf('d2vote-4'));
    const r = tallyDay(wuhui, publicPostsWith('d2vote', tied), 2);
    expect(r.result.tie.sort()).toEqual(['月饼', '花卷'].sort());
    expect(r.result.name).toBe('花卷');
    expect(r.result.detail).toMatchObject({ code: 'tie-sheriff-choice', sheriff: '包子', name: '花卷' });
    expect(r.result.rule).toContain('警长 包子 投给 花卷，花卷 出局');
  });
  test('wuhui: the sheriff voted for none of the tied — nobody is out', () => {
    const r = tallyDay(wuhui, publicPostsWith('d2vote', tie('弃权')), 2);
    expect(r.result).toMatchObject({ name: null });
    expect(r.result.detail).toMatchObject({ code: 'tie-sheriff-none', sheriff: '包子' });
    expect(r.result.rule).toContain('警长未投票则无人出局');
  });
});

describe('wuhui duel-rule vote (--rules)', () => {
  const players = publicGame().players;
  const yaml = (extraDay2 = '') => `forum: ${ids.base}
ruleset: wuhui
directors: [导演A]
players: [${players.join(', ')}]
days:
  - {day: 1, vote: 3, rules: 101, opens: "2026-11-20 10:00", closes: "2026-11-21 21:00"}
  - {day: 2, vote: 5, rules: 102, opens: "2026-11-22 10:00", closes: "2026-11-22 21:00"${extraDay2}}
events:
  - {player: 馒头, out: "2026-11-22 10:00", how: night}
`;
  /** The real ballots of a vote thread, moved to a rules thread with targets mapped to rules. */
  const asRules = (posts: SlicePost[], tid: number, rule: (voter: string) => string | null) =>
    posts.flatMap((p) => {
      const r = rule(p.author);
      if (r === null || !/投票对象/.test(p.text)) return [];
      return [variant(p, { tid, text: p.text.replace(/投票对象[:：][^\n ]+/, `投票对象：${r}`) })];
    });
  const day1Rules = asRules(d1, 101, (v) => (['饺子', '馒头', '烧卖'].includes(v) ? '对战规则3' : ['春卷', '豆浆'].includes(v) ? '5号规则' : '规则1'));

  test('most votes wins; names are 规则1…规则6', () => {
    const g = gameFrom(yaml());
    const r = tallyDay(g, postsFromList([...d1, ...d2, ...day1Rules]), 1, { rules: true });
    expect(r.kind).toBe('rule');
    expect(r.totals.map((l) => l.name).every((n) => /^规则[1-6]$/.test(n))).toBe(true);
    expect(r.result.name).toBe('规则1');
  });
  test('a rule chosen on an earlier day is an invalid target', () => {
    const g = gameFrom(yaml());
    const day2Rules = asRules(d2, 102, (v) => (v === '包子' ? '规则1' : '规则2'));
    const r = tallyDay(g, postsFromList([...d1, ...d2, ...day1Rules, ...day2Rules]), 2, { rules: true });
    const baozi = r.ballots.find((b) => b.voter === '包子')!;
    expect(baozi).toMatchObject({ status: 'rejected' });
    expect(baozi.details).toEqual([{ code: 'rule-used', rule: '规则1', day: 1 }]);
    expect(baozi.reason).toContain('规则1 已在第 1 日选出');
    expect(r.result.name).toBe('规则2');
  });
  test('a tie goes to the sheriff\'s choice, else to the rule that reached the top first', () => {
    const g = gameFrom(yaml());
    const votePosts = d2.filter((p) => /投票对象/.test(p.text) && p.author !== '馒头').sort((a, b) => a.at - b.at);
    const others = votePosts.filter((p) => p.author !== '包子').map((p) => p.author);
    expect(others).toHaveLength(10);
    const tally = (assign: (v: string) => string) =>
      tallyDay(g, postsFromList([...d1, ...d2, ...day1Rules, ...asRules(d2, 102, (v) => (v === '馒头' ? null : assign(v)))]), 2, { rules: true });
    // 5 × 规则2, 4 × 规则4, 1 abstains; the sheriff (包子, elected on day 1) makes it 5:5 with 规则4.
    const bySheriff = tally((v) => (v === '包子' ? '规则4' : others.indexOf(v) < 5 ? '规则2' : others.indexOf(v) < 9 ? '规则4' : '弃权'));
    expect(bySheriff.sheriff).toBe('包子');
    expect(bySheriff.result).toMatchObject({ name: '规则4', tie: expect.arrayContaining(['规则2', '规则4']) });
    expect(bySheriff.result.detail).toMatchObject({ code: 'tie-sheriff-choice', name: '规则4' });
    expect(bySheriff.result.rule).toContain('警长 包子 投给 规则4，规则4 为今日对战规则');
    // Alternating 5:5 and the sheriff abstains: the rule whose 5th ballot came first wins.
    const alt = (v: string) => (v === '包子' ? '弃权' : others.indexOf(v) % 2 === 0 ? '规则2' : '规则4');
    const fifth = (rule: string) => votePosts.filter((p) => p.author !== '包子' && alt(p.author) === rule)[4].at;
    const first = fifth('规则2') < fifth('规则4') ? '规则2' : '规则4';
    const byReach = tally(alt);
    expect(byReach.result.tie).toHaveLength(2);
    expect(byReach.result.name).toBe(first);
    expect(byReach.result.detail).toMatchObject({ code: 'tie-first-reach', name: first, sheriffPassed: { sheriff: '包子' } });
    expect(byReach.result.rule).toContain('警长 包子 未投其中任何一项');
    expect(byReach.result.rule).toContain(`${first} 最先达到 5 票`);
  });
});
