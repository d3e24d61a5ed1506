/**
 * The banned-wording lists (rules-spec §7): one data file per category under src/violations/words/
 * (the ruleset's `bannedCategories` names them), extended per game by files of the same name in a
 * `words/` folder beside the game file. Entries are parsed once into the shapes the matcher needs.
 *
 * Entry syntax, one a line (`#` starts a comment):
 *  - Han text, possibly with Latin letters ("傻b", "qq记录"): matched through every evasion the
 *    matcher knows; `*` inside stands for up to 4 characters ("以*人格");
 *  - Latin letters and digits only ("sb", "tmd"): matched as a whole word, separators allowed between
 *    letters ("s.b"), case-insensitive;
 *  - anything with other punctuation ("[图片]"): matched exactly, after width/case folding.
 */
import fs from 'node:fs';
import path from 'node:path';
import { packagePath } from '../paths.js';
import { foldString, readDataLines, readings } from './text-fold.js';

/** Where the bundled lists live. */
export const BUNDLED_WORDS_DIR = packagePath('src', 'violations', 'words');
/** The bundled allow list (words that must not be flagged though they contain or sound like an entry). */
export const BUNDLED_ALLOW_FILE = packagePath('src', 'violations', 'data', 'allow.txt');
/** How many characters a `*` inside an entry may stand for. */
export const ENTRY_GAP = 4;

export type EntryElement =
  | { kind: 'char'; char: string; syls: readonly string[]; han: boolean }
  | { kind: 'gap'; max: number };

export interface WordEntry {
  /** The entry as written in the file. */
  word: string;
  category: string;
  shape: 'pattern' | 'latin' | 'exact';
  /** pattern: the elements to match; latin/exact: the folded text. */
  elements: EntryElement[];
  folded: string;
}

export interface WordLists {
  categories: string[];
  entries: WordEntry[];
  /** Folded allow words. */
  allow: string[];
}

const HAN = /\p{Script=Han}/u;

/** Parses one entry line of a category. */
export function parseEntry(word: string, category: string): WordEntry {
  const folded = foldString(word);
  if (/^[a-z0-9]+$/.test(folded)) return { word, category, shape: 'latin', elements: [], folded };
  if (/^[\p{Script=Han}a-z0-9*]+$/u.test(folded)) {
    const elements: EntryElement[] = [];
    for (const c of folded) {
      if (c === '*') elements.push({ kind: 'gap', max: ENTRY_GAP });
      else elements.push({ kind: 'char', char: c, syls: HAN.test(c) ? readings(c) : [c], han: HAN.test(c) });
    }
    return { word, category, shape: 'pattern', elements, folded };
  }
  return { word, category, shape: 'exact', elements: [], folded };
}

/**
 * Loads the lists of the given categories: the bundled file of each, plus `<extraDir>/<category>.txt`
 * for each extra directory that has one (a director's additions); `<extraDir>/allow.txt` extends the
 * allow list. A category with no file anywhere is an error naming where it was looked for.
 */
export function loadWordLists(categories: readonly string[], extraDirs: readonly string[] = []): WordLists {
  const entries: WordEntry[] = [];
  for (const category of categories) {
    const files = [BUNDLED_WORDS_DIR, ...extraDirs].map((d) => path.join(d, `${category}.txt`)).filter((f) => fs.existsSync(f));
    if (!files.length) {
      throw new Error(`no word list for the banned category "${category}" (looked in ${[BUNDLED_WORDS_DIR, ...extraDirs].join(', ')})`);
    }
    const seen = new Set<string>();
    for (const f of files) {
      for (const line of readDataLines(f)) {
        if (seen.has(line)) continue;
        seen.add(line);
        entries.push(parseEntry(line, category));
      }
    }
  }
  const allow = [BUNDLED_ALLOW_FILE, ...extraDirs.map((d) => path.join(d, 'allow.txt'))]
    .filter((f) => fs.existsSync(f))
    .flatMap((f) => readDataLines(f).map(foldString));
  return { categories: [...categories], entries, allow };
}

/** The categories that have a bundled list. */
export function bundledCategories(): string[] {
  return fs
    .readdirSync(BUNDLED_WORDS_DIR)
    .filter((f) => f.endsWith('.txt'))
    .map((f) => f.slice(0, -4))
    .sort();
}
