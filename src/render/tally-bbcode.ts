/**
 * The tally as the announcement a director pastes into the vote thread (Discuz BBCode): totals, the
 * result and the rule that decided it, who voted whom with links to the floors ([url=…]N#[/url]),
 * invalid ballots with their reasons, and who cast nothing — all in Chinese (the reasons and the rule
 * are worded by src/votes/reasons.ts, the headings here).
 *
 * Player-written text (names, targets as written, reasons) goes through escapeBBCode (safe-text.ts):
 * it can never open a tag, mention, smiley or auto-link, and carries no control character.
 */
import { fmt } from '../votes/count.js';
import { forumTime } from '../game/forum-time.js';
import type { BallotRecord, TallyResult } from '../votes/types.js';
import { announcementMark } from '../votes/own-posts.js';
import { goneBBCode, incompleteBBCode, staleBBCode } from './incomplete.js';
import { bbLink, escapeBBCode, revealBidi } from '../text/safe-text.js';

/** Re-exported for the callers that import it from here: the one definition is in safe-text.ts. */
export { escapeBBCode } from '../text/safe-text.js';

/** A link to a floor: [url=findpost]N#[/url]. */
function floorLink(b: Pick<BallotRecord, 'url' | 'floor' | 'pid'>): string {
  const label = b.floor !== null ? `${b.floor}#` : `pid ${b.pid}`;
  return bbLink(b.url, label);
}

const KIND_TITLE = { election: '警长竞选', elimination: '放逐投票', rule: '对战规则投票', none: '投票' } as const;

/** The announcement, BBCode text ending in a newline. */
export function renderTallyBBCode(t: TallyResult): string {
  const e = (s: string) => escapeBBCode(s);
  const time = (ms: number) => forumTime(ms, t.timezone);
  if (t.kind === 'none') return `[b]第${t.day}日[/b]：${e(t.reason ?? '')}\n`;
  const out: string[] = [...incompleteBBCode(t.incomplete), ...staleBBCode(t.stale, t.timezone), ...goneBBCode(t.gone, t.timezone)];
  // Before the close a running count (截至 HH:MM), with leaders, never a result (issue 31).
  out.push(t.running
    ? `[b]第${t.day}日${KIND_TITLE[t.kind]}实时统计[/b]（截至 ${time(t.countedAt)}，${time(t.closes)} 关门；不是结果）`
    : `[b]第${t.day}日${KIND_TITLE[t.kind]}结果[/b]（关门 ${time(t.closes)}）`);
  if (t.sheriff) out.push(`警长：${e(t.sheriff)}（警长票计 ${fmt(t.sheriffWeight)} 票）`);
  if (t.acceleration) {
    out.push(`进程加速：${e(t.acceleration.explanation)}${t.accelerated ? '，改票作废' : ''}`);
    const asked = t.acceleration.audit;
    const counted = asked.filter((r) => r.counted).map((r) => `${e(r.player)} ${floorLink(r)} ${time(r.at)}`);
    const not = asked.filter((r) => !r.counted).map((r) => `${e(r.player)} ${floorLink(r)}（${e(r.reason ?? '')}）`);
    if (counted.length) out.push(`申请加速：${counted.join('、')}`);
    if (not.length) out.push(`不计的申请：${not.join('、')}`);
  } else if (t.accelerated) out.push('进程加速：是（游戏文件声明），改票作废');
  out.push('', '[b]票数[/b]');
  for (const l of t.totals) {
    const voters = t.ballots
      .filter((b) => b.status === 'counted' && b.target === l.name)
      .map((b) => `${e(b.voter)}${b.weight !== 1 ? `(${fmt(b.weight)})` : ''}`);
    out.push(`${e(l.name)}：${fmt(l.votes)} 票（${voters.join('、')}）`);
  }
  if (t.abstentions.length) out.push(`弃权：${t.abstentions.map(e).join('、')}`);
  if (!t.totals.length && !t.abstentions.length) out.push('（无有效票）');
  const what = t.kind === 'election' ? '当选警长' : t.kind === 'rule' ? '为今日对战规则' : '出局';
  const tie = t.result.tie.length ? `（平票：${t.result.tie.map(e).join('、')}）` : '';
  if (t.running) out.push('', `[b]领先[/b]：${t.result.name ? e(t.result.name) : '暂无'}${tie}`);
  else {
    const outcome = t.result.name ? `${e(t.result.name)} ${what}` : t.kind === 'elimination' ? '无人出局' : '无结果';
    out.push('', `[b]结果[/b]：${outcome}${tie}`, e(t.result.rule));
  }

  out.push('', '[b]投票明细[/b]');
  for (const p of t.players) {
    if (!p.counted) continue;
    const c = p.counted;
    const was = p.others.find((b) => b.status === 'superseded');
    out.push(
      `${e(p.player)} → ${e(c.target ?? '')} ${floorLink(c)} ${time(c.at)}` +
        (c.proxyBy ? `（导演代投）` : '') +
        (was ? `（改票，原票 ${e(was.target ?? '')} ${floorLink(was)}）` : '') +
        (c.reason ? `（${e(c.reason)}）` : ''),
    );
  }
  const rejected = t.ballots.filter((b) => b.status === 'rejected');
  if (rejected.length) {
    out.push('', '[b]无效票[/b]');
    for (const b of rejected) {
      out.push(`${e(b.voter)} ${floorLink(b)} ${time(b.at)}${b.target ? ` → ${e(revealBidi(b.target))}` : ''}：${e(b.reason ?? '')}`);
    }
  }
  if (t.misplaced?.length) {
    out.push('', '[b]发在投票帖以外的投票（不计票）[/b]');
    for (const m of t.misplaced) out.push(`${e(m.player)} ${floorLink(m)}（${m.thread === 'discussion' ? '讨论帖' : '进程帖'}）${m.target ? ` → ${e(revealBidi(m.target))}` : ''}`);
  }
  const none = t.players.filter((p) => p.state === 'none').map((p) => p.player);
  if (none.length) out.push('', `[b]未投票[/b]：${none.map(e).join('、')}`);
  // The mark --post finds its own post by, and the count skips (src/votes/own-posts.ts).
  out.push('', announcementMark(t.day, t.kind));
  return `${out.join('\n')}\n`;
}
