/**
 * Whether a ruling on a ballot can stand, and what it changes: a pure function of the game, the store
 * and the ruling. Refuses (UserError, exit 2) a pid the store does not hold, a post of another day's
 * vote thread or of no vote thread, a post that is no ballot, and an acceptance that cannot count (no
 * readable target, or no voter). The answer carries the day's count before and after, so the command
 * can show what the ruling did.
 */
import { UserError } from '../errors.js';
import { t } from '../i18n/index.js';
import { findDay } from '../game/roster.js';
import type { Game } from '../game/types.js';
import { currentVersion, type StoreData } from '../store/types.js';
import { resolveAuction, type AuctionBid, type AuctionResult } from '../auction/index.js';
import { threadPosts } from '../store/slice.js';
import { postsFromStore, tallyDay } from '../votes/tally.js';
import type { AccelerationResult, BallotRecord, TallyResult } from '../votes/types.js';
import { accelerationFor } from '../votes/acceleration.js';
import { readText } from '../votes/select.js';
import type { Ruling } from '../game/rulings/types.js';

export interface BallotRulingEffect {
  before: TallyResult;
  after: TallyResult;
  /** The ballot as the count reads it once the ruling applies. */
  ballot: BallotRecord;
  /** The same ballot before the ruling. */
  was: BallotRecord;
}

/** The vote threads of the game's days: tid → day and which vote (wuhui's morning rule vote or the day's vote). */
function voteThreads(game: Game): Map<number, { day: number; rules: boolean }> {
  const out = new Map<number, { day: number; rules: boolean }>();
  for (const d of game.days) {
    if (d.vote) out.set(d.vote.tid, { day: d.day, rules: false });
    if (d.rules) out.set(d.rules.tid, { day: d.day, rules: true });
  }
  return out;
}

type RulingDraft = Omit<Ruling, 'id'> & { id?: number };

/** The stored post a ruling names (its pid must be given and held by the store), the ruling's day checked to exist. */
function ruledPost(game: Game, store: StoreData, ruling: RulingDraft): { pid: number; stored: StoreData['posts'][string] } {
  const pid = ruling.pid;
  if (pid === undefined) throw new UserError(t('rule.ballotNoPid'));
  const stored = store.posts[String(pid)];
  if (!stored) throw new UserError(t('rule.ballotNotStored', pid, game.storePath));
  findDay(game, ruling.day);
  return { pid, stored };
}

/** `count` under the rulings in force, and again with `ruling` in place of any earlier ruling on the same post. */
function beforeAndAfter<R>(game: Game, ruling: RulingDraft, count: (rulings: Ruling[]) => R): { before: R; after: R } {
  const others = (game.rulings ?? []).filter((r) => !(r.subject === ruling.subject && r.pid === ruling.pid));
  return { before: count(game.rulings ?? []), after: count([...others, { ...ruling, id: ruling.id ?? 0 } as Ruling]) };
}

/** Checks a ruling on a ballot (`ruling.subject === 'ballot'`) against the store; throws when it cannot stand. */
export function checkBallotRuling(game: Game, store: StoreData, ruling: RulingDraft): BallotRulingEffect {
  const { pid, stored } = ruledPost(game, store, ruling);
  const thread = voteThreads(game).get(stored.tid);
  if (!thread) throw new UserError(t('rule.notVoteThread', pid, stored.tid, game.file));
  if (thread.day !== ruling.day) {
    throw new UserError(t('rule.otherDay', pid, thread.day, stored.tid, ruling.day));
  }
  const posts = postsFromStore(store);
  const { before, after } = beforeAndAfter(game, ruling, (rulings) => tallyDay({ ...game, rulings }, posts, ruling.day, { rules: thread.rules }));
  const find = (t: TallyResult) => t.ballots.find((b) => b.pid === pid);
  const ballot = find(after);
  const was = find(before);
  if (!ballot || !was) throw new UserError(t('rule.notABallot', pid, String(currentVersion(stored).post.floor ?? '?'), ruling.day));
  if (ruling.verb === 'accept' && ballot.status === 'rejected') {
    throw new UserError(t('rule.cannotAccept', pid, ballot.reason ?? null));
  }
  return { before, after, ballot, was };
}

export interface RequestRulingEffect {
  before: AccelerationResult;
  after: AccelerationResult;
}

/**
 * Checks a ruling on a process-thread post (`ruling.subject === 'request'`): the pid must be a post of day
 * `ruling.day`'s acceleration count that this account cannot read (AccelerationResult.unreadable with no
 * ruling on it), and the ruling a reject (the post is neither a request nor a withdrawal) — what such a post
 * asks cannot be counted unread: the game file's `accelerated:` for the day settles that. Throws (UserError,
 * exit 2) otherwise; returns the day's acceleration before and after.
 */
export function checkRequestRuling(game: Game, store: StoreData, ruling: RulingDraft): RequestRulingEffect {
  const { pid, stored } = ruledPost(game, store, ruling);
  const d = findDay(game, ruling.day);
  const posts = threadPosts(store, stored.tid);
  const others = (game.rulings ?? []).filter((r) => !(r.subject === ruling.subject && r.pid === ruling.pid));
  const unruled = accelerationFor({ ...game, rulings: others }, d, posts);
  if (!unruled.unreadable?.includes(pid)) throw new UserError(t('rule.notUnreadableRequest', pid, String(currentVersion(stored).post.floor ?? '?'), ruling.day));
  if (ruling.verb === 'accept') throw new UserError(t('rule.cannotAcceptRequest', pid, ruling.day, game.file));
  const { before, after } = beforeAndAfter(game, ruling, (rulings) => accelerationFor({ ...game, rulings }, d, posts));
  return { before, after };
}

export interface SuccessorRulingEffect {
  before: TallyResult;
  after: TallyResult;
}

/**
 * Checks a ruling on a post a sheriff's handover waits on (`ruling.subject === 'successor'`): null when
 * the pid is none of day `ruling.day`'s count's (TallyResult.unreadableSuccession with no such ruling on
 * it: the caller rules on it as something else); a refusal (UserError, exit 2) of an accept — whom a post
 * not read names cannot be counted: the game file's `sheriff:` for the day settles that. Returns the
 * day's count before and after (a reject: the post names no one).
 */
export function checkSuccessorRuling(game: Game, store: StoreData, ruling: RulingDraft): SuccessorRulingEffect | null {
  const { pid, stored } = ruledPost(game, store, ruling);
  const d = findDay(game, ruling.day);
  // (only a post whose text this account never read can be one: the count is not made for any other)
  if (readText({ ...currentVersion(stored).post, versions: stored.versions }) !== null) return null;
  if (!d.vote || (ruling.day === 1 && game.rules.day1Election)) return null;
  const posts = postsFromStore(store);
  const others = (game.rulings ?? []).filter((r) => !(r.subject === ruling.subject && r.pid === ruling.pid));
  const unruled = tallyDay({ ...game, rulings: others }, posts, ruling.day);
  if (!unruled.unreadableSuccession?.pids.includes(pid)) return null;
  if (ruling.verb === 'accept') throw new UserError(t('rule.cannotAcceptSuccessor', pid, ruling.day, game.file));
  return beforeAndAfter(game, ruling, (rulings) => tallyDay({ ...game, rulings }, posts, ruling.day));
}

export interface BidRulingEffect {
  before: AuctionResult;
  after: AuctionResult;
  /** The post's bids once the ruling applies, with each one's item and status before it. */
  bids: Array<{ item: number; bid: AuctionBid; was: AuctionBid }>;
}

/** The day whose auction thread holds `tid`, or null. */
export function auctionDayOf(game: Game, tid: number): number | null {
  return game.days.find((d) => d.auction?.tid === tid)?.day ?? null;
}

/**
 * Checks a ruling on an auction post's bids (`ruling.subject === 'bid'`, wuhui): the pid must be a
 * stored post of that day's auction thread carrying at least one bid on an item on sale (an unreadable
 * post has no price a ruling could count). Throws (UserError, exit 2) when it cannot stand.
 */
export function checkBidRuling(game: Game, store: StoreData, ruling: RulingDraft): BidRulingEffect {
  const { pid, stored } = ruledPost(game, store, ruling);
  const day = auctionDayOf(game, stored.tid);
  if (day === null) throw new UserError(t('rule.notVoteThread', pid, stored.tid, game.file));
  if (day !== ruling.day) throw new UserError(t('rule.bidOtherDay', pid, day, stored.tid, ruling.day));
  const posts = threadPosts(store, stored.tid);
  const { before, after } = beforeAndAfter(game, ruling, (rulings) => resolveAuction(posts, { ...game, rulings }, day));
  const mine = (r: AuctionResult) => r.items.flatMap((it) => it.bids.filter((b) => b.pid === pid).map((bid) => ({ item: it.item, bid })));
  const was = mine(before);
  const bids = mine(after).map((x, i) => ({ ...x, was: was[i].bid }));
  if (!bids.length) throw new UserError(t('rule.notABid', pid, String(currentVersion(stored).post.floor ?? '?'), day));
  return { before, after, bids };
}
