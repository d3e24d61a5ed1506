/**
 * Ballot posts this account cannot read (issue 31; Post.readable false) in the count of the captured
 * public game's day 2 (fixtures/discuz/public, fixtures/scenarios/public.yaml): never counted, never "no
 * ballot", and whether they could change the result by the rules — each may be a vote of its voter's
 * weight (the sheriff's 1.5, rules-spec §4), or, from a player who already voted, a change moving twice
 * that; on an accelerated day changes are void (§5), so such a post moves nothing.
 */
import { describe, expect, test } from 'vitest';
import { tallyDay } from '../../src/votes/tally.js';
import type { SlicePost } from '../../src/store/slice.js';
import { at, capturePosts, publicGameWith, publicPostsWith, variant } from './fixtures.js';

const EVENT = '  - {player: 月饼, out: "2026-11-22 21:00", how: vote}\n';
const game = publicGameWith((y) => y.replace(EVENT, ''));
const accelerated = publicGameWith((y) => y.replace(EVENT, '').replace(/(  - \{day: 2, [^}]*)\}/, '$1, accelerated: true}'));

/** Day 2's vote thread with the posts `which` picks shown as Discuz shows a banned author's (no earlier version stored). */
function withUnreadable(which: (p: SlicePost) => boolean): SlicePost[] {
  return capturePosts('public', 'd2vote').map((p) => (which(p) ? variant(p, { state: 'banned', readable: false, text: '提示: 作者被禁止或删除 内容自动屏蔽', colors: [], sizes: [], quotes: [], replyTo: null, edited: null }) : p));
}

const firstBallot = (author: string) => (p: SlicePost) => p.author === author && /投票对象/.test(p.text);
const totalsOf = (t: ReturnType<typeof tallyDay>) => Object.fromEntries(t.totals.filter((x) => x.votes > 0).map((x) => [x.name, x.votes]));

describe('unreadable ballots and the result', () => {
  test('the sheriff\'s vote unread moves 1.5: short of a margin of 2, not of a margin of 1', () => {
    const one = tallyDay(game, publicPostsWith('d2vote', withUnreadable(firstBallot('包子'))), 2);
    expect(one.sheriff).toBe('包子');
    expect(totalsOf(one)).toMatchObject({ 月饼: 6, 花卷: 4 });
    expect(one.unreadable?.couldChange).toBe(false);
    expect(one.players.find((p) => p.player === '包子')?.state).toBe('unreadable');
    const two = tallyDay(game, publicPostsWith('d2vote', withUnreadable((p) => firstBallot('包子')(p) || firstBallot('烧卖')(p))), 2);
    expect(totalsOf(two)).toMatchObject({ 月饼: 5, 花卷: 4 });
    expect(two.unreadable?.couldChange).toBe(true);
    expect(two.result.note).toContain('可能改变结果');
  });

  test('a later post of a player who voted: a possible change (twice the weight), but none on an accelerated day', () => {
    // 饺子 voted 花卷 (2#) and changed to 月饼 (13#): with 13# unreadable, her vote stays 花卷 — and 13# may be the change.
    const change = (p: SlicePost) => p.author === '饺子' && /改票对象：月饼/.test(p.text);
    const plain = tallyDay(game, publicPostsWith('d2vote', withUnreadable(change)), 2);
    expect(totalsOf(plain)).toMatchObject({ 月饼: 6.5, 花卷: 5 });
    expect(plain.players.find((p) => p.player === '饺子')).toMatchObject({ state: 'voted', counted: { target: '花卷' } });
    expect(plain.unreadable?.couldChange).toBe(true);
    const fast = tallyDay(accelerated, publicPostsWith('d2vote', withUnreadable(change)), 2);
    expect(fast.accelerated).toBe(true);
    expect(fast.unreadable?.couldChange).toBe(false);
  });

  test('a director\'s post the account cannot read may be a 代投 for any player (§2): listed, weighed as the heaviest change', () => {
    // 馒头's 19:00 post (his ballot void: out at night) as a post of 导演A the account cannot read, before the
    // proxy deadline (20:30, m107 l.325). With the sheriff's own vote unread too (月饼 6, 花卷 4: margin 2), that
    // vote (1.5) could not change the result alone (the first test); with a possible 代投 moving up to 2 × 1.5 it could.
    const sheriffVote = firstBallot('包子');
    const mantou = (p: SlicePost) => p.author === '馒头' && /投票对象/.test(p.text);
    const posts = capturePosts('public', 'd2vote').map((p) => (mantou(p)
      ? variant(p, { author: '导演A', authorId: null, state: 'shielded', readable: false, text: '提示: 该帖被管理员或版主屏蔽', colors: [], sizes: [], quotes: [], replyTo: null, edited: null })
      : sheriffVote(p) ? variant(p, { state: 'banned', readable: false, text: '提示: 作者被禁止或删除 内容自动屏蔽', colors: [], sizes: [], quotes: [], replyTo: null, edited: null }) : p));
    const director = posts.find((p) => p.author === '导演A' && p.readable === false)!;
    const t = tallyDay(game, publicPostsWith('d2vote', posts), 2);
    expect(totalsOf(t)).toMatchObject({ 月饼: 6, 花卷: 4 });
    expect(t.unreadable?.pids).toContain(director.pid);
    expect(t.unreadable?.couldChange).toBe(true);
    expect(t.ballots.find((b) => b.pid === director.pid)?.reason).toContain('可能是为任一玩家的代投');
    // After the proxy deadline it cannot be a 代投 that counts: not listed.
    const late = posts.map((p) => (p === director ? variant(p, at('2026-11-22 20:45:00')) : p));
    expect(tallyDay(game, publicPostsWith('d2vote', late), 2).unreadable?.pids ?? []).not.toContain(director.pid);
  });
});
