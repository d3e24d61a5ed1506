import { createRequire } from 'node:module';
import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { everydaySet, labelledParts } from '../../src/bench/wording-eval.js';
import { readDictionary } from '../../src/violations/dictionary.js';
import { words } from '../../src/violations/segment.js';
import { REALWORLD } from '../helpers/realworld.js';

// segment.ts cuts only the clause pieces a match asks about, on the ground that jieba cuts a text
// piece by piece alike, and gives jieba only the dictionary's words found in those pieces (with the
// rest of the frequency total): held here to jieba with its whole dictionary cutting each whole text,
// at every offset, both modes.
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

/** Each offset of `text`: words() against jieba with its whole dictionary cutting the whole text, both modes; the offsets checked. */
function expectJiebaCut(text: string): number {
  const w = words(text);
  const exact = wholeCut(text, false);
  const guessed = wholeCut(text, true);
  for (let i = 0; i <= text.length; i++) {
    expect(w.boundAt(i), `${text} @${i}`).toBe(exact.bounds.has(i));
    if (i === text.length) continue;
    expect(w.wordAt(i), `${text} @${i}`).toEqual(exact.wordOf[i]);
    expect(w.wordAt(i, true), `${text} @${i} (HMM)`).toEqual(guessed.wordOf[i]);
  }
  return text.length;
}

describe('segmentation by clause pieces', () => {
  test('jieba given only the words of the pieces it cuts (and the rest of the total) cuts as with its whole dictionary', () => {
    // texts of dictionary words and stray characters, so that words overlap and runs of single characters
    // (jieba's guesses) are many; a fixed seed
    const dict = fs.readFileSync(require.resolve('@node-rs/jieba/dict.txt'), 'utf8').split('\n').map((l) => l.split(' ')[0]).filter(Boolean);
    let seed = 16;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
    const stray = '的一是了我不人在他有这个上们来到时大地为子中你说生国年着就那和要她出也得里后自以会家可下而过天去能对小多然于心学么之都好看起发当没成只如事把还用第样道想作种开美总从无情己面最女但现前些所同日手又行意动方期它头经长儿回位分爱老因很给名法间斯知世什两次使身者被高已亲其进此话常与活正感，。！？、…AB3P ';
    let offsets = 0;
    for (let t = 0; t < 1500; t++) {
      let text = '';
      for (let k = 2 + rand(10); k > 0; k--) text += rand(3) ? dict[rand(dict.length)] : stray[rand(stray.length)];
      offsets += expectJiebaCut(text);
    }
    expect(offsets).toBeGreaterThan(10_000);
    // a piece with the stand-in's character (a private use one) is cut with the whole dictionary
    expectJiebaCut('他\uE000是好人，我\uE000发誓');
  }, 120_000);

  test('the same words at every offset as jieba cutting the whole text', () => {
    const { tune, heldOut } = labelledParts();
    const texts = [
      ...[...tune, ...heldOut, ...everydaySet()].map((s) => s.sentence),
      '明天出发，誓要找狼！我 发 誓,真的;不骗你：1.5票…好吗？',
      '第一行\r\n第二行，A股3P了。', '  前面有空格，后面也有  ', '，开头就是逗号', '结尾是逗号，', '，，连续，，逗号',
    ];
    expect(texts.length).toBeGreaterThan(REALWORLD ? 3000 : 900); // the everyday set is 2,800 with ../shared's pages, 210 without
    let offsets = 0;
    for (const text of texts) offsets += expectJiebaCut(text);
    expect(offsets).toBeGreaterThan(REALWORLD ? 30_000 : 8_000);
  }, 60_000);
});

describe("jieba's dictionary read compactly", () => {
  test('words as UTF-16 units (astral characters as pairs), frequencies and their total; CRLF lines and tags read', () => {
    const d = readDictionary(Buffer.from('A股 7 n\r\n一 3 m\r\n一丁 2\r\n\u{20000}乙 5 x\n'))!;
    expect(d).not.toBeNull();
    const word = (i: number) => String.fromCharCode(...d.chars.subarray(d.start[i], d.start[i] + d.length[i]));
    expect([0, 1, 2, 3].map(word)).toEqual(['A股', '一', '一丁', '\u{20000}乙']);
    expect([...d.freq]).toEqual([7, 3, 2, 5]);
    expect(d.total).toBe(17);
    expect([0x41, 0x42, 0x4e00, 0x4e01, 0xd840, 0xd841].map((u) => d.byFirstUnit[u])).toEqual([0, 1, 1, 3, 3, 4]);
  });

  test('a file not laid out so is not read compactly (jieba then reads it whole)', () => {
    for (const text of ['甲 1\n乙 1\n', '甲 1\n甲 2\n', '甲\n', '甲 x\n', '\n甲 1\n', '\uE000 1\n']) expect(readDictionary(Buffer.from(text)), JSON.stringify(text)).toBeNull();
  });
});
