/**
 * Counting (rules-spec §4): weights, totals, and who wins — with the tie rule that decided, as a value
 * (OutcomeDetail) and in words (reasons.ts).
 *
 * - Each vote weighs 1; the sheriff's weighs the ruleset's sheriffWeight (m107 l.119 1.5; 062 l.170 2.5;
 *   wuhui 1 — its sheriff breaks ties instead, l.102). Abstentions are shown and weigh nothing.
 * - Day-1 election: a tie goes to the candidate who first reached the final top total (m107 l.118,
 *   062 l.169, wuhui l.101 最先获得投票数最多): the counted ballots are replayed in time order with each
 *   change applied at its own time (the superseded vote counts until then).
 * - Elimination ties per the ruleset: nobody (m107 l.44, 062 l.49) or the tied candidate the sheriff
 *   voted for, nobody when the sheriff voted none of them (wuhui l.32).
 * - wuhui's duel-rule vote (l.32, l.129): a tie goes to the sheriff's choice, else to the rule that
 *   first reached the top.
 */
import type { PresetName } from '../game/types.js';
import { citer, type CiteKey } from './citations.js';
import { fmt, outcomeNote, outcomeText, type OutcomeDetail } from './reasons.js';
import type { BallotRecord, TallyKind, TallyOutcome, TotalLine } from './types.js';

const EPS = 1e-9;

/** Sets each ballot's weight: counted ballots 1, the sheriff's `sheriffWeight`, abstentions and the rest 0. */
export function applyWeights(ballots: BallotRecord[], sheriff: string | null, sheriffWeight: number): void {
  for (const b of ballots) b.weight = b.status === 'counted' ? weightOf(b, sheriff, sheriffWeight) : 0;
}

function weightOf(b: BallotRecord, sheriff: string | null, sheriffWeight: number): number {
  if (!b.parsed || b.parsed.kind === 'abstain') return 0;
  return sheriff !== null && b.voter === sheriff ? sheriffWeight : 1;
}

/** Totals per candidate from the counted ballots, most votes first (ties in candidate order). */
export function totalsOf(ballots: readonly BallotRecord[], order: readonly string[]): TotalLine[] {
  const map = new Map<string, TotalLine>();
  for (const b of ballots) {
    if (b.status !== 'counted' || !b.parsed || b.parsed.kind === 'abstain' || b.target === null) continue;
    const line = map.get(b.target) ?? { name: b.target, votes: 0, voters: [] };
    line.votes += b.weight;
    line.voters.push(b.voter);
    map.set(b.target, line);
  }
  const rank = (n: string) => {
    const i = order.indexOf(n);
    return i < 0 ? order.length : i;
  };
  return [...map.values()].sort((a, b) => b.votes - a.votes || rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}

/** When a candidate's running total first reached a value, in the replay of counted ballots. */
export interface Reach {
  name: string;
  at: number;
  /** The ballot whose arrival made it. */
  pid: number;
  floor: number | null;
}

/**
 * Replays the counted ballots in time order, each voter's vote counting from its post until the change
 * that superseded it, and returns when each of `names` first had at least `total` (null if never).
 */
export function firstReach(
  ballots: readonly BallotRecord[],
  names: readonly string[],
  total: number,
  sheriff: string | null,
  sheriffWeight: number,
): Map<string, Reach | null> {
  type Ev = { at: number; pid: number; floor: number | null; add?: string; remove?: string; w: number };
  const events: Ev[] = [];
  const byVoter = new Map<string, BallotRecord[]>();
  for (const b of ballots) {
    if (b.status === 'rejected' || !b.parsed) continue;
    const list = byVoter.get(b.voter) ?? [];
    list.push(b);
    byVoter.set(b.voter, list);
  }
  for (const list of byVoter.values()) {
    list.sort((a, b) => a.at - b.at || a.pid - b.pid);
    list.forEach((b, i) => {
      const w = weightOf(b, sheriff, sheriffWeight);
      const prev = list[i - 1];
      const prevW = prev ? weightOf(prev, sheriff, sheriffWeight) : 0;
      events.push({ at: b.at, pid: b.pid, floor: b.floor, add: w > 0 ? b.target ?? undefined : undefined, w });
      if (prev && prevW > 0 && prev.target) events.push({ at: b.at, pid: b.pid, floor: b.floor, remove: prev.target, w: prevW });
    });
  }
  // Removals at an instant go before additions at the same instant: a change moves a vote, never doubles it.
  events.sort((a, b) => a.at - b.at || a.pid - b.pid || (a.remove ? -1 : 1) - (b.remove ? -1 : 1));
  const running = new Map<string, number>();
  const reached = new Map<string, Reach | null>(names.map((n) => [n, null]));
  for (const e of events) {
    if (e.remove) running.set(e.remove, (running.get(e.remove) ?? 0) - e.w);
    if (e.add) {
      const v = (running.get(e.add) ?? 0) + e.w;
      running.set(e.add, v);
      if (reached.has(e.add) && reached.get(e.add) === null && v >= total - EPS) {
        reached.set(e.add, { name: e.add, at: e.at, pid: e.pid, floor: e.floor });
      }
    }
  }
  return reached;
}

export interface DecideInput {
  kind: Exclude<TallyKind, 'none'>;
  preset: PresetName;
  totals: readonly TotalLine[];
  ballots: readonly BallotRecord[];
  sheriff: string | null;
  sheriffWeight: number;
  eliminationTie: 'nobody' | 'sheriff-choice';
  /** The forum's zone, for the times in the explanation. */
  zone: string;
}

/** The game's rule post's line for a tie rule (citations.yaml); rules-spec §4 where its post states none. */
const tieCite = (preset: PresetName, key: CiteKey): string => citer(preset)(key) ?? 'rules-spec §4';

/** The outcome and the rule that decided it (as a value, and in words: reasons.ts). */
export function decide(input: DecideInput): TallyOutcome {
  const detail = decideDetail(input);
  const name = 'name' in detail ? detail.name : null;
  const tie = 'tied' in detail ? [...detail.tied] : [];
  return { name, tie, rule: outcomeText(detail, input.zone), detail, note: outcomeNote(detail) };
}

function decideDetail(input: DecideInput): OutcomeDetail {
  const { kind, totals } = input;
  const top = totals[0]?.votes ?? 0;
  if (totals.length === 0 || top <= EPS) return { code: 'no-votes' };
  const tied = totals.filter((l) => Math.abs(l.votes - top) < EPS).map((l) => l.name);
  if (tied.length === 1) return { code: 'most-votes', kind, name: tied[0], votes: top };

  const byFirstReach = (cite: string, sheriffPassed?: { sheriff: string | null }): OutcomeDetail => {
    const reach = firstReach(input.ballots, tied, top, input.sheriff, input.sheriffWeight);
    const ranked = tied
      .map((n) => reach.get(n) ?? null)
      .filter((r): r is Reach => r !== null)
      .sort((a, b) => a.at - b.at || a.pid - b.pid);
    const first = ranked[0];
    if (!first) return { code: 'tie-unresolved', tied, votes: top, ...(sheriffPassed ? { sheriffPassed } : {}) };
    const sameSecond = ranked.filter((r) => r.at === first.at).length > 1;
    return {
      code: 'tie-first-reach', kind, tied, votes: top, name: first.name, at: first.at, floor: first.floor, sameSecond, cite,
      ...(sheriffPassed ? { sheriffPassed } : {}),
    };
  };

  if (kind === 'election') return byFirstReach(tieCite(input.preset, 'election-first-reach'));

  const sheriffTarget = input.sheriff === null
    ? null
    : input.ballots.find((b) => b.status === 'counted' && b.voter === input.sheriff)?.target ?? null;
  if (kind === 'rule') {
    if (input.sheriff !== null && sheriffTarget !== null && tied.includes(sheriffTarget)) {
      return { code: 'tie-sheriff-choice', kind, tied, votes: top, sheriff: input.sheriff, name: sheriffTarget, cite: tieCite(input.preset, 'rule-tie-sheriff') };
    }
    return byFirstReach(tieCite(input.preset, 'rule-tie-first-reach'), { sheriff: input.sheriff });
  }
  if (input.eliminationTie === 'nobody') {
    return { code: 'tie-nobody-out', tied, votes: top, cite: tieCite(input.preset, 'tie-nobody-out') };
  }
  if (input.sheriff === null) return { code: 'tie-no-sheriff', tied, votes: top, cite: tieCite(input.preset, 'tie-no-sheriff') };
  if (sheriffTarget !== null && tied.includes(sheriffTarget)) {
    return { code: 'tie-sheriff-choice', kind, tied, votes: top, sheriff: input.sheriff, name: sheriffTarget, cite: tieCite(input.preset, 'tie-sheriff-choice') };
  }
  return { code: 'tie-sheriff-none', tied, votes: top, sheriff: input.sheriff, cite: tieCite(input.preset, 'tie-sheriff-none') };
}

/** 1.5 → "1.5", 4 → "4" (the wording lives in reasons.ts; re-exported for the renderers). */
export { fmt };
