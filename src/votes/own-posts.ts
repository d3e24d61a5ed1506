/**
 * The tool's own posts: every announcement bansha writes ends with a visible mark naming the day and
 * the vote ("bansha 计票 · 第2日放逐投票"), so `--post` finds its earlier post and edits it instead of
 * posting again, and the count never reads a director's announcement (which quotes names, 投票对象 and
 * 代投) back as a ballot or a proxy vote. Only a director's post is taken as the tool's own: a player
 * who copies the mark still has their ballot read.
 */
import { isDirector } from '../game/roster.js';
import type { Game } from '../game/types.js';
import type { TallyKind } from './types.js';

/** The words every announcement's last line starts with. */
export const ANNOUNCEMENT_TAG = 'bansha 计票';

const KIND_WORD: Record<TallyKind, string> = { election: '警长竞选', elimination: '放逐投票', rule: '对战规则投票', none: '投票' };

/** The last line of day `day`'s announcement of a `kind` count. */
export function announcementMark(day: number, kind: TallyKind): string {
  return `${ANNOUNCEMENT_TAG} · 第${day}日${KIND_WORD[kind]}`;
}

/** Is this post one of the tool's announcements (any day)? A director's post carrying the tag. */
export function isOwnPost(game: Pick<Game, 'directors'>, post: { author: string; text: string }): boolean {
  return isDirector(game, post.author) && post.text.includes(ANNOUNCEMENT_TAG);
}
