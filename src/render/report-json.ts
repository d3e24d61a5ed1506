/**
 * The day report as the scripted interface (`bansha report --json`, issue 5 — keep these names):
 * `{day, activity: [{player, posts, voted, exempt}], flags: [{kind, player, pid, floor, at, snippet,
 * detail, facts}], cards: [{player, color, kinds, reason, note, evidence: [pid], status}]}` (`reason` public, `note` the director's or null;
 * color is reminder, blue, yellow or red; kinds the flag kinds the card stands for). `at` is ISO 8601 with the
 * forum's offset, or null for flags about counts. A flag's `detail` is the sentence in the director's
 * language; `facts` holds its values for scripts (src/violations/flag.ts FlagFacts: `kind` and the kind's
 * fields, times as ISO 8601 like `at`, `earlierVersion` when an edited-away version showed it).
 * JSON.stringify escapes player text.
 */
import type { DayReport } from '../report/day-report.js';
import { forumIso } from '../game/forum-time.js';
import { incompleteJson, type IncompleteJson } from './incomplete.js';
import { writtenOnce } from './written-once.js';
import { flagDetail } from '../violations/details.js';
import type { Flag } from '../violations/flag.js';

export interface DayReportJson {
  /** Only when made with --allow-incomplete over gaps: what is missing (the first key). */
  incomplete?: IncompleteJson[];
  day: number;
  /** voted 'unreadable': the player's only posts in the vote thread that may be a ballot cannot be read (`unreadable` lists them). */
  activity: Array<{ player: string; posts: number; voted: boolean | 'unreadable' | null; exempt: boolean; unreadable?: Array<{ pid: number; floor: number | null; url: string }> }>;
  flags: Array<{ kind: string; player: string; pid: number | null; floor: number | null; at: string | null; snippet: string; detail: string; facts: Record<string, unknown> }>;
  cards: Array<{ player: string; color: string; kinds: string[]; reason: string; note: string | null; evidence: number[]; status: string }>;
  /** Only when there are any: what the director should know about the report (posts no longer on the forum, missing threads, waivers…). */
  notes?: string[];
}

/** The epoch-ms fields of FlagFacts (and of the posts they name), written as ISO 8601 in the forum's zone. */
const TIME_FIELDS = new Set(['at', 'out', 'since', 'oldLastSeen', 'newFirstSeen']);

/** A flag's facts for scripts: the values as they are, times as ISO 8601 like the flag's `at`. */
function factsJson(f: Flag, iso: (ms: number) => string): Record<string, unknown> {
  const json = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(json);
    if (v === null || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = TIME_FIELDS.has(k) && typeof x === 'number' ? iso(x) : json(x);
    return out;
  };
  const facts = json(f.facts) as Record<string, unknown>;
  if (f.earlierVersion) facts.earlierVersion = f.earlierVersion;
  return facts;
}

/** The JSON value (exactly the documented keys). */
export function dayReportJson(r: DayReport): DayReportJson {
  const iso = writtenOnce((ms) => forumIso(ms, r.timezone));
  return {
    ...(r.incomplete?.length ? { incomplete: incompleteJson(r.incomplete) } : {}),
    day: r.day,
    activity: r.activity.map((a) => ({ player: a.player, posts: a.posts, voted: a.voted, exempt: a.exempt, ...(a.unreadable ? { unreadable: a.unreadable.map((p) => ({ ...p })) } : {}) })),
    flags: r.flags.map((f) => ({
      kind: f.kind,
      player: f.player,
      pid: f.pid,
      floor: f.floor,
      at: f.at === null ? null : iso(f.at),
      snippet: f.snippet,
      detail: flagDetail(f, r.timezone),
      facts: factsJson(f, iso),
    })),
    cards: r.cards.map((c) => ({ player: c.player, color: c.color, kinds: c.kinds, reason: c.reason, note: c.directorNote ?? null, evidence: c.evidence, status: c.status })),
    ...(r.notes.length ? { notes: [...r.notes] } : {}),
  };
}

/** The JSON text, ending in a newline. */
export function renderDayReportJson(r: DayReport): string {
  return `${JSON.stringify(dayReportJson(r), null, 2)}\n`;
}
