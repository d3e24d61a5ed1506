/**
 * wuhui: the G of a player voted out is shared among the living (wuhuizhicheng.txt l.145: 以此法出局的角色，
 * 其持有的G平分给所有存活角色). The vote-out of day N is the game file's event with `how: vote` whose
 * exit falls in the day's window (usually at its closing time); "the living" are those still in after it.
 */
import { alivePlayers } from '../game/roster.js';
import type { Game, GameDay } from '../game/types.js';

export interface VoteOutShare {
  player: string;
  /** The living who share, in elevator order. */
  among: string[];
  /** The voted-out player's G, when the game file gives holdings; else null (only who shares is known). */
  amount: number | null;
  /** Exact share (may be fractional), whole G each, and the G left over after whole shares. */
  each: number | null;
  eachWhole: number | null;
  remainder: number | null;
  /** Each sharer's holdings after receiving the whole share (sharers without holdings are left out). */
  after: Record<string, number> | null;
}

/** The day's vote-out share, or null when nobody was voted out that day. */
export function voteOutShare(game: Game, day: GameDay): VoteOutShare | null {
  const ev = game.events.find((e) => e.how === 'vote' && e.out !== undefined && e.out > day.opens && e.out <= day.closes);
  if (!ev || ev.out === undefined) return null;
  const among = alivePlayers(game, ev.out);
  const amount = game.holdings?.[ev.player] ?? null;
  if (amount === null || among.length === 0) {
    return { player: ev.player, among, amount, each: null, eachWhole: null, remainder: null, after: null };
  }
  const eachWhole = Math.floor(amount / among.length);
  const after: Record<string, number> = {};
  for (const p of among) {
    const held = game.holdings?.[p];
    if (held !== undefined) after[p] = held + eachWhole;
  }
  return {
    player: ev.player,
    among,
    amount,
    each: Math.round((amount / among.length) * 100) / 100,
    eachWhole,
    remainder: amount - eachWhole * among.length,
    after,
  };
}
