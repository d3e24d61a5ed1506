/**
 * Folds a player's text into the tokens banned-wording matching runs on (rules-spec §7: matching must
 * survive width, case, traditional/simplified, inserted separators and same-pinyin substitutions; the
 * rule posts add 音近、形近、通配符, m107 l.243). Each token remembers where it came from in the
 * original text, so a hit can quote the player's own words.
 *
 * - width and case: NFKC, then lower case; zero-width and bidi characters vanish;
 * - traditional → simplified with opencc-js (t → cn);
 * - look-alikes: data/lookalikes.txt (Cyrillic/Greek letters, CJK variants opencc keeps);
 * - separators: anything that is not a Han character, a Latin letter or a digit is dropped, so
 *   "发 誓", "发.誓", "发\u200b誓" all become 发誓;
 * - pinyin: each Han token carries its toneless readings (pinyin-pro, every reading of a polyphone);
 *   a run of Latin letters that splits into pinyin syllables ("wo fa shi", "fashi") becomes syllable
 *   tokens, any other short run becomes letters usable as pinyin initials ("sb", "nmsl");
 * - wildcards: * × ○ □ and a lone x stand for one character (傻X).
 */
import { createRequire } from 'node:module';
import type * as PinyinPro from 'pinyin-pro';
import { packagePath } from '../paths.js';
import { readUtf8Text } from '../text/read-utf8.js';
import { toSimplified } from '../text/simplified.js';

export type TokenKind = 'han' | 'syllable' | 'letter' | 'digit' | 'wildcard';

export interface Token {
  kind: TokenKind;
  /** Folded text: the simplified Han character, the Latin syllable or letter, the digit. */
  text: string;
  /** Toneless pinyin readings (Han: every reading; syllable: itself; others: none). */
  syls: readonly string[];
  /** UTF-16 offsets of the token in the original text: [start, end). */
  start: number;
  end: number;
  /** Index of the Latin run the token belongs to (syllables and letters), else -1. */
  run: number;
  /** The token's kind and text as a number (tokenKey): what the pattern index looks it up by. */
  key: number;
}

export interface FoldedText {
  original: string;
  /** The original in simplified characters when that keeps every offset, else the original. */
  simplified: string;
  tokens: Token[];
  /** Latin runs: token index ranges [first, last] (inclusive), for whole-run checks. */
  runs: Array<{ first: number; last: number }>;
}

const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\u00AD\u034F\u180E]/u;
const HAN = /\p{Script=Han}/u;
const WILDCARDS = new Set(['*', '×', '○', '□', '＊', '〇', '✕', '╳']);

/**
 * Traditional → simplified (opencc t → cn, phrase tables first: src/text/simplified.ts), to a fixed point:
 * opencc maps a few characters to one it converts again (薴 → 苧 → 苎), and a fold must give what its own
 * result folds to (test/fuzz/normalize.fuzz.test.ts).
 */
export function t2s(s: string): string {
  let text = toSimplified(s);
  for (let again = toSimplified(text); again !== text; again = toSimplified(text)) text = again;
  return text;
}

let lookalikes: Map<string, string> | null = null;
/** The look-alike table (data/lookalikes.txt). */
export function lookalikeTable(): Map<string, string> {
  if (!lookalikes) {
    lookalikes = new Map();
    for (const line of readDataLines(packagePath('src', 'violations', 'data', 'lookalikes.txt'))) {
      const [from, to] = line.split(/\s+/);
      if (from && to) lookalikes.set(from, to);
    }
  }
  return lookalikes;
}

let syllables: Set<string> | null = null;
/** Every toneless pinyin syllable (data/pinyin-syllables.txt). */
export function pinyinSyllables(): Set<string> {
  syllables ??= new Set(readDataLines(packagePath('src', 'violations', 'data', 'pinyin-syllables.txt')));
  return syllables;
}

/**
 * Non-empty, non-comment lines of a data file. The file must be UTF-8 (a BOM is dropped): a list a
 * director saved in another encoding (GBK from Windows Notepad) would match nothing, so it is refused
 * (exit 2) naming the file and the first line that is not UTF-8.
 */
export function readDataLines(file: string): string[] {
  return dataLines(readUtf8Text(file));
}

/** Non-empty, non-comment lines of a data file's text (readUtf8Text). */
export function dataLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

/**
 * pinyin-pro, loaded when a reading is first asked for (its tables cost time and memory every run): a word
 * list compiles with it and a scan reads with it, but a report whose texts were all scanned before (the
 * kept hits, src/derived/wording-hits.ts) asks for none. Its CommonJS build: the same version's code.
 */
let pinyinPro: typeof PinyinPro | undefined;
export function pinyinLib(): typeof PinyinPro {
  return (pinyinPro ??= createRequire(import.meta.url)('pinyin-pro') as typeof PinyinPro);
}

const readingCache = new Map<string, string[]>();
/** Toneless readings of one Han character (ü written v). */
export function readings(ch: string): string[] {
  let r = readingCache.get(ch);
  if (!r) {
    r = [...new Set(pinyinLib().pinyin(ch, { toneType: 'none', type: 'array', multiple: true }).map((p) => p.replace(/ü/g, 'v')))].filter((p) =>
      /^[a-z]+$/.test(p),
    );
    readingCache.set(ch, r);
  }
  return r;
}

/**
 * The readings this process has looked up (readings()), for a table kept between runs
 * (src/derived/wording-hits.ts): a rerun that scans a few new texts then loads pinyin-pro only for a
 * character no text had before.
 */
export function knownReadings(): ReadonlyMap<string, readonly string[]> {
  return readingCache;
}

/** Readings an earlier run of the same code looked up (knownReadings), taken as looked up here. */
export function addKnownReadings(table: Readonly<Record<string, string[]>>): void {
  for (const [ch, r] of Object.entries(table)) if (!readingCache.has(ch)) readingCache.set(ch, r);
}

/** Folded code points, by whether the text was already converted to simplified as a whole. */
const foldCache = [new Map<string, string>(), new Map<string, string>()];
/**
 * One code point folded: NFKC, lower case, simplified, look-alike replaced ('' when invisible).
 * `simplified`: the caller already converted the text to simplified as a whole (phrase tables).
 */
export function foldChar(ch: string, simplified = false): string {
  const cache = foldCache[simplified ? 1 : 0];
  let f = cache.get(ch);
  if (f === undefined) {
    if (INVISIBLE.test(ch)) f = '';
    else {
      const table = lookalikeTable();
      f = [...ch.normalize('NFKC').toLowerCase()].map((c) => table.get(c) ?? c).join('');
      if (HAN.test(f) && (!simplified || f !== ch)) f = t2s(f);
    }
    if (cache.size < 100_000) cache.set(ch, f);
  }
  return f;
}

/** What a folded code point gives the tokens: Latin letters (runs are split later), Han characters,
 *  digits, wildcards; a separator gives nothing but ends a Latin run. */
type Piece = { kind: 'latin'; text: string } | { kind: 'separator'; text: string } | { kind: 'han' | 'digit' | 'wildcard'; text: string; syls: readonly string[]; key: number };

const tokenKeys = new Map<string, number>();
/** A number for a token's kind and text, the same for every token alike in this process (the pattern
 *  index keeps what a token can stand for by it: an array read instead of a string lookup). */
export function tokenKey(kind: TokenKind, text: string): number {
  const k = `${kind}:${text}`;
  let n = tokenKeys.get(k);
  if (n === undefined) tokenKeys.set(k, (n = tokenKeys.size));
  return n;
}

const pieceCache = [new Map<string, Piece[]>(), new Map<string, Piece[]>()];
/** The pieces of one code point (foldChar's arguments; [] when invisible). Cached: texts repeat characters. */
function piecesOf(src: string, simplified: boolean): Piece[] {
  const cache = pieceCache[simplified ? 1 : 0];
  let pieces = cache.get(src);
  if (!pieces) {
    pieces = [...foldChar(src, simplified)].map((f): Piece => {
      if (/[a-z]/.test(f)) return { kind: 'latin', text: f };
      if (HAN.test(f)) return { kind: 'han', text: f, syls: readings(f), key: tokenKey('han', f) };
      if (/[0-9]/.test(f)) return { kind: 'digit', text: f, syls: [], key: tokenKey('digit', f) };
      if (WILDCARDS.has(f) || WILDCARDS.has(src)) return { kind: 'wildcard', text: f, syls: [], key: tokenKey('wildcard', f) };
      return { kind: 'separator', text: f };
    });
    if (cache.size < 100_000) cache.set(src, pieces);
  }
  return pieces;
}

/** A code point as a text with no traditional characters gives it: its pieces, and whether t2s alone
 *  would change it (then the text is converted as a whole first, phrase tables and all). */
interface CodePoint {
  traditional: boolean;
  pieces: Piece[];
  /** Its one piece when that is a token's (a Han character, a digit, a wildcard: most code points). */
  token: TokenPiece | null;
}
type TokenPiece = Extract<Piece, { syls: readonly string[] }>;
// By UTF-16 unit for the BMP (every Chinese text's characters: an array read, no string hashing),
// by string for the rest.
const bmpCodePoints = new Array<CodePoint | undefined>(0x10000).fill(undefined);
const astralCodePoints = new Map<string, CodePoint>();
function codePoint(cp: string): CodePoint {
  const bmp = cp.length === 1;
  let c = bmp ? bmpCodePoints[cp.charCodeAt(0)] : astralCodePoints.get(cp);
  if (!c) {
    const pieces = piecesOf(cp, true);
    const one = pieces.length === 1 ? pieces[0] : null;
    c = { traditional: cp.charCodeAt(0) >= 0x2e80 && t2s(cp) !== cp, pieces, token: one && one.kind !== 'latin' && one.kind !== 'separator' ? one : null };
    if (bmp) bmpCodePoints[cp.charCodeAt(0)] = c;
    else if (astralCodePoints.size < 100_000) astralCodePoints.set(cp, c);
  }
  return c;
}

/** Whether any Han character of the text changes under t2s alone (else the phrase pass can be skipped:
 *  foldString is then foldChar(c, true) code point by code point). */
export function hasTraditional(s: string): boolean {
  for (const cp of s) if (cp.charCodeAt(0) >= 0x2e80 && codePoint(cp).traditional) return true;
  return false;
}

/** Width, case, traditional/look-alike folding of a whole string (for exact entries and allow words). */
export function foldString(s: string): string {
  // Convert whole phrases first (opencc's phrase tables beat char-by-char), then fold per char.
  const simplified = hasTraditional(s) ? t2s(s) : s;
  let out = '';
  for (const c of simplified) out += foldChar(c, true); // (no array per string: the scan and the learned opinion fold every sentence)
  return out;
}

/** Splits a Latin run into pinyin syllables (fewest pieces), or null when it is not pinyin. */
export function splitSyllables(run: string): string[] | null {
  const syl = pinyinSyllables();
  const n = run.length;
  const best: Array<string[] | null> = Array(n + 1).fill(null);
  best[0] = [];
  for (let i = 0; i < n; i++) {
    const prev = best[i];
    if (!prev) continue;
    for (let j = Math.min(n, i + 6); j > i; j--) {
      const piece = run.slice(i, j);
      if (syl.has(piece) && (!best[j] || best[j]!.length > prev.length + 1)) best[j] = [...prev, piece];
    }
  }
  return best[n];
}

/** Builds a text's tokens from its code points' pieces, splitting Latin runs into syllables. */
class Tokens {
  readonly tokens: Token[] = [];
  readonly runs: FoldedText['runs'] = [];
  private readonly latin: Array<{ c: string; start: number; end: number }> = [];

  /** The code point at [start, end) of the original. */
  addCodePoint(c: CodePoint, start: number, end: number): void {
    if (c.token && !this.latin.length) this.push(c.token, start, end);
    else this.add(c.pieces, start, end);
  }

  /** The pieces of the code point at [start, end) of the original. */
  add(pieces: readonly Piece[], start: number, end: number): void {
    // (an invisible code point has no pieces: neither a token nor a separator)
    for (const p of pieces) {
      if (p.kind === 'latin') {
        this.latin.push({ c: p.text, start, end });
        continue;
      }
      this.flushLatin();
      if (p.kind === 'separator') continue; // dropped
      this.push(p, start, end);
    }
  }

  private push(p: TokenPiece, start: number, end: number): void {
    this.tokens.push({ kind: p.kind, text: p.text, syls: p.syls, start, end, run: -1, key: p.key });
  }

  flushLatin(): void {
    const { latin, tokens } = this;
    if (!latin.length) return;
    const text = latin.map((l) => l.c).join('');
    const run = this.runs.length;
    const first = tokens.length;
    const parts = text.length > 1 ? splitSyllables(text) : null;
    if (parts && parts.length > 0) {
      let k = 0;
      for (const p of parts) {
        tokens.push({ kind: 'syllable', text: p, syls: [p], start: latin[k].start, end: latin[k + p.length - 1].end, run, key: tokenKey('syllable', p) });
        k += p.length;
      }
    } else if (text === 'x') {
      tokens.push({ kind: 'wildcard', text: 'x', syls: [], start: latin[0].start, end: latin[0].end, run, key: tokenKey('wildcard', 'x') });
    } else {
      for (const l of latin) tokens.push({ kind: 'letter', text: l.c, syls: pinyinSyllables().has(l.c) ? [l.c] : [], start: l.start, end: l.end, run, key: tokenKey('letter', l.c) });
    }
    this.runs.push({ first, last: tokens.length - 1 });
    latin.length = 0;
  }
}

/** The tokens of a text with no traditional character (most texts), read by UTF-16 unit; null when
 *  it has one (its phrases are converted first: foldText). */
function foldPlain(original: string): FoldedText | null {
  const out = new Tokens();
  for (let i = 0; i < original.length; ) {
    const u = original.charCodeAt(i);
    const pair = u >= 0xd800 && u <= 0xdbff && i + 1 < original.length && (original.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const end = pair ? i + 2 : i + 1;
    const c = (!pair && bmpCodePoints[u]) || codePoint(pair ? original.slice(i, end) : original[i]);
    if (c.traditional) return null;
    out.addCodePoint(c, i, end);
    i = end;
  }
  out.flushLatin();
  return { original, simplified: original, tokens: out.tokens, runs: out.runs };
}

/**
 * The tokens' pieces of a text whose every code point gives one token or none (a Han character, a
 * digit; a separator, an invisible one): foldText's tokens one for one, without their offsets, in
 * `into` (a scratch array, cut to their number), so that a text with nothing to match is read
 * without a token object. False, and `into` unusable, when the text has a traditional character, a
 * Latin letter, a wildcard or a code point folding to more than one piece (foldText then).
 */
export function plainPieces(original: string, into: Array<Pick<Token, 'kind' | 'text' | 'syls' | 'key'>>): boolean {
  let n = 0;
  for (let i = 0; i < original.length; ) {
    const u = original.charCodeAt(i);
    const pair = u >= 0xd800 && u <= 0xdbff && i + 1 < original.length && (original.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const end = pair ? i + 2 : i + 1;
    const c = (!pair && bmpCodePoints[u]) || codePoint(pair ? original.slice(i, end) : original[i]);
    if (c.traditional) return false;
    if (c.token) {
      if (c.token.kind === 'wildcard') return false;
      into[n++] = c.token;
    } else if (c.pieces.length > 1 || (c.pieces.length === 1 && c.pieces[0].kind !== 'separator')) return false;
    i = end;
  }
  into.length = n;
  return true;
}

/** Tokenises a text for matching. */
export function foldText(original: string): FoldedText {
  return foldPlain(original) ?? foldTraditional(original);
}

/**
 * A text with traditional characters: the whole string is folded to simplified first when opencc
 * keeps its length (it maps char to char almost always; its phrase tables beat char-by-char);
 * otherwise each code point is folded on its own.
 */
function foldTraditional(original: string): FoldedText {
  const whole = t2s(original);
  const aligned = whole.length === original.length;
  const out = new Tokens();
  let i = 0;
  for (const cp of original) {
    const start = i;
    i += cp.length;
    out.add(piecesOf(aligned ? whole.slice(start, i) : cp, aligned), start, i);
  }
  out.flushLatin();
  return { original, simplified: aligned ? whole : original, tokens: out.tokens, runs: out.runs };
}
