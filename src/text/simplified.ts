/**
 * Traditional → simplified Chinese (OpenCC's t → cn, the dictionaries of opencc-js), one converter
 * built on first use: the banned-wording folder and the acceleration reader both read 申請加速 as 申请加速.
 *
 * opencc-js builds each dictionary group into a trie of nested Maps, one per character, a noticeable
 * part of every tally and report for ~3,000 entries. Here each group is one flat Map of its entries (and,
 * per first character, the key lengths longest first), much quicker to build, converting exactly as
 * opencc-js 1.4's Converter({from: 't', to: 'cn'}) does (test/text/simplified.test.ts compares the two):
 * the normalisation group, then the conversion group; at each position the longest key that starts
 * there is replaced by its value, else one character (an ideographic description sequence whole) is
 * kept and the next position tried; in a group an earlier dictionary's entry wins over a later one's.
 */
// The dictionaries of opencc-js's `t2s` (what Converter({from: 't', to: 'cn'}) runs), and only them:
// its t2cn build holds every region's (190 KB of code for each command that counts acceleration requests).
import CJK_Compatibility_Ideographs from 'opencc-js/dict/CJK_Compatibility_Ideographs';
import TSCharacters from 'opencc-js/dict/TSCharacters';
import TSPhrases from 'opencc-js/dict/TSPhrases';

/** opencc-js's t2s: the normalisation group, then the conversion group (each: its dictionaries, first wins). */
const T2S: ReadonlyArray<readonly string[]> = [[CJK_Compatibility_Ideographs], [TSPhrases, TSCharacters]];

/** One dictionary group: its entries, and per first code point the distinct key lengths, longest first. */
interface Group {
  entries: Map<string, string>;
  lengths: Map<number, number[]>;
}

function groupOf(dicts: readonly string[]): Group {
  const entries = new Map<string, string>();
  // opencc-js loads a group last dictionary first, each entry over what was there: the first one wins.
  // Entries ("key value[ value…]|…") read by index, not split: half the time of every first conversion.
  for (let d = dicts.length - 1; d >= 0; d--) {
    const dict = dicts[d];
    for (let i = 0; i < dict.length; ) {
      let end = dict.indexOf('|', i);
      if (end < 0) end = dict.length;
      const space = dict.indexOf(' ', i);
      if (space < 0 || space > end) throw new TypeError(`opencc dictionary entry without a replacement: ${dict.slice(i, end)}`);
      let valueEnd = dict.indexOf(' ', space + 1);
      if (valueEnd < 0 || valueEnd > end) valueEnd = end;
      entries.set(dict.slice(i, space), dict.slice(space + 1, valueEnd));
      i = end + 1;
    }
  }
  const lengths = new Map<number, number[]>();
  for (const key of entries.keys()) {
    const first = key.codePointAt(0)!;
    const seen = lengths.get(first);
    if (!seen) lengths.set(first, [key.length]);
    else if (!seen.includes(key.length)) seen.push(key.length);
  }
  for (const l of lengths.values()) if (l.length > 1) l.sort((a, b) => b - a);
  return { entries, lengths };
}

/** UTF-16 units of the code point at `i`. */
const width = (s: string, i: number): number => (s.codePointAt(i)! > 0xffff ? 2 : 1);

/** Operands of an ideographic description character (⿰ ⿱: 2, ⿲ ⿳: 3, ⿴–⿿: 2), else 0. */
function idsArity(cp: number): number {
  if (cp >= 0x2ff0 && cp <= 0x2ff1) return 2;
  if (cp >= 0x2ff2 && cp <= 0x2ff3) return 3;
  if (cp >= 0x2ff4 && cp <= 0x2fff) return 2;
  return 0;
}

/** The end of the ideographic description sequence starting at `i`, or 0 when none (or it is cut short). */
function idsEnd(s: string, i: number): number {
  const arity = idsArity(s.codePointAt(i)!);
  if (arity === 0) return 0;
  let end = i + width(s, i);
  for (let k = 0; k < arity; k++) {
    if (end >= s.length) return 0;
    end = idsEnd(s, end) || end + width(s, end);
  }
  return end;
}

/** How far an unreplaced position moves on: a whole description sequence, else one code point. */
function step(s: string, i: number): number {
  const end = idsEnd(s, i);
  return end > i ? end - i : width(s, i);
}

/** `s` through one group: the longest key at each position replaced. */
function convert(g: Group, s: string): string {
  const out: string[] = [];
  let kept: number | null = null; // where the run of unreplaced text began
  for (let i = 0; i < s.length; ) {
    let hit: string | undefined;
    let len = 0;
    for (const l of g.lengths.get(s.codePointAt(i)!) ?? []) {
      if (i + l > s.length) continue;
      hit = g.entries.get(s.slice(i, i + l));
      if (hit !== undefined) {
        len = l;
        break;
      }
    }
    if (hit !== undefined) {
      if (kept !== null) out.push(s.slice(kept, i));
      kept = null;
      out.push(hit);
      i += len;
    } else {
      kept ??= i;
      i += step(s, i);
    }
  }
  if (kept !== null) out.push(s.slice(kept));
  return out.join('');
}

let groups: Group[] | null = null;

/** `s` with traditional characters (and phrases) in their simplified form. */
export function toSimplified(s: string): string {
  groups ??= T2S.map(groupOf);
  return groups.reduce((text, g) => convert(g, text), s);
}
