/**
 * The day report for the terminal: the day's window and acceleration, notes, the players × days table
 * with today's ballots, every flag with its floor, time and link, the proposed cards with their ledger
 * ids (what `bansha cards confirm ID` takes) and the standings. Colour only when asked.
 */
import { incompleteText } from './incomplete.js';
import pc from 'picocolors';
import { hasCards, standingText, upgradesText } from '../cards/standing.js';
import type { DayReport } from '../report/day-report.js';
import { forumTime } from '../game/forum-time.js';
import { colorLabel, statusLabel } from './report-common.js';
import { flagKindLabel, LURKING_KINDS } from '../violations/flag.js';
import { flagDetail } from '../violations/details.js';
import { t as tr } from '../i18n/index.js';
import { displayWidth as width, padDisplay as pad } from '../text/width.js';
import { terminalSafe } from '../text/safe-text.js';

export interface ReportTerminalOptions {
  color?: boolean;
}

/** The width the activity table keeps within (a classic terminal). */
const TERMINAL_COLUMNS = 80;

/** The report as text ending in a newline. */
export function renderDayReportTerminal(r: DayReport, opts: ReportTerminalOptions = {}): string {
  const c = pc.createColors(opts.color ?? false);
  const t = (ms: number) => forumTime(ms, r.timezone);
  const out: string[] = incompleteText(r.incomplete).map((l) => c.red(l));
  out.push(c.bold(tr('report.heading', r.day, r.ruleset, t(r.opens), t(r.closes), r.timezone, r.accelerated)));
  for (const n of r.notes) out.push(c.yellow(tr('report.note', terminalSafe(n))));

  out.push('', c.bold(tr('report.activity')));
  const nameW = Math.max(6, ...r.table.rows.map((x) => width(terminalSafe(x.player)))) + 2;
  // A long game's days wrap into blocks that fit an 80-column terminal; totals and ballots close the last.
  const tail = `  ${pad(tr('report.total'), 5)}  ${tr('report.voted')}`;
  const perBlock = Math.max(3, Math.floor((TERMINAL_COLUMNS - 2 - nameW - 14) / 5));
  const blocks: number[][] = [];
  for (let i = 0; i < r.table.days.length; i += perBlock) blocks.push(r.table.days.slice(i, i + perBlock).map((_, k) => i + k));
  if (blocks.length === 0) blocks.push([]);
  blocks.forEach((cols, b) => {
    const last = b === blocks.length - 1;
    if (b > 0) out.push('');
    out.push(`  ${pad(tr('report.player'), nameW)}${cols.map((i) => `D${r.table.days[i]}`.padStart(5)).join('')}${last ? tail : ''}`);
    for (const row of r.table.rows) {
      const today = r.activity.find((a) => a.player === row.player)!;
      const cells = cols.map((i) => (row.counts[i] === null ? '—' : String(row.counts[i])).padStart(5)).join('');
      const voted = today.exempt ? '' : today.voted === 'unreadable'
        ? c.yellow(tr('report.votedUnreadable', (today.unreadable ?? []).map((p) => p.url).join(' ')))
        : today.voted === null ? tr('report.na') : today.voted ? tr('report.yes') : c.red(tr('report.no'));
      const line = `  ${pad(terminalSafe(row.player), nameW)}${cells}${last ? `  ${String(row.total).padStart(5)}  ${voted}` : ''}`;
      out.push(r.flags.some((f) => f.player === row.player && LURKING_KINDS.has(f.kind)) ? c.yellow(line) : line);
    }
  });

  out.push('', c.bold(tr('report.flags', r.flags.length)));
  if (!r.flags.length) out.push(tr('report.none'));
  for (const f of r.flags) {
    const where = f.pid !== null ? `${f.floor !== null ? `${f.floor}#` : `pid ${f.pid}`} ${f.at !== null ? t(f.at) : ''}` : '';
    out.push(`  ${c.bold(flagKindLabel(f.kind))}  ${terminalSafe(f.player)}  ${where}`.trimEnd());
    out.push(`      ${terminalSafe(flagDetail(f, r.timezone))}`);
    if (f.snippet) out.push(`      「${terminalSafe(f.snippet)}」`);
    if (f.url) out.push(c.dim(`      ${f.url}`));
  }

  out.push('', c.bold(tr('report.cards', r.cards.length)));
  if (!r.cards.length) out.push(tr('report.none'));
  for (const card of r.cards) {
    const colour = card.color === 'red' ? c.red : card.color === 'yellow' ? c.yellow : c.blue;
    out.push(`  ${card.id ?? '--'}  ${colour(colorLabel(card.color))}  ${terminalSafe(card.player)}  [${statusLabel(card.status)}]  ${terminalSafe(card.reason)}${card.directorNote ? `  ${tr('note.director')}${terminalSafe(card.directorNote)}` : ''}${card.evidence.length ? `  ${tr('report.evidence', card.evidence.map((p) => `pid ${p}`).join(', '))}` : ''}`);
  }
  if (r.cards.some((x) => x.id)) out.push(c.dim(tr('report.decideHint')));

  const carded = r.standings.filter(hasCards);
  if (carded.length) {
    out.push('', c.bold(tr('report.standings')));
    for (const s of carded) out.push(`  ${pad(terminalSafe(s.player), nameW)}${s.sentOff ? c.red(standingText(s)) : standingText(s)}${s.upgrades.length ? c.dim(`  (${upgradesText(s)})`) : ''}`);
  }
  return `${out.join('\n')}\n`;
}
