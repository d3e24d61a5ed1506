/**
 * A learned second opinion on banned wording (issue 36): softmax regression over the character 1–3-grams
 * of a sentence (present or not), hashed into a fixed table, with one class per kind of speech and one
 * for clean talk. It reads the sentences the construction frames of wording.ts did not flag: a sentence
 * is flagged when P(not clean) passes the model's threshold, as the kind it weighs most, and the flag
 * names the n-grams that weighed most for that kind, so a director sees why.
 * - Text is folded as the scan folds it (traditional → simplified, width, case: text-fold.ts), white
 *   space dropped, and the game's role names masked (白痴 the role is not 白痴 the insult).
 * - A sentence that talks about the rules (禁止…, 违规, 规则…) is never flagged: quoting the rule post
 *   is not breaking it.
 * - The model is data: src/violations/data/wording-model.txt, written by scripts/train-wording-model.mjs
 *   from the labelled tune sets (its header records their digests and the options); deterministic.
 * A flag is a proposal for the director, never a penalty.
 */
import fs from 'node:fs';
import { packagePath } from '../paths.js';
import { seededRandom } from '../seeded-random.js';
import { foldChar, foldString, hasTraditional, readDataLines } from './text-fold.js';

/** Where the bundled model is. */
export const WORDING_MODEL_FILE = packagePath('src', 'violations', 'data', 'wording-model.txt');
/** The construction name a learned flag carries in place of a list entry. */
export const LEARNED_CONSTRUCTION = 'learned';

export interface WordingModel {
  /** log2 of the table's rows. */
  bits: number;
  /** Class names: 'clean' first, then the kinds of speech (the word lists' categories). */
  classes: string[];
  /** rows × classes weights, row-major. */
  weights: Float32Array;
  bias: Float32Array;
  /** The weights as a model file has them (parseModel): int8 codes, row-major like `weights`, and by code + 128
   *  its weight (the same numbers as `weights`, from a table a quarter its size: the scan reads a row for
   *  every n-gram of every sentence). */
  quantized?: { codes: Int8Array; values: Float64Array };
  /** Flag when P(not clean) > threshold. */
  threshold: number;
  /** The header's record (options, digests), as written. */
  meta: Record<string, unknown>;
}

/** The game's role names (m107, 062, 120b, 五回): masked before scoring, so a role is never an insult. */
const ROLES = ['白痴', '预言家', '女巫', '猎人', '守卫', '狼人', '狼王', '白狼王', '平民', '村民', '骑士', '长老', '丘比特', '盗贼', '狼美人', '守墓人', '乌鸦', '魔术师', '混血儿', '野孩子', '通灵师', '石像鬼', '恶灵骑士', '摄梦人'];
const ROLE_MASK = '\u0001';
const ROLE_RE = new RegExp(ROLES.sort((a, b) => b.length - a.length).join('|'), 'g');
/** A role's first character: the masking's replace runs only where one is (most sentences name none). */
const ROLE_FIRST = new RegExp(`[${[...new Set(ROLES.map((r) => r[0]))].join('')}]`);
const SPACE = /\s/u;
const SPACES = /\s+/gu;
/** Talk about the rule itself (the frames' {说规则} context, without 红牌/吃牌 which threats use too). */
const RULE_TALK = /禁止|不许|不准|不得|违规|规则|规定|守则|八荣八耻/;
/** The words that clear a learned flag of each kind (data/learned-contexts.txt, its slots from data/slots.txt), folded. */
let contexts: Map<string, string[]> | undefined;
function contextsOf(kind: string): readonly string[] {
  if (!contexts) {
    const slots = new Map<string, string[]>();
    for (const line of readDataLines(packagePath('src', 'violations', 'data', 'slots.txt'))) {
      const m = /^\{(.+?)\}\s*=\s*(.+)$/.exec(line);
      if (m) slots.set(m[1], m[2].split('|'));
    }
    contexts = new Map();
    for (const line of readDataLines(packagePath('src', 'violations', 'data', 'learned-contexts.txt'))) {
      const [k, words] = line.split(/\s*=\s*/);
      const list = words.split('|').flatMap((w) => slots.get(/^\{(.+)\}$/.exec(w)?.[1] ?? '') ?? [w]);
      contexts.set(k, list.map(foldString).filter(Boolean));
    }
  }
  return contexts.get(kind) ?? [];
}

/** Sentence ends for scoring, by UTF-16 unit: a learned flag covers one sentence. */
const SENTENCE_END = new Uint8Array(0x10000);
for (const c of '。！？!?；;\n\r…') SENTENCE_END[c.charCodeAt(0)] = 1;

/** A sentence as the model reads it: folded, no white space, role names masked. */
export function modelText(sentence: string): string {
  let text = foldString(sentence);
  if (SPACE.test(text)) text = text.replace(SPACES, '');
  return ROLE_FIRST.test(text) ? text.replace(ROLE_RE, ROLE_MASK) : text;
}

/** Whether a sentence talks about the rules (never flagged). */
export function talksAboutRules(sentence: string): boolean {
  return RULE_TALK.test(foldString(sentence));
}

/** Reused buffers: code points, rows of a sentence, and the rows seen as bits (8 KB for 2^16 rows: it stays
 *  in the cache; cleared row by row after each sentence). No allocation per sentence. */
let cpBuf = new Int32Array(256);
let rowBuf = new Int32Array(768);
let seenRows = new Int32Array(0);

/**
 * The scan's way to a sentence's model text (issue 36: the opinion reads every sentence no construction
 * matched, so it must cost little): the code points of modelText(sentence) written into `cpBuf`, without
 * a string — each code point folded once a process (foldChar, as foldString does when nothing needs a
 * whole-sentence conversion), white space dropped, role names masked in place. READ_BLANK: the sentence
 * is only white space (never read); READ_WHOLE: it holds a traditional character, whose phrases foldString
 * converts as a whole, so it is read by modelText itself.
 */
const READ_BLANK = -1;
const READ_WHOLE = -2;
/** By UTF-16 unit (a BMP code point, or a lone surrogate) or astral code point: the folded code point (≥ 0), or one of these. */
const FOLD_UNKNOWN = -1;
const FOLD_NONE = -2;
const FOLD_MULTI = -3;
const FOLD_WHOLE = -4;
const unitFolds = new Int32Array(0x10000).fill(FOLD_UNKNOWN);
const astralFolds = new Map<number, number>();
const multiFolds = new Map<number, Int32Array>();
/** The units /\s/ matches (test/violations/learned.test.ts holds it to the regular expression over every unit). */
export const WHITE_UNITS = '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';
const WHITE = new Uint8Array(0x10000);
for (const c of WHITE_UNITS) WHITE[c.charCodeAt(0)] = 1;
/** The roles as code points, in ROLE_RE's order (longest first); by code point, whether a role starts with it. */
const ROLE_CPS = [...ROLES].sort((a, b) => b.length - a.length).map((r) => Int32Array.from(r, (c) => c.codePointAt(0)!));
const ROLE_STARTS = new Set(ROLE_CPS.map((r) => r[0]));
const ROLE_MASK_CP = ROLE_MASK.codePointAt(0)!;

function foldOf(cp: number): number {
  const c = String.fromCodePoint(cp);
  if (hasTraditional(c)) return FOLD_WHOLE;
  const folded: number[] = [];
  for (const f of foldChar(c, true)) if (!SPACE.test(f)) folded.push(f.codePointAt(0)!);
  if (!folded.length) return FOLD_NONE;
  if (folded.length === 1) return folded[0];
  multiFolds.set(cp, Int32Array.from(folded));
  return FOLD_MULTI;
}

/** Reads text[a, b) into cpBuf as modelText would make it: how many code points, or READ_BLANK / READ_WHOLE. */
function readSentence(text: string, a: number, b: number): number {
  if (cpBuf.length < 2 * (b - a)) cpBuf = new Int32Array(2 * (b - a) + 16);
  let n = 0;
  let blank = true;
  let roles = false;
  for (let i = a; i < b; i++) {
    const u = text.charCodeAt(i);
    if (blank && !WHITE[u]) blank = false;
    let cp = u;
    let f: number;
    // (a pair as String's iterator reads it: a high surrogate then a low one)
    if (u >= 0xd800 && u <= 0xdbff && i + 1 < b && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      cp = 0x10000 + ((u - 0xd800) << 10) + (text.charCodeAt(++i) - 0xdc00);
      f = astralFolds.get(cp) ?? FOLD_UNKNOWN;
      if (f === FOLD_UNKNOWN && astralFolds.size < 100_000) astralFolds.set(cp, (f = foldOf(cp)));
      else if (f === FOLD_UNKNOWN) f = foldOf(cp);
    } else {
      f = unitFolds[u];
      if (f === FOLD_UNKNOWN) unitFolds[u] = f = foldOf(u);
    }
    if (f >= 0) {
      if (n === cpBuf.length) growCps(n + 1);
      cpBuf[n++] = f;
      if (!roles && ROLE_STARTS.has(f)) roles = true;
    } else if (f === FOLD_MULTI) {
      const more = multiFolds.get(cp)!;
      if (n + more.length > cpBuf.length) growCps(n + more.length);
      for (let k = 0; k < more.length; k++) {
        cpBuf[n++] = more[k];
        if (ROLE_STARTS.has(more[k])) roles = true;
      }
    } else if (f === FOLD_WHOLE) return READ_WHOLE;
  }
  if (blank) return READ_BLANK;
  return roles ? maskRoles(n) : n;
}

function growCps(need: number): void {
  const grown = new Int32Array(Math.max(need, 2 * cpBuf.length));
  grown.set(cpBuf);
  cpBuf = grown;
}

/** ROLE_RE's replacement in cpBuf[0, n), in place (leftmost, longest role first, one mask a role): the new length. */
function maskRoles(n: number): number {
  let w = 0;
  for (let i = 0; i < n; ) {
    let len = 0;
    if (ROLE_STARTS.has(cpBuf[i])) {
      for (let r = 0; r < ROLE_CPS.length && !len; r++) {
        const role = ROLE_CPS[r];
        if (role[0] !== cpBuf[i] || i + role.length > n) continue;
        let k = 1;
        while (k < role.length && cpBuf[i + k] === role[k]) k++;
        if (k === role.length) len = k;
      }
    }
    if (len) {
      cpBuf[w++] = ROLE_MASK_CP;
      i += len;
    } else cpBuf[w++] = cpBuf[i++];
  }
  return w;
}

/** A sentence's model text as code points, the scan's way (readSentence): null when it is blank, or read by modelText itself. */
export function sentenceCodePoints(text: string, a = 0, b = text.length): number[] | null {
  const n = readSentence(text, a, b);
  return n < 0 ? null : Array.from(cpBuf.subarray(0, n));
}

/** The hashed row of an n-gram: code points cps[i..i+n). */
function rowOf(cps: ArrayLike<number>, i: number, n: number, mask: number): number {
  let h = Math.imul(n, 0x9e3779b1) ^ 0x811c9dc5;
  for (let k = i; k < i + n; k++) h = Math.imul(h ^ cps[k], 0x01000193);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return (h >>> 0) & mask;
}

/** The distinct rows of a model text's 1–3-grams: rowBuf[0..count). */
export function rowsOf(text: string, bits: number): { rows: Int32Array; count: number } {
  let n = 0;
  for (const cp of text) {
    if (n === cpBuf.length) growCps(n + 1);
    cpBuf[n++] = cp.codePointAt(0)!;
  }
  return { rows: rowBuf, count: rowsOfCps(n, bits) };
}

/** The distinct rows of the 1–3-grams of cpBuf[0, n), in rowBuf: how many. */
function rowsOfCps(n: number, bits: number): number {
  if (rowBuf.length < 3 * n) rowBuf = new Int32Array(3 * n + 16);
  const mask = (1 << bits) - 1;
  if (seenRows.length !== (mask >>> 5) + 1) seenRows = new Int32Array((mask >>> 5) + 1);
  const seen = seenRows;
  let count = 0;
  for (let g = 1; g <= 3; g++) {
    for (let i = 0; i + g <= n; i++) {
      const r = rowOf(cpBuf, i, g, mask);
      const bit = 1 << (r & 31);
      if (seen[r >>> 5] & bit) continue;
      seen[r >>> 5] |= bit;
      rowBuf[count++] = r;
    }
  }
  for (let i = 0; i < count; i++) seen[rowBuf[i] >>> 5] = 0;
  return count;
}

/** Class probabilities of a model text (into `out`, length classes). */
export function classProbabilities(model: WordingModel, text: string, out = new Float64Array(model.classes.length)): Float64Array {
  const { rows, count } = rowsOf(text, model.bits);
  return probabilitiesOfRows(model, rows, count, out);
}

/** Class probabilities of rows[0, count) (into `out`). */
function probabilitiesOfRows(model: WordingModel, rows: Int32Array, count: number, out: Float64Array): Float64Array {
  const K = model.classes.length;
  for (let k = 0; k < K; k++) out[k] = model.bias[k];
  if (model.quantized && K === 8) {
    // (the bundled model's eight classes: summed in locals, in the same order, so the same numbers)
    const { codes, values } = model.quantized;
    let z0 = out[0], z1 = out[1], z2 = out[2], z3 = out[3], z4 = out[4], z5 = out[5], z6 = out[6], z7 = out[7];
    for (let i = 0; i < count; i++) {
      const base = rows[i] * 8;
      z0 += values[codes[base] + 128];
      z1 += values[codes[base + 1] + 128];
      z2 += values[codes[base + 2] + 128];
      z3 += values[codes[base + 3] + 128];
      z4 += values[codes[base + 4] + 128];
      z5 += values[codes[base + 5] + 128];
      z6 += values[codes[base + 6] + 128];
      z7 += values[codes[base + 7] + 128];
    }
    out[0] = z0; out[1] = z1; out[2] = z2; out[3] = z3; out[4] = z4; out[5] = z5; out[6] = z6; out[7] = z7;
  } else if (model.quantized) {
    const { codes, values } = model.quantized;
    for (let i = 0; i < count; i++) {
      const base = rows[i] * K;
      for (let k = 0; k < K; k++) out[k] += values[codes[base + k] + 128];
    }
  } else {
    const w = model.weights;
    for (let i = 0; i < count; i++) {
      const base = rows[i] * K;
      for (let k = 0; k < K; k++) out[k] += w[base + k];
    }
  }
  let max = -Infinity;
  for (let k = 0; k < K; k++) if (out[k] > max) max = out[k];
  let sum = 0;
  for (let k = 0; k < K; k++) sum += out[k] = Math.exp(out[k] - max);
  for (let k = 0; k < K; k++) out[k] /= sum;
  return out;
}

/** The model's verdict on one sentence: its kind (null when clean or rule talk), P(not clean), and the n-grams that weighed most for the kind. */
export function judgeSentence(model: WordingModel, sentence: string, threshold = model.threshold): { kind: string | null; score: number; ngrams: string[] } {
  const text = modelText(sentence);
  const p = classProbabilities(model, text);
  const score = 1 - p[0];
  if (!(score > threshold) || talksAboutRules(sentence)) return { kind: null, score, ngrams: [] };
  let best = 1;
  for (let k = 2; k < p.length; k++) if (p[k] > p[best]) best = k;
  const kind = model.classes[best];
  const folded = foldString(sentence);
  if (contextsOf(kind).some((w) => folded.includes(w))) return { kind: null, score, ngrams: [] };
  return { kind, score, ngrams: weightiest(model, text, best) };
}

/** The few n-grams of a model text that weigh most toward class k against clean (shown as the flag's words):
 *  the longer ones (2–3 characters) first, single characters only when fewer of those weigh for it. */
export function weightiest(model: WordingModel, text: string, k: number, few = 3): string[] {
  const cps = [...text].map((c) => c.codePointAt(0)!);
  const K = model.classes.length;
  const seen = new Map<string, number>();
  for (let g = 1; g <= 3; g++) {
    for (let i = 0; i + g <= cps.length; i++) {
      const gram = String.fromCodePoint(...cps.slice(i, i + g));
      if (seen.has(gram) || gram.includes(ROLE_MASK)) continue;
      const r = rowOf(cps, i, g, (1 << model.bits) - 1);
      seen.set(gram, model.weights[r * K + k] - model.weights[r * K]);
    }
  }
  const ranked = [...seen].filter(([, w]) => w > 0).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const longer = ranked.filter(([g]) => [...g].length > 1);
  return [...longer, ...ranked.filter(([g]) => [...g].length === 1)].slice(0, few).map(([g]) => g);
}

/** The sentences of a text as UTF-16 [start, end) ranges (ends at 。！？!?；; newlines and …, marks not included). */
export function sentenceRanges(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let a = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && !SENTENCE_END[text.charCodeAt(i)]) continue;
    if (i > a) out.push([a, i]);
    a = i + 1;
  }
  return out;
}

export interface LearnedHit {
  kind: string;
  /** The sentence flagged, and its UTF-16 offsets in the text. */
  matched: string;
  start: number;
  end: number;
  /** P(not clean). */
  score: number;
  /** The n-grams that weighed most. */
  ngrams: string[];
}

const probabilities = new Float64Array(16);

/**
 * The learned flags of a text, one per sentence, skipping sentences that overlap a range in `skip` (the
 * patterns' hits). A sentence is scored from its code points (readSentence); only one whose score
 * passes the threshold is judged as a string (judgeSentence: the same rows, so the same score).
 */
export function learnedHits(text: string, model: WordingModel = wordingModel(), skip: ReadonlyArray<{ start: number; end: number }> = []): LearnedHit[] {
  const out: LearnedHit[] = [];
  const p = model.classes.length <= probabilities.length ? probabilities : new Float64Array(model.classes.length);
  // (sentenceRanges' sentences, without its arrays)
  for (let a = 0, i = 0; i <= text.length; i++) {
    if (i < text.length && !SENTENCE_END[text.charCodeAt(i)]) continue;
    const b = i;
    const from = a;
    a = i + 1;
    if (b === from) continue;
    let skipped = false;
    for (let k = 0; k < skip.length && !skipped; k++) skipped = skip[k].start < b && from < skip[k].end;
    if (skipped) continue;
    const n = readSentence(text, from, b);
    if (n === READ_BLANK) continue;
    if (n >= 0 && !(1 - probabilitiesOfRows(model, rowBuf, rowsOfCps(n, model.bits), p)[0] > model.threshold)) continue;
    out.push(...judgedHit(model, text, from, b));
  }
  return out;
}

/** The flag of text[a, b) as judgeSentence has it (none or one). */
function judgedHit(model: WordingModel, text: string, a: number, b: number): LearnedHit[] {
  const sentence = text.slice(a, b);
  const { kind, score, ngrams } = judgeSentence(model, sentence);
  if (!kind) return [];
  // The flag covers the sentence without its surrounding white space.
  const lead = sentence.length - sentence.trimStart().length;
  const start = a + lead;
  const end = a + sentence.trimEnd().length;
  return [{ kind, matched: text.slice(start, end), start, end, score, ngrams }];
}

// ---- the model file ----

/** The model as text: `#` header lines (a JSON record), then classes, bias, threshold, and the weights as int8 with one scale, base64. */
export function serializeModel(model: WordingModel, header: string[]): string {
  let max = 0;
  for (const w of model.weights) max = Math.max(max, Math.abs(w));
  const scale = max / 127 || 1;
  const q = Buffer.alloc(model.weights.length);
  for (let i = 0; i < model.weights.length; i++) q.writeInt8(Math.max(-127, Math.min(127, Math.round(model.weights[i] / scale))), i);
  return [
    ...header.map((h) => `# ${h}`),
    `meta ${JSON.stringify(model.meta)}`,
    `bits ${model.bits}`,
    `classes ${model.classes.join('\t')}`,
    `bias ${[...model.bias].map((b) => b.toFixed(6)).join(' ')}`,
    `threshold ${model.threshold}`,
    `scale ${scale.toExponential(8)}`,
    `weights ${q.toString('base64')}`,
    '',
  ].join('\n');
}

/** Reads a model file's text (see serializeModel). */
export function parseModel(text: string): WordingModel {
  const field = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const sp = line.indexOf(' ');
    field.set(line.slice(0, sp), line.slice(sp + 1));
  }
  const need = (k: string) => {
    const v = field.get(k);
    if (v === undefined) throw new Error(`wording model: no "${k}" line`);
    return v;
  };
  const bits = Number(need('bits'));
  const classes = need('classes').split('\t');
  const scale = Number(need('scale'));
  const q = Buffer.from(need('weights'), 'base64');
  if (q.length !== (1 << bits) * classes.length) throw new Error(`wording model: ${q.length} weights, expected ${(1 << bits) * classes.length}`);
  // (read as signed bytes through one view: a call per weight cost ~15 ms of a report rerun's first scan)
  const signed = new Int8Array(q.buffer, q.byteOffset, q.length);
  const weights = new Float32Array(q.length);
  for (let i = 0; i < signed.length; i++) weights[i] = signed[i] * scale;
  const quantized = { codes: signed, values: Float64Array.from({ length: 256 }, (_, c) => Math.fround((c - 128) * scale)) };
  return { bits, classes, weights, quantized, bias: Float32Array.from(need('bias').split(' ').map(Number)), threshold: Number(need('threshold')), meta: JSON.parse(need('meta')) as Record<string, unknown> };
}

let bundled: WordingModel | undefined;
/** The bundled model (read once a process). */
export function wordingModel(): WordingModel {
  return (bundled ??= parseModel(fs.readFileSync(WORDING_MODEL_FILE, 'utf8')));
}

// ---- training ----

export interface TrainingItem {
  sentence: string;
  /** The kind of speech, or null for clean. */
  kind: string | null;
}

export interface TrainingOptions {
  bits: number;
  epochs: number;
  /** Learning rate (SGD). */
  rate: number;
  /** L2 penalty, applied to the rows a sentence touches. */
  l2: number;
  /** Shuffle seed. */
  seed: number;
  threshold: number;
}

/** The options chosen by five-fold cross-validation on the training items alone (docs/learned-wording.md):
 *  the everyday false-alarm rate binds (≤ 1 per 1,000: none there at 0.9), then the recall gained. */
export const DEFAULT_TRAINING: TrainingOptions = { bits: 16, epochs: 12, rate: 0.2, l2: 1e-4, seed: 36, threshold: 0.9 };

/** Trains the model by SGD on the softmax loss (deterministic for the same items and options). */
export function trainWordingModel(items: readonly TrainingItem[], kinds: readonly string[], opts: TrainingOptions = DEFAULT_TRAINING, meta: Record<string, unknown> = {}): WordingModel {
  const classes = ['clean', ...kinds];
  const K = classes.length;
  const weights = new Float32Array((1 << opts.bits) * K);
  const bias = new Float32Array(K);
  const encoded = items.map((it) => {
    const { rows, count } = rowsOf(modelText(it.sentence), opts.bits);
    const y = it.kind === null ? 0 : classes.indexOf(it.kind);
    if (y < 0) throw new Error(`training item of unknown kind ${it.kind}`);
    return { rows: rows.slice(0, count), y };
  });
  const rnd = seededRandom(opts.seed);
  const order = encoded.map((_, i) => i);
  const p = new Float64Array(K);
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    const rate = opts.rate / (1 + epoch * 0.5);
    for (const idx of order) {
      const { rows, y } = encoded[idx];
      for (let k = 0; k < K; k++) p[k] = bias[k];
      for (const r of rows) for (let k = 0; k < K; k++) p[k] += weights[r * K + k];
      let max = -Infinity;
      for (let k = 0; k < K; k++) if (p[k] > max) max = p[k];
      let sum = 0;
      for (let k = 0; k < K; k++) sum += p[k] = Math.exp(p[k] - max);
      for (let k = 0; k < K; k++) {
        const g = p[k] / sum - (k === y ? 1 : 0);
        bias[k] -= rate * g;
        for (const r of rows) weights[r * K + k] -= rate * (g + opts.l2 * weights[r * K + k]);
      }
    }
  }
  return { bits: opts.bits, classes, weights, bias, threshold: opts.threshold, meta: { ...meta, options: opts } };
}
