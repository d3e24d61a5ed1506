/**
 * Results carried forward into a later day (issue 13): the closed days before day N put players out —
 * voted out by their count, sent off (罚下) by the red cards confirmed in the ledger — and day N's
 * elevator floor must not list them as in. A result the game file does not record yet is applied and
 * named in a warning (the director confirms it with `bansha close --day D --confirm`, or corrects the
 * file); a day whose count read threads not completely stored cannot be checked, and the warning says
 * so instead of guessing. Disagreements with what the file records are shown, never resolved. The
 * closed days' outcomes are read (src/derived/closed-days.ts), not tallied again.
 */
import { ledgerPath, readLedger } from '../cards/ledger.js';
import { standings } from '../cards/standing.js';
import { exitTime } from '../game/roster.js';
import type { Game } from '../game/types.js';
import { t } from '../i18n/index.js';
import { exitDisagreements, exitsFromTally, type DerivedExit } from '../votes/carry-forward.js';
import type { ClosedOutcomes } from '../votes/tally.js';
import { forumTime } from '../game/forum-time.js';

/** Players sent off (罚下) by the cards confirmed through day `day` who were not yet sent off before it. */
export function sentOffOn(game: Game, day: number, closes: number, ledger = readLedger(game, ledgerPath(game.file))): DerivedExit[] {
  const before = new Set(standings(game, ledger, day - 1).filter((s) => s.sentOff).map((s) => s.player));
  return standings(game, ledger, day)
    .filter((s) => s.sentOff && !before.has(s.player))
    .map((s) => ({ day, player: s.player, out: closes, how: 'card' as const }));
}

/**
 * The game as day `day` starts from the closed days before it (their outcomes: `closed`, from
 * src/derived/closed-days.ts): unrecorded results applied; what the director must know.
 */
export function carriedForward(game: Game, closed: ClosedOutcomes, day: number): { game: Game; applied: DerivedExit[]; warnings: Array<{ day: number; text: string }> } {
  const ledger = readLedger(game, ledgerPath(game.file)); // once, not once per closed day
  const applied: DerivedExit[] = [];
  const warnings: Array<{ day: number; text: string }> = [];
  for (const e of game.days) {
    if (e.day >= day) continue;
    const derived: DerivedExit[] = [];
    if (game.rules.publicVote && e.vote) {
      const outcome = closed.outcome(e.day);
      const unread = outcome ? outcome.unread ?? [] : e.votes.map((v) => v.tid);
      if (unread.length) warnings.push({ day: e.day, text: t('carried.unread', e.day, unread.join(', ')) });
      else derived.push(...exitsFromTally(outcome!));
    }
    derived.push(...sentOffOn(game, e.day, e.closes, ledger));
    for (const x of derived) {
      if (exitTime(game, x.player) !== null || applied.some((a) => a.player === x.player)) continue;
      applied.push(x);
      warnings.push({ day: e.day, text: t('carried.applied', x.player, x.how, x.day, forumTime(x.out, game.timezone), game.file) });
    }
    warnings.push(...exitDisagreements(game, e.day, e.closes, derived, { unrecorded: false }).map((text) => ({ day: e.day, text })));
  }
  const after: Game = applied.length ? { ...game, events: [...game.events, ...applied.map((x) => ({ player: x.player, out: x.out, how: x.how }))] } : game;
  return { game: after, applied, warnings };
}
