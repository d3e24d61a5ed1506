/**
 * Ballots in the wrong place (issue 14): a player's ballot-shaped post (投票对象 / 改票对象 heads) in the
 * day's discussion thread or the process thread is not a vote — only the vote thread counts (m107 l.205
 * 投票格式; 062 l.256 未回复投票帖者将被判罚黄牌) — but the director should see it and rule on it, so it
 * is listed with its link, never counted. Pure.
 */
import { isDirector } from '../game/roster.js';
import type { Game, GameDay } from '../game/types.js';
import type { SlicePost } from '../store/slice.js';
import { mayHoldBallot, readBallot, targetLabel, type BallotContext } from './ballot.js';
import type { PostPlace } from './types.js';
import { strictlyBefore, timeSpan } from '../game/forum-time.js';

/** A ballot posted outside the vote thread. */
export interface MisplacedBallot extends PostPlace {
  /** The seat it would be for. */
  player: string;
  /** Where it was posted: the day's discussion thread or the process thread. */
  thread: 'discussion' | 'process';
  tid: number;
  /** What it names: the player (as counted names go) or X as written, when readable. */
  target: string | null;
}

/** The players' ballot-shaped posts of day `day` (its window) in `posts` of the discussion and process threads. */
export function misplacedBallots(
  game: Game,
  day: GameDay,
  threads: ReadonlyArray<{ thread: MisplacedBallot['thread']; posts: readonly SlicePost[] }>,
  context: BallotContext,
): MisplacedBallot[] {
  const out: MisplacedBallot[] = [];
  const players = new Set(game.players);
  for (const { thread, posts } of threads) {
    for (const p of posts) {
      // (most of a discussion thread holds no 票: no reading, no failure with its reason, made for it)
      if (!players.has(p.author) || isDirector(game, p.author) || !mayHoldBallot(p.text)) continue;
      const span = timeSpan(p);
      if (strictlyBefore(span, day.opens) === 'yes' || strictlyBefore(span, day.closes) !== 'yes') continue;
      const reading = readBallot(p.text, context);
      if (!reading.ok && reading.problem === 'no-ballot') continue;
      out.push({
        player: p.author, thread, tid: p.tid, pid: p.pid, floor: p.floor, at: p.at, url: p.url,
        target: reading.ok ? targetLabel(reading.target) : reading.written,
      });
    }
  }
  return out.sort((a, b) => a.at - b.at || a.pid - b.pid);
}
