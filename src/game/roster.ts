/**
 * Who is in the game at a given moment (rules-spec §1): players leave at their exit time; the m107
 * white idiot who used 装傻 stays but may neither vote nor be voted. Pure functions of the game.
 */
import { UserError } from '../cli/errors.js';
import type { Game, GameDay } from './types.js';

/** The exit time of a player, or null while they are in. */
export function exitTime(game: Game, player: string): number | null {
  let out: number | null = null;
  for (const e of game.events) {
    if (e.player === player && e.out !== undefined && (out === null || e.out < out)) out = e.out;
  }
  return out;
}

/** True when the player has left the game at `at` (an exit at exactly `at` counts as out). */
export function isOut(game: Game, player: string, at: number): boolean {
  const out = exitTime(game, player);
  return out !== null && out <= at;
}

/** When the player used 装傻 (m107 white idiot: the game file's first `idiot:` event for them), or null. */
export function idiotTime(game: Game, player: string): number | null {
  return game.events.find((e) => e.player === player && e.idiot !== undefined)?.idiot ?? null;
}

/** m107 装傻: from that time on the player may neither vote nor be voted. */
export function isIdiot(game: Game, player: string, at: number): boolean {
  return game.events.some((e) => e.player === player && e.idiot !== undefined && e.idiot <= at);
}

/** Players still in the game at `at`, in elevator order. */
export function alivePlayers(game: Game, at: number): string[] {
  return game.players.filter((p) => !isOut(game, p, at));
}

export function isDirector(game: Game, name: string): boolean {
  return game.directors.includes(name);
}

/** The game file's entry for day `day`; a UserError (exit 2) naming the days there are when absent. */
export function findDay(game: Game, day: number): GameDay {
  const d = game.days.find((x) => x.day === day);
  if (!d) {
    const known = game.days.map((x) => x.day).join(', ') || 'none';
    throw new UserError(`day ${day} is not in the game file ${game.file} (days: ${known})`);
  }
  return d;
}
