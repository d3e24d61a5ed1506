/**
 * The wuhui auction (拍卖贴) of one day, resolved (wuhuizhicheng.txt l.72–73, 上午流程3 l.121–128):
 *  - items 1–6 with the rule post's base prices (ruleset.wuhui.auctionItems); item 6 (a diamond) only
 *    on days 1–3 (its `lastDay`);
 *  - 每个物品只能叫价2次: at most `maxBidsPerItem` calls per player per item — every readable call on an
 *    item on sale counts, including one later found invalid (below base, above holdings);
 *  - a bid below the item's base price is invalid (底价);
 *  - 所用的G不能超过你现在持有的G: when the game file gives holdings, a bid above the player's G is
 *    invalid — the G counted are the holdings plus the value of the player's own pledges posted up to
 *    and including that post (a pledge turns diamonds into G on the spot);
 *  - 价高者得，平价则先叫价者得: the highest valid bid wins, a tie goes to the earlier bid;
 *  - bidding closes at the day's closing time (开启拍卖贴，直到当天21点结束): a post at or after it (or in
 *    the closing minute, when the forum shows minutes only — rules-spec §3) is late;
 *  - diamond pledges (抵押) are worth the day's value (35/30/27/23/20/15 G, ruleset.wuhui.diamondValues).
 * Only players who are in the game when they post may bid; directors' posts (the item list) are skipped.
 * An edited post is read as first seen (rules-spec §3: editing is not a change) and the edit is noted.
 */
import { UserError } from '../errors.js';
import { exitTime, findDay, isDirector, isOut, seatPosts } from '../game/roster.js';
import type { Game, GameDay } from '../game/types.js';
import type { SlicePost } from '../store/slice.js';
import { readAuctionPost, type ReadAuctionPost } from './read-bids.js';
import { strictlyBefore, timeSpan } from '../game/forum-time.js';
import { rulingsByPid } from '../game/rulings/active.js';
import type { Ruling } from '../game/rulings/types.js';
import {
  bidNoteText,
  bidReasonText,
  bidRulingNote,
  bidRulingText,
  ignoreReasonText,
  type AuctionReasonCode,
  type BidNote,
  type BidNoteCode,
  type BidReason,
  type BidRuling,
  type IgnoreReason,
  type PostProblem,
} from './reasons.js';
import { t } from '../i18n/index.js';

export type BidStatus = 'winning' | 'outbid' | 'rejected';

/** One bid as the director sees it. */
export interface AuctionBid {
  bidder: string;
  price: number;
  status: BidStatus;
  /**
   * Why a rejected bid does not count, or the director's ruling on it (ruling-accepted: a bid the rules
   * rejected counts), as a stable code (reasons.ts); null for a valid bid nobody ruled on.
   */
  code: AuctionReasonCode | null;
  /** The same in Chinese, as a director would write it in the thread (public); null with `code`. */
  reason: string | null;
  /** For the director only (never public): the ruling's id and how to undo it. */
  directorNote?: string;
  pid: number;
  /** Posted at (ISO 8601 with the forum's offset, as the page showed it). */
  at: string;
  /** The bid as written. */
  text: string;
  url: string;
  /** A remark that does not change the status (e.g. the post was edited after bidding), in Chinese. */
  note?: string;
  /** The remark's stable code (reasons.ts), set with `note`. */
  noteCode?: BidNoteCode;
}

export interface AuctionItemResult {
  item: number;
  name: string;
  base: number;
  /** Null when nobody bid validly. */
  winner: string | null;
  price: number | null;
  /** Every bid on the item, in posting order. */
  bids: AuctionBid[];
}

export interface AuctionPledge {
  player: string;
  diamonds: number;
  /** diamonds × the day's value. */
  value: number;
  pid: number;
  at: string;
  url: string;
}

/** Something in the thread that could not be used: unreadable text, an item not on sale, a late pledge… */
export interface AuctionIgnored {
  author: string;
  pid: number;
  at: string;
  text: string;
  /** Why, as a stable code (reasons.ts). */
  code: AuctionReasonCode;
  /** Why, in Chinese. */
  reason: string;
  url: string;
}

export interface AuctionResult {
  day: number;
  tid: number;
  closes: number;
  /** Each diamond pledged today is worth this many G. */
  diamondValue: number | null;
  items: AuctionItemResult[];
  pledges: AuctionPledge[];
  ignored: AuctionIgnored[];
}

/** Resolves day `day`'s auction from the posts of its auction thread (thread order). */
export function resolveAuction(postsAsStored: readonly SlicePost[], game: Game, day: number): AuctionResult {
  const posts = seatPosts(game, postsAsStored).posts; // bids follow the seat (a substitute's are its seat's)
  const rules = game.rules.wuhui;
  if (!rules) throw new UserError(t('err.noAuctionRules', game.rules.name));
  const gameDay = findDay(game, day);
  if (!gameDay.auction) throw new UserError(t('err.noAuction', day, game.file));
  const diamondValue = rules.diamondValues[day - 1] ?? null;

  const onSale = rules.auctionItems.filter((it) => it.lastDay === undefined || day <= it.lastDay);
  const items: AuctionItemResult[] = onSale.map((it) => ({ item: it.item, name: it.name, base: it.base, winner: null, price: null, bids: [] }));
  const byItem = new Map(items.map((it) => [it.item, it]));
  const pledges: AuctionPledge[] = [];
  const ignored: AuctionIgnored[] = [];
  const calls = new Map<string, number>();
  const pledged = new Map<string, number>();
  const zone = game.timezone;
  const rulings = rulingsByPid(game.rulings, 'bid', day);

  for (const post of [...posts].sort((a, b) => a.pid - b.pid)) {
    if (isDirector(game, post.author)) continue;
    const { read, note } = readAsFirstSeen(post);
    const where = { pid: post.pid, at: post.postedAt, url: post.url };
    const ignore = (text: string, why: IgnoreReason) =>
      ignored.push({ author: post.author, pid: where.pid, at: where.at, text, code: why.code, reason: ignoreReasonText(why, zone), url: where.url });
    for (const u of read.unreadable) ignore(u.text, u.detail);
    if (read.bids.length === 0 && read.pledges.length === 0) continue;

    const postProblem = whyPostDoesNotCount(post, game, gameDay);
    for (const p of read.pledges) {
      if (postProblem) ignore(p.text, { code: 'pledge-not-counted', why: postProblem });
      else if (diamondValue === null) ignore(p.text, { code: 'no-diamond-value', day });
      else {
        pledges.push({ player: post.author, diamonds: p.diamonds, value: p.diamonds * diamondValue, ...where });
        pledged.set(post.author, (pledged.get(post.author) ?? 0) + p.diamonds * diamondValue);
      }
    }
    for (const b of read.bids) {
      const item = byItem.get(b.item);
      if (!item) {
        const known = rules.auctionItems.find((it) => it.item === b.item);
        ignore(
          b.text,
          known
            ? { code: 'item-not-today', item: b.item, name: known.name, lastDay: known.lastDay }
            : { code: 'no-such-item', item: b.item, items: onSale.map((i) => i.item) },
        );
        continue;
      }
      const bid: AuctionBid = { bidder: post.author, price: b.price, status: 'outbid', code: null, reason: null, ...where, text: b.text };
      if (note) {
        bid.note = bidNoteText(note);
        bid.noteCode = note.code;
      }
      let why: BidReason | null = postProblem;
      if (!why) {
        const key = `${post.author}\u0000${b.item}`;
        const n = (calls.get(key) ?? 0) + 1;
        calls.set(key, n);
        const held = game.holdings?.[post.author];
        const extra = pledged.get(post.author) ?? 0;
        if (n > rules.maxBidsPerItem) why = { code: 'too-many-calls', item: b.item, nth: n, allowed: rules.maxBidsPerItem };
        else if (b.price < item.base) why = { code: 'below-base', item: b.item, base: item.base };
        else if (held !== undefined && b.price > held + extra) why = { code: 'above-holdings', player: post.author, held, pledged: extra };
      }
      // The director's ruling on this post (src/rulings) overrides the rules: accept counts it, reject voids it.
      const ruled = rulingOn(rulings.get(post.pid), why);
      if (ruled) {
        bid.code = ruled.code;
        bid.reason = bidRulingText(ruled, zone);
        bid.directorNote = bidRulingNote(ruled);
        if (ruled.code === 'ruling-rejected') bid.status = 'rejected';
      } else if (why) {
        bid.status = 'rejected';
        bid.code = why.code;
        bid.reason = bidReasonText(why, zone);
      }
      item.bids.push(bid);
    }
  }

  for (const item of items) {
    let best: AuctionBid | null = null;
    for (const bid of item.bids) if (bid.status !== 'rejected' && (best === null || bid.price > best.price)) best = bid;
    if (best) {
      best.status = 'winning';
      item.winner = best.bidder;
      item.price = best.price;
    }
  }
  return { day, tid: gameDay.auction.tid, closes: gameDay.closes, diamondValue, items, pledges, ignored };
}

/** A ruling on a bid as the reason it carries: what an acceptance overruled (null: the bid was valid anyway). */
function rulingOn(r: Ruling | undefined, why: BidReason | null): BidRuling | null {
  if (!r) return null;
  const who = { id: r.id, why: r.why, by: r.by, at: r.at };
  return r.verb === 'reject' ? { code: 'ruling-rejected', ...who } : { code: 'ruling-accepted', ...who, overruled: why };
}

/** Null when the post may carry bids; else why it may not. */
function whyPostDoesNotCount(post: SlicePost, game: Game, day: GameDay): PostProblem | null {
  if (!game.players.includes(post.author)) return { code: 'not-a-player', author: post.author };
  if (isOut(game, post.author, post.at)) return { code: 'bidder-out', player: post.author, since: exitTime(game, post.author) };
  if (post.at < day.opens) return { code: 'before-open', at: post.at, opens: day.opens };
  // Read as the tally reads its deadlines (src/game/forum-time.ts): a time that only straddles closing is late.
  const onTime = strictlyBefore(timeSpan(post), day.closes);
  const when = { at: post.at, closes: day.closes };
  if (onTime === 'uncertain') return { code: 'late-uncertain', ...when };
  if (onTime === 'no') {
    return post.timePrecision === 'minute' && post.at === day.closes - (day.closes % 60_000)
      ? { code: 'late-closing-minute', ...when }
      : { code: 'late', ...when };
  }
  return null;
}

/** The post's bids as first seen; a later edit that changed them is noted, never counted. */
function readAsFirstSeen(post: SlicePost): { read: ReadAuctionPost; note: BidNote | null } {
  const first = post.versions.length > 0 ? post.versions[0].post : post;
  const read = readAuctionPost(first.text);
  if (post.versions.length > 1) {
    const now = readAuctionPost(post.text);
    if (JSON.stringify(now.bids) !== JSON.stringify(read.bids) || JSON.stringify(now.pledges) !== JSON.stringify(read.pledges)) {
      return { read, note: { code: 'edited-first-counts', at: post.edited?.at ?? null, now: now.bids.map((b) => b.text) } };
    }
  } else if (post.edited) {
    return { read, note: { code: 'edited-no-earlier-version', at: post.edited.at } };
  }
  return { read, note: null };
}
