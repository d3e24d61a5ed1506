/**
 * The day report as Markdown (for a director's notes or an issue tracker): tables for activity,
 * flags and cards with links to the posts. Player text is escaped so it can never become markup:
 * Markdown punctuation gets a backslash, "<" and "&" become entities, line breaks and "|" cannot break a
 * table row — and, since the Markdown is printed to the director's terminal, escape sequences, control
 * and bidi characters are removed first (terminalSafe, safe-text.ts).
 */
import { incompleteText } from './incomplete.js';
import { withLanguage } from '../i18n/index.js';
import { hasCards, standingText, upgradesText } from '../cards/standing.js';
import type { DayReport } from '../report/day-report.js';
import { forumTime } from '../game/forum-time.js';
import { COLOR_NAME, STATUS_NAME } from './report-common.js';
import { FLAG_KIND_NAMES } from '../violations/flag.js';
import { publicFlagDetail } from '../violations/details.js';
import { terminalSafe } from '../text/safe-text.js';

/** Text that renders as itself in Markdown, also inside a table cell, with nothing a terminal acts on. */
export function escapeMarkdown(s: string): string {
  return terminalSafe(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_{}[\]()#+\-.!|~])/g, '\\$1')
    .replace(/\r?\n/g, ' ');
}

function linkTo(url: string | null, label: string): string {
  if (!url || !/^https?:\/\//i.test(url)) return label;
  return `[${label}](<${url.replace(/[<>\s]/g, encodeURIComponent)}>)`;
}

/** The report as Markdown ending in a newline. */
export function renderDayReportMarkdown(r: DayReport): string {
  const t = (ms: number) => forumTime(ms, r.timezone);
  const out: string[] = withLanguage('zh', () => incompleteText(r.incomplete)).map((l) => `> ${l.replace(/^!! ?/, '')}`);
  out.push(`# 第${r.day}日报告（${escapeMarkdown(r.ruleset)}）`, '', `${t(r.opens)} – ${t(r.closes)}（${r.timezone}）${r.accelerated ? '，已加速' : ''}`);
  for (const n of r.publicNotes) out.push('', `> ${escapeMarkdown(n)}`);

  out.push('', '## 发言统计', '', `| 玩家 | ${r.table.days.map((d) => `第${d}日`).join(' | ')} | 合计 | 本日投票 |`, `|---|${r.table.days.map(() => '---:').join('|')}|---:|---|`);
  for (const row of r.table.rows) {
    const a = r.activity.find((x) => x.player === row.player)!;
    const voted = a.exempt ? '出局' : a.voted === 'unreadable'
      ? `不可读，待确认：${(a.unreadable ?? []).map((p) => `[pid ${p.pid}](${p.url})`).join('、')}`
      : a.voted === null ? '—' : a.voted ? '是' : '**否**';
    out.push(`| ${escapeMarkdown(row.player)} | ${row.counts.map((n) => (n === null ? '—' : String(n))).join(' | ')} | ${row.total} | ${voted} |`);
  }

  out.push('', `## 违规与提醒（${r.flags.length}）`, '');
  if (!r.flags.length) out.push('（无）');
  else {
    out.push('| 类别 | 玩家 | 楼层 | 时间 | 内容 | 说明 |', '|---|---|---|---|---|---|');
    for (const f of r.flags) {
      const floor = f.pid !== null ? linkTo(f.url, f.floor !== null ? `${f.floor}#` : `pid ${f.pid}`) : '';
      out.push(`| ${FLAG_KIND_NAMES[f.kind].short} | ${escapeMarkdown(f.player)} | ${floor} | ${f.at !== null ? t(f.at) : ''} | ${escapeMarkdown(f.snippet)} | ${escapeMarkdown(publicFlagDetail(f, r.timezone))} |`);
    }
  }

  out.push('', `## 提议的判罚（${r.cards.length}）`, '');
  if (!r.cards.length) out.push('（无）');
  else {
    out.push('| 编号 | 玩家 | 牌 | 状态 | 理由 | 证据 |', '|---|---|---|---|---|---|');
    for (const c of r.cards) {
      out.push(`| ${c.id ?? ''} | ${escapeMarkdown(c.player)} | ${COLOR_NAME[c.color]} | ${STATUS_NAME[c.status]} | ${escapeMarkdown(c.reason)}${c.directorNote ? `（导演备注：${escapeMarkdown(c.directorNote)}）` : ''} | ${c.evidence.map((p) => `pid ${p}`).join(', ')} |`);
    }
  }
  const carded = r.standings.filter(hasCards);
  if (carded.length) {
    out.push('', '## 累计', '');
    for (const s of carded) out.push(withLanguage('zh', () => `- ${escapeMarkdown(s.player)}：${standingText(s)}${s.upgrades.length ? `（${upgradesText(s)}）` : ''}`));
  }
  return `${out.join('\n')}\n`;
}
