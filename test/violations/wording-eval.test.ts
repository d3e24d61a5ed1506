import { describe, expect, test } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import {
  HELD_OUT_3_SET,
  HELD_OUT_4_SET,
  OPEN_ENDED_SET,
  TUNE_INDEPENDENT_3_SET,
  TUNE_INDEPENDENT_4_SET,
  SPLIT_SEED,
  everydaySet,
  evaluateByKind,
  INDEPENDENT_SETS,
  readLabelledSet,
  evaluateWording,
  falseAlarmsPerThousand,
  formatEvaluation,
  labelledParts,
  splitPart,
} from '../../src/bench/wording-eval.js';
import { everydaySentences } from '../../src/bench/everyday-sentences.js';
import { REALWORLD } from '../helpers/realworld.js';
import { readDataLines } from '../../src/violations/text-fold.js';
import { bundledCategories, loadWordLists } from '../../src/violations/word-lists.js';
import { wordingModel } from '../../src/violations/learned.js';

const lists = loadWordLists(bundledCategories());

describe('honest evaluation of banned wording (fixtures/wording/)', () => {
  test('≥ 600 labelled sentences split by a recorded seed; ≥ 1,000 everyday sentences', () => {
    const { tune, heldOut } = labelledParts();
    expect(tune.length + heldOut.length).toBeGreaterThanOrEqual(600);
    expect(heldOut.length).toBeGreaterThanOrEqual(200);
    expect(heldOut.filter((s) => !s.label).length).toBeGreaterThanOrEqual(60);
    expect(fs.readFileSync(OPEN_ENDED_SET, 'utf8')).toContain(`Seed ${SPLIT_SEED}`);
    expect(splitPart('明天出发，誓要找狼')).toBe(splitPart('明天出发，誓要找狼'));
  });
  test.skipIf(!REALWORLD)('≥ 1,000 everyday sentences, with the third parties\' pages in ../shared', () => {
    expect(everydaySet().length).toBeGreaterThanOrEqual(1000);
    expect(everydaySentences()).toContain('1.14 最新命令能完成你的愿望！'); // MCBBS t857907's first post
  });
  test('the everyday set holds the players\' sentences of our captured games, read by the parser', () => {
    const ours = everydaySentences().filter((s) => s.includes('投票') || s.includes('警长'));
    expect(ours.length).toBeGreaterThan(20);
    expect(everydaySentences().length).toBeGreaterThan(150);
  });
  // Figures when written (2026-12-01): held-out P 0.992 R 0.963; everyday 0 per 1,000. Keep the aims.
  test('held-out precision ≥ 0.95 and recall ≥ 0.9; ≤ 2 false alarms per 1,000 everyday sentences', () => {
    const held = evaluateWording(labelledParts().heldOut, lists);
    const everyday = evaluateWording(everydaySet(), lists);
    const msg = `${formatEvaluation('held-out', held, false)}\n${formatEvaluation('everyday', everyday, true)}`;
    expect(held.precision, msg).toBeGreaterThanOrEqual(0.95);
    expect(held.recall, msg).toBeGreaterThanOrEqual(0.9);
    expect(falseAlarmsPerThousand(everyday), msg).toBeLessThanOrEqual(2);
  });
  // Figures when written (2026-12-07, issue 36): held-out-3 after the third round P 0.944 R 0.821 (the scan
  // before that round: P 0.919 R 0.748); held-out-4 after the fourth P 0.960 R 0.859 (before it: P 0.963 R
  // 0.823; docs/learned-wording.md). The aim is P ≥ 0.95 R ≥ 0.9; these are floors.
  test.each([
    ['held-out-3', HELD_OUT_3_SET, TUNE_INDEPENDENT_3_SET, 0.93, 0.8],
    ['held-out-4', HELD_OUT_4_SET, TUNE_INDEPENDENT_4_SET, 0.94, 0.82],
  ] as const)('%s: every third sentence of its round\'s writers, apart from their tune part and the model; P ≥ %s, R ≥ %s', (name, heldSet, tuneSet, p, r) => {
    const held = readLabelledSet(heldSet);
    const tune = new Set(readLabelledSet(tuneSet).map((s) => s.sentence));
    expect(held.length).toBeGreaterThanOrEqual(600);
    expect(held.filter((s) => tune.has(s.sentence)).length).toBe(0);
    expect(new Set(held.map((s) => s.category)).size).toBe(bundledCategories().length + 1); // every kind, and '-'
    expect(JSON.stringify(wordingModel().meta)).not.toMatch(new RegExp(name));
    const ev = evaluateWording(held, lists);
    expect(ev.precision, formatEvaluation(name, ev, false)).toBeGreaterThanOrEqual(p);
    expect(ev.recall, formatEvaluation(name, ev, false)).toBeGreaterThanOrEqual(r);
  });
  test('the tune part stays above 0.95 / 0.9', () => {
    const tune = evaluateWording(labelledParts().tune, lists);
    expect(tune.precision, formatEvaluation('tune', tune, true)).toBeGreaterThanOrEqual(0.95);
    expect(tune.recall, formatEvaluation('tune', tune, true)).toBeGreaterThanOrEqual(0.9);
  });
  test.each(INDEPENDENT_SETS)('an independent set (issue 36): 800+ agreed sentences, every banned kind, with its provenance; scored per kind: %s', (file) => {
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toMatch(/independent writer who read only the four rule posts/);
    expect(text).toMatch(/Labelled blind by a second independent judge/);
    const set = readLabelledSet(file);
    expect(set.length).toBeGreaterThanOrEqual(800);
    expect(new Set(set.map((s) => s.sentence)).size).toBe(set.length);
    const kinds = new Set(bundledCategories());
    for (const s of set) if (s.label) expect(kinds, s.sentence).toContain(s.category);
    const byKind = evaluateByKind(set, lists);
    expect([...byKind.keys()].sort()).toEqual([...kinds].sort());
    for (const [kind, ev] of byKind) expect(ev.truePositives + ev.falseNegatives, kind).toBeGreaterThanOrEqual(50);
  });
});
