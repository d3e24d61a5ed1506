/**
 * The auction (拍卖贴) result for the terminal: per item the winner and every bid with its status and
 * reason, then pledges, what could not be used, and the vote-out's G split. Plain text; colour only
 * through picocolors (which honours NO_COLOR and pipes).
 */
import { createColors } from 'picocolors';
import { tieText, type AuctionResult, type VoteOutShare } from '../auction/index.js';

/** The lines `bansha auction` prints. */
export function renderAuctionText(r: AuctionResult, share: VoteOutShare | null, color = false): string {
  const pc = createColors(color);
  const out: string[] = [`第${r.day}日拍卖（帖子 ${r.tid}）`];
  for (const it of r.items) {
    const head = `${it.item}号物品 ${it.name}（底价${it.base}G）：`;
    const tied = it.bids.filter((b) => b.status === 'outbid' && b.price === it.price && b.bidder !== it.winner).map((b) => b.bidder);
    const tie = it.winner && tied.length ? pc.dim(`（${tieText(it.winner, it.price ?? 0, [...new Set(tied)])}）`) : '';
    out.push(head + (it.winner ? pc.bold(`${it.winner} ${it.price}G`) + tie : pc.dim('无人有效出价')));
    for (const b of it.bids) {
      const mark = b.status === 'winning' ? pc.green('✓') : b.status === 'outbid' ? ' ' : pc.red('✗');
      const why = b.reason ? (b.status === 'rejected' ? pc.red : pc.cyan)(` — ${b.reason}`) : '';
      const note = b.note ? pc.yellow(`（${b.note}）`) : '';
      out.push(`  ${mark} ${b.bidder} ${b.price}G  ${b.at.slice(5, 16).replace('T', ' ')}  pid ${b.pid}${why}${note}`);
      if (b.directorNote) out.push(pc.dim(`      [导演备注] ${b.directorNote}`));
    }
  }
  if (r.pledges.length) {
    out.push(`抵押（每颗钻石 ${r.diamondValue}G）：`);
    for (const p of r.pledges) out.push(`  ${p.player} ${p.diamonds}颗 = ${p.value}G  pid ${p.pid}`);
  }
  if (r.ignored.length) {
    out.push(pc.yellow('未能读取或不计入：'));
    for (const x of r.ignored) out.push(`  ${x.author} pid ${x.pid} “${x.text}” — ${x.reason}`);
  }
  if (share) out.push(...renderShareText(share));
  return out.join('\n') + '\n';
}

/** The vote-out's G shared among the living. */
export function renderShareText(s: VoteOutShare): string[] {
  if (s.amount === null) {
    return [`${s.player} 被投票出局：其G平分给 ${s.among.length} 名存活角色（${s.among.join('、')}）；在游戏文件的 holdings 中填写持有G即可显示分配。`];
  }
  const lines = [`${s.player} 被投票出局：${s.amount}G 平分给 ${s.among.length} 人，每人 ${s.eachWhole}G${s.remainder ? `，余 ${s.remainder}G` : ''}`];
  if (s.after) for (const [p, g] of Object.entries(s.after)) lines.push(`  ${p}: ${g - (s.eachWhole ?? 0)}G → ${g}G`);
  return lines;
}
