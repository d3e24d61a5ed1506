import { describe, expect, test } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { everydaySet, labelledParts } from '../../src/bench/wording-eval.js';
import { bundledCategories, loadWordLists, type WordLists } from '../../src/violations/word-lists.js';
import { findBannedWording } from '../../src/violations/wording.js';
import { forgetCuts } from '../../src/violations/segment.js';

// The pattern index (src/violations/pattern-index.ts) only chooses where patterns are walked: it must
// give exactly the hits of walking every pattern at every token.
const lists = loadWordLists(bundledCategories());
const both = (s: string, l: WordLists = lists, names: string[] = []) => ({
  indexed: findBannedWording(s, l, { names }),
  everyEntry: findBannedWording(s, l, { names, everyEntry: true }),
});

describe('the pattern index never drops a match', () => {
  test('the same hits as every pattern at every token on the whole labelled and everyday corpus', () => {
    const { tune, heldOut } = labelledParts();
    const sentences = [...tune, ...heldOut, ...everydaySet()].map((s) => s.sentence);
    expect(sentences.length).toBeGreaterThan(3000);
    const differ = sentences.filter((s) => {
      const r = both(s);
      return JSON.stringify(r.indexed) !== JSON.stringify(r.everyEntry);
    });
    expect(differ).toEqual([]);
    // Not vacuous: the corpus has hits of every kind of disguise.
    const evasions = new Set(sentences.flatMap((s) => findBannedWording(s, lists).flatMap((h) => h.evasions)));
    expect([...evasions].sort()).toEqual(expect.arrayContaining(['homophone', 'initials', 'pinyin', 'separators', 'variant', 'wildcard']));
  }, 180_000); // (every entry at every token is slow, and the machine is shared: 60 s timed out under load)

  test('the pieces jieba cut kept for the next text give the hits of cutting every text anew', () => {
    // segment.ts keeps each distinct piece's cut: a piece kept under the wrong text or mode would show here.
    const { tune } = labelledParts();
    const sentences = tune.map((s) => s.sentence);
    const kept = sentences.map((s) => JSON.stringify(findBannedWording(s, lists)));
    const anew = sentences.map((s) => {
      forgetCuts();
      return JSON.stringify(findBannedWording(s, lists));
    });
    expect(anew).toEqual(kept);
    expect(kept.filter((h) => h !== '[]').length).toBeGreaterThan(300);
  }, 120_000);

  test('a pattern whose first element is optional starts at the element after it', () => {
    // 发誓与诅咒: {我|}*2是狼的话~8{我就|…}*6{赌注|咒} — without 我 the match starts at 是.
    for (const s of ['真是狼的话我就直播', '我是狼的话我就直播']) {
      const r = both(s);
      expect(r.indexed).toEqual(r.everyEntry);
      expect(r.indexed.map((h) => h.category)).toContain('发誓与诅咒');
    }
    expect(both('真是狼的话我就直播').indexed.find((h) => h.category === '发誓与诅咒')?.matched).toBe('是狼的话我就直播');
  });

  test('the second character is looked for as far as the gaps after the first reach, no further', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-reach-'));
    try {
      // 甲 then up to 3 characters then 乙丙; an optional 戊 then a gap; (another category, so that a
      // longer hit does not hide it) 甲 or 丁 then 乙 at once.
      fs.writeFileSync(path.join(dir, '称谓与叹词.txt'), '@m107:1\n甲*3乙丙\n{戊|}*2己庚\n');
      fs.writeFileSync(path.join(dir, '侮辱性评论.txt'), '@m107:1\n{甲|丁}乙\n');
      const l = loadWordLists(['称谓与叹词', '侮辱性评论'], [dir]);
      const words = (s: string) => {
        const r = both(s, l);
        expect(r.indexed, s).toEqual(r.everyEntry);
        return r.indexed.map((h) => h.word);
      };
      expect(words('甲乙丙')).toContain('甲*3乙丙');
      expect(words('甲乙')).toEqual(['{甲|丁}乙']);
      expect(words('甲一二三乙丙')).toContain('甲*3乙丙');
      expect(words('甲一二三四乙丙')).not.toContain('甲*3乙丙');
      expect(words('丁乙')).toEqual(['{甲|丁}乙']);
      expect(words('丁一乙')).toEqual([]);
      // A wildcard can stand for the second character; a same sound (钾 jia) for the first.
      expect(words('甲一*丙')).toContain('甲*3乙丙');
      expect(words('钾 乙')).toContain('{甲|丁}乙');
      expect(words('戊一二己庚')).toContain('{戊|}*2己庚');
      expect(words('一二己庚')).toContain('{戊|}*2己庚');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('wildcards, typed pinyin, initials, same sounds, names and a director’s own lists', () => {
    const cases = ['傻x一个', '你个傻*', 'wo fa shi 我是好人', '你是sb吗', 'nmsl', '我法师，不是狼', '周九发言', '明天出发，誓要找狼', '以我奶奶的名义担保'];
    for (const s of cases) expect(both(s, lists, ['周九']).indexed, s).toEqual(both(s, lists, ['周九']).everyEntry);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-index-'));
    try {
      fs.writeFileSync(path.join(dir, '称谓与叹词.txt'), '{|老}菜狗\n');
      const extended = loadWordLists(['称谓与叹词'], [dir]);
      for (const s of ['你这菜狗', '老菜狗', '菜勾一个']) {
        const r = both(s, extended);
        expect(r.indexed, s).toEqual(r.everyEntry);
        expect(r.indexed.map((h) => h.word), s).toContain('{|老}菜狗');
      }
      // Each list set has its own index: the bundled one does not know the director's entry.
      expect(findBannedWording('你这菜狗', lists).map((h) => h.word)).not.toContain('{|老}菜狗');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
