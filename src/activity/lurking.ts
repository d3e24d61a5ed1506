/**
 * The lurker rules (rules-spec §6; m107 l.310, 062 l.327–330): on a non-accelerated day fewer than
 * minPostsPerDay posts is a yellow card; streakDays consecutive non-accelerated days each under
 * streakMinPosts is a yellow card; no ballot at all in the vote thread is a yellow card. On an
 * accelerated day the per-day penalties are waived when the ruleset says so (062 l.247; §5).
 *
 * Decisions where the spec is silent (documented in the report):
 * - "consecutive" means consecutive game days: an accelerated day, a day with the player exempt, or a
 *   day whose threads are not stored ends the run;
 * - a run that earned its card starts again from zero (days 1–3 give one card, days 4–6 the next),
 *   so one quiet stretch is never punished twice.
 */
import type { Game } from '../game/types.js';
import type { Flag, FlagFacts } from '../violations/flag.js';
import type { DayPosts } from './count.js';

export interface LurkingInput {
  game: Game;
  day: number;
  /** Post counts of every stored day up to and including `day` (missing days break streaks). */
  postsByDay: ReadonlyMap<number, DayPosts<unknown>>;
  /** Whether each day was accelerated (a day absent from the map counts as not accelerated). */
  accelerated: Readonly<Record<number, boolean>>;
  /** Players who posted a ballot on `day`; null when the day has no public vote thread. */
  ballots: ReadonlySet<string> | null;
}

/** The lurker flags of one day. */
export function lurkingFlags(input: LurkingInput): Flag[] {
  const { game, day } = input;
  const rules = game.rules.lurking;
  if (!rules.enabled) return [];
  const today = input.postsByDay.get(day);
  if (!today) return [];
  const accelerated = input.accelerated[day] === true;
  const waived = accelerated && game.rules.acceleration.waivesLurking;
  const flags: Flag[] = [];
  // A count's flag: no post is the evidence, the posts counted are (`related`).
  const base = (player: string, facts: FlagFacts, related: number[]): Flag => ({
    kind: facts.kind, player, pid: null, tid: today.tids[0] ?? null, floor: null, at: null, url: null, snippet: '', facts, related,
  });

  for (const row of today.players) {
    if (row.exempt) continue;
    if (!waived && today.missing.length === 0 && row.posts < rules.minPostsPerDay) {
      flags.push(base(row.player, { kind: 'few-posts', day, posts: row.posts, min: rules.minPostsPerDay }, row.pids));
    }
    const streak = streakEndingOn(input, row.player);
    if (streak) {
      const days = streak.map((s) => ({ day: s.day, posts: s.posts }));
      flags.push(base(row.player, { kind: 'low-streak', days, min: rules.streakMinPosts }, streak.flatMap((s) => s.pids)));
    }
    if (!waived && rules.noVoteCard && input.ballots && !input.ballots.has(row.player)) {
      flags.push(base(row.player, { kind: 'no-ballot', day }, []));
    }
  }
  return flags;
}

/** The run of days that completes a streak on `input.day` for the player, or null. */
function streakEndingOn(input: LurkingInput, player: string): Array<{ day: number; posts: number; pids: number[] }> | null {
  const { game } = input;
  const { streakDays, streakMinPosts } = game.rules.lurking;
  const days = game.days.map((d) => d.day).filter((d) => d <= input.day).sort((a, b) => a - b);
  let run: Array<{ day: number; posts: number; pids: number[] }> = [];
  let prev: number | null = null;
  let fired: typeof run | null = null;
  for (const d of days) {
    const counts = input.postsByDay.get(d);
    const row = counts?.players.find((r) => r.player === player);
    const usable = counts && counts.missing.length === 0 && row && !row.exempt && input.accelerated[d] !== true && (prev === null || d === prev + 1);
    if (!usable || row.posts >= streakMinPosts) run = [];
    if (usable && row.posts < streakMinPosts) run.push({ day: d, posts: row.posts, pids: row.pids });
    fired = null;
    if (run.length === streakDays) {
      fired = run;
      run = [];
    }
    prev = d;
  }
  return fired;
}
