/**
 * The pattern index of a list set (issue #15: the scan compiles its patterns once per run and indexes
 * them). A token can stand for an entry's character in four ways (wording.ts stepFor): as itself, by
 * a shared reading, as a typed syllable or as an initial. Compiled once per list set:
 * - each distinct character of the entries, numbered, and for each token text seen (cached) the
 *   characters it can stand for and the entries it can start;
 * - each distinct option (a character sequence; a lone character is one too), filed under its rarest
 *   character (the one in fewest options), and each distinct element a match cannot skip.
 * A text's tokens mark the characters they can stand for; only the options filed under a marked
 * character are checked (can the text supply every character of it?), and mark the elements they
 * belong to. An entry is walked only from a token that can start it and only when the text can supply
 * each element it cannot skip; the walk passes over options the text cannot supply. A wildcard token
 * stands for any character but never starts a match (wording.ts acceptable), so a text with one skips
 * the supply tests, not the first-token one.
 * What this must never do is drop a match: test/violations/wording-index.test.ts holds it to trying
 * every entry at every token over the whole labelled and everyday corpus.
 */
import type { Token } from './text-fold.js';
import type { CharElement, EntryElement, WordEntry, WordLists } from './word-lists.js';

interface PatternIndex {
  /** By WordEntry.id (undefined: not a pattern): the entry and the ids of the elements it cannot skip. */
  entries: Array<{ entry: WordEntry; needs: Int32Array } | undefined>;
  /** Option id → its characters' ids; each alternative's options' ids, by position. */
  options: Int32Array[];
  optionsOfAlt: Map<Alt, Int32Array>;
  /** Character id → the options filed under it; option id → the elements (needs) it can supply. */
  optionsFiledAt: Int32Array[];
  needsOfOption: Int32Array[];
  /** Key (c:<char>, s:<syllable>, i:<letter>) → the characters a token with it can stand for / the
   *  entries whose first token can hold it. */
  charsByKey: Map<string, number[]>;
  startsByKey: Map<string, number[]>;
  /** Per token kind and text: the characters it can stand for, the entries it can start (ascending). */
  byToken: Record<Token['kind'], Map<string, TokenIndex>>;
  /** What the current text (stamped `generation`) can supply: characters, options, needs. */
  charSeen: Uint32Array;
  optionMet: Uint32Array;
  needMet: Uint32Array;
  generation: number;
}

/** The keys a token can be matched by. */
function keysOfToken(t: Token): string[] {
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

function compile(lists: WordLists): PatternIndex {
  const chars = new Numbering<CharElement>();
  const options = new Numbering<Int32Array>();
  const needs = new Numbering<Int32Array>();
  const optionsOfAlt = new Map<Alt, Int32Array>();
  const startsByKey = new Map<string, number[]>();
  // Values come in ascending order (entries by id, characters by id): a repeat is the last one.
  const push = (m: Map<string, number[]>, k: string, v: number) => {
    const list = m.get(k);
    if (!list) m.set(k, [v]);
    else if (list[list.length - 1] !== v) list.push(v);
  };
  const optionId = (o: readonly CharElement[]) => {
    const ids = Int32Array.from(o, (c) => chars.id(c.char, () => c));
    return options.id(ids.join(','), () => ids);
  };
  const entries: PatternIndex['entries'] = [];
  for (const entry of lists.entries) {
    if (entry.shape !== 'pattern') continue;
    const own: number[] = [];
    for (const e of entry.elements) {
      if (e.kind === 'gap') continue;
      const opts = Int32Array.from(e.kind === 'alt' ? e.options : [[e]], optionId);
      if (e.kind === 'alt') optionsOfAlt.set(e, opts);
      if (!skippable(e)) own.push(needs.id(opts.join(','), () => opts));
    }
    entries[entry.id] = { entry, needs: Int32Array.from(own) };
    // The first token taken: the first character of the first element a match cannot pass over, or of
    // an optional one before it.
    for (const e of entry.elements) {
      const firsts = e.kind === 'gap' ? [] : e.kind === 'alt' ? e.options.flatMap((o) => o.slice(0, 1)) : [e];
      for (const c of firsts) for (const k of keysOfChar(c)) push(startsByKey, k, entry.id);
      if (!skippable(e)) break;
    }
  }

  const charsByKey = new Map<string, number[]>();
  chars.values.forEach((c, id) => keysOfChar(c).forEach((k) => push(charsByKey, k, id)));
  const inOptions = new Uint32Array(chars.values.length);
  for (const o of options.values) for (const c of new Set(o)) inOptions[c]++;
  const filed: number[][] = chars.values.map(() => []);
  options.values.forEach((o, id) => {
    if (o.length) filed[o.reduce((a, b) => (inOptions[b] < inOptions[a] ? b : a))].push(id);
  });
  const needsOf: number[][] = options.values.map(() => []);
  needs.values.forEach((opts, id) => opts.forEach((o) => needsOf[o].push(id)));
  return {
    entries,
    options: options.values,
    optionsOfAlt,
    optionsFiledAt: filed.map((f) => Int32Array.from(f)),
    needsOfOption: needsOf.map((n) => Int32Array.from(n)),
    charsByKey,
    startsByKey,
    byToken: { han: new Map(), syllable: new Map(), letter: new Map(), digit: new Map(), wildcard: new Map() },
    charSeen: new Uint32Array(chars.values.length),
    optionMet: new Uint32Array(options.values.length),
    needMet: new Uint32Array(needs.values.length),
    generation: 0,
  };
}

const compiled = new WeakMap<WordLists, PatternIndex>();

/** The list set's index, compiled on first use. */
function indexOf(lists: WordLists): PatternIndex {
  let ix = compiled.get(lists);
  if (!ix) compiled.set(lists, (ix = compile(lists)));
  return ix;
}

interface TokenIndex {
  chars: Int32Array;
  starts: Int32Array;
}

function tokenIndex(ix: PatternIndex, t: Token): TokenIndex {
  const cache = ix.byToken[t.kind];
  let found = cache.get(t.text);
  if (!found) {
    const keys = keysOfToken(t);
    const union = (m: Map<string, number[]>) => Int32Array.from(new Set(keys.flatMap((k) => m.get(k) ?? []))).sort();
    found = { chars: union(ix.charsByKey), starts: union(ix.startsByKey) };
    if (cache.size < 100_000) cache.set(t.text, found);
  }
  return found;
}

/** A pattern entry worth walking from token `at`. */
export interface Candidate {
  at: number;
  entry: WordEntry;
}

type Alt = Extract<EntryElement, { kind: 'alt' }>;

/** Where in a text the patterns are worth walking, and which options the text can supply. */
export interface PatternCandidates {
  /** By first token, then list order. */
  candidates: Candidate[];
  /** An alternative's option ids by position (null: any option may match), and whether the text can
   *  supply an option (false: some character of it has no token that can stand for it). */
  optionIds(alt: Alt): Int32Array | null;
  supplied(option: number): boolean;
}

const noIds = () => null;
const always = () => true;

/**
 * Where in a text the pattern entries are worth walking.
 * `everyEntry`: the reference the index is tested against — every pattern entry at every token.
 */
export function patternCandidates(lists: WordLists, tokens: readonly Token[], everyEntry = false): PatternCandidates {
  if (everyEntry) {
    const patterns = lists.entries.filter((e) => e.shape === 'pattern');
    return { candidates: tokens.flatMap((_, at) => patterns.map((entry) => ({ at, entry }))), optionIds: noIds, supplied: always };
  }
  const ix = indexOf(lists);
  if (++ix.generation === 0xffffffff) {
    for (const a of [ix.charSeen, ix.optionMet, ix.needMet]) a.fill(0);
    ix.generation = 1;
  }
  const g = ix.generation;
  const { charSeen, optionMet, needMet, options } = ix;
  const perToken = tokens.map((t) => tokenIndex(ix, t));
  const seen: number[] = [];
  let wildcard = false;
  for (let t = 0; t < tokens.length; t++) {
    if (tokens[t].kind === 'wildcard') wildcard = true;
    const cs = perToken[t].chars;
    for (let i = 0; i < cs.length; i++) {
      if (charSeen[cs[i]] !== g) {
        charSeen[cs[i]] = g;
        seen.push(cs[i]);
      }
    }
  }
  for (const c of seen) {
    const filed = ix.optionsFiledAt[c];
    for (let i = 0; i < filed.length; i++) {
      const o = options[filed[i]];
      let all = true;
      for (let k = 0; k < o.length && all; k++) all = charSeen[o[k]] === g;
      if (!all) continue;
      optionMet[filed[i]] = g;
      const ns = ix.needsOfOption[filed[i]];
      for (let k = 0; k < ns.length; k++) needMet[ns[k]] = g;
    }
  }
  const candidates: Candidate[] = [];
  for (let at = 0; at < tokens.length; at++) {
    const starts = perToken[at].starts;
    for (let i = 0; i < starts.length; i++) {
      const { entry, needs } = ix.entries[starts[i]]!;
      let all = true;
      // A wildcard may stand for any character a match needs beyond its first.
      for (let k = 0; k < needs.length && all && !wildcard; k++) all = needMet[needs[k]] === g;
      if (all) candidates.push({ at, entry });
    }
  }
  if (wildcard) return { candidates, optionIds: noIds, supplied: always };
  return { candidates, optionIds: (alt) => ix.optionsOfAlt.get(alt) ?? null, supplied: (o) => optionMet[o] === g || options[o].length === 0 };
}
