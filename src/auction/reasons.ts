/**
 * Why the auction decided what it did, as structured values with a stable machine-readable `code` (what
 * scripts and tests match on: AuctionBid.code, AuctionBid.noteCode, AuctionIgnored.code, Unreadable.code),
 * and their Chinese wording (what a director pastes into the forum thread and reads in the terminal).
 * This module is the one place the auction's words live: read-bids.ts and resolve.ts build values, the
 * functions here say them — in the style of the tally's src/votes/reasons.ts. Where a reason rests on a
 * line of the rule post (无回之城 拍卖, wuhuizhicheng.txt l.72–73), the line is cited.
 *
 * Times are epoch ms, shown in the forum's zone: "21:10" on the same forum-local day as the time compared
 * with, else "11-21 21:10".
 */
import { forumTime } from '../game/forum-time.js';
import { precisionText, timeNear } from '../votes/reasons.js';

/** The rule post's lines the auction's reasons cite. */
export const AUCTION_CITE = {
  calls: '无回之城 拍卖：每个物品只能叫价2次',
  holdings: '无回之城 拍卖：所用的G不能超过你现在持有的G',
  highest: '无回之城 拍卖：价高者得，平价则先叫价者得',
} as const;

/** Why part of a post could not be read as a bid or pledge (read-bids.ts). */
export type UnreadableReason =
  | { code: 'pledge-zero' }
  | { code: 'fractional-price'; price: string }
  | { code: 'price-without-g'; item: number; price: string }
  | { code: 'pledge-without-count' }
  | { code: 'item-without-price'; item: number }
  | { code: 'price-without-item' }
  | { code: 'not-a-bid-form' };

/** Why no bid or pledge of a post counts: who posted it and when (resolve.ts). */
export type PostProblem =
  | { code: 'not-a-player'; author: string }
  | { code: 'bidder-out'; player: string; since: number | null }
  | { code: 'before-open'; at: number; opens: number }
  | { code: 'late'; at: number; closes: number }
  /** Shown as the closing minute (the forum shows minutes only). */
  | { code: 'late-closing-minute'; at: number; closes: number }
  /** The forum's time (e.g. "3 小时前") straddles closing: read as late, as the tally reads it. */
  | { code: 'late-uncertain'; at: number; closes: number };

/** Why one readable bid by a player who may bid does not count (resolve.ts). */
export type BidProblem =
  | { code: 'too-many-calls'; item: number; nth: number; allowed: number }
  | { code: 'below-base'; item: number; base: number }
  | { code: 'above-holdings'; player: string; held: number; pledged: number };

/** Why a bid or pledge was set aside before any item's bidding (resolve.ts → AuctionResult.ignored). */
export type IgnoreReason =
  | UnreadableReason
  | { code: 'item-not-today'; item: number; name: string; lastDay: number | undefined }
  | { code: 'no-such-item'; item: number; items: number[] }
  | { code: 'no-diamond-value'; day: number }
  /** A pledge in a post that may not carry bids: the post's problem, worded for the pledge. */
  | { code: 'pledge-not-counted'; why: PostProblem };

/** The director's ruling on a bid's post (src/rulings, `bansha rule accept|reject PID`): it overrides the rules above. */
export type BidRuling =
  | { code: 'ruling-accepted'; id: number; why: string; by: string; at: string; overruled: BidReason | null }
  | { code: 'ruling-rejected'; id: number; why: string; by: string; at: string };

/** Why a bid is rejected (AuctionBid.code / reason). */
export type BidReason = PostProblem | BidProblem;

/** A remark on a bid that does not change its status (AuctionBid.noteCode / note). */
export type BidNote =
  | { code: 'edited-first-counts'; at: string | null; now: string[] }
  | { code: 'edited-no-earlier-version'; at: string };

export type AuctionReason = IgnoreReason | BidReason | BidRuling;
export type AuctionReasonCode = AuctionReason['code'];
export type BidNoteCode = BidNote['code'];

const EXAMPLE = '“3号物品 出价15G”';

/** Why part of a post could not be read, in Chinese. */
export function unreadableText(r: UnreadableReason): string {
  switch (r.code) {
    case 'pledge-zero':
      return '抵押 0 颗钻石：不计';
    case 'fractional-price':
      return `读不出价格：${r.price}G 不是整数，G 只能是整数`;
    case 'price-without-g':
      return `读不出价格：${r.price} 后面没有写 G（请写“${r.item}号物品 出价${r.price}G”）`;
    case 'pledge-without-count':
      return '读不出抵押：没有写钻石颗数（请写“抵押1颗钻石”）';
    case 'item-without-price':
      return `读不出价格：${r.item}号物品 没有写 G 数`;
    case 'price-without-item':
      return `读不出物品：出价没有写物品编号（请写${EXAMPLE}）`;
    case 'not-a-bid-form':
      return `读不出出价：不是可读的出价格式（请写${EXAMPLE}，每次出价写一件物品）`;
  }
}

/** Why a post's bids do not count, in Chinese. */
export function postProblemText(p: PostProblem, zone: string): string {
  const closed = (closes: number, at: number) => `拍卖已截止（${timeNear(closes, at, zone)}）后发帖`;
  switch (p.code) {
    case 'not-a-player':
      return `${p.author} 不是本局玩家`;
    case 'bidder-out':
      return p.since === null ? `${p.player} 已出局` : `${p.player} 已出局（${forumTime(p.since, zone)} 起）`;
    case 'before-open':
      return `${timeNear(p.at, p.opens, zone)} 发帖，早于本日拍卖开始（${forumTime(p.opens, zone)}）`;
    case 'late':
      return `${closed(p.closes, p.at)}（${timeNear(p.at, p.closes, zone)} 发帖）`;
    case 'late-closing-minute':
      return `${closed(p.closes, p.at)}（${precisionText('minute')}）`;
    case 'late-uncertain':
      return `${closed(p.closes, p.at)}（${precisionText('relative')}）`;
  }
}

/** Why a bid is rejected, in Chinese. */
export function bidReasonText(r: BidReason, zone: string): string {
  switch (r.code) {
    case 'too-many-calls':
      return `同一物品第 ${r.nth} 次叫价：每人每件物品最多叫价 ${r.allowed} 次（${AUCTION_CITE.calls}）`;
    case 'below-base':
      return `低于底价 ${r.base}G`;
    case 'above-holdings':
      return `出价高于 ${r.player} 持有的 G（${r.held}G${r.pledged ? ` + 抵押所得 ${r.pledged}G` : ''}）（${AUCTION_CITE.holdings}）`;
    default:
      return postProblemText(r, zone);
  }
}

/** The director's ruling on a bid, in Chinese: the public sentence (导演裁定, with what it overruled). */
export function bidRulingText(r: BidRuling, zone: string): string {
  if (r.code === 'ruling-rejected') return `导演裁定：此出价不计（${r.why}）`;
  return `导演裁定：认可此出价（${r.why}）${r.overruled ? `；原判：${bidReasonText(r.overruled, zone)}` : ''}`;
}

/** The director's note on a ruling (never public): which ruling, and how to take it back. */
export function bidRulingNote(r: BidRuling): string {
  return `裁定 #${r.id}（${r.by}，${r.at}）；撤销：bansha rule undo ${r.id}`;
}

/** Why a bid or pledge was set aside, in Chinese. */
export function ignoreReasonText(r: IgnoreReason, zone: string): string {
  switch (r.code) {
    case 'item-not-today':
      return `${r.item}号物品（${r.name}）只在第 1–${r.lastDay ?? '?'} 日拍卖`;
    case 'no-such-item':
      return `没有 ${r.item}号物品（今日拍卖物品：${r.items.join('、')}）`;
    case 'no-diamond-value':
      return `规则帖没有给出第 ${r.day} 日每颗钻石值多少 G：抵押无法计价`;
    case 'pledge-not-counted':
      return `抵押不计：${postProblemText(r.why, zone)}`;
    default:
      return unreadableText(r);
  }
}

/** A remark on a bid, in Chinese. */
export function bidNoteText(n: BidNote): string {
  switch (n.code) {
    case 'edited-first-counts':
      return `${n.at ? `${n.at} ` : ''}编辑过：编辑不算改价，以最初发帖的出价为准（现在的内容：${n.now.join('；') || '无出价'}）`;
    case 'edited-no-earlier-version':
      return `${n.at} 编辑过，存档中没有更早的版本：按当前内容计——请导演核对出价`;
  }
}

/** A winner at a price another valid bid also offered, in Chinese. */
export function tieText(winner: string, price: number, others: readonly string[]): string {
  return `${others.join('、')} 也出价 ${price}G，${winner} 先叫价（${AUCTION_CITE.highest}）`;
}
