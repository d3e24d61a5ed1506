import path from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadGame } from '../../src/game/game-file.js';
import { alivePlayers } from '../../src/game/roster.js';
import { arbiterRange, duelPairs, elevatorRing, neighbourPairs, ringSpan } from '../../src/elevator/index.js';
import { FIXTURES } from '../helpers/captured.js';

const game = loadGame(path.join(FIXTURES, 'games', 'public.yaml'));

describe('neighbourPairs (wuhui day-1 duels, 第一天对战对手为根据电梯楼邻居两两对战)', () => {
  it('pairs 1–2, 3–4, … and leaves an odd one out alone', () => {
    expect(neighbourPairs(['a', 'b', 'c', 'd'])).toEqual([['a', 'b'], ['c', 'd']]);
    expect(neighbourPairs(['a', 'b', 'c'])).toEqual([['a', 'b'], ['c']]);
    expect(neighbourPairs([])).toEqual([]);
  });
  it('covers every player exactly once, keeping the order', () => {
    fc.assert(fc.property(fc.uniqueArray(fc.string(), { maxLength: 30 }), (ring) => {
      const pairs = neighbourPairs(ring);
      expect(pairs.flat()).toEqual(ring);
      expect(pairs.slice(0, -1).every((p) => p.length === 2)).toBe(true);
    }));
  });
  it('uses the players alive when the day opens', () => {
    // day 2 of the public game: 馒头 died the night before
    expect(duelPairs(game, 2).flat()).toEqual(game.players.filter((p) => p !== '馒头'));
    expect(duelPairs(game, 1).flat()).toEqual(game.players);
  });
});

describe('arbiterRange (120b 光辉仲裁: ⌈alive/6⌉ adjacent, 头尾视为相连)', () => {
  const g120 = { ...game, rules: { ...game.rules, arbiterDivisor: 6 } };
  it('takes ⌈alive/6⌉ players from the chosen one, down the elevator, wrapping at the tail', () => {
    const ring = elevatorRing(g120, 2);
    const n = Math.ceil(ring.length / 6);
    const last = ring[ring.length - 1];
    const range = arbiterRange(g120, 2, last);
    expect(range).toHaveLength(n);
    expect(range).toEqual([last, ...ring.slice(0, n - 1)]);
    expect(range).not.toContain('馒头');
  });
  it('ringSpan wraps and never repeats', () => {
    fc.assert(fc.property(fc.uniqueArray(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 40 }), fc.nat(), fc.nat(50), (ring, s, c) => {
      const start = s % ring.length;
      const span = ringSpan(ring, start, c);
      expect(span.length).toBe(Math.min(c, ring.length));
      expect(new Set(span).size).toBe(span.length);
      span.forEach((x, k) => expect(x).toBe(ring[(start + k) % ring.length]));
    }));
  });
  it('refuses a player who is out, an unknown name (with a hint), and a ruleset without 仲裁者', () => {
    expect(() => arbiterRange(g120, 2, '馒头')).toThrowError(/已出局/);
    expect(() => arbiterRange(g120, 2, '包了')).toThrowError(/包子/);
    expect(() => arbiterRange(game, 2, '饺子')).toThrowError(/arbiterDivisor/);
  });
  it('the ring is the alive list in elevator order', () => {
    const day2 = game.days.find((d) => d.day === 2)!;
    expect(elevatorRing(game, 2)).toEqual(alivePlayers(game, day2.opens));
  });
});
