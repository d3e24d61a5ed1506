import { describe, expect, test } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { everydayHalves, learnedFigures, learnedTrainingSet, ruleSentences, trainedModelText } from '../../src/bench/wording-learned.js';
import { REALWORLD } from '../helpers/realworld.js';
import { everydaySentences } from '../../src/bench/everyday-sentences.js';
import { LEARNED_CONSTRUCTION, WHITE_UNITS, WORDING_MODEL_FILE, classProbabilities, judgeSentence, learnedHits, modelText, parseModel, sentenceCodePoints, sentenceRanges, serializeModel, talksAboutRules, wordingModel, type LearnedHit } from '../../src/violations/learned.js';
import { hasTraditional } from '../../src/violations/text-fold.js';
import { bundledCategories, loadWordLists } from '../../src/violations/word-lists.js';
import { describeHit, findBannedWording } from '../../src/violations/wording.js';

const model = wordingModel();
const SHARED_RULES = fs.existsSync(path.resolve(import.meta.dirname, '../../../shared/rules'));

describe('the learned second opinion on banned wording (issue 36)', () => {
  test('the bundled model is small and names the kinds of the word lists', () => {
    expect(fs.statSync(WORDING_MODEL_FILE).size).toBeLessThan(1_000_000);
    expect(model.classes[0]).toBe('clean');
    expect(model.classes.slice(1)).toEqual(bundledCategories());
    expect(LEARNED_CONSTRUCTION).toBe('learned');
  });

  test("the model file records the digests of the fixtures' training sets, which match them", () => {
    const recorded = (model.meta.sources as Array<{ name: string; digest: string; sentences: number }>).filter((s) => s.name.startsWith('fixtures/'));
    const now = learnedTrainingSet().sources.filter((s) => s.name.startsWith('fixtures/'));
    expect(recorded.map((s) => s.name)).toEqual(['fixtures/wording/labelled.tsv', 'fixtures/wording/tune-independent.tsv', 'fixtures/wording/tune-independent-2.tsv', 'fixtures/wording/tune-independent-3.tsv', 'fixtures/wording/tune-independent-4.tsv', 'fixtures/wording/open-ended.tsv (tune part)']);
    expect(recorded).toEqual(now);
    // Never trained on the independent sets.
    expect(JSON.stringify(model.meta)).not.toMatch(/wording\/independent/);
  });

  test.skipIf(!REALWORLD || !SHARED_RULES)('the model file is what scripts/train-wording-model.mjs writes, byte for byte (deterministic training)', () => {
    expect(trainedModelText()).toBe(fs.readFileSync(WORDING_MODEL_FILE, 'utf8'));
  });

  test('a model survives its file format (int8 weights with one scale)', () => {
    const again = parseModel(serializeModel(model, ['x']));
    expect(again.classes).toEqual(model.classes);
    expect(again.threshold).toBe(model.threshold);
    const a = classProbabilities(model, modelText('拿我的预言家身份担保他是好人'));
    const b = classProbabilities(again, modelText('拿我的预言家身份担保他是好人'));
    for (let k = 0; k < a.length; k++) expect(b[k]).toBeCloseTo(a[k], 3);
  });

  test('a flag carries its kind, its sentence and the n-grams that weighed most', () => {
    const text = '我觉得3号挺好的。我要是狼就让我出门被车撞！今天先投5号';
    const hits = learnedHits(text, model);
    expect(hits).toHaveLength(1);
    const [h] = hits;
    expect(h.kind).toBe('发誓与诅咒');
    expect(h.matched).toBe('我要是狼就让我出门被车撞');
    expect(text.slice(h.start, h.end)).toBe(h.matched);
    expect(h.score).toBeGreaterThan(model.threshold);
    expect(h.ngrams.length).toBeGreaterThan(0);
    for (const g of h.ngrams) expect(modelText(h.matched)).toContain(g);
    expect(learnedHits('拿我的预言家身份担保他是好人', model).map((x) => [x.kind, x.ngrams.includes('担保')])).toEqual([['担保与威胁', true]]);
    expect(learnedHits('导演私下跟我说过他是狼', model).map((x) => x.kind)).toEqual(['提及导演']);
  });

  test('a sentence the patterns flagged is skipped (the opinion is for what they did not)', () => {
    const text = '我要是狼就让我出门被车撞';
    expect(learnedHits(text, model, [{ start: 3, end: 5 }])).toEqual([]);
  });

  test('findBannedWording gives it for what no construction matched, said as the model\'s, and never reads a player\'s name', () => {
    const lists = loadWordLists(bundledCategories());
    const [hit] = findBannedWording('纸障才投他', lists);
    expect(findBannedWording('纸障才投他', lists, { learned: false })).toEqual([]);
    expect(hit).toMatchObject({ category: '侮辱性评论', word: LEARNED_CONSTRUCTION, matched: '纸障才投他', start: 0, end: 5 });
    expect(hit.learned!.ngrams.length).toBeGreaterThan(0);
    expect(describeHit(hit)).toContain('模型判断');
    // A player called 纸障 is no insult: names are blanked before the model reads the sentence.
    expect(findBannedWording('纸障才投他', lists, { names: ['纸障'] })).toEqual([]);
  });

  test('a role named like an insult and a quote of the rule do not flag', () => {
    expect(learnedHits('白痴翻牌免死，他是白痴不是狼', model)).toEqual([]);
    expect(modelText('白痴翻牌')).not.toContain('白痴');
    // The rule's own words: a sentence about the rule is cleared even where the n-grams alone would flag it.
    const rule = '以信仰、判罚或揭秘作为担保或威胁的，禁止';
    expect(talksAboutRules(rule)).toBe(true);
    expect(learnedHits(rule, model)).toEqual([]);
    const bare = '你拿信仰担保，我拿揭秘威胁你';
    expect(learnedHits(bare, model).length).toBe(1);
  });

  test.skipIf(!SHARED_RULES)("no sentence of the rule posts flags", () => {
    const rules = ruleSentences();
    expect(rules.length).toBeGreaterThan(1000);
    expect(rules.filter((s) => learnedHits(s, model).length)).toEqual([]);
  });

  test("the scan's reading of a sentence is modelText's, code point for code point, and its scores the same numbers", () => {
    const odd = ['預言家發誓', '   ', '\u200b', 'ＡＢＣ 你好', '😂你个白痴😂', '狼 人 杀', '白狼王和狼王', '恶灵骑士', 'ﬁ＂⑴㍱', '\ud800孤', 'a\u3000b\u00a0c', '纸障才投他\u0001\u0001'];
    const sentences = [...odd, ...learnedTrainingSet().items.map((it) => it.sentence), ...(REALWORLD ? everydaySentences() : [])];
    for (const s of sentences) {
      const cps = sentenceCodePoints(s);
      // None for a blank sentence or one with a traditional character (read by modelText itself: phrase tables).
      expect(cps === null, s).toBe(!/\S/.test(s) || hasTraditional(s));
      if (cps) expect(String.fromCodePoint(...cps), s).toBe(modelText(s));
    }
    // /\s/ by UTF-16 unit, as readSentence has it.
    for (let u = 0; u < 0x10000; u++) expect(/\s/.test(String.fromCharCode(u)), String(u)).toBe(WHITE_UNITS.includes(String.fromCharCode(u)));
    // The int8 codes give the same numbers as the float weights.
    const floats = { ...model, quantized: undefined };
    for (const s of sentences.slice(0, 2000)) expect(classProbabilities(model, modelText(s))).toEqual(classProbabilities(floats, modelText(s)));
  });

  test('learnedHits flags what judgeSentence flags, sentence by sentence', () => {
    const reference = (text: string): LearnedHit[] =>
      sentenceRanges(text).flatMap(([a, b]) => {
        const sentence = text.slice(a, b);
        if (!/\S/.test(sentence)) return [];
        const { kind, score, ngrams } = judgeSentence(model, sentence);
        if (!kind) return [];
        const start = a + sentence.length - sentence.trimStart().length;
        const end = a + sentence.trimEnd().length;
        return [{ kind, matched: text.slice(start, end), start, end, score, ngrams }];
      });
    const items = learnedTrainingSet().items.map((it) => it.sentence);
    // Texts of several sentences, traditional ones among them.
    const texts = [...items, ...Array.from({ length: items.length >> 2 }, (_, i) => items.slice(4 * i, 4 * i + 4).join('。\n')), '我发誓。預言家發誓！  \n…你去死吧'];
    let flagged = 0;
    for (const text of texts) {
      const hits = learnedHits(text, model);
      flagged += hits.length;
      expect(hits, text).toEqual(reference(text));
    }
    expect(flagged).toBeGreaterThan(100);
  });

  test('sentences end at 。！？!?；; newlines and …', () => {
    const text = '一。二！三？四!五?六；七;八\n九…十';
    expect(sentenceRanges(text).map(([a, b]) => text.slice(a, b))).toEqual(['一', '二', '三', '四', '五', '六', '七', '八', '九', '十']);
  });

  test.skipIf(!REALWORLD)('held-out everyday sentences: at most 1 false alarm per 1,000', () => {
    expect(everydayHalves().heldOut.length).toBeGreaterThan(1000);
    const f = learnedFigures(model, loadWordLists(bundledCategories()));
    expect(f.everyday).toBeGreaterThan(1000);
    expect((1000 * f.everydayFlags.length) / f.everyday).toBeLessThanOrEqual(1);
    // The open-ended held-out part: the union never finds fewer than the scan alone.
    expect(f.unionFound).toBeGreaterThanOrEqual(f.scanFound);
  });
});
