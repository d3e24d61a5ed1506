/**
 * The auction (拍卖贴) result for the terminal: per item the winner and every bid with its status and
 * reason, then pledges, what could not be used, and the vote-out's G split. Plain text; colour only
 * through picocolors (which honours NO_COLOR and pipes).
 */
import { createColors } from 'picocolors';
import { tieText, type AuctionResult, type VoteOutShare } from '../auction/index.js';
import { t } from '../i18n/index.js';

/** The lines `bansha auction` prints. */
export function renderAuctionText(r: AuctionResult, share: VoteOutShare | null, color = false): string {
  const pc = createColors(color);
  const out: string[] = [t('auction.heading', r.day, r.tid)];
  for (const it of r.items) {
    const head = t('auction.item', it.item, it.name, it.base);
    const tied = it.bids.filter((b) => b.status === 'outbid' && b.price === it.price && b.bidder !== it.winner).map((b) => b.bidder);
    const tie = it.winner && tied.length ? pc.dim(`（${tieText(it.winner, it.price ?? 0, [...new Set(tied)])}）`) : '';
    out.push(head + (it.winner ? pc.bold(`${it.winner} ${it.price}G`) + tie : pc.dim(t('auction.noBid'))));
    for (const b of it.bids) {
      const mark = b.status === 'winning' ? pc.green('✓') : b.status === 'outbid' ? ' ' : pc.red('✗');
      const why = b.reason ? (b.status === 'rejected' ? pc.red : pc.cyan)(` — ${b.reason}`) : '';
      const note = b.note ? pc.yellow(`（${b.note}）`) : '';
      out.push(`  ${mark} ${b.bidder} ${b.price}G  ${b.at.slice(5, 16).replace('T', ' ')}  pid ${b.pid}${why}${note}`);
      if (b.directorNote) out.push(pc.dim(`      ${t('note.director')}${b.directorNote}`));
    }
  }
  if (r.pledges.length) {
    out.push(t('auction.pledges', r.diamondValue));
    for (const p of r.pledges) out.push(`  ${p.player} ${t('auction.diamonds', p.diamonds)} = ${p.value}G  pid ${p.pid}`);
  }
  if (r.ignored.length) {
    out.push(pc.yellow(t('auction.ignored')));
    for (const x of r.ignored) out.push(`  ${x.author} pid ${x.pid} “${x.text}” — ${x.reason}`);
  }
  if (share) out.push(...renderShareText(share));
  return out.join('\n') + '\n';
}

/** The vote-out's G shared among the living. */
export function renderShareText(s: VoteOutShare): string[] {
  if (s.amount === null) {
    return [t('auction.shareUnknown', s.player, s.among.length, s.among.join('、'))];
  }
  const lines = [t('auction.share', s.player, s.amount, s.among.length, s.eachWhole ?? 0, s.remainder ?? 0)];
  if (s.after) for (const [p, g] of Object.entries(s.after)) lines.push(`  ${p}: ${g - (s.eachWhole ?? 0)}G → ${g}G`);
  return lines;
}
