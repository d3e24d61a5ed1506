/**
 * The tally as JSON (`bansha tally --json`): an interface others script against, so the keys are
 * fixed — {day, kind, sheriff, accelerated, totals: [{name, votes}], result: {name, tie, rule},
 * ballots: [{voter, target, weight, status, reason, pid, floor, at}]}; a day without a public vote
 * (120b) is {day, kind: "none", reason}. Times are ISO 8601 with the forum's offset.
 */
import { forumIso } from '../votes/time.js';
import type { TallyResult } from '../votes/types.js';

export interface TallyJson {
  day: number;
  kind: TallyResult['kind'];
  reason?: string;
  sheriff?: string | null;
  accelerated?: boolean;
  totals?: Array<{ name: string; votes: number }>;
  result?: { name: string | null; tie: string[]; rule: string };
  ballots?: Array<{
    voter: string;
    target: string | null;
    weight: number;
    status: 'counted' | 'rejected' | 'superseded';
    reason: string | null;
    pid: number;
    floor: number | null;
    at: string;
  }>;
}

/** The JSON value (not yet a string). */
export function tallyJson(t: TallyResult): TallyJson {
  if (t.kind === 'none') return { day: t.day, kind: 'none', reason: t.reason ?? '' };
  return {
    day: t.day,
    kind: t.kind,
    sheriff: t.sheriff,
    accelerated: t.accelerated,
    totals: t.totals.map((l) => ({ name: l.name, votes: l.votes })),
    result: { name: t.result.name, tie: [...t.result.tie], rule: t.result.rule },
    ballots: t.ballots.map((b) => ({
      voter: b.voter,
      target: b.target,
      weight: b.weight,
      status: b.status,
      reason: b.reason,
      pid: b.pid,
      floor: b.floor,
      at: forumIso(b.at, t.timezone),
    })),
  };
}

/** Pretty-printed JSON text with a final newline. */
export function renderTallyJson(t: TallyResult): string {
  return `${JSON.stringify(tallyJson(t), null, 2)}\n`;
}
