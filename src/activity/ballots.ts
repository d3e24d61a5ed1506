/**
 * Who posted a ballot at all (rules-spec §6: 没有投票…记作一张黄牌, m107 l.310; 062 l.256
 * 未回复投票帖者将被判罚黄牌): a post in the day's vote thread before closing that carries a ballot head
 * (投票对象 / 改票对象), well-formed or not — a malformed ballot is still a ballot for this rule; the tally
 * judges it. A director's proxy (代投) counts for the player it names when it is on time for a proxy
 * (rules-spec §2). When the tally (src/votes) is at hand, pass its voters instead.
 */
import { isDirector, isOut, otherSeatNames } from '../game/roster.js';
import type { Game, GameDay } from '../game/types.js';
import { foldWidth } from '../text/normalize.js';
import { readProxy } from '../votes/ballot.js';
import { readText } from '../votes/select.js';
import { atOrBefore, strictlyBefore, timeSpan } from '../game/forum-time.js';
import type { SlicePost } from '../store/slice.js';

const HEAD = /(投票|改票)对象/;

/** True when the text carries a ballot head (width-folded, spaces ignored). */
export function looksLikeBallot(text: string): boolean {
  return HEAD.test(foldWidth(text).replace(/\s+/g, ''));
}

/** Players with a ballot-looking post in the vote thread strictly before closing (a post made after the
 * player's exit is 诈尸, not a ballot). Deadlines are read as the tally reads them (src/game/forum-time.ts): a
 * time that only straddles one, at minute or relative precision, does not meet it. A player's post whose
 * text this account cannot read counts as a ballot here: it may be one, and a no-ballot card needs the
 * certainty that there is none. */
export function playersWithBallot(game: Game, day: GameDay, votePosts: readonly SlicePost[]): Set<string> {
  return ballotPresence(game, day, votePosts).ballots;
}

/** A post of the vote thread this account cannot read (its link, for the director to look at). */
export interface UnreadBallotPost {
  pid: number;
  floor: number | null;
  url: string;
}

/**
 * playersWithBallot's players, and of them those whose only ballot may be in posts this account cannot
 * read (no readable ballot-looking post of theirs): whether they voted is not known — neither yes nor no
 * (the report says it cannot be read, with the posts' links), and no no-ballot card either.
 */
export function ballotPresence(game: Game, day: GameDay, votePosts: readonly SlicePost[]): { ballots: Set<string>; unreadable: Map<string, UnreadBallotPost[]> } {
  const out = new Set<string>();
  const unread = new Map<string, UnreadBallotPost[]>();
  const proxyDeadline = day.closes - game.rules.proxyVoteMinutesBeforeClose * 60_000;
  for (const p of votePosts) {
    const span = timeSpan(p);
    if (strictlyBefore(span, day.closes) !== 'yes') continue;
    const text = readText(p);
    if (text === null) {
      if (game.players.includes(p.author) && !isDirector(game, p.author) && !isOut(game, p.author, p.at)) {
        unread.set(p.author, [...(unread.get(p.author) ?? []), { pid: p.pid, floor: p.floor, url: p.url }]);
      }
      continue;
    }
    if (!looksLikeBallot(text)) continue;
    if (isDirector(game, p.author)) {
      const proxy = readProxy(text, game.players, game.rules.proxyMarkers, otherSeatNames(game));
      if (proxy?.ok && atOrBefore(span, proxyDeadline) === 'yes') out.add(proxy.player);
      continue;
    }
    if (game.players.includes(p.author) && !isOut(game, p.author, p.at)) out.add(p.author);
  }
  const unreadable = new Map([...unread].filter(([player]) => !out.has(player)));
  for (const player of unreadable.keys()) out.add(player);
  return { ballots: out, unreadable };
}
