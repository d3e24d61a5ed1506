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
  /** UTF-16 offsets where a dictionary word starts or ends (0 and the length included). */
  bounds: Set<number>;
  /** For each UTF-16 offset, the [start, end) of the dictionary word it lies in. */
  wordOf: Array<[number, number]>;
  /** The dictionary words' [start, end), in order. */
  spans: Array<[number, number]>;
  /** For each UTF-16 offset, the [start, end) of the word it lies in when jieba also guesses words
   *  the dictionary lacks (HMM: 出声 in 出声询问); cut on first use (only same-sound matches ask). */
  guessedWordOf(): Array<[number, number]>;
}

function cut(text: string, hmm: boolean): Pick<Words, 'bounds' | 'wordOf' | 'spans'> {
  const bounds = new Set<number>([0]);
  const wordOf: Array<[number, number]> = [];
  const spans: Array<[number, number]> = [];
  let at = 0;
  for (const w of segmenter().cut(text, hmm)) {
    const span: [number, number] = [at, at + w.length];
    spans.push(span);
    for (let i = 0; i < w.length; i++) wordOf.push(span);
    at += w.length;
    bounds.add(at);
  }
  return { bounds, wordOf, spans };
}

/** The words of a (simplified Chinese) text: jieba's precise mode, with and without HMM guesses. */
export function words(text: string): Words {
  const exact = cut(text, false);
  let guessed: Array<[number, number]> | null = null;
  return { ...exact, guessedWordOf: () => (guessed ??= cut(text, true).wordOf) };
}
