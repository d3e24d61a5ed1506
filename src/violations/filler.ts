/**
 * 无谓的水帖 (120b l.567 禁止…版杀帖子内无谓的水帖; the ruleset's flagFiller): posts that carry nothing —
 * empty, only punctuation/smilies/emoji, a lone filler word (顶, 沙发, 哈哈哈…: data/filler.txt), or the
 * same text the same player already posted in the game. Flags for the director to judge.
 */
import { packagePath } from '../paths.js';
import { foldString, readDataLines } from './text-fold.js';
import { isSmilie } from './evidence.js';
import type { Post } from '../discuz/types.js';

let fillerWords: Set<string> | null = null;
/** The lone filler words (data/filler.txt), folded. */
export function fillerWordSet(): Set<string> {
  fillerWords ??= new Set(readDataLines(packagePath('src', 'violations', 'data', 'filler.txt')).map(contentKey));
  return fillerWords;
}

/** What a post says once punctuation, symbols, emoji and spaces are gone, folded for comparison. */
export function contentKey(text: string): string {
  return foldString(text).replace(/[^\p{L}\p{N}]/gu, '');
}

export type FillerReason = 'empty' | 'no-words' | 'filler-word' | 'repeat';

/**
 * Why a post is filler, or null. `earlier` maps content keys the same player already posted to the
 * pid that first had them (the caller keeps it across the player's posts, in time order).
 */
export function fillerReason(post: Pick<Post, 'text' | 'images' | 'attachments' | 'links'>, earlier: ReadonlyMap<string, number>): { reason: FillerReason; repeats?: number } | null {
  const media = post.attachments.length + post.links.length + post.images.filter((i) => !isSmilie(i)).length;
  if (media > 0) return null;
  const key = contentKey(post.text);
  if (!post.text.trim() && !post.images.length) return { reason: 'empty' };
  if (!key) return { reason: 'no-words' };
  if (fillerWordSet().has(key) || /^(哈|呵|嘿|嘻|啊|哦|嗯|额|呃|唉|6|2|1)\1*$/u.test(key)) return { reason: 'filler-word' };
  const first = earlier.get(key);
  if (first !== undefined) return { reason: 'repeat', repeats: first };
  return null;
}
