/**
 * The ballot reader (rules-spec §2) on the real captured ballots (parsed from the Discuz pages) and on
 * variants of their text for the forms the captures do not hold.
 */
import { describe, expect, test } from 'vitest';
import { mayHoldBallot, readBallot, readProxy, type BallotContext } from '../../src/votes/ballot.js';
import { capturePosts, readIds } from './fixtures.js';

const ids = readIds('public');
const gbkIds = readIds('public-gbk');
const d1 = capturePosts('public', 'd1vote');
const d2 = capturePosts('public', 'd2vote');
const gbk = capturePosts('public-gbk', 'd1vote');
const players = ['饺子', '包子', '馒头', '烧卖', '汤圆', '春卷', '油条', '豆浆', '花卷', '粽子', '月饼', '麻花'];
const ctx: BallotContext = { kind: 'players', players };
const text = (posts: typeof d1, map: typeof ids, id: string) => posts.find((p) => p.pid === map.posts[id].pid)!.text;

describe('real ballots', () => {
  test('a vote: 投票对象 + 投票理由 on two lines', () => {
    expect(readBallot(text(d1, ids, 'd1vote-1'), ctx)).toMatchObject({ ok: true, head: 'vote', target: { kind: 'player', name: '包子' }, reason: '发言清晰' });
  });
  test('弃权 is a valid target', () => {
    expect(readBallot(text(d1, ids, 'd1vote-8'), ctx)).toMatchObject({ ok: true, target: { kind: 'abstain' } });
  });
  test('one line with half-width colons (062 l.255)', () => {
    expect(text(d2, ids, 'd2vote-9')).toBe('投票对象:月饼 投票理由:划水');
    expect(readBallot(text(d2, ids, 'd2vote-9'), ctx)).toMatchObject({ ok: true, target: { kind: 'player', name: '月饼' }, reason: '划水' });
  });
  test('GBK page with jammer: one-line full-width, half-width colons, red-font reason', () => {
    const g: BallotContext = { kind: 'players', players: ['赵一', '钱二', '孙三', '李四', '周五', '吴六', '郑七', '王八'] };
    expect(readBallot(text(gbk, gbkIds, 'd1vote-3'), g)).toMatchObject({ ok: true, target: { kind: 'player', name: '李四' }, reason: '随便' });
    expect(readBallot(text(gbk, gbkIds, 'd1vote-2'), g)).toMatchObject({ ok: true, target: { kind: 'player', name: '赵一' } });
    expect(readBallot(text(gbk, gbkIds, 'd1vote-6'), g)).toMatchObject({ ok: true, target: { kind: 'player', name: '赵一' }, reason: '就他了' });
    expect(readBallot(text(gbk, gbkIds, 'd1vote-8'), g)).toMatchObject({ ok: false, problem: 'no-ballot' });
  });
  test('a change quoting the vote post: the quoted ballot is not read, only the player\'s own text', () => {
    const post = d2.find((p) => p.pid === ids.posts['d2vote-jiaozi-2'].pid)!;
    expect(post.quotes).toEqual([ids.posts['d2vote-jiaozi'].pid]);
    expect(readBallot(post.text, ctx)).toMatchObject({ ok: true, head: 'change', target: { kind: 'player', name: '月饼' } });
  });
  test('prose without heads is not a ballot', () => {
    expect(readBallot(text(d1, ids, 'd1vote-5'), ctx)).toMatchObject({
      ok: false, problem: 'no-ballot', detail: { code: 'malformed-no-heads' },
      reason: '不是规定格式的投票：没有“投票对象”或“改票对象”（格式：投票对象：名字 / 投票理由：理由）',
    });
  });
});

describe('the shortcut for texts without 票', () => {
  test('no code point but 票 folds (NFKC) to a text holding 票, so a text without it can hold no head', () => {
    const folding: string[] = [];
    for (let c = 0; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const s = String.fromCodePoint(c);
      if (s !== '票' && s.normalize('NFKC').includes('票')) folding.push(s);
    }
    expect(folding).toEqual([]);
  });
  test('a text without 票 reads as no ballot, as the full reading says; one with it is read', () => {
    const prose = text(d1, ids, 'd1vote-5');
    expect(mayHoldBallot(prose)).toBe(false);
    const full = readBallot(`${prose}票`, ctx); // read in full: 票 alone is no head
    expect(readBallot(prose, ctx)).toEqual(full);
    expect(mayHoldBallot(text(d1, ids, 'd1vote-1'))).toBe(true);
    expect(readBallot('投\u200b票对象：包子\n投票理由：发言清晰', ctx)).toMatchObject({ ok: true, target: { name: '包子' } });
  });
});

describe('variants of a real ballot', () => {
  const base = text(d1, ids, 'd1vote-1'); // 投票对象：包子\n投票理由：发言清晰
  const v = (s: string) => readBallot(s, ctx);
  test('full-width and half-width are the same; spaces around the colon and X are ignored', () => {
    expect(v(base.replace('：', ' : ').replace('包子', '  包子  '))).toMatchObject({ ok: true, target: { name: '包子' } });
    expect(v(base.replace('包子', '包 子'))).toMatchObject({ ok: true, target: { name: '包子' } });
  });
  test.each(['。', '，', ',', '.', '!', '！', '！！'])('trailing %s after X is not part of X', (p) => {
    expect(v(base.replace('包子', `包子${p}`))).toMatchObject({ ok: true, written: '包子', target: { name: '包子' } });
  });
  test('missing or empty reason: malformed', () => {
    expect(v('投票对象：包子')).toMatchObject({ ok: false, problem: 'malformed', detail: { code: 'malformed-no-reason', head: 'vote' } });
    expect(v('投票对象：包子\n投票理由：')).toMatchObject({ ok: false, problem: 'malformed', detail: { code: 'empty-reason', head: 'vote' } });
    expect(v('投票对象：包子\n投票理由：。。。')).toMatchObject({ ok: false, problem: 'malformed', detail: { code: 'empty-reason' } });
    expect(v('改票对象：包子\n改票理由：')).toMatchObject({ reason: '格式错误：“改票理由”为空' }); // read outside a game: no rule post to cite
  });
  test('mixed heads, two targets, empty X, no colon: malformed', () => {
    expect(v('投票对象：包子\n改票理由：好')).toMatchObject({ ok: false, problem: 'malformed', detail: { code: 'malformed-mixed-heads', head: 'vote', other: 'change' } });
    expect(v('投票对象：包子\n投票对象：饺子\n投票理由：好')).toMatchObject({ ok: false, problem: 'malformed', detail: { code: 'malformed-two-targets', count: 2 } });
    expect(v('投票对象：\n投票理由：好')).toMatchObject({ ok: false, problem: 'malformed', detail: { code: 'empty-target' } });
    expect(v('投票对象 包子\n投票理由 好')).toMatchObject({ ok: false, problem: 'malformed', detail: { code: 'malformed-no-colon' } });
    expect(v('投票理由：好')).toMatchObject({ ok: false, detail: { code: 'malformed-no-target' } });
  });
  test('an unknown name is rejected with the nearest real name as a hint', () => {
    expect(v(base.replace('包子', '包了'))).toMatchObject({
      ok: false, problem: 'unknown-target', hint: '包子', detail: { code: 'unknown-target', written: '包了', hint: '包子' }, reason: '投票对象有误：包了（不是本局玩家）',
    });
    expect(v(base.replace('包子', '我投包子吧'))).toMatchObject({ ok: false, problem: 'unknown-target', hint: '包子' });
  });
  test('a target naming two players is ambiguous', () => {
    expect(v(base.replace('包子', '包子或饺子'))).toMatchObject({ ok: false, problem: 'ambiguous-target', detail: { code: 'ambiguous-target', names: expect.arrayContaining(['包子', '饺子']) } });
  });
  test('Latin names: case and width folded; @mention prefix dropped', () => {
    const latin: BallotContext = { kind: 'players', players: [...players, 'Alice_01'] };
    expect(readBallot(base.replace('包子', 'alice_01'), latin)).toMatchObject({ ok: true, target: { name: 'Alice_01' } });
    expect(readBallot(base.replace('包子', 'ＡＬＩＣＥ＿０１'), latin)).toMatchObject({ ok: true, target: { name: 'Alice_01' } });
    expect(readBallot(base.replace('包子', '@包子'), latin)).toMatchObject({ ok: true, target: { name: '包子' } });
  });
  test('duel rules (wuhui): 对战规则3, 规则3, 3号规则, 规则三 all mean 规则3', () => {
    const rules: BallotContext = { kind: 'rules', players, ruleCount: 6 };
    for (const w of ['对战规则3', '规则3', '3号规则', '规则三', '规则 ３']) {
      expect(readBallot(base.replace('包子', w), rules)).toMatchObject({ ok: true, target: { kind: 'rule', rule: 3 } });
    }
    expect(readBallot(base.replace('包子', '规则7'), rules)).toMatchObject({ ok: false, problem: 'unknown-target', detail: { code: 'rule-out-of-range', rule: 7, ruleCount: 6 } });
    expect(readBallot(base.replace('包子', '包子'), rules)).toMatchObject({ ok: false, problem: 'unknown-target', detail: { code: 'not-a-rule' } });
  });
});

describe('director proxy posts (代投)', () => {
  test('the 代投 line names the player', () => {
    expect(readProxy('代投：饺子\n投票对象：包子\n投票理由：委托', players, ['代投'])).toEqual({ ok: true, player: '饺子' });
    expect(readProxy('饺子 代投 投票对象：包子 投票理由：委托', players, ['代投'])).toEqual({ ok: true, player: '饺子' });
  });
  test('no player or two players on the line: rejected; no marker: not a proxy post', () => {
    expect(readProxy('代投\n投票对象：包子\n投票理由：委托', players, ['代投'])).toMatchObject({ ok: false, detail: { code: 'proxy-no-player' } });
    expect(readProxy('代投：饺子、花卷', players, ['代投'])).toMatchObject({ ok: false, detail: { code: 'proxy-many-players', names: ['饺子', '花卷'] } });
    expect(readProxy('提醒：距离关门还有一小时', players, ['代投'])).toBeNull();
  });
});
