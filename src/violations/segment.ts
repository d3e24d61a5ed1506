/**
 * Chinese word boundaries for banned-wording matching (issue #15): a same-sound match must start and
 * end where words do, so 「出发，誓」 or 「我日常」 never read as 发誓 / 我日. Segmentation is jieba's
 * (@node-rs/jieba with its bundled dictionary), loaded on first use, because many commands never match
 * wording.
 *
 * jieba holds its dictionary (349,045 words) in a native trie of about 42 MB, a fifth of a report's
 * memory. What jieba makes of a text depends only on the dictionary's words found in it (the graph of
 * words it can be cut into, and whether a run of single characters is a word), their frequencies, and
 * the total of all frequencies (each word's weight is its share of that total). So the dictionary is
 * kept here compactly (its words' UTF-16 units and four arrays, ~6 MB), and jieba is given only the words
 * found in the pieces it is asked to cut, added as they come, plus one stand-in word carrying the
 * frequency of every other word, so that the total is the whole dictionary's. The stand-in is a private
 * use character, which jieba never reads as part of a word (it cuts words only from runs of Han,
 * Latin letters, digits and +#&._%-); a piece containing it is cut with the whole dictionary.
 * test/violations/segment.test.ts holds the cuts to jieba's with its whole dictionary.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Jieba } from '@node-rs/jieba';

const require = createRequire(import.meta.url);
const jiebaClass = (): typeof Jieba => (require('@node-rs/jieba') as typeof import('@node-rs/jieba')).Jieba;
// The dictionary file itself, not '@node-rs/jieba/dict': that module also reads the 6 MB keyword (idf)
// table segmentation never uses, and keeps both buffers for the life of the process.
const dictFile = (): Buffer => fs.readFileSync(require.resolve('@node-rs/jieba/dict.txt'));

/** The stand-in word: a character jieba never takes into a word. */
const STAND_IN = '\uE000';

/** jieba's dictionary as read: word i is chars[start[i], start[i] + length[i]) (UTF-16 units), sorted so. */
export interface Dictionary {
  chars: Uint16Array;
  start: Int32Array;
  length: Uint8Array;
  freq: Uint32Array;
  total: number;
  /** The words beginning with UTF-16 unit u are [byFirstUnit[u], byFirstUnit[u + 1]). */
  byFirstUnit: Int32Array;
}

/** Lines of `word freq [tag]` (UTF-8), sorted, each word once; null when the file is not so (then jieba reads it whole). */
export function readDictionary(buf: Buffer): Dictionary | null {
  const NL = 0x0a;
  const SPACE = 0x20;
  // UTF-16 units of the UTF-8 sequence led by byte b (0: not a lead byte)
  const unitsOf = (b: number): number => (b < 0x80 ? 1 : b < 0xc0 ? 0 : b < 0xf0 ? 1 : 2);
  // sized first (lines, and the units of their words), read from the bytes: no copy of the file as text
  let n = 0;
  let units = 0;
  for (let line = 0; line < buf.length; n++) {
    const end = buf.indexOf(NL, line);
    const space = buf.indexOf(SPACE, line);
    for (let i = line; i < space && (end < 0 || i < end); i++) units += unitsOf(buf[i]);
    line = end < 0 ? buf.length : end + 1;
  }
  const chars = new Uint16Array(units);
  const start = new Int32Array(n);
  const length = new Uint8Array(n);
  const freq = new Uint32Array(n);
  let total = 0;
  let count = 0;
  let used = 0;
  for (let line = 0; line < buf.length; ) {
    let end = buf.indexOf(NL, line);
    if (end < 0) end = buf.length;
    const space = buf.indexOf(SPACE, line);
    if (space <= line || space >= end) return null;
    let f = 0;
    let i = space + 1;
    for (; i < end && buf[i] >= 0x30 && buf[i] <= 0x39; i++) f = f * 10 + buf[i] - 0x30;
    if (i === space + 1 || (i < end && buf[i] !== SPACE && buf[i] !== 0x0d) || f > 0xffffffff) return null;
    const from = used;
    for (let c = line; c < space; ) {
      const b = buf[c];
      const size = b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
      let cp = size === 1 ? b : b & (0xff >> (size + 1));
      for (let k = 1; k < size; k++) cp = (cp << 6) | (buf[c + k] & 0x3f);
      if (unitsOf(b) === 0 || c + size > space || used + (cp > 0xffff ? 2 : 1) > units) return null;
      if (cp > 0xffff) {
        chars[used++] = 0xd800 + ((cp - 0x10000) >> 10);
        chars[used++] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
      } else chars[used++] = cp;
      c += size;
    }
    if (used - from > 255 || used === from) return null;
    start[count] = from;
    length[count] = used - from;
    freq[count] = f;
    // (a word twice: jieba would take the later line's frequency)
    if (count > 0 && compareUnits(chars, start[count - 1], length[count - 1], chars, from, used - from) >= 0) return null;
    if (chars.subarray(from, used).includes(STAND_IN.charCodeAt(0))) return null;
    total += f;
    count++;
    line = end + 1;
  }
  const byFirstUnit = new Int32Array(0x10001);
  for (let u = 0, w = 0; u <= 0x10000; u++) {
    while (w < count && chars[start[w]] < u) w++;
    byFirstUnit[u] = w;
  }
  return { chars, start: start.subarray(0, count), length: length.subarray(0, count), freq: freq.subarray(0, count), total, byFirstUnit };
}

/** UTF-16 units a[aFrom, +aLen) against b[bFrom, +bLen). */
function compareUnits(a: Uint16Array, aFrom: number, aLen: number, b: Uint16Array, bFrom: number, bLen: number): number {
  const n = Math.min(aLen, bLen);
  for (let i = 0; i < n; i++) {
    const d = a[aFrom + i] - b[bFrom + i];
    if (d !== 0) return d;
  }
  return aLen - bLen;
}

/** The words of the dictionary found in s[from, to): their indexes. */
function wordsIn(d: Dictionary, s: string, from: number, to: number): number[] {
  const found: number[] = [];
  for (let i = from; i < to; i++) {
    // the words beginning with s[i, i+len) are [lo, hi): from those beginning with its first unit, narrowed a unit at a time
    const u = s.charCodeAt(i);
    let lo = d.byFirstUnit[u];
    let hi = d.byFirstUnit[u + 1];
    for (let len = 1; lo < hi; len++) {
      if (d.length[lo] === len) found.push(lo); // (the prefix itself sorts first)
      if (i + len >= to) break;
      const next = s.charCodeAt(i + len);
      lo = firstWith(d, lo, hi, len, next, 0);
      hi = firstWith(d, lo, hi, len, next, 1);
    }
  }
  return found;
}

/** Of the words [lo, hi), which share their first `at` units, the first whose unit `at` is at least unit + after (a word that short first). */
function firstWith(d: Dictionary, lo: number, hi: number, at: number, unit: number, after: 0 | 1): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const u = d.length[mid] > at ? d.chars[d.start[mid] + at] : -1;
    if (u < unit + after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const wordText = (d: Dictionary, w: number): string => String.fromCharCode(...d.chars.subarray(d.start[w], d.start[w] + d.length[w]));

/** jieba with the words of the pieces cut so far and the stand-in; or with the whole dictionary. */
interface Segmenter {
  cut(text: string, from: number, to: number, hmm: boolean): string[];
}

let segmenter: Segmenter | null = null;

function theSegmenter(): Segmenter {
  if (segmenter) return segmenter;
  const dict = readDictionary(dictFile());
  let whole: Jieba | null = null;
  const wholeJieba = (): Jieba => (whole ??= jiebaClass().withDict(dictFile()));
  if (!dict) return (segmenter = { cut: (text, from, to, hmm) => wholeJieba().cut(text.slice(from, to), hmm) });
  const given = new Set<number>();
  let givenFreq = 0;
  const jieba = jiebaClass().withDict(Buffer.from(`${STAND_IN} ${dict.total}\n`));
  return (segmenter = {
    cut(text, from, to, hmm) {
      const piece = text.slice(from, to);
      if (piece.includes(STAND_IN)) return wholeJieba().cut(piece, hmm);
      let lines: string[] | null = null;
      for (const w of wordsIn(dict, text, from, to)) {
        if (given.has(w)) continue;
        given.add(w);
        givenFreq += dict.freq[w];
        (lines ??= []).push(`${wordText(dict, w)} ${dict.freq[w]}`);
      }
      if (lines) {
        lines.push(`${STAND_IN} ${dict.total - givenFreq}`); // (jieba's total: the sum of its words' frequencies)
        jieba.loadDict(Buffer.from(lines.join('\n') + '\n'));
      }
      return jieba.cut(piece, hmm);
    },
  });
}

/**
 * Clause punctuation: where a text can be cut in pieces that jieba cuts exactly as it cuts the whole.
 * jieba segments each stretch of Han characters, Latin letters, digits and +#&._%- on its own and
 * makes every other character a word by itself (only \r\n is kept together), so the words of a piece
 * between two of these marks are the whole text's words there (test/violations/segment.test.ts holds
 * this to cutting the whole text, over the labelled and everyday corpus). A match lies within a
 * clause or two: cutting only those pieces halves jieba's work.
 */
// (by UTF-16 unit: a piece's bounds are looked for at every boundary asked about)
const PIECE_END = new Uint8Array(0x10000);
for (const c of '，。！？；：、…,!?;:') PIECE_END[c.charCodeAt(0)] = 1;
export interface Words {
  /** Whether a word starts or ends at the UTF-16 offset (0 and the length included). */
  boundAt(offset: number): boolean;
  /** The [start, end) of the word the UTF-16 offset (< length) lies in; `guessed`: when jieba also
   *  guesses words the dictionary lacks (HMM: 出声 in 出声询问). */
  wordAt(offset: number, guessed?: boolean): [number, number];
}

/** A piece's words: for each UTF-16 offset in it, where the word it lies in starts and ends. */
interface Piece {
  from: number;
  starts: Int32Array;
  ends: Int32Array;
}

function cutPiece(text: string, from: number, to: number, hmm: boolean): Piece {
  const starts = new Int32Array(to - from);
  const ends = new Int32Array(to - from);
  let at = from;
  for (const w of theSegmenter().cut(text, from, to, hmm)) {
    const end = Math.min(at + w.length, to);
    starts.fill(at, at - from, end - from);
    ends.fill(end, at - from, end - from);
    at = end;
  }
  return { from, starts, ends };
}

/** The words of a (simplified Chinese) text, jieba's precise mode, each piece cut on first use. */
export function words(text: string): Words {
  const pieces = [new Map<number, Piece>(), new Map<number, Piece>()];
  const isEnd = (i: number) => PIECE_END[text.charCodeAt(i)] === 1;
  const pieceAround = (offset: number, hmm: boolean): Piece => {
    let from = offset;
    while (from > 0 && !isEnd(from - 1)) from--;
    const cache = pieces[hmm ? 1 : 0];
    let piece = cache.get(from);
    if (!piece) {
      let to = offset;
      while (to < text.length && !isEnd(to)) to++;
      cache.set(from, (piece = cutPiece(text, from, to, hmm)));
    }
    return piece;
  };
  return {
    boundAt(offset) {
      if (offset <= 0 || offset >= text.length || isEnd(offset - 1) || isEnd(offset)) return true;
      const p = pieceAround(offset, false);
      return p.starts[offset - p.from] === offset;
    },
    wordAt(offset, guessed = false) {
      if (isEnd(offset)) return [offset, offset + 1];
      const p = pieceAround(offset, guessed);
      return [p.starts[offset - p.from], p.ends[offset - p.from]];
    },
  };
}
