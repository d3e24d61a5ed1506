/**
 * Text normalisation shared by the ballot reader, name matching and banned-word matching:
 * full/half width folded (NFKC), invisible characters dropped, Latin case folded, runs of
 * white space collapsed. Idempotent: normalising twice changes nothing.
 */

// Zero-width and bidi control characters: invisible, and used to split or disguise words.
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\u00AD]/g;

/** Width- and case-folded, invisible characters removed, white space collapsed and trimmed. */
export function normalizeText(s: string): string {
  return s.normalize('NFKC').replace(INVISIBLE, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** Like normalizeText, with every space removed: for names ("饺 子" is 饺子). */
export function normalizeName(s: string): string {
  return normalizeText(s).replace(/ /g, '');
}

/**
 * Width folded (NFKC: ：→:, full-width letters and digits → ASCII) and invisible characters removed,
 * with case, spaces and line breaks kept: for reading formats line by line (ballot heads).
 */
export function foldWidth(s: string): string {
  return s.normalize('NFKC').replace(INVISIBLE, '');
}
