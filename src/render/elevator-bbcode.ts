/**
 * The elevator floor as Discuz! BBCode for floor 2: a heading, then one line per player.
 *
 * Player names inside Discuz! BBCode. A forum name may contain "[" or "]" (even "[url]" or "[/url]"),
 * "@" or "{:1_1:}": pasted raw into `[url=…]name[/url]` it would open or close a tag, post a mention or
 * a smiley, and break the floor. The escaping is the one every BBCode renderer uses
 * (src/text/safe-text.ts escapeBBCode): an invisible U+200B ZERO WIDTH SPACE defuses each hazard —
 * here on both sides of the brackets ("[" + ZWSP can never start a tag and ZWSP + "]" can never end one),
 * while the name still looks the same in the rendered post.
 */
import type { ElevatorFloor, ElevatorLink } from '../elevator/floor.js';
import { escapeBBCode, ZWSP } from '../text/safe-text.js';

/** The character that defuses a bracket (and a mention, smiley or auto-link): invisible, never stripped by Discuz. */
export const BRACKET_GUARD = ZWSP;

/** A name made safe to stand inside any BBCode tag: no bracket of it can open or close a tag, on one line. */
export function neutraliseBBCode(text: string): string {
  return escapeBBCode(text, { guardClosingBrackets: true });
}

/** The BBCode of the floor: a heading, then one line per entry. Names are neutralised (neutraliseBBCode). */
export function renderElevatorBBCode(floor: Pick<ElevatorFloor, 'day' | 'entries'>): string {
  const lines = [`[b]第${floor.day}日电梯[/b]`];
  for (const e of floor.entries) {
    if (e.out) {
      lines.push(`${e.seat}. [s]${neutraliseBBCode(e.player)}[/s] (出局)`);
      continue;
    }
    // A substitute's line names the account as the forum shows it, and the seat it plays.
    const link = (a: ElevatorLink) => {
      const name = neutraliseBBCode(a.name);
      return a.url === null ? `${name}（暂无链接）` : `[url=${a.url}]${name}[/url]`;
    };
    const [first, ...later] = e.accounts;
    const seatNote = first.name === e.player ? '' : `（替补 ${neutraliseBBCode(e.player)}）`;
    lines.push(`${e.seat}. ${link(first)}${seatNote}${later.map((a) => ` → ${link(a)}（替补）`).join('')}`);
  }
  return lines.join('\n') + '\n';
}
