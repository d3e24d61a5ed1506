import { describe, expect, test } from 'vitest';
import { evaluateWording, formatEvaluation, readLabelledSet } from '../../src/bench/wording-eval.js';

describe('banned wording on the labelled set (fixtures/wording/labelled.tsv)', () => {
  test('the set has at least 200 sentences, with evasions and hard negatives', () => {
    const set = readLabelledSet();
    expect(set.length).toBeGreaterThanOrEqual(200);
    expect(set.filter((s) => !s.label).length).toBeGreaterThanOrEqual(80);
  });
  test('precision and recall are both above 0.9', () => {
    const ev = evaluateWording();
    if (ev.precision <= 0.9 || ev.recall <= 0.9) console.log(formatEvaluation(ev));
    expect(ev.precision).toBeGreaterThan(0.9);
    expect(ev.recall).toBeGreaterThan(0.9);
  });
});
