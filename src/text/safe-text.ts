/**
 * Player-written text (names, targets as written, reasons, post text, edits) made safe for the two
 * places bansha prints it raw: a terminal and a Discuz post. Every terminal renderer goes through
 * terminalSafe() and every BBCode renderer (tally, day report, elevator floor) through escapeBBCode():
 * one definition each, so a fix here reaches every view.
 */

/** Escape sequences a terminal acts on: CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \), other ESC x. */
// eslint-disable-next-line no-control-regex
const ESCAPE_SEQUENCE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
/** C0 controls except \n (a tab is turned into a space first), DEL, C1 controls. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;
/** Bidi embeddings, overrides and isolates: they reorder what follows them on the line. */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/g;

/**
 * Escape sequences removed whole, then every remaining control character (a tab becomes a space,
 * \r goes); line breaks and every printable character are kept.
 */
export function stripControls(s: string): string {
  return s.replace(ESCAPE_SEQUENCE, '').replace(/\t/g, ' ').replace(CONTROL, '');
}

/**
 * Player text made safe for a terminal: escape sequences and control characters removed (stripControls)
 * and bidi embeddings/overrides/isolates removed, so nothing a player wrote can move the cursor, recolour,
 * retitle or hyperlink the director's terminal, or reorder the line it stands on.
 */
export function terminalSafe(s: string): string {
  return stripControls(s).replace(BIDI_CONTROL, '');
}

/**
 * Bidi controls shown as visible tags (U+202E → ⟨U+202E⟩): for a target rejected *because* it carries
 * one, so the director sees what was written instead of what the forum displays.
 */
export function revealBidi(s: string): string {
  return s.replace(BIDI_CONTROL, (ch) => `⟨U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`);
}

/** The character that defuses BBCode, smileys, mentions and auto-links: invisible, kept by Discuz. */
export const ZWSP = '\u200b';

/** Options of escapeBBCode. */
export interface BBCodeEscapeOptions {
  /**
   * Also guard every "]" (ZWSP before it), for text standing inside a tag's content where a reader
   * (or a stricter parser) could take a "]" as closing something — the elevator's link labels.
   */
  guardClosingBrackets?: boolean;
}

/**
 * Player text that, posted on Discuz, shows as itself and nothing more. Discuz has no escape syntax (html
 * off: "&#91;" shows literally), so a zero-width space (U+200B) is slipped in where the forum would
 * otherwise act:
 * - after every "[": no tag can open or close (discuzcode());
 * - after every "@": no mention link, no notification;
 * - inside "{:": no smiley code;
 * - inside "://" and after "www.": parseurl() does not turn a bare URL into a link when the director posts.
 * Control characters and escape sequences are removed (stripControls) and line breaks become a space: each
 * piece of player text stays on its own line of the announcement. Bidi characters are kept: a name must
 * look on the notice the way the forum shows it everywhere else.
 */
export function escapeBBCode(s: string, opts: BBCodeEscapeOptions = {}): string {
  let out = stripControls(s)
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\[/g, `[${ZWSP}`)
    .replace(/@/g, `@${ZWSP}`)
    .replace(/\{:/g, `{${ZWSP}:`)
    .replace(/:\/\//g, `:${ZWSP}//`)
    .replace(/www\./gi, (m) => `${m}${ZWSP}`);
  if (opts.guardClosingBrackets) out = out.replace(/\]/g, `${ZWSP}]`);
  return out;
}

/** A BBCode link: [url=URL]label[/url], with any "]" in the URL percent-encoded so it cannot end the tag. */
export function bbLink(url: string, label: string): string {
  return `[url=${url.replace(/\]/g, '%5D')}]${label}[/url]`;
}
