/**
 * A ruleset without a public vote (120b l.322 没有类似狼人游戏的公开投票环节…所有投票均为QQ私聊导演):
 * there is no vote thread to read and no count to make, only the result that says so. The one place
 * that short-cut is taken — the tally (tally.ts), `bansha tally` and the closing cockpit's count ask
 * here first — and a module of its own, so that a command can answer it without loading the count.
 */
import { findDay } from '../game/roster.js';
import type { Game } from '../game/types.js';
import { citer } from './citations.js';
import { outcomeText, sheriffSourceFields } from './reasons.js';
import type { TallyResult } from './types.js';

/** Day `day`'s result as of `at` (default: its close) when the game has no public vote, read from no post; null when it has one. */
export function privateVoteResult(game: Game, day: number, at?: number): TallyResult | null {
  if (game.rules.publicVote) return null;
  const d = findDay(game, day);
  const countAt = Math.min(at ?? d.closes, d.closes);
  const detail = { code: 'no-public-vote', ruleset: game.rules.name, cite: citer(game.preset)('no-public-vote') ?? 'rules-spec §4' } as const;
  const reason = outcomeText(detail, game.timezone);
  return {
    day: d.day, kind: 'none', reason, tid: null, closes: d.closes, countedAt: countAt, running: countAt < d.closes,
    timezone: game.timezone, sheriff: null, ...sheriffSourceFields({ code: 'none' }, game.timezone), sheriffWeight: game.rules.sheriffWeight,
    accelerated: false, acceleration: null, totals: [], abstentions: [], result: { name: null, tie: [], rule: reason, detail },
    ballots: [], players: [], misplaced: [], notes: [],
  };
}
