/**
 * bansha's traditional → simplified conversion (src/text/simplified.ts: opencc-js's dictionaries in flat
 * maps) says exactly what opencc-js's own Converter({from: 't', to: 'cn'}) says: on every dictionary
 * entry, on the rule posts and everyday sentences of fixtures/, on texts made of dictionary keys run
 * together, and on random text over those characters, ideographic description sequences, surrogate
 * pairs, ASCII and full-width forms.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import CJK_Compatibility_Ideographs from 'opencc-js/dict/CJK_Compatibility_Ideographs';
import TSCharacters from 'opencc-js/dict/TSCharacters';
import TSPhrases from 'opencc-js/dict/TSPhrases';
import { Converter, Locale } from 'opencc-js/t2cn';
import { describe, expect, test } from 'vitest';
import { toSimplified } from '../../src/text/simplified.js';
import { everydaySentences } from '../../src/bench/everyday-sentences.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures');
const opencc = Converter({ from: 't', to: 'cn' });

const t2s = (Locale.configs as unknown as Record<string, { normalizationChain: string[][]; conversionChain: string[][] }>).t2s;
const entries = [...t2s.normalizationChain, ...t2s.conversionChain].flat().flatMap((d) => d.split('|').map((e) => e.split(' ')));
const keys = entries.map(([k]) => k);
const chars = [...new Set(entries.flatMap(([k, v]) => [...k, ...v]))];

describe('toSimplified', () => {
  test("the dictionaries it reads are opencc-js's t2s, in its order", () => {
    expect(t2s.normalizationChain).toEqual([[CJK_Compatibility_Ideographs]]);
    expect(t2s.conversionChain).toEqual([[TSPhrases, TSCharacters]]);
  });

  test('申請加速 → 申请加速; simplified text unchanged', () => {
    expect(toSimplified('申請加速')).toBe('申请加速');
    expect(toSimplified('申请加速，理由如下')).toBe(opencc('申请加速，理由如下'));
  });

  test(`every one of the ${entries.length} dictionary entries, key and value, as opencc-js converts it`, () => {
    for (const [k, v] of entries) {
      expect(toSimplified(k), k).toBe(opencc(k));
      expect(toSimplified(v), v).toBe(opencc(v));
    }
  });

  test('the rule posts and the everyday sentences, line by line and whole', () => {
    const texts = [
      ...fs.readdirSync(path.join(FIXTURES, 'rules')).map((f) => fs.readFileSync(path.join(FIXTURES, 'rules', f), 'utf8')),
      everydaySentences().join('\n'),
    ];
    for (const text of texts) {
      expect(toSimplified(text)).toBe(opencc(text));
      for (const line of text.split('\n')) expect(toSimplified(line), line).toBe(opencc(line));
    }
  });

  test('keys run together (longest matches, overlaps) and random text', () => {
    const key = fc.constantFrom(...keys);
    const char = fc.oneof(
      fc.constantFrom(...chars),
      fc.constantFrom('⿰', '⿱', '⿲', '⿳', '⿴', '⿻', '⿿'), // ideographic description characters
      fc.constantFrom('𠮷', '𩸽', '\ud842', '\udfb7'), // astral characters, lone surrogates
      fc.constantFrom('a', ' ', '|', '，', 'Ａ', '\n'),
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(key, char), { maxLength: 40 }), (parts) => {
        const s = parts.join('');
        expect(toSimplified(s)).toBe(opencc(s));
      }),
      { numRuns: 3000 },
    );
  });
});
