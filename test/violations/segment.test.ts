import { createRequire } from 'node:module';
import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { everydaySet, labelledParts } from '../../src/bench/wording-eval.js';
import { words } from '../../src/violations/segment.js';

// segment.ts cuts only the clause pieces a match asks about, on the ground that jieba cuts a text
// piece by piece alike: held here to jieba cutting each whole text, at every offset, both modes.
const require = createRequire(import.meta.url);
const { Jieba } = require('@node-rs/jieba') as typeof import('@node-rs/jieba');
const jieba = Jieba.withDict(fs.readFileSync(require.resolve('@node-rs/jieba/dict.txt')));

/** For each offset of the text, the [start, end) of its word in jieba's cut of the whole text. */
function wholeCut(text: string, hmm: boolean): { bounds: Set<number>; wordOf: Array<[number, number]> } {
  const bounds = new Set([0]);
  const wordOf: Array<[number, number]> = [];
  let at = 0;
  for (const w of jieba.cut(text, hmm)) {
    for (let i = 0; i < w.length; i++) wordOf.push([at, at + w.length]);
    at += w.length;
    bounds.add(at);
  }
  return { bounds, wordOf };
}

describe('segmentation by clause pieces', () => {
  test('the same words at every offset as jieba cutting the whole text', () => {
    const { tune, heldOut } = labelledParts();
    const texts = [
      ...[...tune, ...heldOut, ...everydaySet()].map((s) => s.sentence),
      '明天出发，誓要找狼！我 发 誓,真的;不骗你：1.5票…好吗？',
      '第一行\r\n第二行，A股3P了。', '  前面有空格，后面也有  ', '，开头就是逗号', '结尾是逗号，', '，，连续，，逗号',
    ];
    expect(texts.length).toBeGreaterThan(3000);
    let offsets = 0;
    for (const text of texts) {
      const w = words(text);
      const exact = wholeCut(text, false);
      const guessed = wholeCut(text, true);
      for (let i = 0; i <= text.length; i++) {
        expect(w.boundAt(i), `${text} @${i}`).toBe(exact.bounds.has(i));
        if (i === text.length) continue;
        expect(w.wordAt(i), `${text} @${i}`).toEqual(exact.wordOf[i]);
        expect(w.wordAt(i, true), `${text} @${i} (HMM)`).toEqual(guessed.wordOf[i]);
        offsets++;
      }
    }
    expect(offsets).toBeGreaterThan(30_000);
  }, 60_000);
});
