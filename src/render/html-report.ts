/**
 * One self-contained HTML file per day (issue 6, `bansha report --html`): the tally, the vote timeline
 * as an inline SVG chart, the activity table and the flags with links to the posts. Readable offline:
 * no script, no external resource (one hashed <style> block, inline SVG), and a strict
 * Content-Security-Policy meta that forbids loading anything. Every piece of player text is escaped.
 * Read by directors on a desktop and by players on a phone: a CJK font stack (with a Linux note in the
 * README: fonts-noto-cjk), tables that stack into labelled cards under 600 px, the chart in a layout
 * drawn for a 390 px screen, chart dots that link (a tap) to their ballot's row, link URLs printed
 * after the links on paper, and a footer that says how old and how complete the data is.
 * Pure: plain result values in, HTML text out.
 */
import type { Completeness } from '../store/types.js';
import { goneLines, incompleteHead, incompleteLines, staleLines } from './incomplete.js';
import { withLanguage } from '../i18n/index.js';
import { createHash } from 'node:crypto';
import { forumFormat, type ForumPattern } from '../game/forum-time.js';
import type { BallotRecord, TallyResult } from '../votes/types.js';
import { escapeHtml, link } from './html-escape.js';
import { madeAtHtml } from './html-made.js';
import { renderTimelineSvg } from './timeline-svg.js';
import { writtenOnce } from './written-once.js';
import { voteTimeline } from './vote-timeline.js';

/** The activity table as the report draws it: one row per player, columns named by the report. */
export interface HtmlActivityTable {
  columns: string[];
  rows: Array<{ player: string; cells: Array<string | number>; /** Marks the row (e.g. a lurker). */ warn?: boolean }>;
}

/** One flag for the director: what, who, when, and a link to the evidence. */
export interface HtmlFlag {
  player: string;
  kind: string;
  detail: string;
  at: number | null;
  url: string | null;
}

/** A card the tool proposes (or the ledger holds) for the day, with links to its evidence. */
export interface HtmlCard {
  /** Ledger id (what `bansha cards confirm ID` takes), when recorded. */
  id: string | null;
  player: string;
  /** The colour in the director's words (蓝牌, 黄牌, 红牌（罚下）). */
  color: string;
  /** The ledger status in the director's words (待定, 已确认, 已驳回). */
  status: string;
  reason: string;
  /** For the director only (shown marked 导演备注). */
  directorNote?: string;
  evidence: Array<{ label: string; url: string | null }>;
}

/** Everything one day's HTML report shows. */
export interface HtmlReportInput {
  /** Heading, e.g. the game file's name or the thread title's tag ("M901 饺子馆"). */
  title: string;
  day: number;
  timezone: string;
  opens: number;
  closes: number;
  /** When the report was made (epoch ms). */
  generatedAt: number;
  tally: TallyResult | null;
  activity: HtmlActivityTable | null;
  flags: HtmlFlag[];
  /** The cards proposed for the day (absent: no cards section). */
  cards?: HtmlCard[];
  /** What the director should know about the report itself (missing threads, waivers…). */
  notes?: string[];
  /** Threads read while incompletely crawled: the page starts with them. */
  incomplete?: Completeness[];
  /** Where the numbers come from, for the footer (absent: not shown). */
  source?: HtmlSource;
}

/** The data behind the report: when it was crawled, by which bansha, and whether the crawl was complete. */
export interface HtmlSource {
  /** The latest page fetch of the threads the report reads (epoch ms), null when none is stored. */
  crawledAt: number | null;
  /** bansha's version. */
  version: string;
  /** What is missing from the store, one line per incompletely crawled thread (empty: complete). */
  gaps: string[];
}

/**
 * The fonts the page asks for, Chinese first: PingFang (macOS, iOS), Microsoft YaHei (Windows), Noto
 * Sans CJK / Source Han Sans (Linux: apt-get install fonts-noto-cjk; Android), WenQuanYi (older Linux).
 */
export const CJK_FONT_STACK = '"PingFang SC","Hiragino Sans GB","Microsoft YaHei","Noto Sans CJK SC","Noto Sans SC","Source Han Sans SC","WenQuanYi Micro Hei",system-ui,-apple-system,"Segoe UI",sans-serif';

const STYLE = `
body{font:14px/1.5 ${CJK_FONT_STACK};margin:24px auto;max-width:1000px;padding:0 16px;color:#222;overflow-wrap:anywhere}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
.meta{color:#666;margin:0 0 12px}.outcome{font-size:16px;padding:8px 12px;background:#f3f7ff;border-left:4px solid #0072B2}
table{border-collapse:collapse;width:100%;margin:8px 0}th,td{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f4f4f4;white-space:nowrap}td.nw{white-space:nowrap}td.num{text-align:right;font-variant-numeric:tabular-nums}tr.warn td{background:#fff4e5}section.warn{background:#fff4e5;border:2px solid #c00;padding:.5em 1em}
.rejected{color:#a40000}.superseded{color:#777;text-decoration:line-through}.counted{color:#006400}
.note{color:#8a5a00}.director{color:#8a5a00;font-size:.9em}.empty{color:#777;font-style:italic}svg.timeline{max-width:100%;height:auto}
a{color:#0b5cad}footer{margin-top:32px;color:#666;font-size:12px}footer p{margin:2px 0}
.scroll{overflow-x:auto}table.activity th,table.activity td{white-space:nowrap}
table.activity td:first-child,table.activity th:first-child{position:sticky;left:0;background:#fff}
svg.timeline.narrow{display:none}tr:target td{background:#fff3b0}
@media (max-width:600px){body{margin:12px auto;padding:0 10px}h1{font-size:19px}
svg.timeline.wide{display:none}svg.timeline.narrow{display:block;margin:0 auto}
table,thead,tbody,tr,th,td{display:block;width:auto}thead{display:none}table{border:0}
tr{border:1px solid #ddd;border-radius:4px;margin:0 0 8px;padding:4px 8px}
td{border:0;padding:2px 0;white-space:normal!important;text-align:left!important}
td[data-label]::before{content:attr(data-label) "：";color:#666;font-size:12px}td:empty{display:none}
table.activity td:first-child{position:static;font-weight:bold}}
@media print{body{max-width:none;margin:0}a[href^="http"]::after{content:" <" attr(href) ">";color:#555;font-size:10px;word-break:break-all}
svg.timeline.narrow{display:none}svg.timeline.wide{display:block}}`;

/** The CSP of the report: nothing may load or run; only the one style block (by hash) applies. */
export function reportCsp(style = STYLE): string {
  const hash = createHash('sha256').update(style, 'utf8').digest('base64');
  return `default-src 'none'; style-src 'sha256-${hash}'; img-src data:; base-uri 'none'; form-action 'none'`;
}

/** The report page as HTML text. */
export function renderHtmlReport(input: HtmlReportInput): string {
  return [...htmlReportLines(input)].join('\n');
}

/**
 * The report page's lines, joined by "\n" (renderHtmlReport; the last one empty), each made when it is
 * asked for: a long day's page (1.6 MB at 50k posts, thousands of flag rows) written as it is drawn
 * (writeDayHtml, src/day/day-html.ts) is never held whole, and its rows die young instead of being promoted and copied by
 * every young-generation collection until the page is joined.
 */
export function* htmlReportLines(input: HtmlReportInput): Generator<string> {
  const patterns = new Map<ForumPattern, (t: number) => string>();
  const fmt = (t: number, f: ForumPattern = 'yyyy-MM-dd HH:mm'): string => {
    let write = patterns.get(f);
    if (!write) patterns.set(f, (write = writtenOnce((ms) => forumFormat(ms, input.timezone, f))));
    return write(t);
  };
  yield* [
    '<!DOCTYPE html>',
    '<html lang="zh-CN">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${reportCsp()}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(`${input.title} 第${input.day}日`)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<h1>${escapeHtml(input.title)} · 第${input.day}日</h1>`,
    `<p class="meta">${escapeHtml(fmt(input.opens))} – ${escapeHtml(fmt(input.closes))}（${escapeHtml(input.timezone)}）</p>`,
  ];
  const missing = withLanguage('zh', () => incompleteLines(input.incomplete ?? []));
  if (missing.length) {
    yield `<section id="incomplete" class="warn"><p><b>${escapeHtml(withLanguage('zh', incompleteHead))}</b></p><ul>${missing.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul></section>`;
  }
  yield* tallySection(input, fmt);
  yield* activitySection(input.activity, input.notes ?? []);
  yield* flagsSection(input.flags, fmt);
  if (input.cards) yield* cardsSection(input.cards);
  yield* [footer(input, fmt), '</body>', '</html>', ''];
}

/** bansha's version, when the data was crawled and made into this page, and whether the crawl was complete. */
function footer(input: HtmlReportInput, fmt: (t: number, f?: ForumPattern) => string): string {
  const src = input.source;
  const lines = [`bansha${src ? ` ${escapeHtml(src.version)}` : ''} · ${madeAtHtml(input.generatedAt, input.timezone)}（${escapeHtml(input.timezone)}）`];
  if (src) {
    lines.push(src.crawledAt === null ? '存档中没有抓取记录' : `数据抓取于 ${escapeHtml(fmt(src.crawledAt, 'yyyy-MM-dd HH:mm:ss'))}`);
    lines.push(src.gaps.length ? `<span class="note">存档不完整：${escapeHtml(src.gaps.join('；'))}</span>` : '存档完整：所读帖子的每一页、每一楼都已抓到');
  }
  return `<footer>${lines.map((l) => `<p>${l}</p>`).join('')}</footer>`;
}

/** `<td>` with the column's name as its label (shown before the cell when a table stacks on a phone). */
function td(label: string, html: string, cls = ''): string {
  return `<td${cls ? ` class="${cls}"` : ''} data-label="${escapeHtml(label)}">${html}</td>`;
}

function* tallySection(input: HtmlReportInput, fmt: (t: number, f?: ForumPattern) => string): Generator<string> {
  const t = input.tally;
  yield* ['<section id="tally">', '<h2>票型</h2>'];
  if (!t) {
    yield* ['<p class="empty">没有计票结果。</p>', '</section>'];
    return;
  }
  if (t.kind === 'none') {
    yield* [`<p class="empty">${escapeHtml(t.reason ?? '本日没有公开投票。')}</p>`, '</section>'];
    return;
  }
  for (const line of withLanguage('zh', () => staleLines(t.stale ?? [], t.timezone))) yield `<p class="director">过时：${escapeHtml(line)}</p>`;
  for (const line of withLanguage('zh', () => goneLines(t.gone, t.timezone))) yield `<p class="director">${escapeHtml(line)}</p>`;
  const what = t.kind === 'election' ? '当选警长' : t.kind === 'rule' ? '当日对战规则' : '出局';
  // Before the close a count has leaders, not a result (issue 31): no 出局/当选 wording.
  const outcome = t.running
    ? `截至 ${fmt(t.countedAt)} 的实时统计（${fmt(t.closes)} 关门），领先：${t.result.name ?? '暂无'}`
    : t.result.name ? `${what}：${t.result.name}` : `无人${t.kind === 'elimination' ? '出局' : '当选'}`;
  yield `<p class="outcome">${escapeHtml(outcome)}${t.result.tie.length ? `（平票：${escapeHtml(t.result.tie.join('、'))}）` : ''}${t.running ? '' : ` — ${escapeHtml(t.result.rule)}`}</p>`;
  if (t.result.note) yield `<p class="director">导演备注：${escapeHtml(t.result.note)}</p>`;
  yield `<p class="meta">${t.running ? `进行中的计票，截至 ${escapeHtml(fmt(t.countedAt))}` : `关门 ${escapeHtml(fmt(t.closes))}`}` +
    `${t.sheriff ? ` · 警长 ${escapeHtml(t.sheriff)}（${escapeHtml(t.sheriffSource)}，${t.sheriffWeight} 票）` : ''}` +
    `${t.accelerated ? ' · 已加速' : ''}</p>`;
  yield '<table class="totals"><thead><tr><th>候选</th><th>票数</th><th>投票者</th></tr></thead><tbody>';
  for (const line of t.totals) {
    yield `<tr>${td('候选', escapeHtml(line.name))}${td('票数', String(line.votes), 'num')}${td('投票者', escapeHtml(line.voters.join('、')))}</tr>`;
  }
  if (t.abstentions.length) yield `<tr>${td('候选', '弃权')}${td('票数', '—', 'num')}${td('投票者', escapeHtml(t.abstentions.join('、')))}</tr>`;
  yield '</tbody></table>';
  const none = t.players.filter((p) => p.state === 'none').map((p) => p.player);
  if (none.length) yield `<p>未投票：${escapeHtml(none.join('、'))}</p>`;

  yield '<h2>票型变化</h2>';
  const tl = voteTimeline(t);
  const chart = { from: input.opens, to: input.closes, timezone: input.timezone };
  yield tl.events.length ? `${renderTimelineSvg(tl, chart)}\n${renderTimelineSvg(tl, { ...chart, layout: 'narrow' })}` : '<p class="empty">没有计入的票。</p>';

  yield* ['<h2>每一票</h2>', '<table class="ballots"><thead><tr><th>时间</th><th>楼层</th><th>投票者</th><th>对象</th><th>状态</th><th>说明</th></tr></thead><tbody>'];
  for (const b of t.ballots) yield ballotRow(b, fmt);
  yield '</tbody></table>';
  if (t.acceleration) {
    yield* ['<h2>进程加速</h2>', `<p>${escapeHtml(t.acceleration.explanation)}</p>`];
    if (t.acceleration.audit.length) {
      yield '<table class="acceleration"><thead><tr><th>时间</th><th>楼层</th><th>玩家</th><th>计入</th><th>说明</th></tr></thead><tbody>';
      for (const r of t.acceleration.audit) {
        const status = r.counted ? 'counted' : 'rejected';
        yield `<tr class="${status}">${td('时间', escapeHtml(fmt(r.at, 'MM-dd HH:mm:ss')), 'nw')}${td('楼层', link(r.url, r.floor === null ? '#' : `${r.floor}#`), 'nw')}` +
          `${td('玩家', escapeHtml(r.player), 'nw')}${td('计入', r.counted ? '计入' : '不计', `nw ${status}`)}${r.reason ? td('说明', escapeHtml(r.reason)) : '<td></td>'}</tr>`;
      }
      yield '</tbody></table>';
    }
  }
  if (t.misplaced?.length) {
    yield* ['<h2>投票发错帖（不计票）</h2>', '<table class="misplaced"><thead><tr><th>时间</th><th>帖子</th><th>玩家</th><th>对象</th></tr></thead><tbody>'];
    for (const m of t.misplaced) {
      yield `<tr>${td('时间', escapeHtml(fmt(m.at, 'MM-dd HH:mm:ss')), 'nw')}${td('帖子', link(m.url, `${m.thread === 'discussion' ? '讨论帖' : '进程帖'} ${m.floor ?? ''}#`), 'nw')}` +
        `${td('玩家', escapeHtml(m.player), 'nw')}${td('对象', escapeHtml(m.target ?? '—'))}</tr>`;
    }
    yield '</tbody></table>';
  }
  if (t.notes.length) yield* ['<ul class="notes">', ...t.notes.map((n) => `<li class="note">${escapeHtml(n)}</li>`), '</ul>'];
  yield '</section>';
}

const STATUS: Record<BallotRecord['status'], string> = { counted: '计入', rejected: '无效', superseded: '已改' };

function ballotRow(b: BallotRecord, fmt: (t: number, f?: ForumPattern) => string): string {
  // The public reason first, then what only the director reads, marked (each note once).
  const notes = [...new Set([b.proxyBy ? `代投：${b.proxyBy}` : null, b.edit ? `编辑：${b.edit.before} → ${b.edit.after}` : null, ...b.flags].filter((n): n is string => !!n))];
  const mine = [b.note, ...notes].filter((n): n is string => !!n);
  return (
    `<tr id="ballot-${b.pid}" class="${b.status}">${td('时间', escapeHtml(fmt(b.at, 'MM-dd HH:mm:ss')), 'nw')}${td('楼层', link(b.url, b.floor === null ? '#' : `${b.floor}#`), 'nw')}` +
    `${td('投票者', escapeHtml(b.voter), 'nw')}${td('对象', escapeHtml(b.target ?? '—'), 'nw')}${td('状态', STATUS[b.status], `nw ${b.status}`)}` +
    `${b.reason || mine.length ? td('说明', `${escapeHtml(b.reason ?? '')}${mine.length ? `<div class="director">导演备注：${escapeHtml(mine.join('；'))}</div>` : ''}`) : '<td></td>'}</tr>`
  );
}

function* activitySection(a: HtmlActivityTable | null, notes: string[]): Generator<string> {
  yield* ['<section id="activity">', '<h2>活跃度</h2>'];
  if (notes.length) yield* ['<ul class="notes">', ...notes.map((n) => `<li class="note">${escapeHtml(n)}</li>`), '</ul>'];
  if (!a || a.rows.length === 0) {
    yield* ['<p class="empty">没有活跃度数据。</p>', '</section>'];
    return;
  }
  yield '<p class="meta">每日发言数（计数帖内，开门至关门）</p>';
  yield `<div class="scroll"><table class="activity"><thead><tr><th>玩家</th>${a.columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr></thead><tbody>`;
  for (const r of a.rows) {
    const cells = r.cells.map((c, i) => (typeof c === 'number' ? td(a.columns[i], String(c), 'num') : td(a.columns[i], escapeHtml(c)))).join('');
    yield `<tr${r.warn ? ' class="warn"' : ''}>${td('玩家', escapeHtml(r.player))}${cells}</tr>`;
  }
  yield* ['</tbody></table></div>', '</section>'];
}

function* flagsSection(flags: HtmlFlag[], fmt: (t: number, f?: ForumPattern) => string): Generator<string> {
  yield* ['<section id="flags">', '<h2>需要导演确认</h2>'];
  if (flags.length === 0) {
    yield* ['<p class="empty">没有标记。</p>', '</section>'];
    return;
  }
  yield '<table class="flags"><thead><tr><th>时间</th><th>玩家</th><th>类别</th><th>内容</th><th>帖子</th></tr></thead><tbody>';
  for (const f of flags) {
    yield `<tr>${td('时间', f.at === null ? '—' : escapeHtml(fmt(f.at, 'MM-dd HH:mm')), 'nw')}${td('玩家', escapeHtml(f.player), 'nw')}${td('类别', escapeHtml(f.kind), 'nw')}` +
      `${td('内容', escapeHtml(f.detail))}${f.url ? td('帖子', link(f.url, '查看'), 'nw') : '<td></td>'}</tr>`;
  }
  yield* ['</tbody></table>', '</section>'];
}

function* cardsSection(cards: HtmlCard[]): Generator<string> {
  yield* ['<section id="cards">', '<h2>提议的判罚</h2>'];
  if (cards.length === 0) {
    yield* ['<p class="empty">没有提议。</p>', '</section>'];
    return;
  }
  yield '<table class="cards"><thead><tr><th>编号</th><th>玩家</th><th>牌</th><th>状态</th><th>理由</th><th>证据</th></tr></thead><tbody>';
  for (const c of cards) {
    yield `<tr>${td('编号', escapeHtml(c.id ?? '—'), 'nw')}${td('玩家', escapeHtml(c.player), 'nw')}${td('牌', escapeHtml(c.color), 'nw')}` +
      `${td('状态', escapeHtml(c.status), 'nw')}${td('理由', `${escapeHtml(c.reason)}${c.directorNote ? `<div class="director">导演备注：${escapeHtml(c.directorNote)}</div>` : ''}`)}${c.evidence.length ? td('证据', c.evidence.map((e) => link(e.url, e.label)).join(' ')) : '<td></td>'}</tr>`;
  }
  yield* ['</tbody></table>', '</section>'];
}
