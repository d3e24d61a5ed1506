/**
 * The public notice (`bansha report --bbcode`), Discuz BBCode to paste into the thread: the day's post
 * counts, the cards the director has confirmed for the day with links to the evidence floors, and
 * every player's standing (upgrades applied; a red card reads 罚下). Proposals not yet confirmed are
 * never published. Player text goes through escapeBBCode (safe-text.ts).
 */
import { hasCards, standingText, upgradesText } from '../cards/standing.js';
import type { DayReport } from '../report/day-report.js';
import { forumTime } from '../game/forum-time.js';
import { COLOR_NAME } from './report-common.js';
import { incompleteBBCode } from './incomplete.js';
import { bbLink, escapeBBCode } from '../text/safe-text.js';
import { withLanguage } from '../i18n/index.js';

/** The notice, BBCode text ending in a newline. */
export function renderDayReportBBCode(r: DayReport, postUrl: (pid: number) => string | null = () => null): string {
  const out: string[] = incompleteBBCode(r.incomplete);
  out.push(`[b]第${r.day}日 发言统计与判罚公示[/b]`);
  out.push(`统计时段：${forumTime(r.opens, r.timezone)} – ${forumTime(r.closes, r.timezone)}${r.accelerated ? '（已加速）' : ''}`);
  out.push('', '[b]发言数[/b]');
  for (const a of r.activity) {
    out.push(`${escapeBBCode(a.player)}：${a.exempt ? '已出局' : `${a.posts} 帖${a.voted === false ? '，未投票' : ''}`}`);
  }
  const confirmed = r.cards.filter((c) => c.status === 'confirmed');
  out.push('', '[b]判罚[/b]');
  if (!confirmed.length) out.push('无');
  for (const c of confirmed) {
    const ev = c.evidence
      .map((pid) => {
        const url = postUrl(pid);
        return url ? bbLink(url, `pid ${pid}`) : `pid ${pid}`;
      })
      .join(' ');
    out.push(`${escapeBBCode(c.player)}：${COLOR_NAME[c.color]} — ${escapeBBCode(c.reason)}${ev ? `（${ev}）` : ''}`);
  }
  const carded = r.standings.filter(hasCards);
  if (carded.length) {
    out.push('', '[b]累计[/b]');
    for (const s of carded) out.push(withLanguage('zh', () => `${escapeBBCode(s.player)}：${s.sentOff ? '[b]红牌 — 罚下[/b]' : standingText(s)}${s.upgrades.length ? `（${upgradesText(s)}）` : ''}`));
  }
  return `${out.join('\n')}\n`;
}
