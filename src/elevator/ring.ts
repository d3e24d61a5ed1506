/**
 * The elevator order as the rules use it (rules-spec §9): the players in game order, out players
 * skipped. wuhui pairs day-1 duels by elevator neighbours (wuhuizhicheng.txt l.141: 第一天对战对手为
 * 根据电梯楼邻居两两对战); 120b's 仲裁者 covers ⌈alive/6⌉ adjacent players on the ring, head and tail
 * joined (120b-dianziyouxi.txt l.272: 指定电梯楼相连的若干目标（头尾视为相连），数量为当前存活人数的
 * 六分之一，向上取整).
 */
import { UserError } from '../errors.js';
import { alivePlayers, findDay } from '../game/roster.js';
import type { Game } from '../game/types.js';
import { normalizeName } from '../text/normalize.js';
import { nearestName } from '../text/nearest.js';
import { t } from '../i18n/index.js';

/** Neighbours paired in order: 1–2, 3–4, …; with an odd count the last one stands alone. */
export function neighbourPairs(ring: readonly string[]): string[][] {
  const pairs: string[][] = [];
  for (let i = 0; i < ring.length; i += 2) pairs.push(ring.slice(i, i + 2));
  return pairs;
}

/** `count` adjacent players on the ring starting at index `start` and going down the elevator, wrapping. */
export function ringSpan(ring: readonly string[], start: number, count: number): string[] {
  const n = Math.min(count, ring.length);
  return Array.from({ length: n }, (_, k) => ring[(start + k) % ring.length]);
}

/** The players alive when day `day` opens, in elevator order: the ring the rules walk. */
export function elevatorRing(game: Game, day: number): string[] {
  return alivePlayers(game, findDay(game, day).opens);
}

/** wuhui day-1 duel pairs: elevator neighbours among the players alive when the day opens. */
export function duelPairs(game: Game, day: number): string[][] {
  return neighbourPairs(elevatorRing(game, day));
}

/**
 * 120b 仲裁者 range on day `day`: ⌈alive / arbiterDivisor⌉ adjacent players on the ring of players alive
 * when the day opens, starting at `from` (who must be alive) and going down the elevator, head and tail
 * joined. `from` is matched after name normalisation; an unknown name fails with the nearest one as a hint.
 */
export function arbiterRange(game: Game, day: number, from: string): string[] {
  const divisor = game.rules.arbiterDivisor;
  if (divisor === undefined) {
    throw new UserError(t('err.noArbiter', game.rules.name, game.file));
  }
  const ring = elevatorRing(game, day);
  const wanted = normalizeName(from);
  const start = ring.findIndex((p) => normalizeName(p) === wanted);
  if (start < 0) {
    const isPlayer = game.players.some((p) => normalizeName(p) === wanted);
    if (isPlayer) throw new UserError(t('err.arbiterFromOut', from, day));
    const hint = nearestName(from, ring);
    throw new UserError(t('err.notLivingPlayer', from, day, hint ?? null));
  }
  return ringSpan(ring, start, Math.ceil(ring.length / divisor));
}
