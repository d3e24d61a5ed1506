/**
 * Player names inside Discuz! BBCode. A forum name may contain "[" or "]" (even "[url]" or "[/url]"),
 * "@" or "{:1_1:}": pasted raw into `[url=…]name[/url]` it would open or close a tag, post a mention or
 * a smiley, and break the floor. The escaping is the one every BBCode renderer uses
 * (src/render/safe-text.ts escapeBBCode): an invisible U+200B ZERO WIDTH SPACE defuses each hazard —
 * here on both sides of the brackets ("[" + ZWSP can never start a tag and ZWSP + "]" can never end one),
 * while the name still looks the same in the rendered post.
 */
import { escapeBBCode, ZWSP } from '../render/safe-text.js';

/** The character that defuses a bracket (and a mention, smiley or auto-link): invisible, never stripped by Discuz. */
export const BRACKET_GUARD = ZWSP;

/** A name made safe to stand inside any BBCode tag: no bracket of it can open or close a tag, on one line. */
export function neutraliseBBCode(text: string): string {
  return escapeBBCode(text, { guardClosingBrackets: true });
}
