/**
 * The vote timeline as an inline SVG chart: one step line per candidate (votes held over the day),
 * a filled dot where a candidate gains a vote, a hollow one where a change takes one away, each with
 * a tooltip naming the voter and the time and a link to the ballot's row in the report (a tap on a
 * phone, where there is no hover). Two layouts: `wide` (legend to the right) and `narrow` (a phone:
 * drawn at its real size so labels stay 11 px, legend below). Presentation attributes only (no style
 * attributes), so the page's strict CSP needs no 'unsafe-inline'. Pure: a VoteTimeline in, SVG text out.
 */
import { forumFormat, forumHour, forumHourStart, type ForumPattern } from '../game/forum-time.js';
import { escapeHtml } from './html-escape.js';
import type { VoteTimeline } from './vote-timeline.js';

/** Distinct colours for candidates (Okabe–Ito, then a few more), cycled when there are more. */
export const CANDIDATE_COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#7F3C8D', '#3B3B3B', '#A0522D', '#1B9E77'];

export interface TimelineChartOptions {
  /** Window drawn on the x axis (epoch ms): usually the day's opening and closing times. */
  from: number;
  to: number;
  timezone: string;
  /** `wide` (default, a desktop page) or `narrow` (a 390 px phone). */
  layout?: 'wide' | 'narrow';
}

/** The chart's size and margins per layout (the narrow one fits a 390 px phone at 1:1). */
const LAYOUT = {
  wide: { W: 900, plotH: 284, m: { left: 44, right: 150, top: 16, bottom: 40 }, maxTicks: 8, legend: 'right' },
  narrow: { W: 340, plotH: 200, m: { left: 30, right: 10, top: 16, bottom: 34 }, maxTicks: 4, legend: 'below' },
} as const;

/** The chart's SVG element (a complete <svg>…</svg>), or a short note when nobody voted. */
export function renderTimelineSvg(tl: VoteTimeline, opts: TimelineChartOptions): string {
  const layout = opts.layout ?? 'wide';
  const { W, plotH: ph, m, maxTicks, legend } = LAYOUT[layout];
  const pw = W - m.left - m.right;
  const legendRow = 18;
  const H = m.top + ph + m.bottom + (legend === 'below' ? tl.candidates.length * legendRow + 4 : 0);
  const first = tl.events[0]?.at ?? opts.from;
  const lastAt = tl.events[tl.events.length - 1]?.at ?? opts.to;
  const x0 = Math.min(opts.from, first);
  const x1 = Math.max(opts.to, lastAt, x0 + 60_000);
  const maxVotes = Math.max(1, ...tl.totals.flatMap((t) => Object.values(t)));
  const yMax = Math.ceil(maxVotes);
  const x = (t: number) => m.left + ((t - x0) / (x1 - x0)) * pw;
  const y = (v: number) => m.top + ph - (v / yMax) * ph;
  const fmt = (t: number, f: ForumPattern = 'MM-dd HH:mm') => forumFormat(t, opts.timezone, f);
  const f1 = (n: number) => String(Math.round(n * 10) / 10);

  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="timeline ${layout}" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-labelledby="tl-title-${layout}">`,
    `<title id="tl-title-${layout}">票数随时间变化（${escapeHtml(fmt(x0))} – ${escapeHtml(fmt(x1))}）</title>`,
    `<rect x="${m.left}" y="${m.top}" width="${pw}" height="${ph}" fill="#fafafa" stroke="#ccc"/>`,
  );
  // y grid and labels
  const yStep = Math.max(1, Math.ceil(yMax / 8));
  for (let v = 0; v <= yMax; v += yStep) {
    parts.push(
      `<line x1="${m.left}" x2="${m.left + pw}" y1="${f1(y(v))}" y2="${f1(y(v))}" stroke="#e3e3e3"/>`,
      `<text x="${m.left - 6}" y="${f1(y(v) + 4)}" text-anchor="end" font-size="11" fill="#555">${v}</text>`,
    );
  }
  // x ticks on whole hours of the forum's zone, at most maxTicks of them
  const hour = 3_600_000;
  const step = [1, 2, 3, 4, 6, 12, 24, 48].map((h) => h * hour).find((s) => (x1 - x0) / s <= maxTicks) ?? 96 * hour;
  let tick = forumHourStart(x0, opts.timezone);
  if (tick < x0) tick += hour;
  for (; tick <= x1; tick += hour) {
    const localHour = forumHour(tick, opts.timezone);
    if ((localHour * hour) % step !== 0 && step < 24 * hour) continue;
    if (step >= 24 * hour && localHour !== 0) continue;
    parts.push(
      `<line x1="${f1(x(tick))}" x2="${f1(x(tick))}" y1="${m.top + ph}" y2="${m.top + ph + 4}" stroke="#888"/>`,
      // a label at the right edge ends there instead of being cut off
      `<text x="${f1(x(tick))}" y="${m.top + ph + 18}" text-anchor="${x(tick) > W - 18 ? 'end' : 'middle'}" font-size="11" fill="#555">${escapeHtml(fmt(tick, localHour === 0 ? 'MM-dd' : 'HH:mm'))}</text>`,
    );
  }
  // closing line
  parts.push(
    `<line class="closing" x1="${f1(x(opts.to))}" x2="${f1(x(opts.to))}" y1="${m.top}" y2="${m.top + ph}" stroke="#b00" stroke-dasharray="4 3"/>`,
    `<text x="${f1(x(opts.to) - 4)}" y="${m.top + 12}" text-anchor="end" font-size="11" fill="#b00">关门 ${escapeHtml(fmt(opts.to, 'HH:mm'))}</text>`,
  );

  tl.candidates.forEach((c, ci) => {
    const colour = CANDIDATE_COLOURS[ci % CANDIDATE_COLOURS.length];
    let v = 0;
    let d = `M${f1(x(x0))},${f1(y(0))}`;
    const marks: string[] = [];
    tl.events.forEach((e, i) => {
      const nv = tl.totals[i][c] ?? 0;
      if (nv === v) return;
      d += ` H${f1(x(e.at))} V${f1(y(nv))}`;
      const gained = nv > v;
      const what = e.kind === 'change' ? `改票 ${e.from ?? '弃权'} → ${e.to ?? '弃权'}` : `投票 → ${e.to ?? '弃权'}`;
      const r = (gained ? 3.5 : 4.5) + (layout === 'narrow' ? 1.5 : 0);
      marks.push(
        `<a href="#ballot-${e.pid}"><circle class="mark ${gained ? 'gain' : 'loss'}" data-candidate="${escapeHtml(c)}" cx="${f1(x(e.at))}" cy="${f1(y(nv))}" r="${r}" ` +
          `fill="${gained ? colour : '#fff'}" stroke="${colour}" stroke-width="1.5"><title>${escapeHtml(`${fmt(e.at, 'MM-dd HH:mm:ss')} ${e.voter}: ${what}（${c} ${f1(nv)} 票）`)}</title></circle></a>`,
      );
      v = nv;
    });
    d += ` H${f1(x(x1))}`;
    parts.push(`<path class="series" data-candidate="${escapeHtml(c)}" d="${d}" fill="none" stroke="${colour}" stroke-width="2"/>`, ...marks);
    const [lx, ly] = legend === 'right' ? [m.left + pw + 12, m.top + 14 + ci * legendRow] : [m.left, m.top + ph + m.bottom + ci * legendRow + 10];
    parts.push(
      `<rect x="${lx}" y="${ly - 9}" width="12" height="10" fill="${colour}"/>`,
      `<text class="legend" x="${lx + 16}" y="${ly}" font-size="12" fill="#222">${escapeHtml(c)} ${f1(v)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('\n');
}
