/**
 * 导演裁定 on auction bids (issue 13): the wuhui auction reads bids like ballots, so the director can
 * accept a bid the rules rejected or void one they counted — `bansha rule accept|reject PID --day N`,
 * kept in the rulings file, applied by every resolution of that day's auction. The public reason says
 * 导演裁定 and why (and what it overruled); the ruling's id and undo are a director's note. A pid of
 * another day's auction thread, a post without a readable bid, or one the store lacks is refused.
 * Pages are built from the real captured markup and read by the real parser (synth-store.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveAuction } from '../../src/auction/index.js';
import { UserError } from '../../src/errors.js';
import { parseGame } from '../../src/game/game-file.js';
import type { SynthPost } from '../../src/replay/synth.js';
import { checkBidRuling } from '../../src/rulings/check.js';
import type { Ruling } from '../../src/game/rulings/types.js';
import { threadPosts } from '../../src/store/slice.js';
import { bansha } from '../helpers/cli.js';
import { storeFromSynth } from './synth-store.js';

const forum = 'http://127.0.0.1:9/';
const players = ['甲', '乙', '丙', '丁'];
const uid = (name: string) => (name === '导演A' ? 2 : 30 + players.indexOf(name));
const gameText =
  `forum: ${forum}\nruleset: wuhui\ndirectors: [导演A]\nplayers: ${JSON.stringify(players)}\n` +
  'days:\n' +
  '  - {day: 1, auction: 60, opens: "2026-11-20 10:00", closes: "2026-11-20 21:00"}\n' +
  '  - {day: 2, auction: 61, opens: "2026-11-21 10:00", closes: "2026-11-21 21:00"}\n' +
  'holdings: {甲: 100, 乙: 100, 丙: 100, 丁: 10}\n';
let pid = 700;
const post = (author: string, at: string, body: string): SynthPost => ({ pid: pid++, author, uid: uid(author), at, body });
const posts = [
  post('导演A', '2026-11-20 10:00:00', '拍卖开始\n3号物品：底价12G'),
  post('甲', '2026-11-20 11:00:00', '3号物品 出价15G'),
  post('丙', '2026-11-20 12:00:00', '物品3：20G'),
  post('丙', '2026-11-20 13:00:00', '物品3：25G'),
  post('丙', '2026-11-20 14:00:00', '物品3：30G'), // third call: rejected by the rules
  post('甲', '2026-11-20 15:00:00', '3号物品好贵'),
];
const [list, first, , secondCall, thirdCall, unreadable] = posts.map((p) => p.pid!);
const day2 = [post('乙', '2026-11-21 11:00:00', '1号 5G')];
const store = storeFromSynth(forum, [
  { family: 'gbk', tid: 60, title: '[W01]第一日拍卖贴', posts },
  { family: 'gbk', tid: 61, title: '[W01]第二日拍卖贴', posts: day2 },
]);
const ruling = (verb: 'accept' | 'reject', p: number, id = 1): Ruling => ({ id, verb, subject: 'bid', pid: p, day: 1, why: '已核对', by: '导演A', at: '2026-11-20T14:00:00Z' });
const resolved = (rulings: Ruling[]) => resolveAuction(threadPosts(store, 60), { ...parseGame(gameText, 'w.yaml'), rulings }, 1).items.find((i) => i.item === 3)!;

describe('rulings on auction bids', () => {
  it('accept: a bid the rules rejected counts (and wins); the public reason says 导演裁定 and what it overruled', () => {
    expect(resolved([]).winner).toBe('丙');
    const item = resolved([ruling('accept', thirdCall)]);
    const bid = item.bids.find((b) => b.pid === thirdCall)!;
    expect([item.winner, item.price, bid.status, bid.code]).toEqual(['丙', 30, 'winning', 'ruling-accepted']);
    expect(bid.reason).toBe('导演裁定：认可此出价（已核对）；原判：同一物品第 3 次叫价：每人每件物品最多叫价 2 次（无回之城 拍卖：每个物品只能叫价2次）');
    expect(bid.directorNote).toBe('裁定 #1（导演A，2026-11-20T14:00:00Z）；撤销：bansha rule undo 1');
    expect(bid.reason).not.toContain('undo');
  });

  it('reject: a counted bid is void, the next valid bid wins', () => {
    const item = resolved([ruling('reject', secondCall)]);
    expect(item.bids.find((b) => b.pid === secondCall)).toMatchObject({ status: 'rejected', code: 'ruling-rejected', reason: '导演裁定：此出价不计（已核对）' });
    expect([item.winner, item.price]).toEqual(['丙', 20]);
  });

  it('refused: another day\'s bid, a post without a readable bid, a pid not stored', () => {
    const game = parseGame(gameText, 'w.yaml');
    const check = (p: number, day = 1) => () => checkBidRuling(game, store, { ...ruling('accept', p), day });
    expect(check(first)().bids.map((b) => [b.bid.bidder, b.was.status, b.bid.status])).toEqual([['甲', 'outbid', 'outbid']]);
    expect(check(day2[0].pid!)).toThrowError(/是第 2 日拍卖贴.*的出价.*请用 --day 2/);
    expect(check(unreadable)).toThrowError(/没有可读的出价/);
    expect(check(list)).toThrowError(UserError);
    expect(check(99_999)).toThrowError(/99999/);
  });

  it('bansha rule accept PID on an auction post, then bansha auction shows the ruling (the note marked for the director)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-bid-rule-'));
    const file = path.join(dir, 'w.yaml');
    fs.writeFileSync(file, gameText);
    fs.writeFileSync(path.join(dir, 'w.store.json'), JSON.stringify(store));
    const r = await bansha(['rule', 'accept', String(thirdCall), '--game', file, '--day', '1', '--why', '第三次叫价是笔误更正']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`出价 pid ${thirdCall}`);
    expect(r.stdout).toContain('丙 3号物品 30G：无效 → 得标（得主 丙 → 丙）');
    const a = await bansha(['auction', '--game', file, '--day', '1']);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toContain('3号物品');
    expect(a.stdout).toContain('导演裁定：认可此出价（第三次叫价是笔误更正）');
    expect(a.stdout).toMatch(/\[导演备注\] 裁定 #1/);
  }, 60_000);
});
