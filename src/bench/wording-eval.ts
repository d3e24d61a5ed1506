/**
 * Precision and recall of banned-wording matching on the labelled set fixtures/wording/labelled.tsv
 * (label 1/0, category, sentence). A positive counts as found only when a hit of its own category is
 * reported; a negative is a false alarm when any hit is reported. Run: `node dist/bench/wording-eval.js`.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packagePath } from '../paths.js';
import { bundledCategories, loadWordLists, type WordLists } from '../violations/word-lists.js';
import { describeHit, findBannedWording } from '../violations/wording.js';

export interface LabelledSentence {
  label: boolean;
  category: string;
  sentence: string;
}

export interface WordingEvaluation {
  total: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  trueNegatives: number;
  precision: number;
  recall: number;
  /** Positives not found (with what was found instead, if anything). */
  misses: Array<LabelledSentence & { found: string[] }>;
  /** Negatives flagged, with the hits. */
  falseAlarms: Array<LabelledSentence & { found: string[] }>;
}

/** The default labelled set. */
export const LABELLED_SET = packagePath('fixtures', 'wording', 'labelled.tsv');

/** Reads a labelled TSV (comment lines start with #). */
export function readLabelledSet(file = LABELLED_SET): LabelledSentence[] {
  return fs
    .readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l, i) => {
      const [label, category, ...rest] = l.split('\t');
      if ((label !== '0' && label !== '1') || !category || !rest.length) throw new Error(`${file}: line ${i + 1} is not "label<TAB>category<TAB>sentence"`);
      return { label: label === '1', category, sentence: rest.join('\t') };
    });
}

/** Runs the matcher over the set and scores it. */
export function evaluateWording(set: LabelledSentence[] = readLabelledSet(), lists: WordLists = loadWordLists(bundledCategories())): WordingEvaluation {
  const ev: WordingEvaluation = { total: set.length, truePositives: 0, falsePositives: 0, falseNegatives: 0, trueNegatives: 0, precision: 0, recall: 0, misses: [], falseAlarms: [] };
  for (const s of set) {
    const hits = findBannedWording(s.sentence, lists);
    const found = hits.map(describeHit);
    if (s.label) {
      if (hits.some((h) => h.category === s.category)) ev.truePositives++;
      else {
        ev.falseNegatives++;
        ev.misses.push({ ...s, found });
      }
    } else if (hits.length) {
      ev.falsePositives++;
      ev.falseAlarms.push({ ...s, found });
    } else ev.trueNegatives++;
  }
  ev.precision = ev.truePositives / Math.max(1, ev.truePositives + ev.falsePositives);
  ev.recall = ev.truePositives / Math.max(1, ev.truePositives + ev.falseNegatives);
  return ev;
}

/** The printed summary. */
export function formatEvaluation(ev: WordingEvaluation): string {
  const lines = [
    `banned wording on ${ev.total} labelled sentences: precision ${ev.precision.toFixed(3)}, recall ${ev.recall.toFixed(3)}`,
    `  TP ${ev.truePositives}  FP ${ev.falsePositives}  FN ${ev.falseNegatives}  TN ${ev.trueNegatives}`,
  ];
  for (const m of ev.misses) lines.push(`  missed      [${m.category}] ${m.sentence}${m.found.length ? `  (found: ${m.found.join('; ')})` : ''}`);
  for (const f of ev.falseAlarms) lines.push(`  false alarm [${f.category}] ${f.sentence}  (${f.found.join('; ')})`);
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(formatEvaluation(evaluateWording(readLabelledSet(process.argv[2] ?? LABELLED_SET))));
}
