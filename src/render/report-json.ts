/**
 * The day report as the scripted interface (`bansha report --json`, issue 5 — keep these names):
 * `{day, activity: [{player, posts, voted, exempt}], flags: [{kind, player, pid, floor, at, snippet,
 * detail}], cards: [{player, color, kinds, reason, note, evidence: [pid], status}]}` (`reason` public, `note` the director's or null;
 * color is reminder, blue, yellow or red; kinds the flag kinds the card stands for). `at` is ISO 8601 with the
 * forum's offset, or null for flags about counts. JSON.stringify escapes player text.
 */
import type { DayReport } from '../report/day-report.js';
import { forumIso } from '../votes/time.js';
import { incompleteJson, type IncompleteJson } from './incomplete.js';

export interface DayReportJson {
  /** Only when made with --allow-incomplete over gaps: what is missing (the first key). */
  incomplete?: IncompleteJson[];
  day: number;
  activity: Array<{ player: string; posts: number; voted: boolean | null; exempt: boolean }>;
  flags: Array<{ kind: string; player: string; pid: number | null; floor: number | null; at: string | null; snippet: string; detail: string }>;
  cards: Array<{ player: string; color: string; kinds: string[]; reason: string; note: string | null; evidence: number[]; status: string }>;
}

/** The JSON value (exactly the documented keys). */
export function dayReportJson(r: DayReport): DayReportJson {
  return {
    ...(r.incomplete?.length ? { incomplete: incompleteJson(r.incomplete) } : {}),
    day: r.day,
    activity: r.activity.map((a) => ({ player: a.player, posts: a.posts, voted: a.voted, exempt: a.exempt })),
    flags: r.flags.map((f) => ({
      kind: f.kind,
      player: f.player,
      pid: f.pid,
      floor: f.floor,
      at: f.at === null ? null : forumIso(f.at, r.timezone),
      snippet: f.snippet,
      detail: f.detail,
    })),
    cards: r.cards.map((c) => ({ player: c.player, color: c.color, kinds: c.kinds, reason: c.reason, note: c.directorNote ?? null, evidence: c.evidence, status: c.status })),
  };
}

/** The JSON text, ending in a newline. */
export function renderDayReportJson(r: DayReport): string {
  return `${JSON.stringify(dayReportJson(r), null, 2)}\n`;
}
