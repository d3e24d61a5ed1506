/**
 * The learned second opinion's data and figures (issue 36; src/violations/learned.ts):
 * - training: the tune sets of fixtures/wording/ (labelled.tsv, tune-independent.tsv,
 *   tune-independent-2.tsv, the tune part of open-ended.tsv by splitPart) and, where ../shared is
 *   there, the training half of the everyday sentences (splitPart with EVERYDAY_SEED) as clean;
 * - figures: false alarms per 1,000 sentences of the everyday held-out half, and recall on the held-out
 *   part of open-ended.tsv of the scan alone and of the scan with the learned opinion.
 * Never reads independent*.tsv: those are scored by the integrator, not tuned on.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { packagePath } from '../paths.js';
import { everydaySentences, sharedRealworld } from './everyday-sentences.js';
import { LABELLED_SET, OPEN_ENDED_SET, TUNE_INDEPENDENT_SET, readLabelledSet, splitPart, type LabelledSentence } from './wording-eval.js';
import type { TrainingItem } from '../violations/learned.js';

/** The second independent tuning set (issue 36). */
export const TUNE_INDEPENDENT_2_SET = packagePath('fixtures', 'wording', 'tune-independent-2.tsv');
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

/** The training items and where they came from (recorded in the model's header). */
export function learnedTrainingSet(): { items: TrainingItem[]; sources: TrainingSource[] } {
  const items: TrainingItem[] = [];
  const sources: TrainingSource[] = [];
  for (const file of [LABELLED_SET, TUNE_INDEPENDENT_SET, TUNE_INDEPENDENT_2_SET]) {
    const set = readLabelledSet(file);
    items.push(...set.map(asItem));
    sources.push({ name: path.relative(packagePath(), file), digest: sha256(fs.readFileSync(file)), sentences: set.length });
  }
  const open = readLabelledSet(OPEN_ENDED_SET).filter((s) => splitPart(s.sentence) === 'tune');
  items.push(...open.map(asItem));
  sources.push({ name: `${path.relative(packagePath(), OPEN_ENDED_SET)} (tune part)`, digest: sha256(fs.readFileSync(OPEN_ENDED_SET)), sentences: open.length });
  const { train } = everydayHalves();
  items.push(...train.map((sentence) => ({ sentence, kind: null })));
  sources.push({ name: `everyday sentences, training half (seed ${EVERYDAY_SEED})`, digest: sha256(train.join('\n')), sentences: train.length });
  return { items, sources };
}

/** The held-out part of open-ended.tsv (never trained on). */
export function openEndedHeldOut(): LabelledSentence[] {
  return readLabelledSet(OPEN_ENDED_SET).filter((s) => splitPart(s.sentence) === 'held-out');
}
