/**
 * Game files (src/game/game-file.ts): the public game loads with forum-local times in +08:00 whatever
 * the machine's zone; every error names the file, the line and the field, with nearest-name hints.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseGame } from '../../src/game/game-file.js';
import { alivePlayers, findDay, isOut } from '../../src/game/roster.js';
import type { UserError } from '../../src/errors.js';

const file = path.resolve(import.meta.dirname, '../../fixtures/games/public.yaml');
const source = fs.readFileSync(file, 'utf8');
const load = (edit: (s: string) => string) => parseGame(edit(source), 'g.yaml');
const lineOf = (s: string, needle: string) => s.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('the public game file', () => {
  const game = parseGame(source, file);
  test('times are forum-local (+08:00), not the machine zone', () => {
    expect(new Date(findDay(game, 2).closes).toISOString()).toBe('2026-11-22T13:00:00.000Z');
    expect(process.env.TZ).toBe('America/Los_Angeles');
  });
  test('times need no zero padding, seconds are optional, and T works as the separator', () => {
    const g = load((s) => s.replace('opens: "2026-11-22 10:00"', 'opens: "2026-11-22 9:05:07"').replace('closes: "2026-11-22 21:00"', 'closes: "2026-11-22T21:00"'));
    expect(new Date(findDay(g, 2).opens).toISOString()).toBe('2026-11-22T01:05:07.000Z');
    expect(new Date(findDay(g, 2).closes).toISOString()).toBe('2026-11-22T13:00:00.000Z');
  });
  test('roster: 馒头 out from the night, 月饼 at the day-2 closing', () => {
    expect(isOut(game, '馒头', findDay(game, 2).opens)).toBe(true);
    expect(alivePlayers(game, findDay(game, 2).closes - 1)).toHaveLength(11);
    expect(isOut(game, '月饼', findDay(game, 2).closes)).toBe(true);
  });
});

describe('errors', () => {
  test('an unknown player in events: the line and the nearest name', () => {
    const edited = source.replace('{player: 馒头,', '{player: 馒投,');
    expect(() => parseGame(edited, 'g.yaml')).toThrow(new RegExp(`g.yaml:${lineOf(edited, '馒投')}: events\\[0\\]\\.player: "馒投" 不是玩家之一（是不是 馒头？）`));
  });
  test('a bad time: the line and the field', () => {
    const edited = source.replace('closes: "2026-11-22 21:00"', 'closes: "2026-11-22 25:00"');
    expect(() => parseGame(edited, 'g.yaml')).toThrow(/g\.yaml:\d+: days\[1\]\.closes: "2026-11-22 25:00" 不是有效的时间/);
  });
  test('a value of the wrong type: what the schema library says is in the language of the director too', () => {
    const edited = source.replace('{day: 2,', '{day: "二",');
    expect(edited).not.toBe(source);
    expect(() => parseGame(edited, 'g.yaml')).toThrow(/g\.yaml:\d+: days\[1\]\.day: 应为数字，实际是文字/);
  });
  test('an unknown ruleset override key is an error at its line', () => {
    const edited = source.replace('ruleset: m107', 'ruleset: m107\nrules:\n  maxChange: 2');
    expect(() => parseGame(edited, 'g.yaml')).toThrow(/g\.yaml:\d+: rules/);
  });
  test('a day listed twice, a sheriff who is not a player', () => {
    expect(() => load((s) => s.replace('{day: 2,', '{day: 1,'))).toThrow(/第 1 日出现了两次/);
    expect(() => load((s) => s.replace('vote: 5,', 'vote: 5, sheriff: 包了,'))).toThrow(/是不是 包子/);
  });
  test('`ruleset: 062` unquoted (a YAML number) is the 062 preset', () => {
    expect(load((s) => s.replace('ruleset: m107', 'ruleset: 062')).preset).toBe('062');
  });
  test('a day may declare acceleration', () => {
    const g = load((s) => s.replace('vote: 5,', 'vote: 5, accelerated: true,'));
    expect(findDay(g, 2).accelerated).toBe(true);
    expect(() => load((s) => s.replace('vote: 5,', 'vote: 5, accelerated: yes please,'))).toThrow(/accelerated/);
  });
  test('a day not in the file: a UserError naming the days there are', () => {
    expect(() => findDay(parseGame(source, file), 5)).toThrow(/游戏文件 .* 中没有第 5 日（有：1, 2）/);
  });
});

/** The message of the UserError loading `edited` throws (fails the test when it loads). */
function refusal(edited: string): string {
  try {
    parseGame(edited, 'g.yaml');
  } catch (e) {
    expect((e as UserError).exitCode).toBe(2);
    return (e as Error).message;
  }
  throw new Error('the game file loaded');
}

describe('seats: players as {name, uid, aliases}, substitutes as events (issue 14)', () => {
  const seats = source
    .replace('players: [饺子, 包子,', 'players: [{name: 饺子, uid: 3, aliases: [阿饺]}, 包子,')
    .replace('events:', 'events:\n  - {player: 包子, substitute: 小笼包, uid: 40, at: "2026-11-22 12:00"}');
  const game = parseGame(seats, 'g.yaml');
  test('the seat keeps its first name; the substitute holds it from its time', () => {
    expect(game.players.slice(0, 2)).toEqual(['饺子', '包子']);
    expect(game.seats[0]).toEqual({ name: '饺子', aliases: ['阿饺'], accounts: [{ name: '饺子', uid: 3, from: null, until: null }] });
    const at = Date.parse('2026-11-22T04:00:00Z');
    expect(game.seats[1].accounts).toEqual([
      { name: '包子', from: null, until: at },
      { name: '小笼包', uid: 40, from: at, until: null },
    ]);
  });
  test('a sheriff or an event may name a seat by any of its names', () => {
    const g = parseGame(seats.replace('vote: 5,', 'vote: 5, sheriff: 阿饺,').replace('{player: 馒头, out:', '{player: 小笼包, out: "2026-11-22 20:00", how: card}\n  - {player: 馒头, out:'), 'g.yaml');
    expect(findDay(g, 2).sheriff).toBe('饺子');
    expect(g.events.find((e) => e.how === 'card')?.player).toBe('包子');
  });
  test('vote: [T1, T2] is one day with two vote threads', () => {
    const g = parseGame(source.replace('vote: 5,', 'vote: [5, 7],'), 'g.yaml');
    expect(findDay(g, 2).votes.map((v) => v.tid)).toEqual([5, 7]);
    expect(findDay(g, 2).vote?.tid).toBe(5);
  });
  test('an unknown seat in a substitute event: the line and the nearest name', () => {
    const edited = source.replace('events:', 'events:\n  - {player: 包了, substitute: 小笼包, at: "2026-11-22 12:00"}');
    expect(refusal(edited)).toMatch(new RegExp(`^g.yaml:${lineOf(edited, '包了')}: events\\[0\\]\\.player: "包了" 不是玩家之一（是不是 包子？）`));
  });
  test('a substitute time outside the game, or after the seat left it, or missing', () => {
    expect(refusal(source.replace('events:', 'events:\n  - {player: 包子, substitute: 小笼包, at: "2026-11-25 12:00"}'))).toMatch(/events\[0\]\.at: 替补时间 2026-11-25 12:00 不在游戏之内（2026-11-20 10:00 至 2026-11-22 21:00）/);
    expect(refusal(source.replace('events:', 'events:\n  - {player: 馒头, substitute: 小笼包, at: "2026-11-22 12:00"}'))).toMatch(/馒头 已于 2026-11-22 10:00 出局（g\.yaml:\d+），出局后不能替补/);
    expect(refusal(source.replace('events:', 'events:\n  - {player: 包子, substitute: 小笼包}'))).toMatch(/events\[0\]\.at: 替补须写上场时间/);
  });
  test('062 allows one substitute per seat (l.268): a second is refused, unless the game file says otherwise', () => {
    const two = source
      .replace('ruleset: m107', 'ruleset: "062"')
      .replace('events:', 'events:\n  - {player: 包子, substitute: 小笼包, at: "2026-11-21 12:00"}\n  - {player: 包子, substitute: 大包, at: "2026-11-22 12:00"}');
    expect(refusal(two)).toBe(
      `g.yaml:${lineOf(two, '大包')}: events[1].substitute: 包子 的第 2 名替补：本局规则每名角色仅限更换 1 次替补（无法继续的角色红牌罚下）；导演另有安排请在 rules: 中设 maxSubstitutesPerSeat`,
    );
    // one substitute each for two seats is fine; the director's override lifts the limit
    expect(() => parseGame(two.replace('{player: 包子, substitute: 大包', '{player: 饺子, substitute: 大包'), 'g.yaml')).not.toThrow();
    const ruled = parseGame(two.replace('ruleset: "062"', 'ruleset: "062"\nrules: {maxSubstitutesPerSeat: 2}'), 'g.yaml');
    expect(ruled.seats.find((x) => x.name === '包子')!.accounts.map((a) => a.name)).toEqual(['包子', '小笼包', '大包']);
    // m107 sets no limit
    expect(() => parseGame(two.replace('ruleset: "062"', 'ruleset: m107'), 'g.yaml')).not.toThrow();
  });
  test('an alias or a substitute that collides with another player names both lines', () => {
    const alias = source.replace('players: [饺子, 包子,', 'players: [饺子, {name: 包子, aliases: [馒头]},');
    expect(refusal(alias)).toBe(`g.yaml:${lineOf(alias, 'aliases')}: players[2]: 馒头 重复列出（players[1].aliases[0]，g.yaml:${lineOf(alias, 'aliases')}）`);
    const sub = source.replace('events:', 'events:\n  - {player: 包子, substitute: 饺子, at: "2026-11-22 12:00"}');
    expect(refusal(sub)).toBe(`g.yaml:${lineOf(sub, 'substitute')}: events[0].substitute: 饺子 重复列出（players[0]，g.yaml:${lineOf(sub, 'players:')}）`);
    const uid = source.replace('players: [饺子, 包子,', 'players: [{name: 饺子, uid: 3}, {name: 包子, uid: 3},');
    expect(refusal(uid)).toMatch(/players\[1\]\.name: uid 3 已属于 饺子（g\.yaml:\d+）：同一账号改名请写作 aliases/);
  });
});

describe('the game file refuses what would count wrong (issue 18)', () => {
  test('two players equal after normalisation: 饺子 / 饺\\u200b子, Bob / bob — both named', () => {
    expect(refusal(source.replace('麻花]', '麻花, "饺\u200b子"]'))).toMatch(/players\[12\]: 饺\\u200b子 与 饺子 在论坛上看起来相同（规范化后都是「饺子」）（players\[0\]，g\.yaml:\d+）/);
    expect(refusal(source.replace('麻花]', '麻花, Bob, bob]'))).toMatch(/players\[13\]: bob 与 Bob 在论坛上看起来相同（规范化后都是「bob」）/);
    expect(refusal(source.replace('麻花]', '麻花, 饺子]'))).toMatch(/players\[12\]: 饺子 重复列出/);
  });
  test('blank or zero-width-only names', () => {
    expect(refusal(source.replace('麻花]', '麻花, "\u200b\u200d"]'))).toMatch(/players\[12\]: 名字「\\u200b\\u200d」去掉空白与不可见字符后为空/);
    expect(refusal(source.replace('麻花]', '麻花, "  "]'))).toMatch(/players\[12\]: 名字「  」去掉空白与不可见字符后为空/);
  });
  test('overlapping days name both', () => {
    const edited = source.replace('opens: "2026-11-22 10:00"', 'opens: "2026-11-21 20:00"');
    expect(refusal(edited)).toBe(`g.yaml:${lineOf(edited, '{day: 2')}: days[1].opens: 第2日在第1日关门（g.yaml:${lineOf(edited, '{day: 1')}）之前就开门了：两天的时间不能重叠`);
  });
  test('one vote thread on two days, vote = discussion, a day thread = the process thread', () => {
    expect(refusal(source.replace('vote: 5,', 'vote: 3,'))).toMatch(/days\[1\]\.vote: 帖子 3 已是第1日的投票帖（vote）（g\.yaml:\d+），不能再作第2日的投票帖（vote）/);
    expect(refusal(source.replace('vote: 5,', 'vote: 4,'))).toMatch(/days\[1\]\.vote: 帖子 4 已是第2日的讨论帖（discussion）/);
    expect(refusal(source.replace('vote: 5,', 'vote: [5, 6],'))).toMatch(/days\[1\]\.vote\[1\]: 帖子 6 已是进程帖（process）/);
    // One discussion thread over two days is a layout some games use: allowed.
    expect(parseGame(source.replace('discussion: 4,', 'discussion: 2,'), 'g.yaml').days[1].discussion?.tid).toBe(2);
  });
  test('two exits for one player name the first', () => {
    const edited = source.replace('{player: 月饼,', '{player: 馒头, out: "2026-11-22 12:00", how: card}\n  - {player: 月饼,');
    expect(refusal(edited)).toBe(`g.yaml:${lineOf(edited, 'how: card')}: events[1].out: 馒头 已在 g.yaml:${lineOf(edited, 'how: night')}（events[0]）出局：一名玩家只能出局一次`);
  });
  test('loading is linear in players: 8× the players take well under 64× the time', () => {
    const big = (n: number) => source.replace(/players: \[.*\]/, `players: [${Array.from({ length: n }, (_, i) => `玩家${i}`).join(', ')}, 饺子, 包子, 馒头, 月饼]`).replace('events:', `events:\n${Array.from({ length: n }, (_, i) => `  - {player: 玩家${i}, idiot: "2026-11-22 12:00"}`).join('\n')}`);
    const small = big(300);
    const large = big(2400);
    // the best of rounds that alternate the two, so a stretch of load on a shared machine slows both alike
    const best = { small: Infinity, large: Infinity };
    for (let k = 0; k < 5; k++) {
      for (const [name, s] of [['small', small], ['large', large]] as const) {
        const t0 = performance.now();
        parseGame(s, 'g.yaml');
        best[name] = Math.min(best[name], performance.now() - t0);
      }
    }
    // linear: 8; quadratic: 64
    expect(best.large / best.small).toBeLessThan(24);
  });
});
