/**
 * tallyDay's kinds and moments (120b none, --at running count) and the three renderers of its result:
 * JSON with exactly the scripted keys, BBCode that player text cannot break, the terminal report.
 */
import { describe, expect, test } from 'vitest';
import { renderTallyBBCode, escapeBBCode } from '../../src/render/tally-bbcode.js';
import { renderTallyJson, tallyJson } from '../../src/render/tally-json.js';
import { renderTallyTerminal } from '../../src/render/tally-terminal.js';
import { postsFromStore, tallyDay } from '../../src/votes/tally.js';
import { publicGame } from '../helpers/captured.js';
import { at, captureStore, capturePosts, publicGameWith, publicPostsWith, readIds, variant } from './fixtures.js';

const ids = readIds('public');
const game = publicGame();
const posts = postsFromStore(captureStore('public'));

test('120b: no public vote thread — kind none with the reason', () => {
  const g = publicGameWith((y) => y.replace('ruleset: m107', 'ruleset: 120b'));
  const r = tallyDay(g, () => [], 1);
  expect(tallyJson(r)).toEqual({ day: 1, kind: 'none', reason: expect.stringContaining('没有公开投票帖'), code: 'no-public-vote' });
  expect(renderTallyTerminal(r)).toContain('没有可统计的公开投票');
  expect(renderTallyBBCode(r)).toContain('[b]第1日[/b]：120b 规则没有公开投票帖，投票均私聊导演（120b l.322');
});

test('--at: the count as it stood at a moment (before 饺子\'s change, after the first ballots)', () => {
  const r = tallyDay(game, posts, 2, { at: at('2026-11-22 16:30:00').at });
  expect(r.running).toBe(true);
  expect(r.ballots.every((b) => b.at <= at('2026-11-22 16:30:00').at)).toBe(true);
  expect(r.ballots.find((b) => b.pid === ids.posts['d2vote-jiaozi'].pid)!.status).toBe('counted');
  expect(r.notes).toContain('实时统计：截至 11-22 16:30，本日关门时间 11-22 21:00');
  // Everyone in the game (馒头 is out) who had posted in the thread by then has a counted ballot.
  const by = new Set(Object.values(ids.posts).filter((p) => p.threadKey === 'd2vote' && p.dateline * 1000 <= at('2026-11-22 16:30:00').at && game.players.includes(p.author) && p.author !== '馒头').map((p) => p.author));
  expect(r.players.filter((p) => p.counted).map((p) => p.player).sort()).toEqual([...by].sort());
});

describe('JSON', () => {
  test('exactly the scripted keys', () => {
    const j = tallyJson(tallyDay(game, posts, 2));
    expect(Object.keys(j)).toEqual(['day', 'kind', 'sheriff', 'accelerated', 'acceleration', 'misplaced', 'totals', 'result', 'ballots', 'notes']);
    expect(Object.keys(j.acceleration!)).toEqual(['needed', 'alive', 'accelerated', 'asOf', 'requests']);
    expect(Object.keys(j.acceleration!.requests[0])).toEqual(['player', 'pid', 'floor', 'at', 'url', 'counted', 'reason', 'code']);
    expect(Object.keys(j.totals![0])).toEqual(['name', 'votes']);
    expect(Object.keys(j.result!)).toEqual(['name', 'tie', 'rule', 'note', 'code']);
    expect(Object.keys(j.ballots![0])).toEqual(['voter', 'target', 'weight', 'status', 'reason', 'note', 'code', 'codes', 'pid', 'floor', 'at']);
    expect(j.result).toEqual({ name: '月饼', tie: [], rule: '月饼 得票最多（7.5 票），出局', note: null, code: 'most-votes' });
    const change = j.ballots!.find((b) => b.pid === ids.posts['d2vote-14'].pid)!;
    expect(change).toMatchObject({ status: 'rejected', code: 'second-change', codes: ['second-change', 'change-quotes-other-post'] });
    expect(change.reason).toMatch(/^第 2 次改票：只允许改票 1 次（m107 l\.205 投票后，（只）有一次改票机会）；改票引用\/回复的是/);
    expect(j.ballots!.find((b) => b.pid === ids.posts['d2vote-2'].pid)).toMatchObject({ code: null, codes: [], reason: null });
    expect(j.ballots!.find((b) => b.pid === ids.posts['d2vote-2'].pid)!.at).toBe('2026-11-22T11:30:00+08:00');
    expect(JSON.parse(renderTallyJson(tallyDay(game, posts, 1))).kind).toBe('election');
  });
});

describe('BBCode', () => {
  test('totals, result, floor links, invalid ballots with reasons, who cast nothing', () => {
    const out = renderTallyBBCode(tallyDay(game, posts, 1));
    expect(out).toContain(`[url=${game.forum}forum.php?mod=redirect&goto=findpost&ptid=3&pid=${ids.posts['d1vote-1'].pid}]2#[/url]`);
    expect(out).toContain('[b]无效票[/b]');
    expect(out).toMatch(/月饼 \[url=[^\]]+\]15#\[\/url\] 11-21 21:10 → 包子：迟到：21:10 发帖，关门时间 21:00\n/);
    expect(out).toContain('油条 ');
    expect(out).toMatch(/油条 \[url=[^\]]+\]6#\[\/url\] 11-20 16:00：不是规定格式的投票：没有“投票对象”或“改票对象”/);
    expect(out).toMatch(/豆浆 \[url=[^\]]+\]14#\[\/url\] 11-21 20:15 → 饺子：改票距关门不足 1 小时：20:15 发帖，须在 20:00 前改票/);
    expect(out).toContain('包子 当选警长');
    expect(out).toContain('\n包子、花卷 平票 4 票，包子 最先达到 4 票（11-21 12:00，11#），当选警长（m107 l.118 竞岗：最先获得投票数最多的角色当选警长）\n');
    // The announcement a director pastes into a Chinese thread carries no English sentence.
    expect(out.replace(/\[url=[^\]]+\]/g, '')).not.toMatch(/[A-Za-z]{3,} [a-z]{2,}/);
    expect(out).toMatch(/\[b\]未投票\[\/b\]：月饼/);
  });
  test('player text cannot open a tag', () => {
    expect(escapeBBCode('[b]x[/b] @y {:1_1:}')).not.toMatch(/\[b\]|\[\/b\]|@y|\{:/);
    const g = publicGameWith((y) => y.replace('花卷,', '"[color=red]花卷[/color]",'));
    const d1 = capturePosts('public', 'd1vote').map((p) => (p.author === '花卷' ? variant(p, { author: '[color=red]花卷[/color]' }) : p));
    const out = renderTallyBBCode(tallyDay(g, publicPostsWith('d1vote', d1), 1));
    expect(out).not.toContain('[color=red]');
    expect(out).toContain('[\u200bcolor=red]花卷');
  });
});

test('terminal: totals, the result and why, every player with floor, time, link and reasons', () => {
  const out = renderTallyTerminal(tallyDay(game, posts, 2));
  expect(out).toContain('结果：月饼');
  expect(out).toContain('理由：月饼 得票最多（7.5 票），出局');
  expect(out).toContain(`${ids.posts['d2vote-13'].floor}# 11-22 18:00`);
  expect(out).toContain('改票未引用原投票帖 6#（m107 l.205 改票时必须引用原投票帖）');
  expect(out).not.toContain('062 l.'); // an m107 game cites only its own rule post
  expect(out).toContain('[导演备注] Discuz X3.5 的“回复”不在帖子里留痕迹'); // the director's note, marked
  expect(out).toContain('警长：包子 —— 第 1 日竞选当选（包子、花卷 平票 4 票');
  expect(out).toContain('加速：11-22 21:00 前，11 名存活玩家中 5 人申请加速（须过半：6 人）：未加速');
  expect(out).toContain('馒头（已出局）');
  expect(out).toContain('findpost');
});
