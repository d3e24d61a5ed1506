/**
 * The sheriff passed on (issue 13; m107 l.120 殉职, l.124 red card → random, l.95 装傻; 062 l.171/l.174;
 * wuhui l.103/l.37) on the public capture: 包子, elected on day 1, leaves before day 2's count. The
 * successor is read only from a director's post or the outgoing sheriff's own, after the departure;
 * none found, an invalid one, or two that disagree → no sheriff and a note saying what to check.
 * Variants are the captured posts with their text changed (the same parsed markup).
 */
import { describe, expect, test } from 'vitest';
import { postsFromStore, tallyDay, threadsForTally } from '../../src/votes/tally.js';
import { sheriffHandover, successionThreads } from '../../src/votes/succession.js';
import type { SlicePost } from '../../src/store/slice.js';
import { at, captureStore, capturePosts, publicGameWith, publicPostsWith, readIds, variant } from './fixtures.js';

const ids = readIds('public');
const store = captureStore('public');
const captured = postsFromStore(store);
/** 包子 (the day-1 sheriff) leaves at 09:00 on day 2, before the day-2 opener (10:00, which says 警长：包子). */
const leaves = (how: string, extra = '') =>
  publicGameWith((y) => y.replace('events:\n', `events:\n  - {player: 包子, out: "2026-11-22 09:00", how: ${how}}\n${extra}`));
const opener = capturePosts('public', 'd2talk')[0];
const process = capturePosts('public', 'process');
/** The day-2 discussion thread with its opener's text replaced. */
const openerSays = (text: string, more: SlicePost[] = []) =>
  publicPostsWith('d2talk', [variant(opener, { text }), ...capturePosts('public', 'd2talk').slice(1), ...more]);

describe('the sheriff passed on', () => {
  test('no successor in the posts: no sheriff, the director told what to check (the opener naming the outgoing one is not a successor)', () => {
    const game = leaves('night');
    const t = tallyDay(game, captured, 2);
    expect(t.sheriff).toBeNull();
    expect(t.sheriffSource).toBe(
      '警长 包子（第 1 日竞选当选（包子、花卷 平票 4 票，包子 最先达到 4 票（11-21 12:00，11#），当选警长（m107 l.118 竞岗：最先获得投票数最多的角色当选警长）））' +
        '已于 11-22 09:00 夜间出局：警徽须由 包子 移交（m107 l.120 警长并非因红牌罚下而出局后，须选择一名未出局的角色来继任警长），帖子中未见继任者：请在游戏文件中指定继任警长（days[].sheriff）',
    );
    expect(t.notes).toContainEqual('警长 包子 夜间出局，继任者未能从帖子确定（帖子所指：包子（导演 1# 11-22 10:00：即出局的警长本人））：请核对，并在游戏文件中写入继任警长（days[].sheriff）');
    // Nobody's ballot weighs 1.5 any more.
    expect(t.ballots.filter((b) => b.status === 'counted').every((b) => b.weight === 1)).toBe(true);
    // The tally reads where the successor would be published: the process thread and both days' discussion.
    expect(threadsForTally(game, 2)).toEqual(expect.arrayContaining([ids.threads.process.tid, ids.threads.d2talk.tid, ids.threads.d1vote.tid]));
  });

  test("the director's announcement names the successor: the badge (×1.5) is theirs", () => {
    const game = leaves('night');
    const t = tallyDay(game, openerSays('第二日讨论帖开门。昨夜出局：包子、馒头。包子 殉职，警徽移交给 饺子。'), 2);
    expect(t.sheriff).toBe('饺子');
    expect(t.sheriffSource).toMatch(/^包子（第 1 日竞选当选.*）11-22 09:00 夜间出局，警徽移交 饺子（导演公示 1#；m107 l\.120 警长并非因红牌罚下/);
    expect(t.ballots.find((b) => b.voter === '饺子' && b.status === 'counted')?.weight).toBe(1.5);
    expect(t.notes).toContainEqual('警长 包子 夜间出局，继任 饺子 读自帖子（帖子所指：饺子（导演 1# 11-22 10:00））：请核对');
  });

  test("the outgoing sheriff's own 移交 post counts when the rule lets the sheriff choose", () => {
    const own = variant(process[0], { pid: 9001, floor: 9, author: '包子', authorId: ids.users['包子'], text: '警长移交给春卷', ...at('2026-11-22 09:05:00') });
    const game = leaves('night');
    const h = sheriffHandover(game, publicPostsWith('process', [...process, own]), { player: '包子', at: game.events[0].out!, how: 'night' });
    expect(h).toMatchObject({ rule: 'chosen', successor: '春卷', missing: null });
    expect(h.claims.map((c) => [c.name, c.by, c.problem])).toEqual([['春卷', 'sheriff', null], ['包子', 'director', 'self']]);
  });

  test('a red card: the sheriff may not choose (random, m107 l.124); only the director names the successor', () => {
    const game = leaves('card');
    const own = variant(process[0], { pid: 9001, floor: 9, author: '包子', authorId: ids.users['包子'], text: '警徽给汤圆', ...at('2026-11-22 09:05:00') });
    const posts = (t: number) => (t === ids.threads.process.tid ? [...process, own] : openerSays('第二日讨论帖开门。新任警长：烧卖（随机移交）。')(t));
    const h = sheriffHandover(game, posts, { player: '包子', at: game.events[0].out!, how: 'card' });
    expect(h).toMatchObject({ rule: 'random', cite: 'm107 l.124 警长因红牌罚下而出局后，警徽随机移交', successor: '烧卖' });
    expect(h.claims.find((c) => c.name === '汤圆')?.problem).toBe('random-rule');
    expect(tallyDay(game, posts, 2).sheriff).toBe('烧卖');
  });

  test('posts naming different successors: none derived, both shown; an out or idiot successor is refused', () => {
    const game = leaves('night', '  - {player: 烧卖, idiot: "2026-11-21 21:00"}\n');
    const own = variant(process[0], { pid: 9001, floor: 9, author: '包子', authorId: ids.users['包子'], text: '警徽移交花卷', ...at('2026-11-22 09:05:00') });
    const posts = (t: number) => (t === ids.threads.process.tid ? [...process, own] : openerSays('警长：饺子。')(t));
    const t = tallyDay(game, posts, 2);
    expect(t.sheriff).toBeNull();
    expect(t.sheriffSource).toContain('帖子所指继任者不一致');
    expect(t.notes).toContainEqual(expect.stringContaining('帖子所指：花卷（包子 9# 11-22 09:05）、饺子（导演 1# 11-22 10:00）'));
    const refused = sheriffHandover(game, openerSays('警徽移交给 馒头。另：继任警长：烧卖'), { player: '包子', at: Date.parse('2026-11-22T10:00:00+08:00'), how: 'night' });
    expect(refused.claims.map((c) => [c.name, c.problem])).toEqual([['馒头', 'out'], ['烧卖', 'idiot']]);
    expect(refused.missing).toBe('none');
  });

  test('a player other than the outgoing sheriff naming a successor is talk, not a handover', () => {
    const game = leaves('night');
    const talk = variant(process[1], { pid: 9001, floor: 9, text: '警徽移交给 饺子 吧', ...at('2026-11-22 09:05:00') });
    expect(sheriffHandover(game, publicPostsWith('process', [talk]), { player: '包子', at: game.events[0].out!, how: 'night' }).claims.map((c) => c.pid)).toEqual([opener.pid]);
  });

  test('m107 装傻: an idiot sheriff hands the badge over (l.95)', () => {
    const game = publicGameWith((y) => y.replace('events:\n', 'events:\n  - {player: 包子, idiot: "2026-11-22 09:00"}\n'));
    const t = tallyDay(game, openerSays('包子 发动装傻，警徽移交给 豆浆'), 2);
    expect(t.sheriff).toBe('豆浆');
    expect(t.sheriffSource).toContain('发动装傻，警徽移交 豆浆（导演公示 1#；m107 l.95 若白痴是警长，须移交警长）');
  });

  test("062 names the badge holder 武林盟主 and cites its own post (l.171, l.174)", () => {
    const game = publicGameWith((y) => y.replace('ruleset: m107', 'ruleset: "062"').replace('events:\n', 'events:\n  - {player: 包子, out: "2026-11-22 09:00", how: night}\n'));
    const t = tallyDay(game, openerSays('武林盟主 包子 后继有人：继任武林盟主 麻花'), 2);
    expect(t.sheriff).toBe('麻花');
    expect(t.sheriffSource).toContain('（导演公示 1#；062 l.171 武林盟主并非因为罚下而出局后');
    expect(t.sheriffSource).not.toContain('m107');
    expect(sheriffHandover(game, captured, { player: '包子', at: game.events[0].out!, how: 'card' }).cite).toBe('062 l.174 武林盟主因红牌罚下而出局后，下任武林盟主将被随机指定');
  });

  test("a tally never needs a later day's thread (it may not exist yet)", () => {
    const game = publicGameWith((y) => y.replace(/(  - \{day: 2,[^\n]*\n)/, '$1  - {day: 3, discussion: 99, opens: "2026-11-23 10:00", closes: "2026-11-23 21:00"}\n')
      .replace('events:\n', 'events:\n  - {player: 包子, out: "2026-11-22 15:00", how: card}\n'));
    expect(threadsForTally(game, 2)).not.toContain(99);
    expect(threadsForTally(game, 3)).toContain(99);
  });

  test('where a successor is published: the process thread, the day left in and the next', () => {
    const game = leaves('vote');
    expect(successionThreads(game, game.days[1].closes).sort()).toEqual([ids.threads.process.tid, ids.threads.d2talk.tid, ids.threads.d2vote.tid].sort());
    expect(successionThreads(game, Date.parse('2026-11-22T09:00:00+08:00')).sort()).toEqual([ids.threads.process.tid, ids.threads.d1talk.tid, ids.threads.d1vote.tid, ids.threads.d2talk.tid].sort());
  });
});
