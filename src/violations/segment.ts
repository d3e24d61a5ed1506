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

export interface Words {
  /** 1 at each UTF-16 offset where a dictionary word starts or ends (0 and the length included). */
  bounds: Uint8Array;
  /** For each UTF-16 offset, the length of the dictionary word it lies in. */
  wordLength: Int32Array;
  /** The dictionary words of three or more UTF-16 units, as [start, end). */
  longWords: Array<[number, number]>;
  /** wordLength when jieba also guesses words the dictionary lacks (HMM: 出声 in 出声询问); cut on
   *  first use (only same-sound matches ask). */
  guessedWordLength(): Int32Array;
}

function cut(text: string, hmm: boolean): Omit<Words, 'guessedWordLength'> {
  // (Typed arrays, not a set and a span per character: a scan segments thousands of texts.)
  const bounds = new Uint8Array(text.length + 1);
  const wordLength = new Int32Array(text.length);
  const longWords: Array<[number, number]> = [];
  bounds[0] = 1;
  let at = 0;
  for (const w of segmenter().cut(text, hmm)) {
    wordLength.fill(w.length, at, at + w.length);
    if (w.length >= 3) longWords.push([at, at + w.length]);
    at += w.length;
    bounds[at] = 1;
  }
  return { bounds, wordLength, longWords };
}

/** The words of a (simplified Chinese) text: jieba's precise mode, with and without HMM guesses. */
export function words(text: string): Words {
  const exact = cut(text, false);
  let guessed: Int32Array | null = null;
  return { ...exact, guessedWordLength: () => (guessed ??= cut(text, true).wordLength) };
}
