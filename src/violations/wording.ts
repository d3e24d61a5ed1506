/**
 * Banned-wording matching (rules-spec §7; m107 l.243: 音近、形近、以及明显的通配符 count too). Finds
 * every entry of the loaded lists in a text, through the folding of text-fold.ts, and says how the
 * text got there: as written, by same-pinyin substitutes, typed pinyin, pinyin initials or wildcards.
 * A hit is a proposal for the director, never a penalty.
 */
import { foldChar, foldText, type FoldedText, type Token } from './text-fold.js';
import type { WordEntry, WordLists } from './word-lists.js';

/** How a hit differs from the entry as listed. */
export type Evasion = 'homophone' | 'pinyin' | 'initials' | 'wildcard' | 'separators' | 'variant';

export interface WordingHit {
  category: string;
  /** The list entry it stands for. */
  word: string;
  /** The player's own text that matched (original characters). */
  matched: string;
  /** UTF-16 offsets of `matched` in the text. */
  start: number;
  end: number;
  /** Empty when the text has the entry literally. */
  evasions: Evasion[];
}

type Step = 'literal' | 'homophone' | 'pinyin' | 'initials' | 'wildcard';

function stepFor(e: { char: string; syls: readonly string[]; han: boolean }, t: Token, allowSound: boolean): Step | null {
  if ((t.kind === 'han' || t.kind === 'letter' || t.kind === 'digit') && t.text === e.char) return 'literal';
  if (t.kind === 'wildcard') return 'wildcard';
  if (!e.han || !allowSound) return null;
  if (t.kind === 'han' && t.syls.some((s) => e.syls.includes(s))) return 'homophone';
  if (t.kind === 'syllable' && e.syls.includes(t.text)) return 'pinyin';
  if (t.kind === 'letter' && e.syls.some((s) => s[0] === t.text)) return 'initials';
  return null;
}

/** Tries the entry's elements from token `at`; returns the last token index used and the steps. */
function matchPattern(entry: WordEntry, tokens: Token[], at: number): { last: number; steps: Step[] } | null {
  const chars = entry.elements.filter((e) => e.kind === 'char').length;
  const allowSound = chars >= 2;
  const els = entry.elements;
  const walk = (j: number, t: number, steps: Step[]): { last: number; steps: Step[] } | null => {
    if (j === els.length) return { last: t - 1, steps };
    const e = els[j];
    if (e.kind === 'gap') {
      if (j === 0 || j === els.length - 1) return walk(j + 1, t, steps);
      for (let k = 0; k <= e.max && t + k <= tokens.length; k++) {
        const r = walk(j + 1, t + k, steps);
        if (r) return r;
      }
      return null;
    }
    if (t >= tokens.length) return null;
    const step = stepFor(e, tokens[t], allowSound);
    if (!step) return null;
    return walk(j + 1, t + 1, [...steps, step]);
  };
  return walk(0, at, []);
}

function acceptable(steps: Step[], tokens: Token[], text: FoldedText, first: number, last: number): boolean {
  const n = steps.length;
  const wild = steps.filter((s) => s === 'wildcard').length;
  if (n === 1 && steps[0] !== 'literal') return false;
  if (wild * 2 > n || (wild > 0 && steps[0] === 'wildcard')) return false;
  // Pinyin initials must use a whole Latin run: "sb" is 傻逼, the "sb" inside "usb" is not.
  for (let t = first; t <= last; t++) {
    if (tokens[t].kind === 'letter' && steps[t - first] === 'initials') {
      const run = text.runs[tokens[t].run];
      if (run.first < first || run.last > last) return false;
    }
  }
  return true;
}

interface FoldedChar {
  c: string;
  start: number;
  end: number;
}

function foldedChars(text: string): FoldedChar[] {
  const out: FoldedChar[] = [];
  let i = 0;
  for (const cp of text) {
    const start = i;
    i += cp.length;
    for (const c of foldChar(cp)) out.push({ c, start, end: i });
  }
  return out;
}

function evasionsOf(steps: Step[], original: string, tokens: Token[], first: number, last: number): Evasion[] {
  const ev = new Set<Evasion>();
  for (const s of steps) if (s !== 'literal') ev.add(s);
  const span = original.slice(tokens[first].start, tokens[last].end);
  const written = tokens.slice(first, last + 1).map((t) => original.slice(t.start, t.end)).join('');
  if (written.length < span.length) ev.add('separators');
  if (steps.every((s) => s === 'literal') && written !== tokens.slice(first, last + 1).map((t) => t.text).join('')) ev.add('variant');
  return [...ev];
}

/** Every banned-wording hit in a text, allow-listed overlaps removed, nested hits of one category merged. */
export function findBannedWording(text: string, lists: WordLists): WordingHit[] {
  if (!text.trim()) return [];
  const folded = foldText(text);
  const { tokens } = folded;
  const chars = foldedChars(text);
  const flat = chars.map((c) => c.c).join('');
  const hits: WordingHit[] = [];

  for (const entry of lists.entries) {
    if (entry.shape === 'pattern') {
      for (let at = 0; at < tokens.length; at++) {
        const m = matchPattern(entry, tokens, at);
        if (!m || m.last < at || !acceptable(m.steps, tokens, folded, at, m.last)) continue;
        const start = tokens[at].start;
        const end = tokens[m.last].end;
        hits.push({ category: entry.category, word: entry.word, matched: text.slice(start, end), start, end, evasions: evasionsOf(m.steps, text, tokens, at, m.last) });
      }
    } else if (entry.shape === 'latin') {
      const letters = [...entry.folded].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      const re = new RegExp(`(?<![a-z0-9])${letters.join('[^a-z0-9\\p{Script=Han}]{0,2}')}(?![a-z0-9])`, 'gu');
      for (const m of flat.matchAll(re)) {
        const a = m.index;
        const b = a + m[0].length - 1;
        const start = chars[a].start;
        const end = chars[b].end;
        const ev: Evasion[] = m[0].length > entry.folded.length ? ['separators'] : [];
        hits.push({ category: entry.category, word: entry.word, matched: text.slice(start, end), start, end, evasions: ev });
      }
    } else {
      let from = 0;
      for (;;) {
        const a = flat.indexOf(entry.folded, from);
        if (a < 0) break;
        const b = a + entry.folded.length - 1;
        hits.push({ category: entry.category, word: entry.word, matched: text.slice(chars[a].start, chars[b].end), start: chars[a].start, end: chars[b].end, evasions: [] });
        from = a + 1;
      }
    }
  }

  // Allow list: ordinary words (法师, 所以, 消耗…) overlapping a hit cancel it.
  const compact = tokens.map((t) => t.text);
  const compactStr = compact.join('');
  const tokenAt: number[] = [];
  compact.forEach((s, i) => {
    for (let k = 0; k < s.length; k++) tokenAt.push(i);
  });
  const allowed: Array<[number, number]> = [];
  for (const w of lists.allow) {
    if (!w) continue;
    let from = 0;
    for (;;) {
      const a = compactStr.indexOf(w, from);
      if (a < 0) break;
      allowed.push([tokens[tokenAt[a]].start, tokens[tokenAt[a + w.length - 1]].end]);
      from = a + 1;
    }
  }
  const kept = hits.filter((h) => !allowed.some(([a, b]) => a < h.end && h.start < b));

  // One hit per place and category: the longest, literal before evasions.
  kept.sort((x, y) => x.start - y.start || y.end - y.start - (x.end - x.start) || x.evasions.length - y.evasions.length);
  const out: WordingHit[] = [];
  for (const h of kept) {
    if (out.some((o) => o.category === h.category && o.start <= h.start && h.end <= o.end)) continue;
    out.push(h);
  }
  return out;
}

/** Human-readable account of a hit: 「发 誓」→ 发誓（分隔符）. */
export function describeHit(h: WordingHit): string {
  const names: Record<Evasion, string> = {
    homophone: '同音字',
    pinyin: '拼音',
    initials: '拼音首字母',
    wildcard: '通配符',
    separators: '插入分隔符',
    variant: '繁体/全角/形近',
  };
  const how = h.evasions.length ? `（${h.evasions.map((e) => names[e]).join('、')}）` : '';
  return h.evasions.length ? `${h.category}：「${h.matched}」即「${h.word}」${how}` : `${h.category}：「${h.word}」`;
}
