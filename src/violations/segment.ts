/**
 * Chinese word boundaries for banned-wording matching (issue #15): a same-sound match must start and
 * end where words do, so 「出发，誓」 or 「我日常」 never read as 发誓 / 我日. Segmentation is jieba's
 * (@node-rs/jieba with its bundled dictionary), loaded on first use, because many commands never match
 * wording.
 *
 * jieba holds its whole dictionary (349,045 words) in a large native trie, a large share of a report's
 * memory. What jieba makes of a text depends only on the dictionary's words found in it (the graph of
 * words it can be cut into, and whether a run of single characters is a word), their frequencies, and
 * the total of all frequencies (each word's weight is its share of that total). So the dictionary is
 * kept here compactly (dictionary.ts: its words' UTF-16 units and four arrays, read from dict.txt
 * or from where a caller kept them), and jieba is given only the words found in the pieces it is asked
 * to cut, added as they come, plus one stand-in word carrying the frequency of every other word, so
 * that the total is the whole dictionary's. The stand-in is a private use character, which jieba never
 * reads as part of a word (it cuts words only from runs of Han, Latin letters, digits and +#&._%-); a
 * piece containing it is cut with the whole dictionary.
 * test/violations/segment.test.ts holds the cuts to jieba's with its whole dictionary.
 */
import { createRequire } from 'node:module';
import type { Jieba } from '@node-rs/jieba';
import { dictFile, readDictionary, STAND_IN, type Dictionary, type KeptDictionary } from './dictionary.js';

const require = createRequire(import.meta.url);
const jiebaClass = (): typeof Jieba => (require('@node-rs/jieba') as typeof import('@node-rs/jieba')).Jieba;

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

/** The process's segmenter, made on first use from the dictionary as kept (`kept`), else from dict.txt (then kept). */
function theSegmenter(kept: KeptDictionary | undefined): Segmenter {
  if (segmenter) return segmenter;
  let dict = kept?.read() ?? null;
  if (!dict) {
    dict = readDictionary(dictFile());
    if (dict) kept?.write(dict);
  }
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

/** A piece's words: for each UTF-16 offset in it, where the word it lies in starts and ends (from the piece's start). */
interface Piece {
  from: number;
  starts: Int32Array;
  ends: Int32Array;
}

/** A piece's words as offsets from its start (Piece's, less `from`). */
interface Cut {
  starts: Int32Array;
  ends: Int32Array;
}

/**
 * The pieces cut so far, by text, without and with HMM: jieba's words of a piece are a function of its
 * text (see the header), and a game repeats its clauses (quotes, a line posted again): each distinct
 * piece is cut once a process. Emptied when full (a bound on memory, never on what is found).
 */
const cuts = [new Map<string, Cut>(), new Map<string, Cut>()];
const CUTS_KEPT = 4096;

/** Empties the pieces kept (a test holds the hits to cutting every piece anew). */
export function forgetCuts(): void {
  for (const c of cuts) c.clear();
}

function cutPiece(text: string, from: number, to: number, hmm: boolean, kept: KeptDictionary | undefined): Piece {
  const cache = cuts[hmm ? 1 : 0];
  const key = text.slice(from, to);
  let cut = cache.get(key);
  if (!cut) {
    const starts = new Int32Array(to - from);
    const ends = new Int32Array(to - from);
    let at = 0;
    for (const w of theSegmenter(kept).cut(text, from, to, hmm)) {
      const end = Math.min(at + w.length, to - from);
      starts.fill(at, at, end);
      ends.fill(end, at, end);
      at = end;
    }
    if (cache.size >= CUTS_KEPT) cache.clear();
    cache.set(key, (cut = { starts, ends }));
  }
  return { from, starts: cut.starts, ends: cut.ends };
}

/** The words of a (simplified Chinese) text, jieba's precise mode, each piece cut on first use; `kept`:
 *  where jieba's dictionary is kept between processes (read on the process's first cut). */
export function words(text: string, kept?: KeptDictionary): Words {
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
      cache.set(from, (piece = cutPiece(text, from, to, hmm, kept)));
    }
    return piece;
  };
  return {
    boundAt(offset) {
      if (offset <= 0 || offset >= text.length || isEnd(offset - 1) || isEnd(offset)) return true;
      const p = pieceAround(offset, false);
      return p.starts[offset - p.from] === offset - p.from;
    },
    wordAt(offset, guessed = false) {
      if (isEnd(offset)) return [offset, offset + 1];
      const p = pieceAround(offset, guessed);
      return [p.from + p.starts[offset - p.from], p.from + p.ends[offset - p.from]];
    },
  };
}
