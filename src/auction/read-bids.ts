/**
 * Reads what players write in the wuhui auction thread (拍卖贴, wuhuizhicheng.txt l.72–73 and 上午流程3,
 * l.121–128) into bids and diamond pledges, and says why about whatever it cannot read. Pure text in,
 * plain values out: deciding which bid is valid is resolve.ts's job.
 *
 * The format it reads (after full/half-width folding, so "：" is ":", "Ｇ" is "G", "１５" is "15";
 * Chinese numerals 一…九十/两 are read as digits):
 *   bid     = [出价|叫价|竞拍] ITEM [":"] [出价|叫价|竞拍|出|价格] [":"] PRICE
 *   ITEM    = N号物品 | N号 | 物品N | 物品N号
 *   PRICE   = whole number followed by G (or 金币) — the G may be left out only after 出价/叫价 or a colon
 *   pledge  = 抵押 N 颗|个|枚 钻石  |  抵押 钻石 [x×*] N [颗|个|枚]   (钻石 may be written 钻)
 * Several bids and pledges may share a post or a line ("3号物品 出价15G，4号物品 出价20G").
 * Examples read: "3号物品 出价15G", "物品3：15G", "3号 15G", "叫价3号物品15G", "抵押1颗钻石".
 * Not read, with a reason: an item without a price ("3号物品好贵"), a price without an item ("出价15G"),
 * a price without G after a bare space ("3号 15"), a fraction of a G ("3号 15.5G"), a pledge without a
 * count ("抵押钻石"), and any other leftover that mentions 出价/叫价/抵押/物品 or an item number.
 */

import { unreadableText, type UnreadableReason } from './reasons.js';
import { chineseNumeral } from '../text/chinese-numeral.js';

/** A bid as written: item number and price in G. */
export interface ReadBid {
  item: number;
  price: number;
  /** The bid's own text, as matched (after width folding). */
  text: string;
}

/** A diamond pledge as written. */
export interface ReadPledge {
  diamonds: number;
  text: string;
}

/** A part of the post that looks like a bid or pledge but could not be read. */
export interface Unreadable {
  text: string;
  /** Stable machine-readable code (reasons.ts UnreadableReason). */
  code: UnreadableReason['code'];
  /** Why, in Chinese (reasons.ts). */
  reason: string;
  detail: UnreadableReason;
}

function unreadable(text: string, detail: UnreadableReason): Unreadable {
  return { text, code: detail.code, reason: unreadableText(detail), detail };
}

export interface ReadAuctionPost {
  bids: ReadBid[];
  pledges: ReadPledge[];
  unreadable: Unreadable[];
}


/** Width-folded (NFKC) text, Chinese numerals after 物品/出价/叫价/抵押/钻 or before 号/G/颗/个/枚 as digits. */
function fold(text: string): string {
  const t = text.normalize('NFKC').replace(/[\u200B-\u200F\u2060\uFEFF]/g, '');
  const digits = (m: string, num: string, keep: (n: number) => string) => {
    const n = chineseNumeral(num);
    return n === null ? m : keep(n);
  };
  return t
    .replace(/(物品|出价|叫价|抵押|钻石?)(\s*)([零一二两三四五六七八九十百]+)/g, (m, w: string, sp: string, num: string) => digits(m, num, (n) => `${w}${sp}${n}`))
    .replace(/([零一二两三四五六七八九十百]+)(?=\s*(?:号|G|金|颗|个|枚|钻|物品))/g, (m, num: string) => digits(m, num, String));
}

const VERB = '(?:出价|叫价|竞拍|竞价|价格|出)';
const ITEM = '(?:(\\d+)\\s*号\\s*(?:物品)?|物品\\s*(\\d+)\\s*号?)';
const BID = new RegExp(
  `(?:(?:我)?(?:出价|叫价|竞拍|竞价)\\s*:?\\s*)?${ITEM}\\s*(:)?\\s*(${VERB})?\\s*(:)?\\s*(\\d+(?:\\.\\d+)?)\\s*(G|金币|金)?(?![\\d.])`,
  'giu',
);
const PLEDGE = /抵押\s*(?:(\d+)\s*(?:颗|个|枚)?\s*钻石?|钻石?\s*[x×*]?\s*(\d+)\s*(?:颗|个|枚)?)/giu;
const LEFTOVER_HINT = /出价|叫价|竞拍|抵押|物品|\d+\s*号|\d+\s*G/iu;

/** Reads one post's text (the player's own text: quotes already removed by the parser). */
export function readAuctionPost(text: string): ReadAuctionPost {
  const out: ReadAuctionPost = { bids: [], pledges: [], unreadable: [] };
  let rest = fold(text);

  rest = rest.replace(PLEDGE, (m, a: string | undefined, b: string | undefined) => {
    const diamonds = Number(a ?? b);
    if (diamonds > 0) out.pledges.push({ diamonds, text: m.trim() });
    else out.unreadable.push(unreadable(m.trim(), { code: 'pledge-zero' }));
    return ' \u0000 ';
  });

  rest = rest.replace(BID, (m, itemA: string | undefined, itemB: string | undefined, colon1, verb, colon2, price: string, unit) => {
    const item = Number(itemA ?? itemB);
    const bidText = m.trim();
    if (price.includes('.')) {
      out.unreadable.push(unreadable(bidText, { code: 'fractional-price', price }));
    } else if (!unit && !colon1 && !colon2 && !verb) {
      out.unreadable.push(unreadable(bidText, { code: 'price-without-g', item, price }));
    } else {
      out.bids.push({ item, price: Number(price), text: bidText });
    }
    return ' \u0000 ';
  });

  // Whatever is left over and still mentions bidding is reported, line by line, never guessed at.
  for (const piece of rest.split(/[\n\u0000]/)) {
    const p = piece.replace(/^[\s,，;；、。.!！]+|[\s,，;；、。.!！]+$/g, '');
    if (!p || !LEFTOVER_HINT.test(p)) continue;
    out.unreadable.push(unreadable(p, leftoverReason(p)));
  }
  return out;
}

function leftoverReason(p: string): UnreadableReason {
  if (/抵押/.test(p)) return { code: 'pledge-without-count' };
  const item = /(\d+)\s*号|物品\s*(\d+)/.exec(p);
  const price = /\d+\s*G/i.test(p);
  if (item && !price) return { code: 'item-without-price', item: Number(item[1] ?? item[2]) };
  if (!item && price) return { code: 'price-without-item' };
  return { code: 'not-a-bid-form' };
}
