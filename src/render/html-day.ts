/**
 * One day's HTML report input, mapped from the two values that already assemble the day: the tally
 * (src/votes/tally.ts tallyDay → TallyResult) and the day report (src/report/day-report.ts
 * buildDayReport → DayReport: activity, flags, cards, the whole game's table). Nothing is counted or
 * judged here — this file only turns those values into the plain value renderHtmlReport draws, so the
 * HTML, terminal, Markdown, BBCode and JSON views of a day can never disagree.
 */
import { gameFileTitle } from '../game/beside.js';
import type { Game } from '../game/types.js';
import { classifyTitle } from '../text/thread-title.js';
import type { DayReport } from '../report/day-report.js';
import { describeGaps } from '../store/completeness.js';
import type { Completeness, StoredThread } from '../store/types.js';
import type { TallyResult } from '../votes/types.js';
import type { HtmlActivityTable, HtmlCard, HtmlFlag, HtmlReportInput, HtmlSource } from './html-report.js';
import { COLOR_NAME, STATUS_NAME } from './report-common.js';
import { FLAG_KIND_NAMES, LURKING_KINDS, type Flag } from '../violations/flag.js';
import { publicFlagDetail } from '../violations/details.js';
import { language, withLanguage } from '../i18n/index.js';
import { ballotReasonNote, ballotReasonsNote } from '../votes/reasons.js';

/** The report's file name stem for a game: its file name without .yaml ("public", "m901"). */
export function reportTitle(game: Pick<Game, 'file'>): string {
  return gameFileTitle(game.file);
}

/**
 * The game's title as its threads name it — the tag before "第N日…" in a stored day thread's title
 * ("[M901]第二日讨论帖" → "[M901]") — else the game file's name. `titleOf`: a stored thread's title.
 */
export function gameTitle(game: Pick<Game, 'file' | 'days'>, titleOf: (tid: number) => string | undefined): string {
  for (const d of game.days) {
    for (const ref of [d.discussion, d.vote]) {
      const title = ref && titleOf(ref.tid);
      const tag = title ? classifyTitle(title)?.tag : undefined;
      if (tag) return tag;
    }
  }
  return reportTitle(game);
}

/** The footer's facts for the threads read: the latest page fetch and what is missing, from their records (undefined: not stored) and completeness. */
export function htmlSource(threads: ReadonlyArray<{ record: StoredThread | undefined; completeness: Completeness }>, version: string): HtmlSource {
  const fetched = threads.flatMap((t) => Object.values(t.record?.pages ?? {}).map((p) => Date.parse(p.fetchedAt)));
  const gaps = threads.map((t) => t.completeness).filter((c) => !c.complete).map(describeGaps);
  return { crawledAt: fetched.length ? Math.max(...fetched) : null, version, gaps };
}

/**
 * The activity table as the HTML draws it: players × days up to the report's day (— when out before
 * the day or not stored), then whether the player posted a ballot today. A row is marked when the report
 * flagged the player under a lurker rule.
 */
export function htmlActivity(report: DayReport): HtmlActivityTable {
  const hasVote = report.activity.some((a) => a.voted !== null);
  return {
    // Short headings: a long game's ten or more day columns still fit (the table scrolls beyond that).
    columns: [...report.table.days.map((d) => `第${d}日`), '合计', ...(hasVote ? [`第${report.day}日投票`] : [])],
    rows: report.table.rows.map((row) => {
      const today = report.activity.find((a) => a.player === row.player);
      const voted = !today || today.exempt ? '出局' : today.voted === 'unreadable'
        ? `不可读，待确认（${(today.unreadable ?? []).map((p) => `pid ${p.pid}`).join('、')}）`
        : today.voted === null ? '—' : today.voted ? '✓' : '✗';
      return {
        player: row.player,
        cells: [...row.counts.map((n) => n ?? '—'), row.total, ...(hasVote ? [voted] : [])],
        warn: report.flags.some((f) => f.player === row.player && LURKING_KINDS.has(f.kind)),
      };
    }),
  };
}

/** A flag as the HTML report lists it (in Chinese, as players read it): its kind, the rule and the player's words. */
export function htmlFlag(f: Flag, zone: string): HtmlFlag {
  const detail = publicFlagDetail(f, zone);
  return { player: f.player, kind: FLAG_KIND_NAMES[f.kind].short, detail: f.snippet ? `${detail} — “${f.snippet}”` : detail, at: f.at, url: f.url };
}

export interface HtmlDayOptions {
  /** The heading (default: "bansha"); reportTitle(game) gives the game file's name. */
  title?: string;
  /** When the report was made (epoch ms; default now). */
  now?: number;
  /** The link to a post by pid, for card evidence (default: the link of a flag on that post, if any). */
  postUrl?: (pid: number) => string | null;
  /** The footer's facts (htmlSource). */
  source?: HtmlSource;
}

/**
 * The tally with its ballots' director notes in Chinese, the page's language — the terminal and JSON
 * give them in the director's (src/votes/reasons.ts ballotReasonNote); written again from the ballots'
 * reasons as values, and put in place of the director's wording where a flag quotes it.
 */
export function chineseNotes(tally: TallyResult): TallyResult {
  if (language() === 'zh') return tally;
  const zh = <T>(fn: () => T) => withLanguage('zh', fn);
  return {
    ...tally,
    ballots: tally.ballots.map((b) => {
      if (!b.details?.length) return b;
      const details = b.details;
      const worded = details.map((r) => [ballotReasonNote(r), zh(() => ballotReasonNote(r))] as const).filter((p): p is readonly [string, string] => p[0] !== null && p[1] !== null);
      const flags = b.flags.map((f) => worded.reduce((text, [theirs, chinese]) => text.replaceAll(theirs, chinese), f));
      return { ...b, note: zh(() => ballotReasonsNote(details)), flags };
    }),
  };
}

/**
 * Everything the HTML report of `report.day` shows: the tally of that day (null: none to show) and the
 * day report. Throws when the two are of different days.
 */
export function htmlDayInput(report: DayReport, tally: TallyResult | null, opts: HtmlDayOptions = {}): HtmlReportInput {
  if (tally && tally.day !== report.day) throw new Error(`the tally is of day ${tally.day}, the report of day ${report.day}`);
  const flagUrl = (pid: number) => report.flags.find((f) => f.pid === pid && f.url)?.url ?? null;
  const urlOf = (pid: number) => opts.postUrl?.(pid) ?? flagUrl(pid);
  const cards: HtmlCard[] = report.cards.map((c) => ({
    id: c.id,
    player: c.player,
    color: COLOR_NAME[c.color],
    status: STATUS_NAME[c.status],
    reason: c.reason,
    ...(c.directorNote ? { directorNote: c.directorNote } : {}),
    evidence: c.evidence.map((pid) => ({ label: `pid ${pid}`, url: urlOf(pid) })),
  }));
  return {
    title: opts.title ?? 'bansha',
    day: report.day,
    timezone: report.timezone,
    opens: report.opens,
    closes: report.closes,
    generatedAt: opts.now ?? Date.now(),
    tally: tally && chineseNotes(tally),
    activity: htmlActivity(report),
    flags: report.flags.map((f) => htmlFlag(f, report.timezone)),
    cards,
    notes: report.publicNotes,
    ...(report.incomplete?.length ? { incomplete: report.incomplete } : {}),
    ...(opts.source ? { source: opts.source } : {}),
  };
}
