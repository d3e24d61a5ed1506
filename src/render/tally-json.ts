/**
 * The tally as JSON (`bansha tally --json`): an interface others script against, so the keys are
 * fixed — {day, kind, sheriff, accelerated, acceleration: {needed, alive, accelerated, asOf, requests: [{player, pid,
 * floor, at, url, counted, reason, code}]} | null, misplaced: [{player, thread, tid, pid, floor, at, url, target}],
 * totals: [{name, votes}], result: {name, tie, rule, note, code},
 * ballots: [{voter, target, weight, status, reason, note, code, codes, pid, floor, at}], notes}; a day without a
 * public vote (120b) is {day, kind: "none", reason, code}. Times are ISO 8601 with the forum's offset.
 * `reason` and `rule` are the Chinese public sentences the announcement shows, `note` (on a ballot and
 * on the result) what only the director reads (null when nothing); `code`/`codes` are the stable
 * machine-readable codes of src/votes/reasons.ts (a ballot's `code` is its main reason, `codes` all of
 * them in order; null/[] when it has none).
 */
import { forumIso } from '../game/forum-time.js';
import { goneJson, incompleteJson, staleJson, type IncompleteJson, type StaleJson } from './incomplete.js';
import type { BallotReasonCode, OutcomeCode } from '../votes/reasons.js';
import { reasonCode, type TallyResult } from '../votes/types.js';

export interface TallyJson {
  /** Only when counted with --allow-incomplete over gaps: what is missing (the first key). */
  incomplete?: IncompleteJson[];
  /** Only when a thread the count read was not fetched whole after the close it decides: which, and as of when. */
  stale?: StaleJson[];
  gone?: StaleJson[];
  day: number;
  /** Only before the close: a running count as of `asOf` (forum time), `result` naming who leads, not a result. */
  running?: true;
  asOf?: string;
  closes?: string;
  kind: TallyResult['kind'];
  reason?: string;
  code?: OutcomeCode | null;
  sheriff?: string | null;
  accelerated?: boolean;
  /** Who asked to accelerate and whether it counted (null when the day has no acceleration count). */
  acceleration?: {
    needed: number;
    alive: number;
    accelerated: boolean;
    /** Requests count strictly before this moment: the cut-off, or an earlier --at. */
    asOf: string;
    requests: Array<{ player: string; pid: number; floor: number | null; at: string; url: string; counted: boolean; reason: string | null; code: string | null }>;
  } | null;
  /** Players' ballots outside the vote thread: not counted. */
  misplaced?: Array<{ player: string; thread: 'discussion' | 'process'; tid: number; pid: number; floor: number | null; at: string; url: string; target: string | null }>;
  totals?: Array<{ name: string; votes: number }>;
  result?: { name: string | null; tie: string[]; rule: string; note: string | null; code: OutcomeCode | null };
  /** What the director must check that is not tied to one ballot (earlier results the game file lacks…). */
  notes?: string[];
  /** Posts of the vote thread this account cannot read, unruled; couldChange: --confirm/--post refuse. */
  unreadable?: { pids: number[]; couldChange: boolean };
  /** Posts of the process thread the account cannot read (each maybe an acceleration request or withdrawal): absent when none. */
  unreadableProcess?: { pids: number[]; couldChange: boolean };
  /** Posts a sheriff's handover waits on that the account cannot read (each maybe naming the successor): absent when none. */
  unreadableSuccession?: { pids: number[]; couldChange: boolean };
  ballots?: Array<{
    voter: string;
    target: string | null;
    weight: number;
    status: 'counted' | 'rejected' | 'superseded';
    reason: string | null;
    note: string | null;
    code: BallotReasonCode | null;
    codes: BallotReasonCode[];
    pid: number;
    floor: number | null;
    at: string;
  }>;
}

/** The JSON value (not yet a string). */
export function tallyJson(t: TallyResult): TallyJson {
  if (t.kind === 'none') return { day: t.day, kind: 'none', reason: t.reason ?? '', code: t.result.detail?.code ?? null };
  return {
    ...(t.incomplete?.length ? { incomplete: incompleteJson(t.incomplete) } : {}),
    ...(t.stale?.length ? { stale: staleJson(t.stale, t.timezone) } : {}),
    ...(t.gone?.length ? { gone: goneJson(t.gone, t.timezone) } : {}),
    day: t.day,
    ...(t.running ? { running: true as const, asOf: forumIso(t.countedAt, t.timezone), closes: forumIso(t.closes, t.timezone) } : {}),
    kind: t.kind,
    sheriff: t.sheriff,
    accelerated: t.accelerated,
    acceleration: t.acceleration && {
      needed: t.acceleration.needed,
      alive: t.acceleration.alive,
      accelerated: t.acceleration.accelerated,
      asOf: forumIso(t.acceleration.asOf, t.timezone),
      requests: t.acceleration.audit.map((r) => ({ ...r, at: forumIso(r.at, t.timezone) })),
    },
    misplaced: (t.misplaced ?? []).map((m) => ({ ...m, at: forumIso(m.at, t.timezone) })),
    totals: t.totals.map((l) => ({ name: l.name, votes: l.votes })),
    result: { name: t.result.name, tie: [...t.result.tie], rule: t.result.rule, note: t.result.note ?? null, code: t.result.detail?.code ?? null },
    ballots: t.ballots.map((b) => ({
      voter: b.voter,
      target: b.target,
      weight: b.weight,
      status: b.status,
      reason: b.reason,
      note: b.note ?? null,
      code: reasonCode(b),
      codes: (b.details ?? []).map((d) => d.code),
      pid: b.pid,
      floor: b.floor,
      at: forumIso(b.at, t.timezone),
    })),
    notes: [...t.notes],
    ...(t.unreadable ? { unreadable: { pids: [...t.unreadable.pids], couldChange: t.unreadable.couldChange } } : {}),
    ...(t.unreadableProcess ? { unreadableProcess: { pids: [...t.unreadableProcess.pids], couldChange: t.unreadableProcess.couldChange } } : {}),
    ...(t.unreadableSuccession ? { unreadableSuccession: { pids: [...t.unreadableSuccession.pids], couldChange: t.unreadableSuccession.couldChange } } : {}),
  };
}

/** Pretty-printed JSON text with a final newline. */
export function renderTallyJson(t: TallyResult): string {
  return `${JSON.stringify(tallyJson(t), null, 2)}\n`;
}
