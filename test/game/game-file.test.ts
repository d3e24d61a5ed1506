/**
 * Game files (src/game/game-file.ts): the public game loads with forum-local times in +08:00 whatever
 * the machine's zone; every error names the file, the line and the field, with nearest-name hints.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseGame } from '../../src/game/game-file.js';
import { alivePlayers, findDay, isOut } from '../../src/game/roster.js';

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
    expect(() => parseGame(edited, 'g.yaml')).toThrow(new RegExp(`g.yaml:${lineOf(edited, '馒投')}: events\\[0\\]\\.player: "馒投" is not one of the players \\(did you mean 馒头\\?\\)`));
  });
  test('a bad time: the line and the field', () => {
    const edited = source.replace('closes: "2026-11-22 21:00"', 'closes: "2026-11-22 25:00"');
    expect(() => parseGame(edited, 'g.yaml')).toThrow(/g\.yaml:\d+: days\[1\]\.closes: "2026-11-22 25:00" is not a valid time/);
  });
  test('an unknown ruleset override key is an error at its line', () => {
    const edited = source.replace('ruleset: m107', 'ruleset: m107\nrules:\n  maxChange: 2');
    expect(() => parseGame(edited, 'g.yaml')).toThrow(/g\.yaml:\d+: rules/);
  });
  test('a day listed twice, a sheriff who is not a player', () => {
    expect(() => load((s) => s.replace('{day: 2,', '{day: 1,'))).toThrow(/day 1 is listed twice/);
    expect(() => load((s) => s.replace('vote: 5,', 'vote: 5, sheriff: 包了,'))).toThrow(/did you mean 包子/);
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
    expect(() => findDay(parseGame(source, file), 5)).toThrow(/day 5 is not in the game file .* \(days: 1, 2\)/);
  });
});
