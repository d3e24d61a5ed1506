/**
 * The pattern index of a list set (issue #15: the scan compiles its patterns once per run and indexes
 * them). A token can stand for an entry's character in four ways (wording.ts stepFor): as itself, by
 * a shared reading, as a typed syllable or as an initial. Compiled once per list set: each distinct
 * character of the entries, numbered, and for each token text seen (cached) the characters it can
 * stand for and the entries it can start. A text's tokens mark the characters they can stand for; an
 * entry is walked only from a token that can start it, and only when the text can supply each element
 * a match cannot skip — a character, or every character of one option of an alternative. A wildcard
 * token stands for any character but never starts a match (wording.ts acceptable), so a text with one
 * skips the second test, not the first.
 * What this must never do is drop a match: test/violations/wording-index.test.ts holds it to trying
 * every entry at every token over the whole labelled and everyday corpus.
 */
import type { Token } from './text-fold.js';
import type { CharElement, EntryElement, WordEntry, WordLists } from './word-lists.js';

/** A pattern entry as the index holds it. */
interface IndexedEntry {
  entry: WordEntry;
  /** For each element a match cannot skip, its options (a character: one option of one), each the
   *  ids of its characters: the text must be able to supply every character of one option. */
  needs: Int32Array[][];
}

interface PatternIndex {
  /** By WordEntry.id (undefined: not a pattern). */
  entries: Array<IndexedEntry | undefined>;
  /** Key (c:<char>, s:<syllable>, i:<letter>) → the ids of the characters a token with it can stand for. */
  charsByKey: Map<string, number[]>;
  /** Key → the entries whose first token can hold it (ids ascending). */
  startsByKey: Map<string, number[]>;
  /** Per `kind:text` of a token: the characters it can stand for, the entries it can start. */
  byToken: Map<string, { chars: Int32Array; starts: Int32Array }>;
  /** charSeen[c] === generation: the current text can supply character c; feasible per entry likewise
   *  (generation: worth walking, generation + 1: not). */
  charSeen: Uint32Array;
  feasible: Uint32Array;
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

function compile(lists: WordLists): PatternIndex {
  const charIds = new Map<string, number>();
  const charsByKey = new Map<string, number[]>();
  const startsByKey = new Map<string, number[]>();
  const add = (m: Map<string, number[]>, k: string, v: number) => {
    const list = m.get(k);
    if (!list) m.set(k, [v]);
    else if (!list.includes(v)) list.push(v);
  };
  const idOf = (c: CharElement) => {
    let n = charIds.get(c.char);
    if (n === undefined) {
      charIds.set(c.char, (n = charIds.size));
      for (const k of keysOfChar(c)) add(charsByKey, k, n);
    }
    return n;
  };
  const entries: PatternIndex['entries'] = [];
  for (const entry of lists.entries) {
    if (entry.shape !== 'pattern') continue;
    const needs = entry.elements.flatMap((e) =>
      e.kind === 'gap' || skippable(e) ? [] : [(e.kind === 'alt' ? e.options : [[e]]).map((o) => Int32Array.from(o, idOf))],
    );
    entries[entry.id] = { entry, needs };
    // The first token taken: the first character of the first element a match cannot pass over, or of
    // an optional one before it.
    for (const e of entry.elements) {
      const firsts = e.kind === 'gap' ? [] : e.kind === 'alt' ? e.options.flatMap((o) => o.slice(0, 1)) : [e];
      for (const c of firsts) for (const k of keysOfChar(c)) add(startsByKey, k, entry.id);
      if (!skippable(e)) break;
    }
  }
  for (const list of startsByKey.values()) list.sort((a, b) => a - b);
  return {
    entries,
    charsByKey,
    startsByKey,
    byToken: new Map(),
    charSeen: new Uint32Array(charIds.size),
    feasible: new Uint32Array(entries.length),
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

function tokenIndex(ix: PatternIndex, t: Token): { chars: Int32Array; starts: Int32Array } {
  const cacheKey = `${t.kind}:${t.text}`;
  let found = ix.byToken.get(cacheKey);
  if (!found) {
    const keys = keysOfToken(t);
    const union = (m: Map<string, number[]>) => Int32Array.from(new Set(keys.flatMap((k) => m.get(k) ?? []))).sort();
    found = { chars: union(ix.charsByKey), starts: union(ix.startsByKey) };
    if (ix.byToken.size < 100_000) ix.byToken.set(cacheKey, found);
  }
  return found;
}

/** A pattern entry worth walking from token `at`. */
export interface Candidate {
  at: number;
  entry: WordEntry;
}

/**
 * Where in a text the pattern entries are worth walking: by first token, then list order.
 * `everyEntry`: the reference the index is tested against — every pattern entry at every token.
 */
export function patternCandidates(lists: WordLists, tokens: readonly Token[], everyEntry = false): Candidate[] {
  if (everyEntry) {
    const patterns = lists.entries.filter((e) => e.shape === 'pattern');
    return tokens.flatMap((_, at) => patterns.map((entry) => ({ at, entry })));
  }
  const ix = indexOf(lists);
  ix.generation += 2;
  if (ix.generation >= 0xfffffff0) {
    ix.charSeen.fill(0);
    ix.feasible.fill(0);
    ix.generation = 2;
  }
  const g = ix.generation;
  const { charSeen, feasible } = ix;
  const perToken = tokens.map((t) => tokenIndex(ix, t));
  let wildcard = false;
  for (let t = 0; t < tokens.length; t++) {
    if (tokens[t].kind === 'wildcard') wildcard = true;
    const chars = perToken[t].chars;
    for (let i = 0; i < chars.length; i++) charSeen[chars[i]] = g;
  }
  const supplied = (option: Int32Array) => {
    for (let i = 0; i < option.length; i++) if (charSeen[option[i]] !== g) return false;
    return true;
  };
  // A wildcard may stand for any character a match needs beyond its first.
  const worthWalking = (id: number) => {
    if (feasible[id] < g) feasible[id] = wildcard || ix.entries[id]!.needs.every((options) => options.some(supplied)) ? g : g + 1;
    return feasible[id] === g;
  };
  const out: Candidate[] = [];
  for (let at = 0; at < tokens.length; at++) {
    const starts = perToken[at].starts;
    for (let i = 0; i < starts.length; i++) if (worthWalking(starts[i])) out.push({ at, entry: ix.entries[starts[i]]!.entry });
  }
  return out;
}
