/**
 * The vote timeline of a day: how many votes each candidate held at every moment, as the counted
 * ballots and changes arrived (rules-spec §3–4). Built from a TallyResult: a voter's effective ballots
 * are the vote that was later changed (status 'superseded') and the one that counts ('counted'), in
 * time order; each moves the voter's weight from the previous target to the new one. Pure.
 */
import { ABSTAIN } from '../votes/ballot.js';
import type { TallyResult } from '../votes/types.js';

/** One moment a ballot moved votes. */
export interface TimelineEvent {
  at: number;
  voter: string;
  /** The candidate the voter's weight leaves (null for a first vote or after 弃权). */
  from: string | null;
  /** The candidate it goes to (null for 弃权). */
  to: string | null;
  weight: number;
  kind: 'vote' | 'change';
  url: string;
  /** The ballot's post (the HTML report's ballot row is `#ballot-PID`). */
  pid: number;
}

/** The running totals: every candidate's total after each event. */
export interface VoteTimeline {
  /** Candidates in the order of the final totals (highest first), then any who lost all votes. */
  candidates: string[];
  events: TimelineEvent[];
  /** totals[i][c]: candidate c's total right after events[i]. */
  totals: Array<Record<string, number>>;
}

/** The timeline of a tally (only 'election', 'elimination' and 'rule' tallies have one). */
export function voteTimeline(tally: TallyResult): VoteTimeline {
  const effective = tally.ballots
    .filter((b) => (b.status === 'counted' || b.status === 'superseded') && b.target !== null)
    .sort((a, b) => a.at - b.at || a.pid - b.pid);
  const last = new Map<string, string | null>();
  const events: TimelineEvent[] = [];
  for (const b of effective) {
    const to = b.target === ABSTAIN || b.parsed?.kind === 'abstain' ? null : b.target;
    const weight = b.weight > 0 ? b.weight : tally.sheriff === b.voter && tally.kind === 'elimination' ? tally.sheriffWeight : 1;
    const had = last.has(b.voter);
    events.push({ at: b.at, voter: b.voter, from: had ? (last.get(b.voter) ?? null) : null, to, weight, kind: had ? 'change' : 'vote', url: b.url, pid: b.pid });
    last.set(b.voter, to);
  }
  const running: Record<string, number> = {};
  const totals: Array<Record<string, number>> = [];
  for (const e of events) {
    if (e.from !== null) running[e.from] = round((running[e.from] ?? 0) - e.weight);
    if (e.to !== null) running[e.to] = round((running[e.to] ?? 0) + e.weight);
    totals.push({ ...running });
  }
  const final = totals[totals.length - 1] ?? {};
  const order = tally.totals.map((t) => t.name);
  const candidates = [...order, ...Object.keys(final).filter((c) => !order.includes(c))].filter((c) => c in final);
  return { candidates, events, totals };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
