/**
 * tallyDay's kinds and moments (120b none, --at running count) and the three renderers of its result:
 * JSON with exactly the scripted keys, BBCode that player text cannot break, the terminal report.
 */
import { describe, expect, test } from 'vitest';
import { renderTallyBBCode, escapeBBCode } from '../../src/render/tally-bbcode.js';
import { renderTallyJson, tallyJson } from '../../src/render/tally-json.js';
import { renderTallyTerminal } from '../../src/render/tally-terminal.js';
import { postsFromStore, tallyDay } from '../../src/votes/tally.js';
import { at, captureStore, capturePosts, publicGame, publicGameWith, publicPostsWith, readIds, variant } from './fixtures.js';

const ids = readIds('public');
const game = publicGame();
const posts = postsFromStore(captureStore('public'));

test('120b: no public vote thread — kind none with the reason', () => {
  const g = publicGameWith((y) => y.replace('ruleset: m107', 'ruleset: 120b'));
  const r = tallyDay(g, () => [], 1);
  expect(tallyJson(r)).toEqual({ day: 1, kind: 'none', reason: expect.stringContaining('no public vote thread') });
  expect(renderTallyTerminal(r)).toContain('no public vote');
});

test('--at: the count as it stood at a moment (before 饺子\'s change, after the first ballots)', () => {
  const r = tallyDay(game, posts, 2, { at: at('2026-11-22 16:30:00').at });
  expect(r.running).toBe(true);
  expect(r.ballots.every((b) => b.at <= at('2026-11-22 16:30:00').at)).toBe(true);
  expect(r.ballots.find((b) => b.pid === ids.posts['d2vote-jiaozi'].pid)!.status).toBe('counted');
  expect(r.notes.join()).toContain('running count');
  // Everyone in the game (馒头 is out) who had posted in the thread by then has a counted ballot.
  const by = new Set(Object.values(ids.posts).filter((p) => p.threadKey === 'd2vote' && p.dateline * 1000 <= at('2026-11-22 16:30:00').at && game.players.includes(p.author) && p.author !== '馒头').map((p) => p.author));
  expect(r.players.filter((p) => p.counted).map((p) => p.player).sort()).toEqual([...by].sort());
});

describe('JSON', () => {
  test('exactly the scripted keys', () => {
    const j = tallyJson(tallyDay(game, posts, 2));
    expect(Object.keys(j)).toEqual(['day', 'kind', 'sheriff', 'accelerated', 'totals', 'result', 'ballots']);
    expect(Object.keys(j.totals![0])).toEqual(['name', 'votes']);
    expect(Object.keys(j.result!)).toEqual(['name', 'tie', 'rule']);
    expect(Object.keys(j.ballots![0])).toEqual(['voter', 'target', 'weight', 'status', 'reason', 'pid', 'floor', 'at']);
    expect(j.ballots!.find((b) => b.pid === ids.posts['d2vote-2'].pid)!.at).toBe('2026-11-22T11:30:00+08:00');
    expect(JSON.parse(renderTallyJson(tallyDay(game, posts, 1))).kind).toBe('election');
  });
});

describe('BBCode', () => {
  test('totals, result, floor links, invalid ballots with reasons, who cast nothing', () => {
    const out = renderTallyBBCode(tallyDay(game, posts, 1));
    expect(out).toContain(`[url=${game.forum}forum.php?mod=redirect&goto=findpost&ptid=3&pid=${ids.posts['d1vote-1'].pid}]2#[/url]`);
    expect(out).toContain('[b]无效票[/b]');
    expect(out).toMatch(/月饼 \[url=[^\]]+\]15#\[\/url\].*late/);
    expect(out).toContain('包子 当选警长');
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
  expect(out).toContain('Result: 月饼');
  expect(out).toContain('why: most votes (7.5)');
  expect(out).toContain(`${ids.posts['d2vote-13'].floor}# 11-22 18:00`);
  expect(out).toContain('leaves no trace');
  expect(out).toMatch(/馒头 \(out\)/);
  expect(out).toContain('findpost');
});
