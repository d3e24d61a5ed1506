/**
 * Who is in the game at a given moment (rules-spec §1): players leave at their exit time; the m107
 * white idiot who used 装傻 stays but may neither vote nor be voted. And who is which seat: a seat is
 * played by one account at a time (a substitute, 替补, takes it over at its time; 062 l.267
 * 替补玩家将收到该玩家的角色、身份、行动及账号、密码，代替该玩家继续游戏; 120b l.630 替补玩家…继承前任玩家
 * 受到的一切判罚), an account is known by its uid first (a renamed account keeps it) and its name
 * otherwise. The one place that answers "who is this account, which seat, alive when". Pure.
 */
import { UserError } from '../errors.js';
import { t } from '../i18n/index.js';
import type { SlicePost } from '../store/slice.js';
import { normalizeName } from '../text/normalize.js';
import type { Game, GameDay, Seat, SeatAccount } from './types.js';

interface SeatIndex {
  /** Every name of every seat (seat name, aliases, account names), normalised → seat. */
  names: Map<string, Seat>;
  /** Account names exactly as the forum writes them → the account. */
  accounts: Map<string, { seat: Seat; account: SeatAccount }>;
  /** Known uids → the account. */
  uids: Map<number, { seat: Seat; account: SeatAccount }>;
  /** Each seat's answer for a post that speaks for it (one object: every post of a game is seated). */
  speaks: Map<Seat, PostSeat>;
}
const indexes = new WeakMap<readonly Seat[], SeatIndex>();

function seatIndex(game: Game): SeatIndex {
  let ix = indexes.get(game.seats);
  if (!ix) {
    ix = { names: new Map(), accounts: new Map(), uids: new Map(), speaks: new Map() };
    for (const seat of game.seats) {
      ix.speaks.set(seat, Object.freeze({ kind: 'seat', seat: seat.name }));
      for (const n of [seat.name, ...seat.aliases]) ix.names.set(normalizeName(n), seat);
      for (const account of seat.accounts) {
        ix.names.set(normalizeName(account.name), seat);
        ix.accounts.set(account.name, { seat, account });
        if (account.uid !== undefined) ix.uids.set(account.uid, { seat, account });
      }
    }
    indexes.set(game.seats, ix);
  }
  return ix;
}

/** The seats' other names (aliases, every account's name) → the seat's name: a ballot may name a seat by any of them. */
export function otherSeatNames(game: Game): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of game.seats) for (const n of [...s.aliases, ...s.accounts.map((a) => a.name)]) if (n !== s.name) out.set(n, s.name);
  return out;
}

/** The account holding `seat` at `at` (the first account before any substitute). */
export function accountAt(seat: Seat, at: number): SeatAccount {
  return seat.accounts.find((a) => (a.from === null || a.from <= at) && (a.until === null || at < a.until)) ?? seat.accounts[0];
}

/** How a post's author stands to the seats at the post's time. */
export type PostSeat =
  | { kind: 'seat'; seat: string }
  /** The account held the seat, but a substitute took it over before this post. */
  | { kind: 'replaced'; seat: string; by: string; since: number }
  | { kind: 'none' };

/**
 * The seat a post speaks for: its author's uid when a seat's account has it (a renamed account is
 * still itself), else its author's name — unless that account's known uid is another one (someone
 * else holds the name now). A substitute's posts before it took over speak for nobody.
 */
export function seatOfPost(game: Game, post: Pick<SlicePost, 'author' | 'authorId' | 'at'>): PostSeat {
  return seatIn(seatIndex(game), post);
}

/** seatOfPost with the game's seat index at hand (seatPosts seats every post of a thread). */
function seatIn(ix: SeatIndex, post: Pick<SlicePost, 'author' | 'authorId' | 'at'>): PostSeat {
  let hit = post.authorId !== null ? ix.uids.get(post.authorId) : undefined;
  if (!hit) {
    const named = ix.accounts.get(post.author);
    if (named && (named.account.uid === undefined || post.authorId === null)) hit = named;
  }
  if (!hit) return SPEAKS_FOR_NONE;
  const { seat, account } = hit;
  if (account.from !== null && post.at < account.from) return SPEAKS_FOR_NONE;
  if (account.until !== null && post.at >= account.until) return { kind: 'replaced', seat: seat.name, by: accountAt(seat, post.at).name, since: account.until };
  return ix.speaks.get(seat)!;
}

const SPEAKS_FOR_NONE: PostSeat = Object.freeze({ kind: 'none' });

/** A post by an account a substitute had replaced: not the seat's, shown to the director. */
export interface ReplacedPost<P = SlicePost> {
  post: P;
  seat: string;
  /** The account holding the seat at the post's time. */
  by: string;
  /** When the post's account was replaced. */
  since: number;
}

/** A thread's posts as the seats see them: each author is its seat's name, replaced accounts' posts apart. */
export interface SeatedPosts<P = SlicePost> {
  posts: P[];
  replaced: Array<ReplacedPost<P>>;
}

/** What seating reads of a post (full posts, and the digests the report looks back through). */
type SeatablePost = Pick<SlicePost, 'author' | 'authorId' | 'at'>;

const seated = new WeakMap<readonly SeatablePost[], { seats: readonly Seat[]; result: SeatedPosts<SeatablePost> }>();

/**
 * A thread's posts with each author replaced by the seat it speaks for (a renamed account's or a
 * substitute's post becomes its seat's), and the posts of replaced accounts set apart: they count for
 * nobody (no 诈尸 either: the account is no longer in the game) and are flagged for the director. Posts
 * by people who hold no seat (directors, spectators) keep their author. Unchanged posts are the same
 * objects; the answer for one list is kept, and a list already seated comes back as it is.
 */
export function seatPosts<P extends SeatablePost = SlicePost>(game: Game, posts: readonly P[]): SeatedPosts<P> {
  const known = seated.get(posts);
  if (known && known.seats === game.seats) return known.result as SeatedPosts<P>;
  const result: SeatedPosts<P> = { posts: [], replaced: [] };
  const plain = game.seats.every((s) => s.accounts.length === 1 && s.accounts[0].uid === undefined);
  const ix = seatIndex(game);
  for (const p of posts) {
    if (plain) {
      result.posts.push(p);
      continue;
    }
    const s = seatIn(ix, p);
    if (s.kind === 'replaced') result.replaced.push({ post: p, seat: s.seat, by: s.by, since: s.since });
    else result.posts.push(s.kind === 'seat' && s.seat !== p.author ? reseated(p, s.seat) : p);
  }
  seated.set(posts, { seats: game.seats, result });
  seated.set(result.posts, { seats: game.seats, result });
  return result;
}

/**
 * The post with another author, on the same prototype: a look-back post's link is read off its class
 * (src/store/thread-digest.ts), which a spread would leave behind. A plain post is spread (an object
 * literal: V8 keeps its fields in the object).
 */
function reseated<P extends SeatablePost>(p: P, author: string): P {
  const proto = Object.getPrototypeOf(p) as object;
  return proto === Object.prototype ? { ...p, author } : Object.assign(Object.create(proto) as P, p, { author });
}

/** The exit time of a player, or null while they are in. */
export function exitTime(game: Game, player: string): number | null {
  let out: number | null = null;
  for (const e of game.events) {
    if (e.player === player && e.out !== undefined && (out === null || e.out < out)) out = e.out;
  }
  return out;
}

/** True when the player has left the game at `at` (an exit at exactly `at` counts as out). */
export function isOut(game: Game, player: string, at: number): boolean {
  const out = exitTime(game, player);
  return out !== null && out <= at;
}

/** When the player used 装傻 (m107 white idiot: the game file's first `idiot:` event for them), or null. */
export function idiotTime(game: Game, player: string): number | null {
  return game.events.find((e) => e.player === player && e.idiot !== undefined)?.idiot ?? null;
}

/** m107 装傻: from that time on the player may neither vote nor be voted. */
export function isIdiot(game: Game, player: string, at: number): boolean {
  return game.events.some((e) => e.player === player && e.idiot !== undefined && e.idiot <= at);
}

/** Players still in the game at `at`, in elevator order. */
export function alivePlayers(game: Game, at: number): string[] {
  return game.players.filter((p) => !isOut(game, p, at));
}

export function isDirector(game: Pick<Game, 'directors'>, name: string): boolean {
  return game.directors.includes(name);
}

/** The game file's entry for day `day`; a UserError (exit 2) naming the days there are when absent. */
export function findDay(game: Game, day: number): GameDay {
  const d = game.days.find((x) => x.day === day);
  if (!d) {
    throw new UserError(t('game.noDay', day, game.file, game.days.map((x) => x.day).join(', ')));
  }
  return d;
}

/** The accounts (forum names) whose uid neither the game file nor `withKnownUids` knows, in seat order. */
export function unknownUids(game: Game): string[] {
  return game.seats.flatMap((s) => s.accounts.filter((a) => a.uid === undefined).map((a) => a.name));
}

/**
 * The game with what the forum's own record (the store's users: name → uid, from crawled posts) adds to
 * the game file: each account's uid where the file gives none, and the other names seen with a seat's
 * uid as its aliases — so a renamed account (same uid, new name) is still the seat, and a ballot may
 * name it by its new name. A uid another account already has is not taken twice; a name that already
 * means a seat is not made an alias.
 */
export function withKnownUids(game: Game, users: Readonly<Record<string, number>>): Game {
  const taken = new Set(game.seats.flatMap((s) => s.accounts.flatMap((a) => (a.uid === undefined ? [] : [a.uid]))));
  const withUids = game.seats.map((seat) => ({
    ...seat,
    accounts: seat.accounts.map((a) => {
      const uid = users[a.name];
      if (a.uid !== undefined || uid === undefined || taken.has(uid)) return a;
      taken.add(uid);
      return { ...a, uid };
    }),
  }));
  const byUid = new Map<number, string[]>();
  for (const [name, uid] of Object.entries(users)) byUid.set(uid, [...(byUid.get(uid) ?? []), name]);
  const named = (name: string) => seatIndex(game).names.has(normalizeName(name));
  let learned = false;
  const seats = withUids.map((seat, i) => {
    const renamed = seat.accounts.flatMap((a) => (a.uid === undefined ? [] : byUid.get(a.uid) ?? [])).filter((n) => !named(n));
    const changed = renamed.length > 0 || seat.accounts.some((a, j) => a !== game.seats[i].accounts[j]);
    learned ||= changed;
    return changed ? { ...seat, aliases: [...seat.aliases, ...renamed] } : game.seats[i];
  });
  return learned ? { ...game, seats } : game;
}
