/**
 * Results that carry forward (issue 13): a closed day's result becomes the next days' state. A player
 * voted out at the close (rules-spec §4) leaves the game then; the game file's `events` are where the
 * count reads that from (src/game/roster.ts), so a result the file does not record yet is shown — on
 * every later day's tally and by `bansha close` — and never silently applied or overridden: the
 * director confirms it (`bansha close --day N --confirm` writes the event) or corrects the file.
 * Pure functions of the game and tallies.
 */
import type { ExitHow, Game } from '../game/types.js';
import { t as tr } from '../i18n/index.js';
import { forumTime } from '../game/forum-time.js';
import type { ClosedOutcome } from './tally.js';

/** A departure a closed day's result implies. */
export interface DerivedExit {
  day: number;
  player: string;
  /** Epoch ms: the day's closing time. */
  out: number;
  how: Extract<ExitHow, 'vote' | 'card'>;
}

/** The player a closed elimination count puts out (none while running, for ties with nobody out, or elections). */
export function exitsFromTally(t: ClosedOutcome): DerivedExit[] {
  if (t.kind !== 'elimination' || t.running || !t.result.name) return [];
  return [{ day: t.day, player: t.result.name, out: t.closes, how: 'vote' }];
}

/**
 * Where the game file and the derived results of day `day` (closing at `closes`) disagree, in the
 * director's language
 * (empty when they agree): a derived exit the file lacks or dates otherwise, and a 'vote' exit the file
 * records at that close for someone the count did not put out. `unrecorded: false` leaves out the
 * derived exits the file lacks (a caller that applies them says so in its own words).
 */
export function exitDisagreements(game: Game, day: number, closes: number, derived: readonly DerivedExit[], opts: { unrecorded?: boolean } = {}): string[] {
  const t = (ms: number) => forumTime(ms, game.timezone);
  const how = (h: ExitHow) => tr(`exits.how.${h}`);
  const out: string[] = [];
  for (const d of derived) {
    const events = game.events.filter((e) => e.player === d.player && e.out !== undefined);
    if (!events.length) {
      if (opts.unrecorded === false) continue;
      out.push(tr('exits.unrecorded', day, d.player, how(d.how), t(d.out)));
    } else if (!events.some((e) => e.out! <= d.out)) {
      const e = events[0];
      out.push(tr('exits.otherTime', day, d.player, how(d.how), t(d.out), t(e.out!), e.how ? how(e.how) : ''));
    }
  }
  for (const e of game.events) {
    if (e.how !== 'vote' || e.out !== closes) continue;
    if (!derived.some((d) => d.player === e.player && d.how === 'vote')) {
      const result = derived.find((d) => d.how === 'vote')?.player;
      out.push(tr('exits.fileOnly', day, e.player, t(closes), result ?? ''));
    }
  }
  return out;
}
