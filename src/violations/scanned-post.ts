/**
 * A post whose content was scanned once and is kept so (src/derived/scanned-thread.ts): what counting,
 * the avatar/signature check and the post flags read of it — its current text for their snippets — and
 * the flags its content carries, found once (`scannedPost`) and kept with it.
 */
import type { Game } from '../game/types.js';
import { sightingsOf, type DigestPost, type SlicePost } from '../store/slice.js';
import type { Flag } from './flag.js';
import { postContentFlags, type WordingOf } from './scan.js';

export interface ScannedPost extends DigestPost {
  text: string;
  missing: boolean;
  /** The content flags of its versions (postContentFlags), under the author as stored. */
  flags: readonly Flag[];
}

/** Whether the post was read as scanned (its content flags with it, its content not). */
export function isScanned(p: SlicePost | ScannedPost): p is ScannedPost {
  return !('versions' in p);
}

/** The post scanned: its flags found now. */
export function scannedPost(game: Game, post: SlicePost, wording: WordingOf): ScannedPost {
  const { pid, tid, floor, at, url, author, authorId, deleted, text, missing } = post;
  return { pid, tid, floor, at, url, author, authorId, deleted: deleted || post.readable === false, sightings: sightingsOf(post), text, missing, flags: postContentFlags(game, post, game.rules.bannedCategories, wording) };
}
