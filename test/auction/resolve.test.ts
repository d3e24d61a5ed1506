import { describe, expect, it } from 'vitest';
import { resolveAuction, voteOutShare } from '../../src/auction/index.js';
import { parseGame } from '../../src/game/game-file.js';
import { threadPosts } from '../../src/store/slice.js';
import type { SynthPost } from '../../src/replay/synth.js';
import { storeFromSynth } from './synth-store.js';

const forum = 'http://127.0.0.1:9/';
const players = ['甲', '乙', '丙', '丁', '戊', '己', '庚', '辛'];
const uid = (name: string) => (name === '导演A' ? 2 : name === '观众乙' ? 99 : 30 + players.indexOf(name));
const gameText = (extra = '') =>
  `forum: ${forum}\nruleset: wuhui\ndirectors: [导演A]\nplayers: ${JSON.stringify(players)}\n` +
  'days:\n' +
  '  - {day: 1, auction: 60, opens: "2026-11-20 10:00", closes: "2026-11-20 21:00"}\n' +
  '  - {day: 2, auction: 61, opens: "2026-11-21 10:00", closes: "2026-11-21 21:00"}\n' +
  '  - {day: 4, auction: 62, opens: "2026-11-23 10:00", closes: "2026-11-23 21:00"}\n' +
  'events:\n  - {player: 辛, out: "2026-11-20 09:00", how: night}\n  - {player: 庚, out: "2026-11-21 21:00", how: vote}\n' +
  extra;
const game = parseGame(gameText('holdings: {甲: 100, 乙: 100, 丙: 100, 丁: 100, 戊: 10, 己: 100, 庚: 47, 辛: 0}\n'), 'wuhui-test.yaml');

let pid = 600;
const post = (author: string, at: string, body: string): SynthPost => ({ pid: pid++, author, uid: uid(author), at, body });
const itemList = '拍卖开始\n1号物品：1张手牌，底价3G\n2号物品：2张手牌，底价6G\n6号物品：1颗钻石，底价30G';

const day1 = [
  post('导演A', '2026-11-20 10:00:00', itemList),
  post('甲', '2026-11-20 11:00:00', '3号物品 出价15G'),
  post('乙', '2026-11-20 11:05:00', '3号物品 出价15G'),
  post('丙', '2026-11-20 12:00:00', '物品3：20G'),
  post('丙', '2026-11-20 13:00:00', '物品3：25G'),
  post('丙', '2026-11-20 14:00:00', '物品3：30G'),
  post('丁', '2026-11-20 14:10:00', '1号 2G'),
  post('戊', '2026-11-20 14:20:00', '5号物品 出价16G'),
  post('戊', '2026-11-20 14:30:00', '抵押1颗钻石\n5号物品 出价16G'),
  post('己', '2026-11-20 21:00:30', '6号 31G'),
  post('观众乙', '2026-11-20 15:00:00', '2号 6G'),
  post('辛', '2026-11-20 15:10:00', '1号 5G'),
  post('甲', '2026-11-20 15:20:00', '7号 10G\n3号物品好贵'),
  post('己', '2026-11-20 16:00:00', '物品1：4G，6号物品 出价30G'),
];
const day4 = [post('导演A', '2026-11-23 10:00:00', itemList), post('甲', '2026-11-23 11:00:00', '6号 40G\n1号 3G')];

function storeWith(threads: Array<{ tid: number; title: string; posts: SynthPost[] }>) {
  return storeFromSynth(forum, threads.map((t) => ({ family: 'gbk' as const, ...t })));
}

describe('resolveAuction on pages built from the real captured markup', () => {
  const store = storeWith([{ tid: 60, title: '[W01]第一日拍卖贴', posts: day1 }, { tid: 62, title: '[W01]第四日拍卖贴', posts: day4 }]);
  const r = resolveAuction(threadPosts(store, 60), game, 1);
  const item = (n: number) => r.items.find((i) => i.item === n)!;
  const statuses = (n: number) => item(n).bids.map((b) => [b.bidder, b.price, b.status]);

  it('lists the day\'s items with the rule post\'s base prices (item 6 only on days 1–3)', () => {
    expect(r.items.map((i) => [i.item, i.base])).toEqual(game.rules.wuhui!.auctionItems.map((i) => [i.item, i.base]));
    const r4 = resolveAuction(threadPosts(store, 62), game, 4);
    expect(r4.items.map((i) => i.item)).toEqual([1, 2, 3, 4, 5]);
    expect(r4.ignored.map((x) => x.code)).toEqual(['item-not-today']);
    expect(r4.ignored.map((x) => x.reason)).toEqual([expect.stringMatching(/^6号物品（.+）只在第 1–3 日拍卖$/)]);
    expect(r4.items[0].winner).toBe('甲');
  });

  it('highest bid wins; at most two calls per item; a tie goes to the earlier bid', () => {
    expect(statuses(3)).toEqual([
      ['甲', 15, 'outbid'],
      ['乙', 15, 'outbid'],
      ['丙', 20, 'outbid'],
      ['丙', 25, 'winning'],
      ['丙', 30, 'rejected'],
    ]);
    expect(item(3).bids[4].code).toBe('too-many-calls');
    expect(item(3).bids[4].reason).toBe('同一物品第 3 次叫价：每人每件物品最多叫价 2 次（无回之城 拍卖：每个物品只能叫价2次）');
    expect(item(3).bids.slice(0, 4).map((b) => [b.code, b.reason])).toEqual(Array(4).fill([null, null]));
    expect([item(3).winner, item(3).price]).toEqual(['丙', 25]);
  });

  it('a tie at the top goes to the earlier bid', () => {
    const s = storeWith([{ tid: 60, title: 't', posts: day1.slice(0, 3) }]);
    const t = resolveAuction(threadPosts(s, 60), game, 1).items.find((i) => i.item === 3)!;
    expect([t.winner, t.price]).toEqual(['甲', 15]);
    expect(t.bids.map((b) => b.status)).toEqual(['winning', 'outbid']);
  });

  it('rejects below base, above holdings (pledges add G), late, non-players and players who are out', () => {
    expect(item(1).bids.map((b) => [b.bidder, b.status, b.code, b.reason])).toEqual([
      ['丁', 'rejected', 'below-base', '低于底价 3G'],
      ['辛', 'rejected', 'bidder-out', '辛 已出局（11-20 09:00 起）'],
      ['己', 'winning', null, null],
    ]);
    expect(statuses(5)).toEqual([['戊', 16, 'rejected'], ['戊', 16, 'winning']]);
    expect(item(5).bids[0].code).toBe('above-holdings');
    expect(item(5).bids[0].reason).toBe('出价高于 戊 持有的 G（10G）（无回之城 拍卖：所用的G不能超过你现在持有的G）');
    expect(item(6).bids.map((b) => [b.bidder, b.status, b.code, b.reason])).toEqual([
      ['己', 'rejected', 'late', '拍卖已截止（21:00）后发帖（21:00:30 发帖）'],
      ['己', 'winning', null, null],
    ]);
    expect(item(2).bids.map((b) => [b.bidder, b.status, b.code, b.reason])).toEqual([['观众乙', 'rejected', 'not-a-player', '观众乙 不是本局玩家']]);
    expect([item(2).winner, item(2).price, item(4).winner, item(4).price]).toEqual([null, null, null, null]);
  });

  it('pledges are worth the day\'s diamond value', () => {
    expect(r.pledges.map((p) => [p.player, p.diamonds, p.value])).toEqual([['戊', 1, game.rules.wuhui!.diamondValues[0]]]);
  });

  it('reports what it could not use, with the post', () => {
    const ig = r.ignored.map((x) => [x.author, x.code, x.reason]);
    expect(ig).toContainEqual(['甲', 'no-such-item', '没有 7号物品（今日拍卖物品：1、2、3、4、5、6）']);
    expect(ig).toContainEqual(['甲', 'item-without-price', '读不出价格：3号物品 没有写 G 数']);
    for (const x of r.ignored) expect(x.url).toContain(`pid=${x.pid}`);
  });

  it('gives every bid its pid and time as the page showed them', () => {
    const b = item(3).bids[0];
    expect(b.pid).toBe(day1[1].pid);
    expect(b.at).toBe('2026-11-20T11:00:00+08:00');
  });

  it('without holdings, no bid is rejected for the G it needs', () => {
    const g = parseGame(gameText(), 'no-holdings.yaml');
    const first = resolveAuction(threadPosts(store, 60), g, 1).items.find((i) => i.item === 5)!;
    expect(first.bids.map((b) => b.status)).toEqual(['winning', 'outbid']);
  });

  it('an edited bid counts as first posted and says so', () => {
    const posts = [day1[0], day1[1], day1[2]];
    const data = storeWith([{ tid: 60, title: 't', posts }]);
    const edited = { ...posts[1], body: '3号物品 出价50G', edited: { by: '甲', at: '2026-11-20 18:00:00' } };
    storeFromSynth(forum, [{ family: 'gbk', tid: 60, title: 't', posts: [posts[0], edited, posts[2]] }], new Date('2027-01-02T00:00:00Z'), data);
    const it3 = resolveAuction(threadPosts(data, 60), game, 1).items.find((i) => i.item === 3)!;
    expect(it3.bids[0].price).toBe(15);
    expect(it3.bids[0].noteCode).toBe('edited-first-counts');
    expect(it3.bids[0].note).toMatch(/编辑过：编辑不算改价，以最初发帖的出价为准（现在的内容：3号物品 出价50G）/);
    expect(it3.bids[0].code).toBeNull();
  });
});

describe('voteOutShare (以此法出局的角色，其持有的G平分给所有存活角色)', () => {
  it('splits the voted-out player\'s G among those still in', () => {
    const day2 = game.days.find((d) => d.day === 2)!;
    const s = voteOutShare(game, day2)!;
    expect(s.player).toBe('庚');
    expect(s.among).toEqual(players.filter((p) => p !== '庚' && p !== '辛'));
    const n = s.among.length;
    expect(s.eachWhole! * n + s.remainder!).toBe(game.holdings!['庚']);
    expect(s.after!['甲']).toBe(game.holdings!['甲'] + s.eachWhole!);
    expect(voteOutShare(game, game.days[0])).toBeNull();
  });
  it('names who shares even without holdings', () => {
    const g = parseGame(gameText(), 'no-holdings.yaml');
    const s = voteOutShare(g, g.days.find((d) => d.day === 2)!)!;
    expect([s.amount, s.each, s.after]).toEqual([null, null, null]);
    expect(s.among).toHaveLength(6);
  });
});
