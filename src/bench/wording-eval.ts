/**
 * How far banned-wording flags can be trusted (issue #15), on three sets in fixtures/wording/:
 * - tune: labelled.tsv (written from the lists), tune-independent.tsv, tune-independent-2.tsv and
 *   tune-independent-3.tsv, tune-independent-4.tsv (written from the rule posts alone by outside writers, issue 36) and the tune part of
 *   open-ended.tsv — the sentences the patterns may be changed for; misses and false alarms are listed;
 * - held-out: the other part of open-ended.tsv (seeded split, splitPart) — scored, never listed, so
 *   nobody tunes on it (`--show-held-out` lists it for a review after the fact);
 * - held-out-3: every third sentence of the two writers whose other sentences are tune-independent-3.tsv,
 *   scored per kind and never listed, never trained on (`--show-held-out` lists it too); held-out-4 likewise for
 *   tune-independent-4.tsv's writers (the fourth round);
 * - everyday: real forum sentences (everyday-sentences.ts); every flag is a false alarm unless
 *   everyday-judged.tsv records a person's judgement that the sentence is a violation;
 * - independent: independent.tsv and independent-2.tsv, each written and labelled apart from the team by
 *   a different writer and judge (issue 36, provenance in their headers) — scored per kind of speech, every
 *   miss and false alarm listed, never tuned on.
 * A positive counts as found only when a hit of its own category is reported; a negative is a false
 * alarm when any hit is reported. Run: `npm run eval:wording`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packagePath } from '../paths.js';
import { bundledCategories, loadWordLists, type WordLists } from '../violations/word-lists.js';
import { describeHit, findBannedWording } from '../violations/wording.js';
import { everydaySentences, everydaySources } from './everyday-sentences.js';
import { readDataLines } from '../violations/text-fold.js';

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

/** The set written from the lists (all of it is tune). */
export const LABELLED_SET = packagePath('fixtures', 'wording', 'labelled.tsv');
/** Sentences a second independent writer wrote from the rule posts alone, for tuning (issue 36: all of it is tune). */
export const TUNE_INDEPENDENT_SET = packagePath('fixtures', 'wording', 'tune-independent.tsv');
/** A third outside writer's sentences from the rule posts alone (issue 36, second tuning round): all of it is tune. */
export const TUNE_INDEPENDENT_2_SET = packagePath('fixtures', 'wording', 'tune-independent-2.tsv');
/** Two more outside writers' sentences from the rule posts alone (issue 36, third round): the two thirds that are tune. */
export const TUNE_INDEPENDENT_3_SET = packagePath('fixtures', 'wording', 'tune-independent-3.tsv');
/** The same two writers' other third (every third sentence of each): held out from the frames and the model. */
export const HELD_OUT_3_SET = packagePath('fixtures', 'wording', 'held-out-3.tsv');
/** The fourth round's two writers (issue 36): the two thirds that are tune. */
export const TUNE_INDEPENDENT_4_SET = packagePath('fixtures', 'wording', 'tune-independent-4.tsv');
/** Their other third (every third sentence of each): held out from the frames and the model. */
export const HELD_OUT_4_SET = packagePath('fixtures', 'wording', 'held-out-4.tsv');
/** The open-ended set, split into tune and held-out by splitPart. */
export const OPEN_ENDED_SET = packagePath('fixtures', 'wording', 'open-ended.tsv');
/** Everyday sentences a person judged to be violations (label 1, category, sentence). */
export const EVERYDAY_JUDGED = packagePath('fixtures', 'wording', 'everyday-judged.tsv');
/** Text nobody on the team wrote, labelled blind (issue 36): two sets, by two writers and two judges. */
export const INDEPENDENT_SETS = [packagePath('fixtures', 'wording', 'independent.tsv'), packagePath('fixtures', 'wording', 'independent-2.tsv')];
/** The split's seed, recorded in open-ended.tsv's header too. */
export const SPLIT_SEED = 15;

/** tune or held-out: FNV-1a (32 bit) of "<seed>:<sentence>", even → tune. Stable per sentence. */
export function splitPart(sentence: string, seed = SPLIT_SEED): 'tune' | 'held-out' {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(`${seed}:${sentence}`, 'utf8')) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h % 2 === 0 ? 'tune' : 'held-out';
}

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

/** The tune and held-out sets. */
export function labelledParts(): { tune: LabelledSentence[]; heldOut: LabelledSentence[] } {
  const open = readLabelledSet(OPEN_ENDED_SET);
  return {
    tune: [...readLabelledSet(LABELLED_SET), ...readLabelledSet(TUNE_INDEPENDENT_SET), ...readLabelledSet(TUNE_INDEPENDENT_2_SET), ...readLabelledSet(TUNE_INDEPENDENT_3_SET), ...readLabelledSet(TUNE_INDEPENDENT_4_SET), ...open.filter((s) => splitPart(s.sentence) === 'tune')],
    heldOut: open.filter((s) => splitPart(s.sentence) === 'held-out'),
  };
}

/** The everyday sentences: each a negative unless everyday-judged.tsv says a person judged it a violation. */
export function everydaySet(): LabelledSentence[] {
  const judged = new Map(readLabelledSet(EVERYDAY_JUDGED).map((s) => [s.sentence, s]));
  return everydaySentences().map((sentence) => judged.get(sentence) ?? { label: false, category: '-', sentence });
}

/** Runs the matcher over the set and scores it. */
export function evaluateWording(set: LabelledSentence[], lists: WordLists = loadWordLists(bundledCategories())): WordingEvaluation {
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

/** False alarms per 1,000 negatives of a set. */
export function falseAlarmsPerThousand(ev: WordingEvaluation): number {
  return (1000 * ev.falsePositives) / Math.max(1, ev.falsePositives + ev.trueNegatives);
}

/** One evaluation per kind of speech: its positives with every negative (so precision counts false alarms of that kind). */
export function evaluateByKind(set: LabelledSentence[], lists: WordLists = loadWordLists(bundledCategories())): Map<string, WordingEvaluation> {
  const kinds = [...new Set(set.filter((s) => s.label).map((s) => s.category))].sort();
  const byKind = new Map<string, WordingEvaluation>();
  for (const kind of kinds) {
    const ev = evaluateWording(set.filter((s) => s.label && s.category === kind), lists);
    // A negative flagged as this kind is this kind's false alarm.
    for (const s of set.filter((x) => !x.label)) {
      const found = findBannedWording(s.sentence, lists).filter((h) => h.category === kind);
      if (found.length) {
        ev.falsePositives++;
        ev.falseAlarms.push({ ...s, found: found.map(describeHit) });
      }
    }
    ev.precision = ev.truePositives / Math.max(1, ev.truePositives + ev.falsePositives);
    byKind.set(kind, ev);
  }
  return byKind;
}

/** One evaluation's summary line and, when `list`, its misses and false alarms. */
export function formatEvaluation(name: string, ev: WordingEvaluation, list: boolean): string {
  const lines = [
    `${name}: ${ev.total} sentences, precision ${ev.precision.toFixed(3)}, recall ${ev.recall.toFixed(3)}  (TP ${ev.truePositives} FP ${ev.falsePositives} FN ${ev.falseNegatives} TN ${ev.trueNegatives})`,
  ];
  if (list) {
    for (const m of ev.misses) lines.push(`  missed      [${m.category}] ${m.sentence}${m.found.length ? `  (found: ${m.found.join('; ')})` : ''}`);
    for (const f of ev.falseAlarms) lines.push(`  false alarm [${f.category}] ${f.sentence}  (${f.found.join('; ')})`);
  }
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const lists = loadWordLists(bundledCategories());
  const { tune, heldOut } = labelledParts();
  const everyday = evaluateWording(everydaySet(), lists);
  console.log(formatEvaluation('tune', evaluateWording(tune, lists), true));
  console.log(formatEvaluation(`held-out (seed ${SPLIT_SEED})`, evaluateWording(heldOut, lists), process.argv.includes('--show-held-out')));
  console.log(formatEvaluation('everyday', everyday, true));
  const held3 = readLabelledSet(HELD_OUT_3_SET);
  console.log(formatEvaluation(`held-out-3 ${path.basename(HELD_OUT_3_SET)} (every third sentence of tune-independent-3's writers)`, evaluateWording(held3, lists), process.argv.includes('--show-held-out')));
  for (const [kind, ev] of evaluateByKind(held3, lists)) console.log(`  ${kind}: precision ${ev.precision.toFixed(3)}, recall ${ev.recall.toFixed(3)} (TP ${ev.truePositives} FP ${ev.falsePositives} FN ${ev.falseNegatives})`);
  const held4 = readLabelledSet(HELD_OUT_4_SET);
  console.log(formatEvaluation(`held-out-4 ${path.basename(HELD_OUT_4_SET)} (every third sentence of tune-independent-4's writers)`, evaluateWording(held4, lists), process.argv.includes('--show-held-out')));
  for (const [kind, ev] of evaluateByKind(held4, lists)) console.log(`  ${kind}: precision ${ev.precision.toFixed(3)}, recall ${ev.recall.toFixed(3)} (TP ${ev.truePositives} FP ${ev.falsePositives} FN ${ev.falseNegatives})`);
  for (const file of INDEPENDENT_SETS) {
    const independent = readLabelledSet(file);
    console.log(formatEvaluation(`independent ${path.basename(file)} (written and labelled apart from the team)`, evaluateWording(independent, lists), true));
    for (const [kind, ev] of evaluateByKind(independent, lists)) console.log(`  ${kind}: precision ${ev.precision.toFixed(3)}, recall ${ev.recall.toFixed(3)} (TP ${ev.truePositives} FP ${ev.falsePositives} FN ${ev.falseNegatives})`);
  }
  console.log(`everyday false alarms: ${everyday.falsePositives} in ${everyday.falsePositives + everyday.trueNegatives} sentences = ${falseAlarmsPerThousand(everyday).toFixed(2)} per 1,000`);
  console.log(`everyday sentences read from: ${everydaySources().join(', ')}${everydaySources().length < 2 ? ' (../shared/discuz/realworld is not beside this checkout: our captured games only)' : ''}`);
}
