/**
 * Text normalisation shared by the ballot reader, name matching and banned-word matching:
 * full/half width folded (NFKC), invisible characters dropped, Latin case folded, runs of
 * white space collapsed. Idempotent: normalising twice changes nothing.
 *
 * Invisible characters are dropped *before* NFKC (a letter and a combining mark they separate then
 * compose on the first pass, not the second), and each function is repeated until its result is
 * stable: a removal or case fold that lets NFKC compose again ("e´" → "e \u0301" → "e\u0301" once the
 * space goes) is finished within the same call.
 */

/** Zero-width and other invisible format characters that are not bidi controls. */
const INVISIBLE_NOT_BIDI = /[\u200B-\u200F\u2060-\u2064\u206A-\u206F\uFEFF\u00AD]/g;
/** Bidi embeddings, overrides and isolates (U+202A–202E, U+2066–2069): they reorder what is shown. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
const HAS_BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;

/** Options of the normalisers. */
export interface NormalizeOptions {
  /**
   * Keep bidi embeddings/overrides/isolates (they are dropped by default): for comparing text by what
   * the forum *shows* — "\u202e狸阿" is displayed as 阿狸, so it must not equal 狸阿.
   */
  keepBidi?: boolean;
}

/** True when `s` holds a bidi embedding, override or isolate (U+202A–202E, U+2066–2069). */
export function hasBidiControl(s: string): boolean {
  return HAS_BIDI_CONTROL.test(s);
}

/** The bidi controls of `s`, in order (as characters). */
export function bidiControlsIn(s: string): string[] {
  return s.match(BIDI_CONTROLS) ?? [];
}

function dropInvisible(s: string, opts: NormalizeOptions): string {
  const out = s.replace(INVISIBLE_NOT_BIDI, '');
  return opts.keepBidi ? out : out.replace(BIDI_CONTROLS, '');
}

/** Applies one normalisation pass until it changes nothing (a handful of passes at most). */
function stable(pass: (s: string) => string, s: string): string {
  let cur = pass(s);
  for (let i = 0; i < 8; i++) {
    const next = pass(cur);
    if (next === cur) return cur;
    cur = next;
  }
  return cur;
}

function foldPass(s: string, opts: NormalizeOptions): string {
  return dropInvisible(dropInvisible(s, opts).normalize('NFKC'), opts);
}

function textPass(s: string, opts: NormalizeOptions): string {
  return foldPass(s, opts).replace(/\s+/g, ' ').trim().toLowerCase();
}

/** Width- and case-folded, invisible characters removed, white space collapsed and trimmed. */
export function normalizeText(s: string, opts: NormalizeOptions = {}): string {
  return stable((x) => textPass(x, opts), s);
}

/** Like normalizeText, with every space removed: for names ("饺 子" is 饺子). */
export function normalizeName(s: string, opts: NormalizeOptions = {}): string {
  return stable((x) => textPass(x, opts).replace(/ /g, ''), s);
}

/**
 * Width folded (NFKC: ：→:, full-width letters and digits → ASCII) and invisible characters removed,
 * with case, spaces and line breaks kept: for reading formats line by line (ballot heads).
 */
export function foldWidth(s: string, opts: NormalizeOptions = {}): string {
  return stable((x) => foldPass(x, opts), s);
}
