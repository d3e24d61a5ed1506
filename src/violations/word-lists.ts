/**
 * The banned-wording patterns (rules-spec §7, issue #15): one data file per category under
 * src/violations/words/ (the ruleset's `bannedCategories` names them), extended per game by files of
 * the same name in a `words/` folder beside the game file. Entries are compiled once per run into the
 * shapes the matcher needs (pattern-index.ts indexes them on first use).
 *
 * Line syntax (`#` starts a comment line):
 *  - `@m107:259 @120b:536` alone: the rule-post lines the following entries enforce (until the next such
 *    line); `@…` after an entry cites for that entry only. Bundled entries must all cite one.
 *  - `{亲属} = 妈|爸|奶奶|全家`: a slot, usable in the file's patterns (data/slots.txt holds shared ones).
 *  - a pattern: characters; `*` a gap of up to 4 characters, `*8` of up to 8 (never across 。，！？…),
 *    `~8` one of up to 8 that may cross a comma but not a sentence end; a final `$`: the clause ends there;
 *    `{a|b|}` one of the alternatives (an empty one makes it optional; one that names a slot stands for
 *    its values); `{亲属}` a slot.
 *    Matching survives width, traditional forms, separators, same-pinyin substitutes, typed pinyin,
 *    pinyin initials and wildcards — do not list those variants.
 *  - `!{角色语境}` after a pattern: the hit does not count when its clause holds a word of that slot
 *    elsewhere (白痴 the role: 白痴翻牌 — not 你这白痴).
 *  - Latin letters and digits only ("sb", "tmd"): a whole word, separators allowed between letters.
 *  - anything with other punctuation ("[图片]"): exactly, after width/case folding.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.js';
import { t } from '../i18n/index.js';
import { packagePath } from '../paths.js';
import { readUtf8Text } from '../text/read-utf8.js';
import { dataLines, foldString, readings } from './text-fold.js';

/** Where the bundled lists live. */
export const BUNDLED_WORDS_DIR = packagePath('src', 'violations', 'words');
/** The bundled allow list (words that must not be flagged though they contain or sound like an entry). */
export const BUNDLED_ALLOW_FILE = packagePath('src', 'violations', 'data', 'allow.txt');
/** The bundled slots every category may use. */
export const BUNDLED_SLOTS_FILE = packagePath('src', 'violations', 'data', 'slots.txt');
/** How many characters a bare `*` may stand for. */
export const ENTRY_GAP = 4;

export interface CharElement {
  kind: 'char';
  char: string;
  syls: readonly string[];
  han: boolean;
}
/** A gap of up to `max` characters; `acrossCommas` lets it cross clause (not sentence) punctuation. */
export type EntryElement = CharElement | { kind: 'gap'; max: number; acrossCommas: boolean } | { kind: 'alt'; options: CharElement[][] };

export interface WordEntry {
  /** The entry as written in the file (without its citations). */
  word: string;
  category: string;
  shape: 'pattern' | 'latin' | 'exact';
  /** pattern: the elements to match. */
  elements: EntryElement[];
  /** latin/exact: the folded text. */
  folded: string;
  /** latin: the compiled whole-word expression. */
  regex?: RegExp;
  /** Rule-post lines it enforces ("m107:259"). */
  cites: string[];
  /** Folded words that, elsewhere in the hit's clause, cancel it (role context). */
  unless: string[];
  /** `$`: the hit must end its clause (我靠！ — not 我靠自己). */
  clauseEnd: boolean;
  /** Position in WordLists.entries (set by loadWordLists). */
  id: number;
}

export interface WordLists {
  categories: string[];
  entries: WordEntry[];
  /** Folded allow words. */
  allow: string[];
}

const HAN = /\p{Script=Han}/u;

function charElement(c: string): CharElement {
  const han = HAN.test(c);
  return { kind: 'char', char: c, syls: han ? readings(c) : [c], han };
}

const charsCache = new Map<string, CharElement[]>();
/** A string's characters as elements (shared, never changed: a slot's values recur in many entries). */
function charsOf(s: string): CharElement[] {
  let chars = charsCache.get(s);
  if (!chars) {
    chars = [...foldString(s)].map(charElement);
    if (charsCache.size < 100_000) charsCache.set(s, chars);
  }
  return chars;
}

/** Whether every `{` of the line closes before the next one opens, and every `}` closes one. */
function balancedBraces(line: string): boolean {
  let open = false;
  for (const c of line) {
    if (c === '{') {
      if (open) return false;
      open = true;
    } else if (c === '}') {
      if (!open) return false;
      open = false;
    }
  }
  return !open;
}

/** Slot definitions of a file's lines: `{name} = a|b|c`. */
function readSlot(line: string): [string, string[]] | null {
  const m = /^\{([^{}|=]+)\}\s*=\s*(.*)$/.exec(line);
  return m ? [m[1].trim(), m[2].split('|').map((s) => s.trim())] : null;
}

/** The alternatives of `{…}`: a slot's values, or the alternatives written inside. */
function alternatives(body: string, slots: ReadonlyMap<string, string[]>, where: string): string[] {
  let options: string[];
  if (!body.includes('|')) {
    const slot = slots.get(body.trim());
    if (!slot) throw new UserError(t('words.unknownSlot', where, body));
    options = slot;
  } else {
    // An alternative that names a slot stands for the slot's values.
    options = body.split('|').flatMap((a) => slots.get(a) ?? [a]);
  }
  // Options of Latin letters and digits alone go first: after a Han option the scan does not find
  // them (`{导演|dy}说` missed "dy说" while `{dy|导演}说` found it, issue 36); every option is still tried.
  const plain = (o: string) => o !== '' && /^[a-zA-Z0-9]+$/.test(o);
  return [...options.filter(plain), ...options.filter((o) => !plain(o))];
}

/** A latin entry's whole-word expression, separators allowed between its letters. */
function latinRegex(folded: string): RegExp {
  const letters = [...folded].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?<![a-z0-9])${letters.join('[^a-z0-9\\p{Script=Han}]{0,2}')}(?![a-z0-9])`, 'gu');
}

/** Parses one entry (a pattern, cites and context already split off). */
export function parseEntry(word: string, category: string, slots: ReadonlyMap<string, string[]> = new Map(), cites: string[] = [], unless: string[] = []): WordEntry {
  const clauseEnd = word.endsWith('$');
  if (clauseEnd) word = word.slice(0, -1);
  const base = { id: -1, word, category, cites, unless, clauseEnd, elements: [] as EntryElement[] };
  const folded = foldString(word);
  if (/^[a-z0-9]+$/.test(folded)) return { ...base, shape: 'latin', folded, regex: latinRegex(folded) };
  const bodies = [...word.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]);
  const rest = foldString(word.replace(/\{[^{}]*\}/g, '').replace(/[*~]\d{0,2}/g, ''));
  if (!/^[\p{Script=Han}a-z0-9]*$/u.test(rest) || !bodies.every((b) => /^[\p{Script=Han}a-zA-Z0-9|]*$/u.test(b))) {
    return { ...base, shape: 'exact', folded };
  }
  const elements: EntryElement[] = [];
  const re = /\{([^{}]*)\}|[*~](\d{1,2})?|([^{}*~])/gu;
  for (const m of word.matchAll(re)) {
    if (m[1] !== undefined) elements.push({ kind: 'alt', options: alternatives(m[1], slots, `${category}: ${word}`).map(charsOf) });
    else if (m[0].startsWith('*') || m[0].startsWith('~')) elements.push({ kind: 'gap', max: m[2] ? Number(m[2]) : ENTRY_GAP, acrossCommas: m[0].startsWith('~') });
    else elements.push(...charsOf(m[3]));
  }
  return { ...base, shape: 'pattern', elements, folded };
}

/** Parses a category file's lines into entries (slots from `shared` and the file itself). */
export function parseCategoryLines(lines: readonly string[], category: string, shared: ReadonlyMap<string, string[]>, file: string): WordEntry[] {
  const slots = new Map(shared);
  let sectionCites: string[] = [];
  const out: WordEntry[] = [];
  for (const line of lines) {
    const slot = readSlot(line);
    if (slot) {
      slots.set(...slot);
      continue;
    }
    const parts = line.split(/\s+/);
    if (parts.every((p) => p.startsWith('@'))) {
      sectionCites = parts.map((p) => p.slice(1));
      continue;
    }
    // A brace left open would make the entry an exact text that never matches: refused instead.
    if (!balancedBraces(line)) throw new UserError(t('words.unbalanced', file, line));
    const [pattern, ...rest] = parts;
    const own = rest.filter((p) => p.startsWith('@')).map((p) => p.slice(1));
    const unless = rest
      .filter((p) => p.startsWith('!{') && p.endsWith('}'))
      .flatMap((p) => alternatives(p.slice(2, -1), slots, `${file}: ${line}`))
      .map(foldString);
    out.push(parseEntry(pattern, category, slots, own.length ? own : sectionCites, unless));
  }
  return out;
}

/** Slots of slots files' texts (data/slots.txt, a director's words/slots.txt). */
function readSlots(texts: readonly string[]): Map<string, string[]> {
  const slots = new Map<string, string[]>();
  for (const text of texts) for (const line of dataLines(text)) {
    const s = readSlot(line);
    if (s) slots.set(...s);
  }
  return slots;
}

/**
 * List sets loaded in this process, by categories and folders, with the texts they were read from:
 * demo and close build a report a day, and a set whose files did not change is the same set, its
 * compiled index (pattern-index.ts) kept.
 */
const loaded = new Map<string, { sources: string; lists: WordLists }>();

/**
 * A list set compiled by an earlier run, as kept between runs (src/derived/wording-hits.ts): `read`
 * gives the set compiled from the same files by the same code (listsFromJson), or undefined; `write`
 * keeps the one just compiled (listsToJson).
 */
export interface KeptWordLists {
  read(): WordLists | undefined;
  write(lists: WordLists): void;
}

/** A list set as JSON: the entries without their RegExps (listsFromJson compiles them again). */
export function listsToJson(lists: WordLists): unknown {
  return { ...lists, entries: lists.entries.map(({ regex: _regex, ...e }) => e) };
}

/** The list set listsToJson wrote. */
export function listsFromJson(json: unknown): WordLists {
  const lists = json as WordLists;
  return { ...lists, entries: lists.entries.map((e) => (e.shape === 'latin' ? { ...e, regex: latinRegex(e.folded) } : e)) };
}

/**
 * Loads the lists of the given categories: the bundled file of each, plus `<extraDir>/<category>.txt`
 * for each extra directory that has one (a director's additions); `<extraDir>/allow.txt` extends the
 * allow list and `<extraDir>/slots.txt` the slots. A category with no file anywhere is an error naming
 * where it was looked for. The files are read each time (or given as read: `files`, wordListFiles of the
 * same categories and folders); unchanged, they give the set loaded before — in this process, else the
 * one `kept` from an earlier run (parsing costs a few tenths of a second: pinyin of every character).
 */
export function loadWordLists(
  categories: readonly string[], extraDirs: readonly string[] = [], files: ReturnType<typeof wordListFiles> = wordListFiles(categories, extraDirs),
  kept?: KeptWordLists,
): WordLists {
  const { slotFiles, categoryFiles, allowFiles, texts } = files;
  const key = JSON.stringify([categories, extraDirs]);
  const sources = [...texts].flat().join('\u0000');
  const before = loaded.get(key);
  if (before?.sources === sources) return before.lists;
  const earlier = kept?.read();
  if (earlier) {
    loaded.set(key, { sources, lists: earlier });
    return earlier;
  }

  const shared = readSlots(slotFiles.map((f) => texts.get(f)!));
  const entries: WordEntry[] = [];
  categories.forEach((category, c) => {
    const seen = new Set<string>();
    for (const f of categoryFiles[c]) {
      for (const e of parseCategoryLines(dataLines(texts.get(f)!), category, shared, f)) {
        if (seen.has(e.word)) continue;
        seen.add(e.word);
        entries.push({ ...e, id: entries.length });
      }
    }
  });
  const allow = allowFiles.flatMap((f) => dataLines(texts.get(f)!).map(foldString));
  const lists: WordLists = { categories: [...categories], entries, allow };
  loaded.set(key, { sources, lists });
  kept?.write(lists);
  return lists;
}

/**
 * The files the lists of `categories` are read from — the slots, each category's, the allow lists —
 * with their texts: what loadWordLists parses (and what a cache of the lists' answers is keyed by).
 */
export function wordListFiles(categories: readonly string[], extraDirs: readonly string[] = []) {
  const existing = (files: string[]) => files.filter((f) => fs.existsSync(f));
  const slotFiles = existing([BUNDLED_SLOTS_FILE, ...extraDirs.map((d) => path.join(d, 'slots.txt'))]);
  const categoryFiles = categories.map((category) => {
    const files = existing([BUNDLED_WORDS_DIR, ...extraDirs].map((d) => path.join(d, `${category}.txt`)));
    if (!files.length) throw new UserError(t('words.noList', category, [BUNDLED_WORDS_DIR, ...extraDirs].join(', ')));
    return files;
  });
  const allowFiles = existing([BUNDLED_ALLOW_FILE, ...extraDirs.map((d) => path.join(d, 'allow.txt'))]);
  const texts = new Map([...slotFiles, ...categoryFiles.flat(), ...allowFiles].map((f) => [f, readUtf8Text(f)]));
  return { slotFiles, categoryFiles, allowFiles, texts };
}

/** The categories that have a bundled list. */
export function bundledCategories(): string[] {
  return fs
    .readdirSync(BUNDLED_WORDS_DIR)
    .filter((f) => f.endsWith('.txt'))
    .map((f) => f.slice(0, -4))
    .sort();
}
