/**
 * Chinese word boundaries for banned-wording matching (issue #15): a same-sound match must start and
 * end where words do, so 「出发，誓」 or 「我日常」 never read as 发誓 / 我日. Segmentation is jieba's
 * (@node-rs/jieba with its bundled dictionary), loaded once, on first use, because the dictionary
 * takes a fifth of a second to load and many commands never match wording.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Jieba } from '@node-rs/jieba';

let jieba: Jieba | null = null;

function segmenter(): Jieba {
  if (!jieba) {
    const require = createRequire(import.meta.url);
    const { Jieba: JiebaClass } = require('@node-rs/jieba') as typeof import('@node-rs/jieba');
    // The dictionary file itself, not '@node-rs/jieba/dict': that module also reads the 6 MB keyword
    // (idf) table segmentation never uses, and keeps both buffers for the life of the process.
    jieba = JiebaClass.withDict(fs.readFileSync(require.resolve('@node-rs/jieba/dict.txt')));
  }
  return jieba;
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
  for (const w of segmenter().cut(text.slice(from, to), hmm)) {
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
