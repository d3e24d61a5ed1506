/**
 * The learned second opinion's data and figures (issue 36; src/violations/learned.ts):
 * - training: the tune sets of fixtures/wording/ (labelled.tsv, tune-independent.tsv,
 *   tune-independent-2.tsv, tune-independent-3.tsv, tune-independent-4.tsv, the tune part of open-ended.tsv by splitPart) and, where ../shared is
 *   there, the training half of the everyday sentences (splitPart with EVERYDAY_SEED) as clean, but
 *   those a person judged a violation (everyday-judged.tsv), and the rule posts' sentences as clean;
 * - figures: false alarms per 1,000 sentences of the everyday held-out half, and recall on the held-out
 *   part of open-ended.tsv of the scan alone and of the scan with the learned opinion.
 * Never reads independent*.tsv, held-out-3.tsv nor held-out-4.tsv: those are scored by the integrator, not tuned on.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { packagePath } from '../paths.js';
import { everydaySentences, sharedRealworld } from './everyday-sentences.js';
import { EVERYDAY_JUDGED, LABELLED_SET, OPEN_ENDED_SET, TUNE_INDEPENDENT_SET, TUNE_INDEPENDENT_2_SET, TUNE_INDEPENDENT_3_SET, TUNE_INDEPENDENT_4_SET, readLabelledSet, splitPart, type LabelledSentence } from './wording-eval.js';
import { DEFAULT_TRAINING, learnedHits, sentenceRanges, serializeModel, trainWordingModel, type TrainingItem, type TrainingOptions, type WordingModel } from '../violations/learned.js';
import { findBannedWording } from '../violations/wording.js';
import type { WordLists } from '../violations/word-lists.js';

/** The seed splitting the everyday sentences into a training half and a held-out half. */
export const EVERYDAY_SEED = 36;

function sha256(s: string | Buffer): string {
  return crypto.createHash('sha256').update(s).digest('hex').slice(0, 16);
}

export interface TrainingSource {
  name: string;
  /** sha256 (first 16 hex digits) of the file, or of the sentences joined by newlines. */
  digest: string;
  sentences: number;
}

function asItem(s: LabelledSentence): TrainingItem {
  return { sentence: s.sentence, kind: s.label ? s.category : null };
}

/** The everyday sentences' two halves ([] each where ../shared is not there: only the project's own games are read then). */
export function everydayHalves(): { train: string[]; heldOut: string[] } {
  const all = sharedRealworld() ? everydaySentences() : [];
  return { train: all.filter((s) => splitPart(s, EVERYDAY_SEED) === 'tune'), heldOut: all.filter((s) => splitPart(s, EVERYDAY_SEED) === 'held-out') };
}

/** The sentences of the rule posts in ../shared/rules ([] where it is not there): clean talk about the rules, so their own words never flag. */
export function ruleSentences(): string[] {
  const dir = path.resolve(packagePath(), '..', 'shared', 'rules');
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.txt')).sort()) {
    const text = fs.readFileSync(path.join(dir, f), 'utf8');
    for (const [a, b] of sentenceRanges(text)) {
      const s = text.slice(a, b).trim();
      if (s) out.push(s);
    }
  }
  return out;
}

/** The training items and where they came from (recorded in the model's header). */
export function learnedTrainingSet(): { items: TrainingItem[]; sources: TrainingSource[] } {
  const items: TrainingItem[] = [];
  const sources: TrainingSource[] = [];
  for (const file of [LABELLED_SET, TUNE_INDEPENDENT_SET, TUNE_INDEPENDENT_2_SET, TUNE_INDEPENDENT_3_SET, TUNE_INDEPENDENT_4_SET]) {
    const set = readLabelledSet(file);
    items.push(...set.map(asItem));
    sources.push({ name: path.relative(packagePath(), file), digest: sha256(fs.readFileSync(file)), sentences: set.length });
  }
  const open = readLabelledSet(OPEN_ENDED_SET).filter((s) => splitPart(s.sentence) === 'tune');
  items.push(...open.map(asItem));
  sources.push({ name: `${path.relative(packagePath(), OPEN_ENDED_SET)} (tune part)`, digest: sha256(fs.readFileSync(OPEN_ENDED_SET)), sentences: open.length });
  const rules = ruleSentences();
  items.push(...rules.map((sentence) => ({ sentence, kind: null })));
  sources.push({ name: 'rule posts (../shared/rules), every sentence', digest: sha256(rules.join('\n')), sentences: rules.length });
  const { train } = everydayHalves();
  // A sentence a person judged a violation (everyday-judged.tsv) is one of its kind, not clean.
  const judged = new Map(readLabelledSet(EVERYDAY_JUDGED).map((s) => [s.sentence, s]));
  items.push(...train.map((sentence) => asItem(judged.get(sentence) ?? { label: false, category: '-', sentence })));
  sources.push({ name: `everyday sentences, training half (seed ${EVERYDAY_SEED})`, digest: sha256(train.join('\n')), sentences: train.length });
  return { items, sources };
}

/** The held-out part of open-ended.tsv (never trained on). */
export function openEndedHeldOut(): LabelledSentence[] {
  return readLabelledSet(OPEN_ENDED_SET).filter((s) => splitPart(s.sentence) === 'held-out');
}

export interface LearnedFigures {
  /** Everyday held-out sentences not judged violations, and those the learned opinion flags (the scan flagged none of them). */
  everyday: number;
  everydayFlags: string[];
  /** Positives of open-ended.tsv's held-out part, found by the scan alone and by the scan with the learned opinion (right kind). */
  positives: number;
  scanFound: number;
  unionFound: number;
  /** Negatives of that part, flagged by the learned opinion alone. */
  negatives: number;
  learnedFalseAlarms: number;
}

/** The learned opinion's held-out figures (a sentence is flagged by the model only where the scan flags nothing). */
export function learnedFigures(model: WordingModel, lists: WordLists): LearnedFigures {
  const judged = new Set(readLabelledSet(EVERYDAY_JUDGED).map((s) => s.sentence));
  const everyday = everydayHalves().heldOut.filter((s) => !judged.has(s));
  const everydayFlags = everyday.filter((s) => !findBannedWording(s, lists, { learned: false }).length && learnedHits(s, model).length);
  const held = openEndedHeldOut();
  let scanFound = 0;
  let unionFound = 0;
  let learnedFalseAlarms = 0;
  for (const s of held) {
    const hits = findBannedWording(s.sentence, lists, { learned: false });
    const learned = hits.length ? [] : learnedHits(s.sentence, model);
    if (s.label) {
      if (hits.some((h) => h.category === s.category)) scanFound++;
      if (hits.some((h) => h.category === s.category) || learned.some((h) => h.kind === s.category)) unionFound++;
    } else if (learned.length) learnedFalseAlarms++;
  }
  const positives = held.filter((s) => s.label).length;
  return { everyday: everyday.length, everydayFlags, positives, scanFound, unionFound, negatives: held.length - positives, learnedFalseAlarms };
}

/** The model file's text (src/violations/data/wording-model.txt) trained on learnedTrainingSet with the options: what scripts/train-wording-model.mjs writes. */
export function trainedModelText(opts: TrainingOptions = DEFAULT_TRAINING): string {
  const { items, sources } = learnedTrainingSet();
  const kinds = [...new Set(items.flatMap((it) => (it.kind ? [it.kind] : [])))].sort();
  const model = trainWordingModel(items, kinds, opts, { sources });
  const header = [
    'Learned second opinion on banned wording (issue 36): softmax regression over hashed character 1-3-grams,',
    'read by src/violations/learned.ts. Written by scripts/train-wording-model.mjs; do not edit by hand.',
    ...sources.map((s) => `trained on ${s.name}: ${s.sentences} sentences, sha256 ${s.digest}`),
    `options ${JSON.stringify(opts)}`,
  ];
  return serializeModel(model, header);
}
