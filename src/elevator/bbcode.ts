/**
 * Player names inside Discuz! BBCode. A forum name may contain "[" or "]" (even "[url]" or "[/url]"):
 * pasted raw into `[url=…]name[/url]` it would open or close a tag and break the floor. Discuz has no
 * escape for BBCode brackets (html off: "&#91;" shows literally), so each bracket gets an invisible
 * U+200B ZERO WIDTH SPACE on its inner side: "[" + ZWSP can never start a tag and ZWSP + "]" can never end
 * one, while the name still looks the same in the rendered post.
 */

/** The character that defuses a bracket: invisible, never stripped by Discuz. */
export const BRACKET_GUARD = '\u200B';

/** A name made safe to stand inside any BBCode tag: no bracket of it can open or close a tag. */
export function neutraliseBBCode(text: string): string {
  return text.replace(/\[/g, `[${BRACKET_GUARD}`).replace(/\]/g, `${BRACKET_GUARD}]`).replace(/[\r\n]+/g, ' ');
}
