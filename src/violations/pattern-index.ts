/**
 * The pattern index of a list set (issue #15: the scan compiles its patterns once per run and indexes
 * them). A token can stand for an entry's character in four ways (wording.ts stepFor): as itself, by
 * a shared reading, as a typed syllable or as an initial. Compiled once per list set:
 * - each distinct character of the entries, numbered, and for each kind of token seen (Token.key,
 *   cached) the characters it can stand for, the entries it can start and the entries whose second
 *   character it can stand for, as bit sets (a test per 32 entries or characters, not a list to walk);
 * - each distinct option (a character sequence; a lone character is one too) and each distinct
 *   element a match cannot skip, as the options it may take (one-character ones as bits, longer ones
 *   by their first character).
 * An entry is walked only from a token that can start it, with a token that can be its second within
 * reach (the next one, or as far as the gaps between allow), and only when the text can supply each
 * element it cannot skip (some option of it whose every character a token of the text can stand
 * for); the walk tries only the options the text can supply and the token at hand may start (listed
 * once per kind of token and alternative). Most tokens start nothing, so what a text can supply is
 * worked out only for the first entry that gets that far, and each option and element once per text
 * (stamps).
 * A text without a wildcard is read from the anchors (issue 36: frames that start with a common
 * word made a first-token index walk most entries at most tokens): each entry's anchor is the element
 * a match cannot skip that is rarest in players' text (data/syllable-frequency.txt; consecutive
 * characters are one element), and an entry is tried only from the tokens a bounded way before a place
 * where the tokens stand for a whole option of its anchor, under the same first-token and
 * second-token tests (the second-token one made per first character the token can stand for: the
 * entry's "starts", startsOf) (not the supply ones: the anchors leave few enough candidates that asking what a
 * text can supply costs more than the walks it saves), and only when the tokens within the start's reach
 * of the entry's next rarest element can stand for a whole option of it too (alsoWithin: a frame that
 * ordinary game talk starts, {逻辑|发言…}*4{狗屎…}, was walked at every 发言, its anchor chosen by
 * readings that take a word such as 发言 for as rare as its characters together). A wildcard token stands for any character but never starts a match (wording.ts
 * acceptable), so a text with one is read the first-token way, skips the supply tests and passes the
 * second-token one, not the first-token one.
 * What this must never do is drop a match: test/violations/wording-index.test.ts holds it to trying
 * every entry at every token over the whole labelled and everyday corpus.
 */
import { packagePath } from '../paths.js';
import { readDataLines, type Token } from './text-fold.js';
import { fromTypedBytes, typedBytes } from './typed-bytes.js';
import type { CharElement, EntryElement, WordEntry, WordLists } from './word-lists.js';

/** What the index reads of a token (a folded text's, or a code point's piece: text-fold.ts plainPieces). */
type TokenLike = Pick<Token, 'kind' | 'text' | 'syls' | 'key'>;

/** A list set's index (compiled once per list set, or read back as kept: indexFromBytes). */
export interface PatternIndex {
  /** By the index's own number of a pattern entry (compile: grouped by how they start): the entry and the ids of the elements it cannot skip. */
  entries: Array<{ entry: WordEntry; needs: Int32Array } | undefined>;
  /** Option id → its characters' ids. */
  options: Int32Array[];
  /** Alternative → its number; by number, its options (AltOptions). */
  alts: Map<Alt, number>;
  allOfAlt: AltOptions[];
  /** By list position: each element's options, by the element's position (an alternative's; else undefined). */
  altsByListed: Array<ReadonlyArray<AltOptions | undefined>>;
  /** By need id (an element a match cannot skip): its one-character options, as bits by character id (one the text has supplies the
   *  need); its longer options by their first character, as runs (character, n, n option ids), each
   *  option looked at only when the text has its first character. */
  needSingles: Int32Array[];
  needLonger: Int32Array[];
  /** Key (c:<char>, s:<syllable>, i:<letter>) → the characters a token with it can stand for / the
   *  entries whose first token can hold it, as bits (a token's are the union of its keys'). */
  charsByKey: Map<string, Uint32Array>;
  startsByKey: Map<string, Uint32Array>;
  /** Character id → the entries that may take it second, as bits; by entry id, how many tokens after
   *  the first that second one may be (0: the entry may end after one); the entries whose second may
   *  come further on than the next token, as bits. */
  secondAt: Uint32Array[];
  secondWithin: Int32Array;
  farEntries: Uint32Array;
  /** TokenIndex.second with no bit set (past a text's last token); the entries that may end after
   *  one token, as bits; those with a gap first whose second token is within reach of the token at
   *  hand (scratch, cleared after each token). */
  noSecond: Uint32Array;
  endAfterOne: Uint32Array;
  farReached: Uint32Array;
  /** By Token.key: the characters the token can stand for, the entries it can start and those it can
   *  be the second token of (TokenIndex). */
  byKey: Array<TokenIndex | undefined>;
  /** What the current text (stamped `generation`) can supply: the characters its tokens can stand for,
   *  as bits by character id; an option or need was found there (2·stamp + 1) or not (2·stamp), else
   *  not yet asked. */
  seenBits: Uint32Array;
  optionState: Uint32Array;
  needState: Uint32Array;
  /** By entry id: whether the text can supply every element the entry cannot skip (as the others). */
  entryState: Uint32Array;
  generation: number;
  /** By entry id: the nearest token after the one at hand that can stand for the entry's second
   *  character, as `reachBase` + its position (a text's tokens are numbered from a new base). */
  secondNear: Float64Array;
  reachBase: number;
  /** The anchors (compile: each entry's rarest element a match cannot skip). By option id: the entries
   *  anchored on it, as runs (entry id, lo, hi): a match from token `at` takes the anchor from token
   *  at + lo … at + hi. By character id: the anchor options that start with it. The entries with no
   *  element a match cannot skip (tried wherever they may start), as bits. */
  anchorUsers: Array<Int32Array | undefined>;
  /** By entry id: its next rarest element a match cannot skip (none: undefined), which a start must find
   *  within its reach before it is walked: its options as [n, n character ids] each, and how many tokens
   *  after the match's first its first may be. By character id: the entries such an option of which
   *  starts with it, as bits (a token's: TokenIndex.alsoBits). */
  alsoOptions: Array<Int32Array | undefined>;
  alsoAt: Uint32Array[];
  alsoLo: Int32Array;
  alsoHi: Int32Array;
  anchorsByChar: Int32Array[];
  unanchored: Uint32Array;
  /** An entry's first characters, each a "start" of it (the anchored reading's finer second-token test:
   *  a match that took 我 of {我要|我若|如果} first takes 要 or 若 next, not 果): by entry id, its starts
   *  [startsOf[id], startsOf[id + 1]); by start, how many tokens after the first the second may be
   *  and whether the match may end after one (1); by key, the starts a token with it can be, as bits;
   *  by character id, the starts that may take it second, as bits. */
  startsOf: Int32Array;
  startWithin: Int32Array;
  startEnds: Uint8Array;
  startOfKey: Map<string, Uint32Array>;
  startSecondAt: Uint32Array[];
  /** The longer anchor options whose first two characters two tokens one after the other can stand for
   *  (anchorPair), kept for the pairs of token keys met (game talk repeats its pairs): an open-addressing
   *  table of PAIR_SLOTS slots, by slot the first token's key + 1 (0: empty) and the second's, and the
   *  options; emptied when half full (a bound on memory, never on what is found). */
  pairKeys: Int32Array;
  pairOptions: Array<PairFound | undefined>;
  pairsKept: number;
  /** By entry id: the last start tried in the current text, as `reachBase` + its position. */
  triedTo: Float64Array;
  /** Scratch for the text at hand (anchoredCandidates): its tokens' indexes, its base and length, and
   *  the (start, entry id) pairs found. */
  tokenAt: TokenIndex[];
  /** The entries by list position. */
  listed: WordEntry[];
  textBase: number;
  textLength: number;
  found: Float64Array;
  foundN: number;
}

/** The keys a token can be matched by. */
function keysOfToken(t: TokenLike): string[] {
  if (t.kind === 'han') return [`c:${t.text}`, ...t.syls.map((s) => `s:${s}`)];
  if (t.kind === 'syllable') return [`s:${t.text}`];
  if (t.kind === 'letter') return [`c:${t.text}`, `i:${t.text}`];
  return t.kind === 'digit' ? [`c:${t.text}`] : [];
}

/** The keys of the tokens an entry character accepts (the initial by every reading: a superset). */
function keysOfChar(c: CharElement): string[] {
  return [`c:${c.char}`, ...(c.han ? c.syls.flatMap((s) => [`s:${s}`, `i:${s[0]}`]) : [])];
}

/** Whether a match may pass over the element without taking a token (a gap, an optional alternative). */
function skippable(e: EntryElement): boolean {
  return e.kind === 'gap' || (e.kind === 'alt' && e.options.some((o) => !o.length));
}

/** The character a match takes after its first: one of `chars`, at most `within` tokens on. */
interface Next {
  chars: CharElement[];
  within: number;
}

/** The next character a match may take from element `k` on, `within` tokens after its first; null
 *  when the pattern may end there. */
function nextFrom(els: readonly EntryElement[], k: number, within: number): Next | null {
  const chars: CharElement[] = [];
  for (; k < els.length; k++) {
    const e = els[k];
    // (A gap that ends the pattern takes nothing: wording.ts walk.)
    if (e.kind === 'gap') {
      if (k === els.length - 1) return null;
      within += e.max;
      continue;
    }
    if (e.kind === 'char') return { chars: [...chars, e], within };
    for (const o of e.options) if (o.length) chars.push(o[0]);
    if (!skippable(e)) return { chars, within };
  }
  return null;
}

/**
 * The character a match takes second, whichever it took first; null when the pattern may end after
 * one. (A gap before the first character takes nothing: wording.ts walk.)
 */
function secondOf(els: readonly EntryElement[]): Next | null {
  const second: Next = { chars: [], within: 1 };
  for (let j = 0; j < els.length; j++) {
    const e = els[j];
    if (e.kind === 'gap') continue;
    for (const o of e.kind === 'alt' ? e.options : [[e]]) {
      if (!o.length) continue;
      const next = o.length > 1 ? { chars: [o[1]], within: 1 } : nextFrom(els, j + 1, 1);
      if (!next) return null;
      second.chars.push(...next.chars);
      second.within = Math.max(second.within, next.within);
    }
    if (!skippable(e)) break;
  }
  return second;
}

/** secondOf one first character at a time: for each option a match may take first, its first
 *  character and what it takes next (null: the pattern may end after it). */
function secondsByFirst(els: readonly EntryElement[]): Array<{ first: CharElement; next: Next | null }> {
  const out: Array<{ first: CharElement; next: Next | null }> = [];
  for (let j = 0; j < els.length; j++) {
    const e = els[j];
    if (e.kind === 'gap') continue;
    for (const o of e.kind === 'alt' ? e.options : [[e]]) {
      if (o.length) out.push({ first: o[0], next: o.length > 1 ? { chars: [o[1]], within: 1 } : nextFrom(els, j + 1, 1) });
    }
    if (!skippable(e)) break;
  }
  return out;
}

/** Numbers values by content (a slot's values recur in many entries). */
class Numbering<T> {
  readonly values: T[] = [];
  private readonly ids = new Map<string, number>();
  id(key: string, make: () => T): number {
    let n = this.ids.get(key);
    if (n === undefined) {
      this.ids.set(key, (n = this.values.length));
      this.values.push(make());
    }
    return n;
  }
}

function setBit(bits: Uint32Array, i: number): void {
  bits[i >>> 5] |= 1 << (i & 31);
}

/** The words of a bit set that have a bit set, as pairs: (word index, its bits). Most sets here have
 *  a few bits among hundreds: the pairs are what a test against another set needs to read. */
function wordsOf(bits: Uint32Array): Int32Array {
  const pairs: number[] = [];
  for (let w = 0; w < bits.length; w++) if (bits[w]) pairs.push(w, bits[w]);
  return Int32Array.from(pairs);
}

/** An entry's anchor: the options of the element a match cannot skip that is rarest in text (by the
 *  estimate below), and how many tokens after the match's first that element's first may be. */
interface Anchor {
  options: number[];
  lo: number;
  hi: number;
}

/** How often a Han character of players' text has each reading, per thousand (data/syllable-frequency.txt). */
let readingShare: Map<string, number> | undefined;
function shareOfReading(s: string): number {
  readingShare ??= new Map(
    readDataLines(packagePath('src', 'violations', 'data', 'syllable-frequency.txt')).map((l) => {
      const [syl, perMille] = l.split(/\s+/);
      return [syl, Number(perMille) / 1000];
    }),
  );
  return readingShare.get(s) ?? 0.00005;
}

/** How often a run of characters is expected where a token is: each character as often as a token
 *  can stand for it (a same sound does: the shares of its readings), letters and digits one in a
 *  hundred. Only the choice of anchor depends on it, never what is found. */
function rarity(o: readonly CharElement[]): number {
  let p = 1;
  for (const c of o) {
    let q = c.han ? 0 : 0.01;
    if (c.han) for (const s of c.syls) q += shareOfReading(s);
    p *= Math.min(1, q);
  }
  return p;
}

/** The entry's anchor, and its next rarest element a match cannot skip (`also`: null when it has one such element). */
function anchorOf(els: readonly EntryElement[], optionId: (o: readonly CharElement[]) => number): { anchor: Anchor; also: Anchor | null } | null {
  const all: Array<{ a: Anchor; score: number }> = [];
  const consider = (opts: ReadonlyArray<readonly CharElement[]>, lo: number, hi: number) => {
    let score = 0;
    for (const o of opts) score += rarity(o);
    all.push({ a: { options: [...new Set(opts.map(optionId))], lo, hi }, score });
  };
  let lo = 0;
  let hi = 0;
  // Characters one after another are taken by tokens one after another: one option (我操, not 我).
  let run: CharElement[] = [];
  const closeRun = () => {
    if (run.length) consider([run], lo - run.length, hi - run.length);
    run = [];
  };
  for (const e of els) {
    if (e.kind === 'char') {
      run.push(e);
      lo++;
      hi++;
      continue;
    }
    closeRun();
    // (a gap before anything is taken takes nothing: wording.ts walk; counted as its most, a superset)
    if (e.kind === 'gap') hi += e.max;
    else {
      if (!skippable(e)) consider(e.options, lo, hi);
      lo += Math.min(...e.options.map((o) => o.length));
      hi += Math.max(...e.options.map((o) => o.length));
    }
  }
  closeRun();
  if (!all.length) return null;
  // (the first of the rarest, as when only the anchor was chosen)
  let best = 0;
  for (let i = 1; i < all.length; i++) if (all[i].score < all[best].score) best = i;
  let also = -1;
  for (let i = 0; i < all.length; i++) if (i !== best && (also < 0 || all[i].score < all[also].score)) also = i;
  return { anchor: all[best].a, also: also < 0 ? null : all[also].a };
}

function compile(lists: WordLists): PatternIndex {
  const chars = new Numbering<CharElement>();
  const options = new Numbering<Int32Array>();
  const needs = new Numbering<Int32Array>();
  const alts = new Map<Alt, number>();
  const startsByKey = new Map<string, number[]>();
  // Values come in ascending order (entries by id, characters by id): a repeat is the last one.
  const push = (m: Map<string, number[]>, k: string, v: number) => {
    const list = m.get(k);
    if (!list) m.set(k, [v]);
    else if (list[list.length - 1] !== v) list.push(v);
  };
  // (by its characters' text: an option recurs in every entry its slot is in, and its characters were
  // numbered when it was first seen)
  const optionId = (o: readonly CharElement[]) => {
    let text = '';
    for (let k = 0; k < o.length; k++) text += `${o[k].char}\u0000`;
    return options.id(text, () => Int32Array.from(o, (c) => chars.id(c.char, () => c)));
  };
  const entries: PatternIndex['entries'] = [];
  const allOfAlt: AltOptions[] = [];
  const altsByListed: PatternIndex['altsByListed'] = lists.entries.map(() => []);
  const seconds: Array<{ chars: number[]; within: number } | null> = [];
  // The starts (by entry, then first character): their keys, seconds, reach and whether they may end there.
  const startsOf: number[] = [];
  const starts: Array<{ keys: string[]; chars: number[]; within: number; end: boolean }> = [];
  const anchors: Array<Anchor | null> = [];
  const alsos: Array<Anchor | null> = [];
  // The index numbers the pattern entries its own way: those a token of one kind can start side by
  // side (by the keys their first characters have), so that a token reads a few words of the entry
  // bit sets, not one word in each stretch of the list (candidates are put back in list order).
  const startKeys = (entry: WordEntry): string => {
    const keys = new Set<string>();
    for (const e of entry.elements) {
      const firsts = e.kind === 'gap' ? [] : e.kind === 'alt' ? e.options.flatMap((o) => o.slice(0, 1)) : [e];
      for (const c of firsts) for (const k of keysOfChar(c)) keys.add(k);
      if (!skippable(e)) break;
    }
    return [...keys].sort().join(' ');
  };
  const patterns = lists.entries
    .filter((e) => e.shape === 'pattern')
    .map((entry) => ({ entry, key: startKeys(entry) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.entry.id - b.entry.id));
  for (let k = 0; k < patterns.length; k++) {
    const { entry } = patterns[k];
    const own: number[] = [];
    const altsHere: Array<AltOptions | undefined> = [];
    for (const e of entry.elements) {
      altsHere.push(undefined);
      if (e.kind === 'gap') continue;
      const opts = Int32Array.from(e.kind === 'alt' ? e.options : [[e]], optionId);
      if (e.kind === 'alt') {
        alts.set(e, allOfAlt.length);
        const first = Int32Array.from(opts, (o) => options.values[o][0] ?? -1);
        // (firsts once every character is numbered, below)
        allOfAlt.push({ n: allOfAlt.length, list: e.options, ids: opts, first, firsts: null, empty: Int32Array.from(first.keys()).filter((i) => first[i] < 0) });
        altsHere[altsHere.length - 1] = allOfAlt[allOfAlt.length - 1];
      }
      if (!skippable(e)) own.push(needs.id(opts.join(','), () => opts));
    }
    // Elements with fewer options first: the cheaper to rule out.
    own.sort((x, y) => needs.values[x].length - needs.values[y].length);
    entries[k] = { entry, needs: Int32Array.from(own) };
    altsByListed[entry.id] = altsHere;
    const anchored = anchorOf(entry.elements, optionId);
    anchors[k] = anchored && anchored.anchor;
    alsos[k] = anchored && anchored.also;
    // The first token taken: the first character of the first element a match cannot pass over, or of
    // an optional one before it.
    for (const e of entry.elements) {
      const firsts = e.kind === 'gap' ? [] : e.kind === 'alt' ? e.options.flatMap((o) => o.slice(0, 1)) : [e];
      for (const c of firsts) for (const key of keysOfChar(c)) push(startsByKey, key, k);
      if (!skippable(e)) break;
    }
    const second = secondOf(entry.elements);
    seconds[k] = second && { chars: second.chars.map((c) => chars.id(c.char, () => c)), within: second.within };
    startsOf.push(starts.length);
    const byFirst = new Map<string, (typeof starts)[number]>();
    for (const { first, next } of secondsByFirst(entry.elements)) {
      const key = `${first.char}\u0000${first.han ? first.syls.join(' ') : ''}`;
      let st = byFirst.get(key);
      if (!st) {
        byFirst.set(key, (st = { keys: keysOfChar(first), chars: [], within: 1, end: false }));
        starts.push(st);
      }
      if (!next) st.end = true;
      else {
        for (const c of next.chars) st.chars.push(chars.id(c.char, () => c));
        st.within = Math.max(st.within, next.within);
      }
    }
  }

  const charWords = (chars.values.length + 31) >>> 5;
  for (const alt of allOfAlt) {
    alt.firsts = new Uint32Array(charWords);
    for (const c of alt.first!) if (c >= 0) setBit(alt.firsts, c);
  }
  const needSingles = needs.values.map((opts) => {
    const bits = new Uint32Array(charWords);
    for (const o of opts) if (options.values[o].length === 1) setBit(bits, options.values[o][0]);
    return wordsOf(bits);
  });
  const needLonger = needs.values.map((opts) => {
    const byFirst = new Map<number, number[]>();
    for (const o of opts) if (options.values[o].length > 1) byFirst.set(options.values[o][0], [...(byFirst.get(options.values[o][0]) ?? []), o]);
    return Int32Array.from([...byFirst].flatMap(([c, os]) => [c, os.length, ...os]));
  });
  const charsOfKey = new Map<string, number[]>();
  chars.values.forEach((c, id) => keysOfChar(c).forEach((k) => push(charsOfKey, k, id)));
  const entryWords = (lists.entries.length + 31) >>> 5;
  const bitsOf = (ids: Iterable<number>, words: number) => {
    const bits = new Uint32Array(words);
    for (const id of ids) setBit(bits, id);
    return bits;
  };
  const secondAt = chars.values.map(() => new Uint32Array(entryWords));
  const secondWithin = new Int32Array(lists.entries.length);
  const endAfterOne = new Uint32Array(entryWords);
  const farEntries = new Uint32Array(entryWords);
  seconds.forEach((second, id) => {
    if (!second) return setBit(endAfterOne, id);
    secondWithin[id] = second.within;
    if (second.within > 1) setBit(farEntries, id);
    for (const c of second.chars) setBit(secondAt[c], id);
  });
  startsOf.push(starts.length);
  const startWords = (starts.length + 31) >>> 5;
  const startOfKey = new Map<string, number[]>();
  const startSecondAt = chars.values.map(() => new Uint32Array(startWords));
  starts.forEach((st, id) => {
    for (const key of st.keys) push(startOfKey, key, id);
    for (const c of st.chars) setBit(startSecondAt[c], id);
  });
  const anchorRuns = new Map<number, number[]>();
  const unanchored = new Uint32Array(entryWords);
  anchors.forEach((a, id) => {
    if (!a) return setBit(unanchored, id);
    for (const o of a.options) anchorRuns.set(o, [...(anchorRuns.get(o) ?? []), id, a.lo, a.hi]);
  });
  // The next rarest element, as its options' characters one after the other ([n, n character ids] an
  // option), with its reach; by the first characters of its options, the entries.
  const alsoOptions = alsos.map((a) => (a ? Int32Array.from(a.options.flatMap((o) => [options.values[o].length, ...options.values[o]])) : undefined));
  const alsoAt = chars.values.map(() => new Uint32Array(entryWords));
  alsos.forEach((a, id) => {
    if (a) for (const o of a.options) setBit(alsoAt[options.values[o][0]], id);
  });
  const anchorsByChar = chars.values.map(() => [] as number[]);
  for (const o of anchorRuns.keys()) anchorsByChar[options.values[o][0]].push(o);
  const anchorUsers: Array<Int32Array | undefined> = [];
  for (let o = 0; o < options.values.length; o++) anchorUsers.push(anchorRuns.has(o) ? Int32Array.from(anchorRuns.get(o)!) : undefined);
  return {
    alsoOptions,
    alsoAt,
    alsoLo: Int32Array.from(alsos, (a) => a?.lo ?? 0),
    alsoHi: Int32Array.from(alsos, (a) => a?.hi ?? 0),
    anchorUsers,
    anchorsByChar: anchorsByChar.map((os) => Int32Array.from(os.sort((x, y) => x - y))),
    unanchored,
    startsOf: Int32Array.from(startsOf),
    startWithin: Int32Array.from(starts, (st) => st.within),
    startEnds: Uint8Array.from(starts, (st) => (st.end ? 1 : 0)),
    startOfKey: new Map([...startOfKey].map(([k, ids]) => [k, bitsOf(ids, startWords)])),
    startSecondAt,
    triedTo: new Float64Array(lists.entries.length),
    ...emptyPairs(),
    tokenAt: [],
    listed: lists.entries,
    textBase: 0,
    textLength: 0,
    found: new Float64Array(64),
    foundN: 0,
    entries,
    options: options.values,
    alts,
    allOfAlt,
    altsByListed,
    needSingles,
    needLonger,
    charsByKey: new Map([...charsOfKey].map(([k, ids]) => [k, bitsOf(ids, charWords)])),
    startsByKey: new Map([...startsByKey].map(([k, ids]) => [k, bitsOf(ids, entryWords)])),
    secondAt,
    secondWithin,
    farEntries,
    noSecond: new Uint32Array(entryWords),
    endAfterOne,
    farReached: new Uint32Array(entryWords),
    byKey: [],
    optionState: new Uint32Array(options.values.length),
    needState: new Uint32Array(needs.values.length),
    entryState: new Uint32Array(lists.entries.length),
    seenBits: new Uint32Array(charWords),
    secondNear: new Float64Array(lists.entries.length),
    reachBase: 1,
    generation: 0,
  };
}

const compiled = new WeakMap<WordLists, PatternIndex>();

/** Where a list set's index is kept between processes, as bytes (src/derived/wording-hits.ts keptIndex, under the lists' texts, the data files and the code). */
export interface KeptIndex {
  read(): Uint8Array | undefined;
  write(parts: readonly ArrayBufferView[]): void;
}
const keptIndexes = new WeakMap<WordLists, KeptIndex>();

/** Keep `lists`' index in `kept`: read back from it rather than compiled, or compiled and written to it (before any text is read with it). */
export function keepIndexIn(lists: WordLists, kept: KeptIndex): void {
  keptIndexes.set(lists, kept);
}

/** The list set's index, compiled on first use (or read back as kept: keepIndexIn). */
export function indexOf(lists: WordLists): PatternIndex {
  let ix = compiled.get(lists);
  if (!ix) {
    const kept = keptIndexes.get(lists);
    const bytes = kept?.read();
    ix = bytes && indexFromBytes(bytes, lists);
    if (!ix) {
      ix = compile(lists);
      if (kept) keepIndex(ix, kept);
    }
    compiled.set(lists, ix);
  }
  return ix;
}

/**
 * The index as bytes, as compiled (no text read with it yet: its scratch fields as new): its entries by
 * id, its alternatives without their elements (indexFromBytes finds them again in the entries, in the
 * order compile numbered them); a field of a kind typed-bytes.ts does not keep is not written.
 */
export function indexBytes(ix: PatternIndex): ArrayBufferView[] {
  // (the anchor-pair table fills as texts are read: each process starts its own, empty)
  const { entries, alts, allOfAlt, altsByListed, listed, byKey, tokenAt, pairKeys, pairOptions, pairsKept, ...rest } = ix;
  if (byKey.length || tokenAt.length || ix.generation !== 0) throw new Error('pattern index: kept only as compiled');
  return typedBytes({
    rest, entries: entries.map((e) => e && { id: e.entry.id, needs: e.needs }), allOfAlt: allOfAlt.map(({ list, ...a }) => a), altCount: alts.size, listed: listed.length,
  });
}

function keepIndex(ix: PatternIndex, kept: KeptIndex): void {
  let parts: ArrayBufferView[];
  try {
    parts = indexBytes(ix);
  } catch {
    return; // (a field typed-bytes does not keep: compiled each process)
  }
  kept.write(parts);
}

/** The index indexBytes wrote, over `lists` (the same list set: the caller's key says so); undefined when the bytes do not fit them. */
export function indexFromBytes(bytes: Uint8Array, lists: WordLists): PatternIndex | undefined {
  const saved = fromTypedBytes(bytes) as {
    rest: Omit<PatternIndex, 'entries' | 'alts' | 'allOfAlt' | 'altsByListed' | 'listed' | 'byKey' | 'tokenAt' | 'pairKeys' | 'pairOptions' | 'pairsKept'>;
    entries: Array<{ id: number; needs: Int32Array } | undefined>;
    allOfAlt: Array<Omit<AltOptions, 'list'>>;
    altCount: number;
    listed: number;
  } | undefined;
  if (!saved || saved.listed !== lists.entries.length) return undefined;
  const entries: PatternIndex['entries'] = [];
  for (const e of saved.entries) {
    const entry = e && lists.entries[e.id];
    if (e && entry?.id !== e.id) return undefined;
    entries.push(entry && { entry, needs: e!.needs });
  }
  // (compile numbers each alternative of each entry in turn, its elements in order)
  const alts = new Map<Alt, number>();
  const allOfAlt: AltOptions[] = [];
  for (const e of entries) {
    for (const el of e?.entry.elements ?? []) {
      if (el.kind !== 'alt') continue;
      const a = saved.allOfAlt[allOfAlt.length];
      if (!a || a.n !== allOfAlt.length) return undefined;
      alts.set(el, a.n);
      allOfAlt.push({ ...a, list: el.options });
    }
  }
  if (allOfAlt.length !== saved.allOfAlt.length || alts.size !== saved.altCount) return undefined;
  // (each pattern entry's alternatives by element position, as compile lists them: allOfAlt's own objects)
  const altsByListed: PatternIndex['altsByListed'] = lists.entries.map(() => []);
  for (const e of entries) if (e) altsByListed[e.entry.id] = e.entry.elements.map((el) => (el.kind === 'alt' ? allOfAlt[alts.get(el)!] : undefined));
  return { ...saved.rest, entries, alts, allOfAlt, altsByListed, listed: lists.entries, byKey: [], tokenAt: [], ...emptyPairs() };
}

interface TokenIndex {
  /** The characters it can stand for, as bits by character id and as the words that hold them
   *  (wordsOf). (A wildcard, which may stand for any, has none here: every option is tried there.) */
  charBits: Uint32Array;
  charWords: Int32Array;
  /** By alternative number: the options worth trying at a token like this one (optionsAt), on first ask. */
  optionsAt: Map<number, Int32Array> | null;
  /** The entries it can start: those whose second token comes next or that may end after one, as
   *  bits by entry id; those whose second may come further on (a gap first), listed. */
  nearStarts: Uint32Array;
  farStarts: Int32Array;
  /** The words of nearStarts that hold an entry it can start, near or far, last first (none: it starts none). */
  startWords: Int32Array;
  /** The entries it can be the second token of, alike (a wildcard: every one whose second comes next). */
  second: Uint32Array;
  farSeconds: Int32Array;
  /** The entries it can start, and those it can be the second token of, near or far, as bits. */
  startBits: Uint32Array;
  secondBits: Uint32Array;
  /** The entries whose next rarest element has an option whose first character it can stand for, as bits (PatternIndex.alsoAt). */
  alsoBits: Uint32Array;
  /** The starts it can be (PatternIndex.startsOf), and those it can be the second token of, as bits. */
  firstOf: Uint32Array;
  secondOf: Uint32Array;
  /** The anchor options whose first character it can stand for: those of one character, listed; the
   *  longer ones by their second character (as bits by character id, and its options by it), so that
   *  the token after is asked only for the characters it can stand for. */
  anchorOne: Int32Array;
  anchorSeconds: Int32Array;
  anchorBySecond: Map<number, Int32Array>;
}

/** The anchor-pair table's slots: each pair kept holds three small typed arrays, so 65,536 slots grew a
 *  200,000-post report by ~12 MB (a long day meets many pairs); 4,096 find the pairs game talk repeats as fast. */
const PAIR_BITS = 12;
const PAIR_SLOTS = 1 << PAIR_BITS;

/** An empty anchor-pair table (PatternIndex.pairKeys). */
function emptyPairs(): Pick<PatternIndex, 'pairKeys' | 'pairOptions' | 'pairsKept'> {
  return { pairKeys: new Int32Array(2 * PAIR_SLOTS), pairOptions: new Array<PairFound | undefined>(PAIR_SLOTS).fill(undefined), pairsKept: 0 };
}

/** The longer anchor options whose first two characters two tokens can stand for: those of two
 *  characters, those of more, and the third characters of these as bits (wordsOf: the token after the
 *  two is asked about them at once, not option by option). */
interface PairFound {
  two: Int32Array;
  longer: Int32Array;
  thirds: Int32Array;
}
const NO_OPTIONS: PairFound = { two: new Int32Array(0), longer: new Int32Array(0), thirds: new Int32Array(0) };

/** The longer anchor options whose first two characters `here` and `next` can stand for. */
function anchorPair(ix: PatternIndex, here: TokenIndex, next: TokenIndex): PairFound {
  const seconds = here.anchorSeconds;
  const bits = next.charBits;
  let found: number[] | null = null;
  for (let i = 0; i < seconds.length; i += 2) {
    const w = seconds[i];
    let both = seconds[i + 1] & bits[w];
    while (both !== 0) {
      const b = 31 - Math.clz32(both);
      both &= ~(1 << b);
      (found ??= []).push(...here.anchorBySecond.get(w * 32 + b)!);
    }
  }
  if (!found) return NO_OPTIONS;
  const thirds = new Uint32Array(ix.seenBits.length);
  for (const o of found) if (ix.options[o].length > 2) setBit(thirds, ix.options[o][2]);
  return { two: Int32Array.from(found.filter((o) => ix.options[o].length === 2)), longer: Int32Array.from(found.filter((o) => ix.options[o].length > 2)), thirds: wordsOf(thirds) };
}

/** anchorPair of two tokens, by their keys (`here`, `next`: their indexes), as kept (PatternIndex.pairKeys). */
function pairOptions(ix: PatternIndex, hereKey: number, nextKey: number, here: TokenIndex, next: TokenIndex): PairFound {
  const keys = ix.pairKeys;
  const mask = PAIR_SLOTS - 1;
  let slot = (Math.imul(hereKey, 0x9e3779b1) ^ Math.imul(nextKey, 0x85ebca6b)) >>> (32 - PAIR_BITS);
  for (;;) {
    const k = keys[2 * slot];
    if (k === 0) break;
    if (k === hereKey + 1 && keys[2 * slot + 1] === nextKey) return ix.pairOptions[slot]!;
    slot = (slot + 1) & mask;
  }
  const options = anchorPair(ix, here, next);
  if (ix.pairsKept >= PAIR_SLOTS >>> 1) {
    keys.fill(0);
    ix.pairOptions.fill(undefined);
    ix.pairsKept = 0;
    return options;
  }
  keys[2 * slot] = hereKey + 1;
  keys[2 * slot + 1] = nextKey;
  ix.pairOptions[slot] = options;
  ix.pairsKept++;
  return options;
}

/** The ids whose bit is set, ascending. */
function idsOf(bits: Uint32Array): number[] {
  const ids: number[] = [];
  for (let w = 0; w < bits.length; w++) for (let b = 0; bits[w] >>> b !== 0 && b < 32; b++) if ((bits[w] >>> b) & 1) ids.push(w * 32 + b);
  return ids;
}

/** `into` |= `bits` (a missing set adds nothing). */
function orInto(into: Uint32Array, bits: Uint32Array | undefined): void {
  if (bits) for (let w = 0; w < into.length; w++) into[w] |= bits[w];
}

/** Entries as bits: those whose second token comes next or that may end after one, kept as bits; the
 *  others, listed. */
function splitByReach(ix: PatternIndex, entries: Uint32Array): [Uint32Array, Int32Array] {
  const near = new Uint32Array(entries.length);
  const far = new Uint32Array(entries.length);
  for (let w = 0; w < entries.length; w++) {
    near[w] = entries[w] & ~ix.farEntries[w];
    far[w] = entries[w] & ix.farEntries[w];
  }
  return [near, Int32Array.from(idsOf(far))];
}

function tokenIndex(ix: PatternIndex, t: TokenLike): TokenIndex {
  let found = ix.byKey[t.key];
  if (!found) {
    // (the union of its keys' bits: built once per kind of token, and a real game has thousands)
    const charBits = new Uint32Array(ix.seenBits.length);
    const starts = new Uint32Array(ix.noSecond.length);
    for (const k of keysOfToken(t)) {
      orInto(charBits, ix.charsByKey.get(k));
      orInto(starts, ix.startsByKey.get(k));
    }
    const seconds = new Uint32Array(ix.noSecond.length);
    for (const c of idsOf(charBits)) orInto(seconds, ix.secondAt[c]);
    const alsoBits = new Uint32Array(ix.noSecond.length);
    for (const c of idsOf(charBits)) orInto(alsoBits, ix.alsoAt[c]);
    const firstOf = new Uint32Array((ix.startsOf[ix.startsOf.length - 1] + 31) >>> 5);
    const secondOfStart = new Uint32Array(firstOf.length);
    for (const k of keysOfToken(t)) orInto(firstOf, ix.startOfKey.get(k));
    for (const c of idsOf(charBits)) orInto(secondOfStart, ix.startSecondAt[c]);
    const [nearStarts, farStarts] = splitByReach(ix, starts);
    const [second, farSeconds] = splitByReach(ix, seconds);
    if (t.kind === 'wildcard') second.fill(0xffffffff);
    const startWords: number[] = [];
    for (let w = nearStarts.length - 1; w >= 0; w--) if (nearStarts[w] || farStarts.some((id) => id >>> 5 === w)) startWords.push(w);
    const anchorOne: number[] = [];
    const anchorSeconds = new Uint32Array(charBits.length);
    const bySecond = new Map<number, number[]>();
    for (const c of idsOf(charBits)) {
      for (const o of ix.anchorsByChar[c]) {
        const chars = ix.options[o];
        if (chars.length === 1) anchorOne.push(o);
        else {
          setBit(anchorSeconds, chars[1]);
          bySecond.set(chars[1], [...(bySecond.get(chars[1]) ?? []), o]);
        }
      }
    }
    found = {
      charBits,
      charWords: wordsOf(charBits),
      optionsAt: null,
      nearStarts,
      farStarts,
      startWords: Int32Array.from(startWords),
      second,
      farSeconds,
      startBits: starts,
      secondBits: seconds,
      alsoBits,
      firstOf,
      secondOf: secondOfStart,
      anchorOne: Int32Array.from(anchorOne),
      anchorSeconds: wordsOf(anchorSeconds),
      anchorBySecond: new Map([...bySecond].map(([c, os]) => [c, Int32Array.from(os)])),
    };
    // (filled in order: an array with holes far apart would turn into a dictionary)
    while (ix.byKey.length < t.key) ix.byKey.push(undefined);
    ix.byKey[t.key] = found;
  }
  return found;
}

/** A pattern entry worth walking from token `at`. */
export interface Candidate {
  at: number;
  entry: WordEntry;
  /** The options of each of the entry's elements, by its position (an alternative's; else undefined), when the index knows them. */
  alts?: ReadonlyArray<AltOptions | undefined>;
}

type Alt = Extract<EntryElement, { kind: 'alt' }>;

/** Options of an alternative, in order, with each one's id (PatternCandidates.supplied) and its
 *  first character's (-1: the empty option), and the empty one's position; `n`: the alternative's
 *  number (-1, ids null: not known to the index, every option to be tried). */
export interface AltOptions {
  n: number;
  list: readonly (readonly CharElement[])[];
  ids: Int32Array | null;
  first: Int32Array | null;
  /** The first characters as bits by character id; the positions of the empty option. */
  firsts: Uint32Array | null;
  empty: Int32Array | null;
}

/** Where in a text the patterns are worth walking, and which options the text can supply. */
export interface PatternCandidates {
  /** By first token, then list order. */
  candidates: Candidate[];
  /** The options of an alternative, and whether the text can supply one (a token for each character
   *  of it: only those are worth trying). */
  options(alt: Alt): AltOptions;
  supplied(option: number): boolean;
  /** The positions of the options worth trying at token `t` (past the last: the empty one), in
   *  order: the empty one and those whose first character the token may stand for (a superset of
   *  wording.ts stepFor's); null: every option (a wildcard may stand for any character). */
  optionsAt(alt: AltOptions, t: number): Int32Array | null;
}

const unknownIds = (alt: Alt): AltOptions => ({ n: -1, list: alt.options, ids: null, first: null, firsts: null, empty: null });
const everyOption = () => null;
const anyOption = () => true;
/** A text with no candidate (most): nothing is walked, so nothing is asked. */
const NO_CANDIDATES: PatternCandidates = { candidates: [], options: unknownIds, supplied: anyOption, optionsAt: everyOption };

/** A new stamp for a text, with the characters its tokens can stand for marked. */
function markChars(ix: PatternIndex, tokens: readonly TokenLike[]): number {
  if (++ix.generation >= 0x7fffffff) {
    for (const a of [ix.optionState, ix.needState, ix.entryState]) a.fill(0);
    ix.generation = 1;
  }
  const g = ix.generation;
  const seen = ix.seenBits;
  seen.fill(0);
  for (let t = 0; t < tokens.length; t++) {
    const words = (ix.byKey[tokens[t].key] ?? tokenIndex(ix, tokens[t])).charWords;
    for (let i = 0; i < words.length; i += 2) seen[words[i]] |= words[i + 1];
  }
  return g;
}

/** Whether the text stamped `g` can supply the option: a token for each of its characters. */
function optionSupplied(ix: PatternIndex, g: number, o: number): boolean {
  const state = ix.optionState[o];
  if (state >>> 1 === g) return (state & 1) === 1;
  const chars = ix.options[o];
  let all = true;
  const seen = ix.seenBits;
  for (let k = 0; k < chars.length && all; k++) all = ((seen[chars[k] >>> 5] >>> (chars[k] & 31)) & 1) === 1;
  ix.optionState[o] = 2 * g + (all ? 1 : 0);
  return all;
}

/** Whether the text stamped `g` can supply the element: one of its options. */
function needSupplied(ix: PatternIndex, g: number, n: number): boolean {
  const state = ix.needState[n];
  if (state >>> 1 === g) return (state & 1) === 1;
  const seen = ix.seenBits;
  const singles = ix.needSingles[n];
  let any = false;
  for (let i = 0; i < singles.length && !any; i += 2) any = (singles[i + 1] & seen[singles[i]]) !== 0;
  const longer = ix.needLonger[n];
  for (let i = 0; i < longer.length && !any; i += 2 + longer[i + 1]) {
    if (!((seen[longer[i] >>> 5] >>> (longer[i] & 31)) & 1)) continue;
    for (let k = 0; k < longer[i + 1] && !any; k++) any = optionSupplied(ix, g, longer[i + 2 + k]);
  }
  ix.needState[n] = 2 * g + (any ? 1 : 0);
  return any;
}

/** Whether the text stamped `g` can supply every element the entry cannot skip. */
function entrySupplied(ix: PatternIndex, g: number, id: number, needs: Int32Array): boolean {
  const state = ix.entryState[id];
  if (state >>> 1 === g) return (state & 1) === 1;
  let all = true;
  for (let k = 0; k < needs.length && all; k++) all = needSupplied(ix, g, needs[k]);
  ix.entryState[id] = 2 * g + (all ? 1 : 0);
  return all;
}

/**
 * Where in a text the pattern entries are worth walking.
 * `everyEntry`: the reference the index is tested against — every pattern entry at every token.
 */
export function patternCandidates(lists: WordLists, tokens: readonly TokenLike[], everyEntry = false): PatternCandidates {
  if (everyEntry) {
    const patterns = lists.entries.filter((e) => e.shape === 'pattern');
    return { candidates: tokens.flatMap((_, at) => patterns.map((entry) => ({ at, entry }))), options: unknownIds, supplied: anyOption, optionsAt: everyOption };
  }
  const ix = indexOf(lists);
  const n = tokens.length;
  let wildcard = false;
  for (let i = 0; i < n && !wildcard; i++) wildcard = tokens[i].kind === 'wildcard';
  if (!wildcard) return anchoredCandidates(ix, tokens);
  let g = 0; // the text's stamp, once its characters are marked
  // From the last token back, so that where each entry's second character can be next is known.
  // (A new base per text: an earlier text's marks are all behind it; exact for 2^53 tokens.)
  const { secondNear, secondWithin } = ix;
  const base = ix.reachBase;
  ix.reachBase += n + 1;
  let nextWildcard = Infinity;
  const { endAfterOne, farReached } = ix;
  const candidates: Candidate[] = []; // (in reverse until the end)
  let next: TokenIndex | null = null;
  for (let at = n - 1; at >= 0; at--) {
    // (the next token's bits: all clear at the text's end)
    let second = ix.noSecond;
    if (next) {
      second = next.second;
      const far = next.farSeconds;
      for (let i = 0; i < far.length; i++) secondNear[far[i]] = base + at + 1;
      if (tokens[at + 1].kind === 'wildcard') nextWildcard = at + 1;
    }
    const here = ix.byKey[tokens[at].key] ?? tokenIndex(ix, tokens[at]);
    next = here;
    const { startWords } = here;
    if (!startWords.length) continue;
    // A token within reach that can stand for the character the entry takes second (a wildcard can):
    // the next one (bits), or one as far as the gaps allow (farReached, cleared as it is read).
    const { nearStarts, farStarts } = here;
    for (let i = 0; i < farStarts.length; i++) {
      const id = farStarts[i];
      const within = secondWithin[id];
      const near = secondNear[id] - base;
      if ((near > at && near <= at + within) || nextWildcard <= at + within) setBit(farReached, id);
    }
    // (by entry id, descending: reversed with the rest at the end)
    for (let k = 0; k < startWords.length; k++) {
      const w = startWords[k];
      let bits = (nearStarts[w] & (second[w] | endAfterOne[w])) | farReached[w];
      farReached[w] = 0;
      while (bits !== 0) {
        const b = 31 - Math.clz32(bits);
        bits &= ~(1 << b);
        const id = w * 32 + b;
        const { entry, needs } = ix.entries[id]!;
        // A wildcard may stand for any character a match needs beyond its first.
        if (!wildcard && needs.length) {
          g ||= markChars(ix, tokens);
          if (!entrySupplied(ix, g, id, needs)) continue;
        }
        candidates.push({ at, entry, alts: ix.altsByListed[entry.id] });
      }
    }
  }
  // (by first token, then list order: the index's own numbering is not the list's)
  candidates.sort((a, b) => a.at - b.at || a.entry.id - b.entry.id);
  return new TextCandidates(ix, tokens, g, candidates);
}

/** The entries anchored on option `o`, whose anchor the text spells from token `p`: tried from the starts its reach allows. */
function anchoredAt(ix: PatternIndex, o: number, p: number): void {
  const users = ix.anchorUsers[o]!;
  for (let u = 0; u < users.length; u += 3) tryEntry(ix, users[u], p - users[u + 2], p - users[u + 1]);
}

/** Entry `id` tried from tokens `from`..`to` of the text at hand (those not tried yet): where the token
 *  can start it and one within reach can be its second — a second for a first character the token
 *  can stand for (the entry's starts: a match that took 我 of {我要|如果} first must take 要 next). */
function tryEntry(ix: PatternIndex, id: number, from: number, to: number): void {
  const { tokenAt: at, textBase: base, textLength: n, triedTo } = ix;
  const tried = triedTo[id] - base;
  if (tried >= from) from = tried + 1;
  if (from < 0) from = 0;
  if (to > n - 1) to = n - 1;
  if (from > to) return;
  triedTo[id] = base + to;
  const w = id >>> 5;
  const bit = 1 << (id & 31);
  const { startWithin, startEnds } = ix;
  const first = ix.startsOf[id];
  const last = ix.startsOf[id + 1];
  const alsoOptions = ix.alsoOptions[id];
  for (let a = from; a <= to; a++) {
    if (!(at[a].startBits[w] & bit)) continue;
    const firstOf = at[a].firstOf;
    let second = false;
    for (let s = first; s < last && !second; s++) {
      const sw = s >>> 5;
      const sb = 1 << (s & 31);
      if (!(firstOf[sw] & sb)) continue;
      second = startEnds[s] === 1;
      const within = startWithin[s];
      for (let k = 1; k <= within && !second && a + k < n; k++) second = (at[a + k].secondOf[sw] & sb) !== 0;
    }
    if (second && alsoOptions !== undefined) second = alsoWithin(ix, id, a, alsoOptions);
    if (second) {
      if (ix.foundN + 2 > ix.found.length) {
        const more = new Float64Array(2 * ix.found.length);
        more.set(ix.found);
        ix.found = more;
      }
      ix.found[ix.foundN++] = a;
      ix.found[ix.foundN++] = id;
    }
  }
}

/** Whether tokens of the text at hand can stand for a whole option of entry `id`'s next rarest element
 *  (`options`: ix.alsoOptions[id]) where a match from token `a` may take it. */
function alsoWithin(ix: PatternIndex, id: number, a: number, options: Int32Array): boolean {
  const { tokenAt: at, textLength: n } = ix;
  const w = id >>> 5;
  const bit = 1 << (id & 31);
  const to = Math.min(a + ix.alsoHi[id], n - 1);
  for (let q = a + ix.alsoLo[id]; q <= to; q++) {
    if (!(at[q].alsoBits[w] & bit)) continue;
    for (let i = 0; i < options.length; i += 1 + options[i]) {
      const len = options[i];
      if (q + len > n) continue;
      let all = true;
      for (let c = 0; c < len && all; c++) {
        const ch = options[i + 1 + c];
        all = ((at[q + c].charBits[ch >>> 5] >>> (ch & 31)) & 1) === 1;
      }
      if (all) return true;
    }
  }
  return false;
}

/**
 * The candidates of a text without a wildcard, found from the anchors: where a token can stand for
 * the first character of an entry's anchor option and the tokens after it for the rest, the entry is
 * tried from each token before it that the anchor's reach allows and that can start the entry, with a
 * token within reach that can be its second.
 * (Most tokens are the first of no anchor: a text is mostly read one token index a token.)
 */
function anchoredCandidates(ix: PatternIndex, tokens: readonly TokenLike[]): PatternCandidates {
  const n = tokens.length;
  // (scratch kept on the index: a text's token indexes, and its (start, entry id) pairs found)
  const at = ix.tokenAt;
  for (let p = 0; p < n; p++) at[p] = ix.byKey[tokens[p].key] ?? tokenIndex(ix, tokens[p]);
  ix.foundN = 0;
  ix.textBase = ix.reachBase;
  ix.textLength = n;
  ix.reachBase += n + 1;
  for (let p = 0; p < n; p++) {
    const here = at[p];
    const ones = here.anchorOne;
    for (let i = 0; i < ones.length; i++) anchoredAt(ix, ones[i], p);
    if (p + 1 >= n) break;
    // A longer option: the token after must stand for its second character, the ones after for the rest.
    if (!here.anchorSeconds.length) continue;
    const { two, longer, thirds } = pairOptions(ix, tokens[p].key, tokens[p + 1].key, here, at[p + 1]);
    for (let k = 0; k < two.length; k++) anchoredAt(ix, two[k], p);
    if (!longer.length || p + 2 >= n) continue;
    // (the token after the two: one of the longer options' third characters, or none is there)
    const third = at[p + 2].charBits;
    let any = false;
    for (let i = 0; i < thirds.length && !any; i += 2) any = (third[thirds[i]] & thirds[i + 1]) !== 0;
    if (!any) continue;
    for (let k = 0; k < longer.length; k++) {
      const chars = ix.options[longer[k]];
      let there = p + chars.length <= n;
      for (let c = 2; c < chars.length && there; c++) there = ((at[p + c].charBits[chars[c] >>> 5] >>> (chars[c] & 31)) & 1) === 1;
      if (there) anchoredAt(ix, longer[k], p);
    }
  }
  // Entries with no element a match cannot skip: wherever they may start.
  const { unanchored } = ix;
  for (let w = 0; w < unanchored.length; w++) {
    for (let bits = unanchored[w]; bits !== 0; ) {
      const b = 31 - Math.clz32(bits);
      bits &= ~(1 << b);
      tryEntry(ix, w * 32 + b, 0, n - 1);
    }
  }
  const { found, foundN } = ix;
  // (most texts: none, and nothing to ask)
  if (!foundN) return NO_CANDIDATES;
  // By first token, then list order, as numbers (start · 2^20 + list position): sorted as such (a few:
  // by insertion, in the scratch itself).
  for (let i = 0; i < foundN; i += 2) found[i >>> 1] = found[i] * 0x100000 + ix.entries[found[i + 1]]!.entry.id;
  const m = foundN >>> 1;
  for (let i = 1; i < m; i++) {
    const key = found[i];
    let j = i - 1;
    for (; j >= 0 && found[j] > key; j--) found[j + 1] = found[j];
    found[j + 1] = key;
  }
  const candidates: Candidate[] = new Array(m);
  for (let i = 0; i < m; i++) {
    const start = Math.floor(found[i] / 0x100000);
    const listed = found[i] - start * 0x100000;
    candidates[i] = { at: start, entry: ix.listed[listed], alts: ix.altsByListed[listed] };
  }
  return new TextCandidates(ix, tokens, 0, candidates);
}

/** A text's candidates and what it can supply (one object a text: the walk asks it at every step). */
class TextCandidates implements PatternCandidates {
  constructor(
    private readonly ix: PatternIndex,
    private readonly tokens: readonly TokenLike[],
    /** The text's stamp (0: none, the text has a wildcard, no candidate needed to ask, or was read from
     *  the anchors, whose candidates are few enough that asking costs more than it saves: every option is tried). */
    private readonly g: number,
    readonly candidates: Candidate[],
  ) {}

  options(alt: Alt): AltOptions {
    const a = this.ix.alts.get(alt);
    return a === undefined ? unknownIds(alt) : this.ix.allOfAlt[a];
  }

  supplied(o: number): boolean {
    return this.g === 0 || optionSupplied(this.ix, this.g, o);
  }

  optionsAt(alt: AltOptions, t: number): Int32Array | null {
    const { tokens } = this;
    if (alt.n < 0 || (t < tokens.length && tokens[t].kind === 'wildcard')) return null;
    if (t >= tokens.length) return alt.empty;
    const token = this.ix.byKey[tokens[t].key]!;
    // (most tokens can start none: answered from the bits, not kept)
    let starts = false;
    const words = token.charWords;
    for (let i = 0; i < words.length && !starts; i += 2) starts = (words[i + 1] & alt.firsts![words[i]]) !== 0;
    if (!starts) return alt.empty;
    let found = (token.optionsAt ??= new Map()).get(alt.n);
    if (!found) {
      const { first } = alt;
      const bits = token.charBits;
      const at: number[] = [];
      for (let i = 0; i < first!.length; i++) if (first![i] < 0 || (bits[first![i] >>> 5] >>> (first![i] & 31)) & 1) at.push(i);
      token.optionsAt.set(alt.n, (found = Int32Array.from(at)));
    }
    return found;
  }
}
