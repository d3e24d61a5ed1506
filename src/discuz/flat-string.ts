/**
 * Strings the parser hands out must not keep the page they were read from alive.
 *
 * V8 makes `slice`, `substring`, `trim`, regex captures and the like of a long string (13+ chars)
 * *sliced strings*: a pointer into the parent plus an offset, not a copy. Concatenations are *cons
 * strings* pointing at their parts. So an avatar URL, a link or a post's text cut out of the decoded page
 * keeps the whole page (~180 KB in UTF-16) alive for as long as the Post is kept — in the evidence
 * store that is the whole run: ~13 KB per stored post, 1.3 GB at 50,000 posts (notes/performance.md).
 * `flatString` returns a copy that owns its characters; `detachPost` applies it to every string a Post
 * keeps. Both are applied where a Post is assembled (parse-page.ts), so nothing downstream has to care.
 */
import type { Post } from './types.js';

/** String.prototype.isWellFormed (ES2024, in Node 20's V8; not yet in the TypeScript lib this project targets). */
const isWellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

/**
 * A copy of `s` that owns its characters and references no other string. Strings under 13 characters
 * are never sliced or cons strings in V8 (always copied), so they are returned as they are. Longer
 * ones go through UTF-8 and back, which yields a fresh sequential string (one-byte when it can be);
 * a string with a lone surrogate (which UTF-8 cannot carry) is copied by prepending a character and
 * slicing it off instead: that flattens into a fresh string and returns a view of the copy only.
 * Not `s + ''` or `String(s)`: those return `s` itself.
 */
export function flatString(s: string): string {
  if (s.length < 13) return s;
  return isWellFormed(s) ? Buffer.from(s, 'utf8').toString('utf8') : (' ' + s).slice(1);
}

const flatOrNull = (s: string | null): string | null => (s === null ? null : flatString(s));

/** The Post with every string it holds (nested ones too) replaced by a flat copy; numbers and booleans as they are. */
export function detachPost(p: Post): Post {
  const out: Post = {
    ...p,
    floorLabel: flatOrNull(p.floorLabel),
    author: flatString(p.author),
    postedAt: flatString(p.postedAt),
    text: flatString(p.text),
    edited: p.edited ? { ...p.edited, by: flatString(p.edited.by), at: flatString(p.edited.at) } : null,
    colors: p.colors.map((c) => ({ ...c, value: flatString(c.value), text: flatString(c.text) })),
    sizes: p.sizes.map((c) => ({ ...c, value: flatString(c.value), text: flatString(c.text) })),
    links: p.links.map(flatString),
    images: p.images.map(flatString),
    attachments: p.attachments.map((a) => ({ ...a, name: flatString(a.name), url: flatOrNull(a.url) })),
    signature: flatOrNull(p.signature),
    avatar: flatOrNull(p.avatar),
    locked: flatOrNull(p.locked),
  };
  if (p.timeEarliest !== undefined) out.timeEarliest = flatString(p.timeEarliest);
  if (p.hiddenParts !== undefined) out.hiddenParts = p.hiddenParts.map(flatString);
  return out;
}
