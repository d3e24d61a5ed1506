/**
 * The closing summary's lines for a day's count and report — what `bansha close` writes to summary.txt
 * and `demo` prints for each day of the bundled game: the result with its totals (tie rule, sheriff,
 * acceleration, rejected ballots), lurkers, and the flags and cards by kind.
 */
import { t } from '../i18n/index.js';
import type { Game } from '../game/types.js';
import { colorLabel } from '../render/report-common.js';
import type { DayReport } from '../report/day-report.js';
import { flagKindLabel } from '../violations/flag.js';
import type { TallyResult } from '../votes/types.js';
import { forumTime } from '../game/forum-time.js';

/** "第 2 日：出局 月饼 —— 月饼 7.5，花卷 4；警长 包子（×1.5）；未加速（11 人中 5 人申请，须 6 人）；3 票无效". */
export function tallyLine(tl: TallyResult, game: Game): string {
  if (tl.kind === 'none') return t('close.line.noVote', tl.day, game.rules.name);
  const totals = tl.totals.filter((l) => l.votes > 0).map((l) => `${l.name} ${l.votes}`).join(t('close.totalsSep'));
  // Before the close: who leads as of when, never 出局/警长 (issue 31).
  const bits = [tl.running ? t('close.line.running', tl.day, forumTime(tl.countedAt, game.timezone), tl.result.name, totals) : t('close.line.tally', tl.day, tl.kind, tl.result.name, totals)];
  if (tl.result.tie.length) bits.push(t('close.line.tie', tl.result.tie.join('/'), tl.result.rule));
  if (tl.sheriff) bits.push(t('close.line.sheriff', tl.sheriff, tl.sheriffWeight));
  const a = tl.acceleration;
  if (a) bits.push(t('close.line.acceleration', tl.accelerated, a.requests.length, a.alive, a.needed));
  const rejected = tl.ballots.filter((b) => b.status === 'rejected').length;
  if (rejected) bits.push(t('close.line.rejected', rejected));
  return bits.join(t('close.line.sep'));
}

/** The report of a day in two lines: lurkers, then flags by kind and the cards proposed by colour. */
export function reportLines(r: DayReport, game: Game): string[] {
  const few = r.flags.filter((f) => f.kind === 'few-posts').map((f) => f.player);
  const noBallot = r.flags.filter((f) => f.kind === 'no-ballot').map((f) => f.player);
  const kinds = new Map<string, number>();
  for (const f of r.flags) {
    if (f.kind === 'few-posts' || f.kind === 'no-ballot') continue;
    const name = flagKindLabel(f.kind);
    kinds.set(name, (kinds.get(name) ?? 0) + 1);
  }
  const colours = new Map<string, number>();
  for (const c of r.cards) colours.set(colorLabel(c.color), (colours.get(colorLabel(c.color)) ?? 0) + 1);
  return [
    t('close.line.lurkers', r.day, game.rules.lurking.enabled ? t('close.line.fewPosts', game.rules.lurking.minPostsPerDay, few.join('、')) : null, noBallot.join('、'), r.waived),
    t('close.line.flags', r.day, [...kinds].map(([k, n]) => `${k} ${n}`).join(', '), r.cards.length, [...colours].map(([k, n]) => `${k} ${n}`).join(', ')),
  ];
}
