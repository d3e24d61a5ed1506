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
  const out = new Set<string>();
  const proxyDeadline = day.closes - game.rules.proxyVoteMinutesBeforeClose * 60_000;
  for (const p of votePosts) {
    const span = timeSpan(p);
    if (strictlyBefore(span, day.closes) !== 'yes') continue;
    const text = readText(p);
    if (text === null) {
      if (game.players.includes(p.author) && !isDirector(game, p.author) && !isOut(game, p.author, p.at)) out.add(p.author);
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
  return out;
}
