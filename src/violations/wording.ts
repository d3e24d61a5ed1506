/**
 * Banned-wording matching (rules-spec §7; m107 l.243: 音近、形近、以及明显的通配符 count too). Finds
 * every pattern of the loaded lists in a text, through the folding of text-fold.ts, and says how the
 * text got there: as written, by same-pinyin substitutes, typed pinyin, pinyin initials or wildcards.
 * What keeps it from reading everyday talk as a violation (issue #15):
 * - a match never crosses clause punctuation (，。！？…), so 「出发，誓」 is not 发誓;
 * - each run of a pattern's characters starts and ends on word boundaries (segment.ts); a
 *   same-sound run must, a literal run of two may instead lie inside one word; so 我日常 is not 我日;
 * - a player's own name is never part of a match;
 * - allow words (data/allow.txt: 法师, 消耗…) cancel a hit whose own characters they overlap (not a
 *   gap's) unless the pattern spells them;
 * - an entry's `!{…}` context (白痴翻牌: the role) cancels it, when its clause holds a context word
 *   outside the entry's own characters (in what a gap skipped, too).
 * A sentence no construction matched gets a learned second opinion (learned.ts: character n-grams, a model
 * trained on the labelled tune sets), flagged as its kind with the n-grams that weighed most; it finds
 * the same speech in other words, which no list of constructions ever covers (issue 36).
 * A hit is a proposal for the director, never a penalty.
 */
import { foldChar, foldString, foldText, pinyinLib, plainPieces, tokenKey, type FoldedText, type Token } from './text-fold.js';
import { words, type Words } from './segment.js';
import type { KeptDictionary } from './dictionary.js';
import { patternCandidates, type AltOptions, type PatternCandidates } from './pattern-index.js';
import type { CharElement, EntryElement, WordEntry, WordLists } from './word-lists.js';
import { publicFlagDetail } from './details.js';
import { wordingFacts } from './flag.js';
import { LEARNED_CONSTRUCTION, learnedHits, wordingModel } from './learned.js';
import { PASTED_DIALOGUE_CITES, PASTED_DIALOGUE_WORDS, pastedDialogue } from './evidence.js';

/** How a hit differs from the entry as listed. */
export type Evasion = 'homophone' | 'pinyin' | 'initials' | 'wildcard' | 'separators' | 'variant';

export interface WordingHit {
  category: string;
  /** The list entry it stands for. */
  word: string;
  /** The rule-post lines the entry cites. */
  cites: string[];
  /** The player's own text that matched (original characters). */
  matched: string;
  /** UTF-16 offsets of `matched` in the text. */
  start: number;
  end: number;
  /** Empty when the text has the entry literally. */
  evasions: Evasion[];
  /** A learned flag (word = 'learned'): the n-grams that weighed most, and P(not clean). */
  learned?: { ngrams: string[]; score: number };
}

export interface WordingOptions {
  /** The players' names: never part of a match (a player called 周九 is not 诅咒). */
  names?: readonly string[];
  /** Try every pattern at every token instead of the index's candidates, and every exact entry: the
   *  reference the tests hold the index to (pattern-index.ts); the same hits, slower. */
  everyEntry?: boolean;
  /** Where jieba's dictionary is kept between processes (segment.ts words): the same hits, a process's first cut sooner. */
  dictionary?: KeptDictionary;
  /** false: the constructions alone, without the learned second opinion (to measure what each adds). */
  learned?: boolean;
}

type Step = 'literal' | 'homophone' | 'pinyin' | 'initials' | 'wildcard';
interface Taken {
  t: number;
  step: Step;
  /** The readings of the entry character matched (for homophone checks). */
  syls: readonly string[];
}

const HAN = /\p{Script=Han}/u;
/** Clause punctuation: no match reaches across it (except a `~` gap across a comma). Sentence
 *  punctuation: nothing reaches across it. */
const CLAUSE_ENDS = '，；：、…,;:';
const SENTENCE_ENDS = '。！？!?\n\r';
/** A character String.prototype.trim keeps (\s is the same set): without one a text is blank. */
const NOT_BLANK = /\S/;
/** Punctuation by UTF-16 unit (what lies between two tokens, where a clause ends): clause punctuation (1), also ending a sentence (3). */
const BREAKS = new Uint8Array(0x10000);
for (const c of CLAUSE_ENDS) BREAKS[c.charCodeAt(0)] = 1;
for (const c of SENTENCE_ENDS) BREAKS[c.charCodeAt(0)] = 3;

interface Context {
  folded: FoldedText;
  tokens: Token[];
  /** hardBefore[t]: clause punctuation between token t-1 and token t (1); sentenceBefore[t]: sentence punctuation. */
  hardBefore: Uint8Array;
  sentenceBefore: Uint8Array;
  /** The text's words (segment.ts: cut on first use, and most texts never get that far), and whether
   *  a word starts or ends at a UTF-16 offset — as jieba has it, but a typed syllable or letter is a
   *  word of its own and a particle after a longer word ends one (去死|吧). */
  words: () => Words;
  boundAt: (offset: number) => boolean;
  /** The reading each Han character has in this text (pinyin-pro's context rules), by UTF-16 offset; lazy. */
  reading: () => Map<number, string>;
}

/** Particles after which jieba keeps a word whole (去死吧, 龟孙儿): a word boundary for matching. */
const PARTICLE_END = /^[\p{Script=Han}]{2,}[吧啊呀了的们吗嘛呢儿]$/u;

function context(text: string, folded: FoldedText, dictionary: KeptDictionary | undefined): Context {
  const { tokens } = folded;
  // Most tokens touch the one before: only the text between two that do not is read.
  const hardBefore = new Uint8Array(tokens.length);
  const sentenceBefore = new Uint8Array(tokens.length);
  for (let i = 1; i < tokens.length; i++) {
    let found = 0;
    for (let k = tokens[i - 1].end; k < tokens[i].start; k++) found |= BREAKS[text.charCodeAt(k)];
    hardBefore[i] = found ? 1 : 0;
    sentenceBefore[i] = found & 2 ? 1 : 0;
  }
  let segmented: Words | null = null;
  const wordsOf = () => (segmented ??= words(folded.simplified, dictionary));
  const boundAt = (offset: number) => {
    if (wordsOf().boundAt(offset)) return true;
    // jieba does not know pinyin: a typed syllable or letter is a word of its own.
    if (folded.runs.length && tokens.some((tok) => tok.run >= 0 && (tok.start === offset || tok.end === offset))) return true;
    if (offset >= folded.simplified.length) return false;
    const [a, b] = wordsOf().wordAt(offset);
    return b === offset + 1 && b - a >= 3 && PARTICLE_END.test(folded.simplified.slice(a, b));
  };
  let reading: Map<number, string> | null = null;
  const readingOf = () => {
    if (!reading) {
      reading = new Map();
      let at = 0;
      for (const r of pinyinLib().pinyin(folded.simplified, { type: 'all', toneType: 'none' })) {
        if (r.isZh) reading.set(at, r.pinyin.replace(/ü/g, 'v'));
        at += r.origin.length;
      }
    }
    return reading;
  };
  return { folded, tokens, hardBefore, sentenceBefore, words: wordsOf, boundAt, reading: readingOf };
}

/** Whether two characters have a reading in common (plain loops: this runs at every step of a walk). */
function sharesReading(a: readonly string[], b: readonly string[]): boolean {
  for (let i = 0; i < a.length; i++) for (let k = 0; k < b.length; k++) if (a[i] === b[k]) return true;
  return false;
}

function stepFor(e: CharElement, t: Token): Step | null {
  if ((t.kind === 'han' || t.kind === 'letter' || t.kind === 'digit') && t.text === e.char) return 'literal';
  if (t.kind === 'wildcard') return 'wildcard';
  if (!e.han) return null;
  if (t.kind === 'han' && sharesReading(t.syls, e.syls)) return 'homophone';
  if (t.kind === 'syllable' && e.syls.includes(t.text)) return 'pinyin';
  // Initials by the character's first (usual) reading only: MC is not 无耻 (无 read mo).
  if (t.kind === 'letter' && e.syls[0]?.[0] === t.text) return 'initials';
  return null;
}

/** Whether tokens a..b, one run of a pattern's characters, sit on word boundaries (see the header). */
function runOk(ctx: Context, a: number, b: number, taken: readonly Taken[]): boolean {
  if (b < a) return true;
  const inRun = taken.filter((x) => x.t >= a && x.t <= b);
  const disguised = inRun.some((x) => x.step !== 'literal' && x.step !== 'wildcard');
  if (disguised && inRun.some((x) => x.step === 'wildcard')) return false;
  if (!disguised && b - a >= 2) return true; // (no segmentation needed)
  const aligned = ctx.boundAt(ctx.tokens[a].start) && ctx.boundAt(ctx.tokens[b].end);
  if (!disguised) return aligned;
  if (!aligned || b === a) return false;
  // A same-sound character must sound so here (射中 is she zhong, not ye zhong) and be a word of its
  // own: a real word that sounds like an entry (其实, 事实, 出声) is that word, and two same-sound
  // characters in two words are two words, not a disguise. Slang spellings that are words (煞笔) are
  // listed as entries.
  // (Word boundaries first: they are cheaper than the readings in context.)
  const same = inRun.filter((x) => x.step === 'homophone');
  const ownWord = (tok: Token, guessed: boolean) => {
    const [ws, we] = ctx.words().wordAt(tok.start, guessed);
    return we - ws <= tok.end - tok.start;
  };
  for (const x of same) if (!ownWord(ctx.tokens[x.t], false)) return false;
  for (const x of same) if (!ownWord(ctx.tokens[x.t], true)) return false;
  for (const x of same) {
    const here = ctx.reading().get(ctx.tokens[x.t].start);
    if (here && !x.syls.includes(here)) return false;
  }
  return true;
}

/** The rest of a pattern after an alternative: where to go on once the chosen option is matched. */
interface Cont {
  els: readonly EntryElement[];
  j: number;
  next: Cont | null;
}

/** A text's matcher: tries an entry's elements from token `at`; returns the last token used and how
 *  each was matched. (One per text, its state reused from candidate to candidate.) */
function matcher(ctx: Context, supply: PatternCandidates): (entry: WordEntry, at: number, alts?: ReadonlyArray<AltOptions | undefined>) => { last: number; taken: Taken[] } | null {
  const { tokens, hardBefore, sentenceBefore } = ctx;
  let entry: WordEntry;
  // The entry's alternatives' options by element position, when the index gave them (else asked of `supply`).
  let altsOf: ReadonlyArray<AltOptions | undefined> | undefined;
  let at = 0;
  const taken: Taken[] = []; // pushed and popped while backtracking; copied on success
  // Runs closed by a gap, checked (runOk: segmentation) only once the whole pattern matched.
  const runs: Array<[number, number]> = [];
  // softFrom: the token from which a `~` gap let clause punctuation pass (until the next character).
  const walk = (els: readonly EntryElement[], j: number, cont: Cont | null, t: number, runStart: number, softFrom: number): number | null => {
    if (j === els.length) {
      if (cont) return walk(cont.els, cont.j, cont.next, t, runStart, softFrom);
      if (entry.clauseEnd && t < tokens.length && !hardBefore[t]) return null;
      if (!runOk(ctx, runStart, t - 1, taken) || !runs.every(([a, b]) => runOk(ctx, a, b, taken))) return null;
      return t - 1;
    }
    const e = els[j];
    if (e.kind === 'gap') {
      if (t === at || (j === els.length - 1 && !cont)) return walk(els, j + 1, cont, t, runStart, -1);
      const blocked = e.acrossCommas ? sentenceBefore : hardBefore;
      runs.push([runStart, t - 1]);
      for (let k = 0; k <= e.max && t + k < tokens.length; k++) {
        if (k > 0 && blocked[t + k - 1]) break;
        const r = walk(els, j + 1, cont, t + k, t + k, e.acrossCommas ? t + k : -1);
        if (r !== null) return r;
      }
      runs.pop();
      return null;
    }
    if (e.kind === 'alt') {
      let after: Cont | null = null;
      const here = tokens[t];
      // (an alternative is an element of the entry's own, never of an option)
      const alt = (els === entry.elements && altsOf?.[j]) || supply.options(e);
      const { list, ids } = alt;
      // An option the text cannot supply, or whose first character this token cannot stand for, fails
      // at once: not walked (the index lists those the token may start without a look at the readings).
      const worth = supply.optionsAt(alt, t);
      for (let k = 0, end = worth ? worth.length : list.length; k < end; k++) {
        const i = worth ? worth[k] : k;
        const option = list[i];
        if (option.length && (!here || (ids && !supply.supplied(ids[i])) || !stepFor(option[0], here))) continue;
        const r = walk(option, 0, (after ??= { els, j: j + 1, next: cont }), t, runStart, softFrom);
        if (r !== null) return r;
      }
      return null;
    }
    if (t >= tokens.length) return null;
    if (t > at && (t === softFrom ? sentenceBefore[t] : hardBefore[t])) return null;
    const step = stepFor(e, tokens[t]);
    if (!step) return null;
    taken.push({ t, step, syls: e.syls });
    const r = walk(els, j + 1, cont, t + 1, runStart, -1);
    if (r === null) taken.pop();
    return r;
  };
  return (e, from, alts) => {
    entry = e;
    altsOf = alts;
    at = from;
    taken.length = 0;
    runs.length = 0;
    const last = walk(entry.elements, 0, null, at, at, -1);
    return last === null ? null : { last, taken: [...taken] };
  };
}

function acceptable(entry: WordEntry, taken: readonly Taken[], ctx: Context): boolean {
  const n = taken.length;
  const wild = taken.filter((s) => s.step === 'wildcard').length;
  if (n === 0 || (n === 1 && taken[0].step !== 'literal')) return false;
  if (wild * 2 > n || taken[0].step === 'wildcard') return false;
  // Pinyin initials spell a whole entry with one whole Latin run: "sb" is 傻逼, the "sb" inside
  // "usb" is not, nor "cm（J" 拆马甲; and only a fixed entry has initials (NHC is not 你好蠢 of {你|你好}{…}).
  if (!taken.some((x) => x.step === 'initials')) return true;
  if (entry.elements.some((e) => e.kind !== 'char')) return false;
  const run = ctx.tokens[taken[0].t].run;
  if (run < 0 || taken.some((x) => ctx.tokens[x.t].run !== run)) return false;
  const { first, last } = ctx.folded.runs[run];
  return taken[0].t === first && taken[taken.length - 1].t === last;
}

function evasionsOf(taken: readonly Taken[], original: string, { tokens, hardBefore }: Context): Evasion[] {
  const ev = new Set<Evasion>();
  for (const s of taken) if (s.step !== 'literal') ev.add(s.step);
  for (let i = 1; i < taken.length; i++) {
    const a = tokens[taken[i - 1].t];
    const b = tokens[taken[i].t];
    if (taken[i].t === taken[i - 1].t + 1 && b.start > a.end && !hardBefore[taken[i].t]) ev.add('separators');
  }
  if (taken.every((s) => s.step === 'literal') && taken.some((s) => original.slice(tokens[s.t].start, tokens[s.t].end) !== tokens[s.t].text)) ev.add('variant');
  return [...ev];
}

interface RawHit extends WordingHit {
  entry: WordEntry;
  /** Tokens matched literally (for the allow list); null for latin/exact entries. */
  literal: Set<number> | null;
  /** Tokens the entry's own characters took (not those a gap skipped); null for latin/exact entries. */
  taken: Set<number> | null;
}

/** The hits of the pattern entries, by first token, then list order. */
function patternHits(text: string, ctx: Context, supply: PatternCandidates): RawHit[] {
  const hits: RawHit[] = [];
  const { tokens } = ctx;
  const match = matcher(ctx, supply);
  for (const { at, entry, alts } of supply.candidates) {
    const m = match(entry, at, alts);
    if (!m || m.last < at || !acceptable(entry, m.taken, ctx)) continue;
    const start = tokens[at].start;
    const end = tokens[m.last].end;
    const literal = new Set(m.taken.filter((x) => x.step === 'literal').map((x) => x.t));
    const taken = new Set(m.taken.map((x) => x.t));
    hits.push({ category: entry.category, word: entry.word, cites: entry.cites, matched: text.slice(start, end), start, end, evasions: evasionsOf(m.taken, text, ctx), entry, literal, taken });
  }
  return hits;
}

/** A latin or exact entry, with the Han characters of an exact one and the letters and digits of a
 *  latin one (symbolMask). */
interface PlainEntry {
  entry: WordEntry;
  han: string[];
  symbols: number;
}

/** Latin letters and digits as bits (a–z, then 0–9): a latin entry needs each of its own in the text. */
function symbolMask(s: string): number {
  let mask = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 97 && c <= 122) mask |= 1 << (c - 97);
    else if (c >= 48 && c <= 57) mask |= 1 << (c - 48 + 26);
  }
  return mask;
}

/** Whether an exact entry may be in the text: each of its Han characters is a token (folded alike). */
function mayHold(tokens: readonly Token[], { han }: PlainEntry): boolean {
  for (const c of han) {
    let found = false;
    for (let i = 0; i < tokens.length && !found; i++) found = tokens[i].text === c;
    if (!found) return false;
  }
  return true;
}

/** A list set's latin and exact entries, and the exact entries by the token key of their first Han
 *  character (a text is read once for them, not once an entry); `asked`: scratch, the text's stamp by
 *  entry when one of its tokens is that character (or the entry has none: always asked). */
interface PlainSet {
  entries: PlainEntry[];
  byFirstKey: Array<number[] | undefined>;
  always: number[];
  /** The latin entries (asked only of a text with Latin runs). */
  latin: number[];
  asked: Int32Array;
  stamp: number;
  /** Scratch: the entries asked about in the text at hand (put in list order before they are). */
  ids: number[];
  /** By token key: its letters' and digits' symbolMask, plus one (0: not worked out yet). */
  maskOfKey: number[];
}

const plainOf = new WeakMap<WordLists, PlainSet>();
/** The list set's latin and exact entries (a few among hundreds of patterns), in list order. */
function plainEntries(lists: WordLists): PlainSet {
  let plain = plainOf.get(lists);
  if (!plain) {
    const entries = lists.entries.filter((e) => e.shape !== 'pattern').map((entry) => ({ entry, han: [...entry.folded].filter((c) => HAN.test(c)), symbols: symbolMask(entry.folded) }));
    const byFirstKey: PlainSet['byFirstKey'] = [];
    const always: number[] = [];
    const latin: number[] = [];
    entries.forEach((p, i) => {
      if (p.entry.shape === 'latin') return latin.push(i);
      if (!p.han.length) return always.push(i);
      const key = tokenKey('han', p.han[0]);
      while (byFirstKey.length <= key) byFirstKey.push(undefined);
      (byFirstKey[key] ??= []).push(i);
    });
    plainOf.set(lists, (plain = { entries, byFirstKey, always, latin, asked: new Int32Array(entries.length), stamp: 0, ids: [], maskOfKey: [] }));
  }
  return plain;
}

/** `everyEntry`: every exact entry asked about (the reference, as for the patterns). */
function plainHits(text: string, lists: WordLists, folded: FoldedText, everyEntry = false): RawHit[] {
  const hits: RawHit[] = [];
  let chars: Array<{ start: number; end: number }> | null = null;
  let flat = '';
  // Latin letters in the folded text are the Latin runs' tokens, its digits the digit tokens: a latin
  // entry is looked for only when the text has each of its letters and digits.
  const set = plainEntries(lists);
  const { asked, byFirstKey, maskOfKey } = set;
  let symbols = 0;
  if (folded.runs.length) {
    for (const t of folded.tokens) {
      if (t.run < 0 && t.kind !== 'digit') continue;
      let m = maskOfKey[t.key];
      if (m === undefined || m === 0) {
        while (maskOfKey.length <= t.key) maskOfKey.push(0);
        maskOfKey[t.key] = m = symbolMask(t.text) + 1;
      }
      symbols |= m - 1;
    }
  }
  // An exact entry is asked about only when a token is its first Han character (then mayHold: all of
  // them); a latin one only when the text has letters or digits in Latin runs (symbols).
  const stamp = ++set.stamp;
  const ids = set.ids;
  ids.length = 0;
  for (const i of set.always) ids.push(i), (asked[i] = stamp);
  if (symbols) for (const i of set.latin) ids.push(i), (asked[i] = stamp);
  for (const t of folded.tokens) {
    const byKey = t.key < byFirstKey.length ? byFirstKey[t.key] : undefined;
    if (byKey) for (const i of byKey) if (asked[i] !== stamp) ids.push(i), (asked[i] = stamp);
  }
  if (everyEntry) {
    ids.length = 0;
    for (let i = 0; i < set.entries.length; i++) ids.push(i);
  } else if (ids.length > 1) ids.sort((x, y) => x - y);
  for (const i of ids) {
    const plain = set.entries[i];
    const { entry } = plain;
    if (entry.shape === 'latin' ? (plain.symbols & symbols) !== plain.symbols || !symbols : !mayHold(folded.tokens, plain)) continue;
    if (!chars) {
      // Folded characters with their offsets in the original (the simplified text keeps them).
      chars = [];
      const simplified = folded.simplified !== text;
      let i = 0;
      for (const cp of folded.simplified) {
        for (const c of foldChar(cp, simplified)) {
          chars.push({ start: i, end: i + cp.length });
          flat += c;
        }
        i += cp.length;
      }
    }
    const found: Array<[number, number]> = [];
    if (entry.shape === 'latin') for (const m of flat.matchAll(entry.regex!)) found.push([m.index, m.index + m[0].length - 1]);
    else for (let a = flat.indexOf(entry.folded); a >= 0; a = flat.indexOf(entry.folded, a + 1)) found.push([a, a + entry.folded.length - 1]);
    for (const [a, b] of found) {
      const start = chars[a].start;
      const end = chars[b].end;
      const evasions: Evasion[] = entry.shape === 'latin' && b - a + 1 > entry.folded.length ? ['separators'] : [];
      hits.push({ category: entry.category, word: entry.word, cites: entry.cites, matched: text.slice(start, end), start, end, evasions, entry, literal: null, taken: null });
    }
  }
  return hits;
}

/** The tokens' texts joined, and the token of each of its UTF-16 offsets. */
function compactOf(tokens: readonly Token[]): { tokens: readonly Token[]; compact: string; tokenAt: number[] } {
  const tokenAt: number[] = [];
  tokens.forEach((t, i) => {
    for (let k = 0; k < t.text.length; k++) tokenAt.push(i);
  });
  return { tokens, compact: tokens.map((t) => t.text).join(''), tokenAt };
}

const wordsByFirst = new WeakMap<readonly string[], Map<number, string[]>>();
/** A word list by the first UTF-16 unit of its words (the empty word left out). */
function byFirstUnit(list: readonly string[]): Map<number, string[]> {
  let m = wordsByFirst.get(list);
  if (!m) {
    m = new Map();
    for (const w of list) if (w) m.set(w.charCodeAt(0), [...(m.get(w.charCodeAt(0)) ?? []), w]);
    wordsByFirst.set(list, m);
  }
  return m;
}

/** Every occurrence of the words in the text, as UTF-16 [start, end) ranges of the original (by where
 *  they start: the text is read once, a word asked about only where its first character is). */
function occurrences({ tokens, compact, tokenAt }: ReturnType<typeof compactOf>, list: readonly string[]): Array<{ start: number; end: number; first: number; last: number }> {
  const out: Array<{ start: number; end: number; first: number; last: number }> = [];
  const byFirst = byFirstUnit(list);
  if (!byFirst.size) return out;
  for (let a = 0; a < compact.length; a++) {
    const words = byFirst.get(compact.charCodeAt(a));
    if (!words) continue;
    for (const w of words) {
      if (!compact.startsWith(w, a)) continue;
      const first = tokenAt[a];
      const last = tokenAt[a + w.length - 1];
      out.push({ start: tokens[first].start, end: tokens[last].end, first, last });
    }
  }
  return out;
}

const namesFolded = new WeakMap<readonly string[], string[]>();
/** The players' names folded (once per roster: the scan passes the same one for every post). */
function foldedNames(names: readonly string[]): string[] {
  let f = namesFolded.get(names);
  if (!f) namesFolded.set(names, (f = names.map(foldString).filter(Boolean)));
  return f;
}

/** The clause (between clause punctuation) around [start, end). */
function clauseAround(text: string, start: number, end: number): [number, number] {
  let a = start;
  while (a > 0 && !BREAKS[text.charCodeAt(a - 1)]) a--;
  let b = end;
  while (b < text.length && !BREAKS[text.charCodeAt(b)]) b++;
  return [a, b];
}

/** Every banned-wording hit in a text (see the header for what is not one), one per place and category. */
export function findBannedWording(text: string, lists: WordLists, opts: WordingOptions = {}): WordingHit[] {
  const hits = withPastedDialogue(text, lists, constructionHits(text, lists, opts));
  if (opts.learned === false || !NOT_BLANK.test(text)) return hits;
  const second = secondOpinion(text, lists, hits, opts.names ?? []);
  return second.length ? [...hits, ...second] : hits;
}

/**
 * The hits with a pasted dialogue's (evidence.ts pastedDialogue: chat turns, times, a card's fields — what no
 * frame finds, a frame never crossing a colon), as a 贴证 hit named by its construction, when the lists ban 贴证.
 */
function withPastedDialogue(text: string, lists: WordLists, hits: WordingHit[]): WordingHit[] {
  if (!lists.categories.includes('贴证')) return hits;
  const d = pastedDialogue(text);
  if (!d) return hits;
  const hit: WordingHit = { category: '贴证', word: PASTED_DIALOGUE_WORDS[d.construction], cites: PASTED_DIALOGUE_CITES, matched: text.slice(d.start, d.end), start: d.start, end: d.end, evasions: [] };
  return [...hits, hit].sort((a, b) => a.start - b.start);
}

/**
 * The learned flags of the sentences no construction matched, of the lists' kinds only (a game that bans
 * no 马甲 talk gets none). The players' names are blanked first, as they are never part of a match.
 */
function secondOpinion(text: string, lists: WordLists, hits: readonly WordingHit[], names: readonly string[]): WordingHit[] {
  let read = text;
  const named = namesIn(text, names);
  if (named) for (let i = 0; i < names.length; i++) if (named[i] && read.includes(names[i])) read = read.replaceAll(names[i], '\u0001'.repeat(names[i].length));
  const out: WordingHit[] = [];
  for (const h of learnedHits(read, wordingModel(), hits)) {
    if (!lists.categories.includes(h.kind)) continue;
    out.push({ category: h.kind, word: LEARNED_CONSTRUCTION, cites: [], matched: text.slice(h.start, h.end), start: h.start, end: h.end, evasions: [], learned: { ngrams: h.ngrams, score: h.score } });
  }
  return out;
}

const namesByFirst = new WeakMap<readonly string[], { starts: Uint8Array; byFirst: Map<number, number[]>; found: Uint8Array }>();
/**
 * Which of the names the text holds, by position in `names` (a scratch array, valid until the next
 * call), or null for none (most texts: a text is read once, a name asked about only where its first
 * character is). (A name the text does not hold cannot appear as others are blanked.)
 */
function namesIn(text: string, names: readonly string[]): Uint8Array | null {
  if (!names.length) return null;
  let roster = namesByFirst.get(names);
  if (!roster) {
    roster = { starts: new Uint8Array(0x10000), byFirst: new Map(), found: new Uint8Array(names.length) };
    names.forEach((name, i) => {
      if (!name) return;
      roster!.starts[name.charCodeAt(0)] = 1;
      roster!.byFirst.set(name.charCodeAt(0), [...(roster!.byFirst.get(name.charCodeAt(0)) ?? []), i]);
    });
    namesByFirst.set(names, roster);
  }
  const { starts, byFirst, found } = roster;
  let any = false;
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    if (!starts[u]) continue;
    for (const k of byFirst.get(u)!) {
      if (!text.startsWith(names[k], i)) continue;
      if (!any) found.fill(0);
      any = true;
      found[k] = 1;
    }
  }
  return any ? found : null;
}

/** Scratch: a text's pieces (plainPieces). */
const pieces: Array<Pick<Token, 'kind' | 'text' | 'syls' | 'key'>> = [];

/** Whether plainHits would ask about any entry of a text of these tokens without Latin runs (an exact
 *  entry without a Han character, or one whose first Han character a token is). */
function mayHoldPlain(lists: WordLists, tokens: ReadonlyArray<Pick<Token, 'key'>>): boolean {
  const { always, byFirstKey } = plainEntries(lists);
  if (always.length) return true;
  for (let i = 0; i < tokens.length; i++) if (tokens[i].key < byFirstKey.length && byFirstKey[tokens[i].key]) return true;
  return false;
}

/** The hits of the lists' constructions and words. */
function constructionHits(text: string, lists: WordLists, opts: WordingOptions): WordingHit[] {
  if (!NOT_BLANK.test(text)) return [];
  // Most texts hold nothing to walk or ask: read from their code points' pieces, they get no tokens.
  let supply: PatternCandidates | null = null;
  if (!opts.everyEntry && plainPieces(text, pieces)) {
    supply = patternCandidates(lists, pieces);
    if (!supply.candidates.length && !mayHoldPlain(lists, pieces)) return [];
  }
  const folded = foldText(text);
  // (the pieces are the tokens one for one: the candidates found from them are the tokens')
  supply ??= patternCandidates(lists, folded.tokens, opts.everyEntry);
  const patterned = supply.candidates.length ? patternHits(text, context(text, folded, opts.dictionary), supply) : [];
  const plain = plainHits(text, lists, folded, opts.everyEntry);
  const raw = plain.length ? [...patterned, ...plain] : patterned;
  if (!raw.length) return [];

  const compact = compactOf(folded.tokens);
  const names = occurrences(compact, foldedNames(opts.names ?? []));
  const allowed = occurrences(compact, lists.allow);
  const kept = raw.filter((h) => {
    if (names.some((n) => n.start < h.end && h.start < n.end)) return false;
    for (const a of allowed) {
      if (!(a.start < h.end && h.start < a.end)) continue;
      // An allow word a gap skipped over is no part of the hit (所以 between 拿 and 担保).
      if (h.taken) {
        let touches = false;
        for (let t = a.first; t <= a.last && !touches; t++) touches = h.taken.has(t);
        if (!touches) continue;
      }
      let spelled = !!h.literal;
      for (let t = a.first; t <= a.last && spelled; t++) spelled = h.literal!.has(t);
      if (!spelled) return false;
    }
    if (h.entry.unless.length) {
      const [cs, ce] = clauseAround(text, h.start, h.end);
      if (h.taken) {
        // The clause's words but the entry's own characters: what a gap skipped counts as context too
        // (祝你今晚别被刀死 is about the game: 今晚, 刀 lie in the gaps of a curse frame).
        // (the clause's tokens are one stretch of them, around the hit's: no token holds clause punctuation)
        const { tokens } = folded;
        let first = h.taken.values().next().value!;
        while (first > 0 && tokens[first - 1].start >= cs) first--;
        let rest = '';
        for (let i = first; i < tokens.length && tokens[i].end <= ce; i++) {
          if (tokens[i].start >= cs) rest += h.taken.has(i) ? '\u0000' : tokens[i].text;
        }
        if (h.entry.unless.some((w) => rest.includes(w))) return false;
      } else {
        const outside = `${foldString(text.slice(cs, h.start))}\u0000${foldString(text.slice(h.end, ce))}`;
        const whole = foldString(text.slice(cs, ce));
        const mine = foldString(h.matched);
        if (h.entry.unless.some((w) => outside.includes(w) || (whole.includes(w) && !mine.includes(w)))) return false;
      }
    }
    return true;
  });

  // One hit per place and category: the longest, literal before evasions.
  kept.sort((x, y) => x.start - y.start || y.end - y.start - (x.end - x.start) || x.evasions.length - y.evasions.length);
  const out: WordingHit[] = [];
  for (const h of kept) {
    if (out.some((o) => o.category === h.category && o.start <= h.start && h.end <= o.end)) continue;
    out.push({ category: h.category, word: h.word, cites: h.cites, matched: h.matched, start: h.start, end: h.end, evasions: h.evasions });
  }
  return out;
}

/** Human-readable account of a hit, in Chinese: 「发 誓」→ 发誓（插入分隔符）(src/violations/details.ts). */
export function describeHit(h: WordingHit): string {
  return publicFlagDetail({ player: '', facts: wordingFacts(h, null) }, 'UTC');
}
