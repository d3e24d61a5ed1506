/**
 * The banned-wording hits of every post version a report scans, kept between runs in the store's
 * derived files (src/store/derived-cache.ts), one file per thread, the texts a later run scanned
 * appended to it (keyed-file.ts appendTo) until they weigh half of it: a director reruns `report` every
 * minute at closing, and a rerun then scans only the versions it has not seen — jieba's dictionary is
 * not even loaded when none is new.
 *
 * A hit list is a pure function of the text, the word lists and the players' names (findBannedWording),
 * so an entry is filed under the text's SHA-256 and a file under the list files' texts, the names and
 * the scan's own code and libraries: any of those changed, the file is ignored and the texts scanned
 * again. A new version of a post is a new text, so it is scanned; a damaged file is ignored
 * (derived-cache.ts). The lists are compiled only when a text is to be scanned, and kept too (under
 * the same list texts and code: `word-lists`), so that a rerun after new posts reads them compiled
 * rather than parsing them again (the pinyin of every character of every entry: ~0.15 s), with the
 * readings of the characters scanned so far (`char-readings`: pinyin-pro, ~0.05 s and 25 MB, is then
 * loaded only for a character no earlier text had). jieba's dictionary is kept too, as bytes
 * (`jieba-dictionary`, keptDictionary: ~70 ms and its garbage to read from dict.txt).
 */
import { hash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportWordDirs } from '../game/beside.js';
import { BUILD } from '../game/game-cache.js';
import type { Game } from '../game/types.js';
import { installedVersion, packagePath } from '../paths.js';
import { appendDerived, derivedKey, readDerived, readDerivedAppended, readDerivedBytes, readDerivedSave, writeDerived, writeDerivedBytes } from '../store/derived-cache.js';
import { dictionaryBytes, dictionaryFromBytes, dictionarySource, type KeptDictionary } from '../violations/dictionary.js';
import type { WordingOf } from '../violations/scan.js';
import { addKnownReadings, knownReadings } from '../violations/text-fold.js';
import { findBannedWording, type WordingHit } from '../violations/wording.js';
import { listsFromJson, listsToJson, loadWordLists, wordListFiles, type KeptWordLists, type WordLists } from '../violations/word-lists.js';

/** The wording hits of a report's scan: looked up or scanned (`hitsOf`), then kept (`save`). */
export interface WordingMemo {
  hitsOf: WordingOf;
  /** Writes the files of the threads that had texts scanned this run (a failure costs the next run time). */
  save(): void;
  /** Texts scanned this run (not found in the files). */
  readonly scanned: number;
  /** What the hits depend on besides the text (the lists' texts, the names, the scan's code), as a derived key. */
  readonly key: string;
}

/** On disk: the texts without hits (most), then those with theirs, by text digest. */
interface SavedHits {
  clean: string[];
  hits: Record<string, WordingHit[]>;
}

interface ThreadHits {
  key: string;
  byText: Map<string, readonly WordingHit[]>;
  /** The texts scanned this run, not yet saved. */
  added: Map<string, readonly WordingHit[]>;
  /** The save they would be appended to (its head), when a line appended now would be read. */
  appendTo: string | null;
}

/** A clean text's hits. */
const NO_HITS: readonly WordingHit[] = Object.freeze([]);

/**
 * The hits of the texts of `game`'s threads under the lists a report scans (reportWordDirs), from and
 * into the store's derived files.
 */
export function wordingMemo(storePath: string, game: Game): WordingMemo {
  const dirs = reportWordDirs(game);
  const files = wordListFiles(game.rules.bannedCategories, dirs);
  const fileKey = { lists: hash('sha256', JSON.stringify([game.rules.bannedCategories, [...files.texts]]), 'base64'), names: game.players, code: scanCodeKey() };
  let lists: WordLists | undefined;
  // the characters' readings kept beside the lists (text-fold.ts knownReadings): how many the file had, -1 unread
  const readingsKey = derivedKey({ readings: true, code: fileKey.code });
  let readingsKept = -1;
  const listsToScan = (): WordLists => {
    if (lists) return lists;
    const kept = readDerived<Record<string, string[]>>(storePath, 'char-readings', readingsKey);
    if (kept) addKnownReadings(kept);
    readingsKept = kept ? Object.keys(kept).length : 0;
    return (lists = loadWordLists(game.rules.bannedCategories, dirs, files, keptLists(storePath, fileKey))); // the texts the key was made of
  };
  const threads = new Map<number, ThreadHits>();
  let scanned = 0;
  const dictionary = keptDictionary(storePath, fileKey.code);
  const threadHits = (tid: number): ThreadHits => {
    let t = threads.get(tid);
    if (!t) {
      const key = derivedKey({ wording: tid, ...fileKey });
      const saved = readDerivedSave<SavedHits>(storePath, `wording-${tid}`, key);
      // the save and the texts appended to it since (a text's hits are the same whichever run found them)
      const appended = saved ? readDerivedAppended<SavedHits>(storePath, `wording-${tid}`, saved.head) : null;
      // (the clean texts, most, share one empty list: not a list and a pair per text, held all the run)
      const byText = new Map<string, readonly WordingHit[]>();
      for (const part of saved ? [saved.value, ...appended!.values] : []) {
        for (const d of part.clean) byText.set(d, NO_HITS);
        for (const [d, h] of Object.entries(part.hits)) byText.set(d, h);
      }
      const appendable = saved && appended!.whole && appended!.bytes <= saved.bytes / 2 ? saved.head : null;
      threads.set(tid, (t = { key, byText, added: new Map(), appendTo: appendable }));
    }
    return t;
  };
  return {
    hitsOf(post, text) {
      const t = threadHits(post.tid);
      const digest = hash('sha256', text, 'base64');
      let hits = t.byText.get(digest);
      if (!hits) {
        hits = findBannedWording(text, listsToScan(), { names: game.players, dictionary });
        t.byText.set(digest, hits);
        t.added.set(digest, hits);
        scanned++;
      }
      return hits;
    },
    save() {
      for (const [tid, t] of threads) {
        if (!t.added.size) continue;
        // the texts scanned this run appended to the save, or (the first time, once they weigh half of
        // it, after a torn line) every text saved whole
        const saved: SavedHits = { clean: [], hits: {} };
        for (const [d, h] of t.appendTo ? t.added : t.byText) {
          if (h.length) saved.hits[d] = [...h];
          else saved.clean.push(d);
        }
        if (t.appendTo) appendDerived(storePath, `wording-${tid}`, t.appendTo, saved);
        else writeDerived(storePath, `wording-${tid}`, t.key, saved);
        t.added.clear();
      }
      if (readingsKept >= 0 && knownReadings().size > readingsKept) {
        writeDerived(storePath, 'char-readings', readingsKey, Object.fromEntries(knownReadings()));
        readingsKept = knownReadings().size;
      }
    },
    get scanned() {
      return scanned;
    },
    key: derivedKey(fileKey),
  };
}

/** The lists compiled from the files (`lists`, their texts' digest) by this code, as a run before kept them. */
export function keptLists(storePath: string, fileKey: { lists: string; code: string }): KeptWordLists {
  const key = derivedKey({ wordLists: fileKey.lists, code: fileKey.code });
  return {
    read: () => {
      const json = readDerived<unknown>(storePath, 'word-lists', key);
      return json === undefined ? undefined : listsFromJson(json);
    },
    write: (lists) => writeDerived(storePath, 'word-lists', key, listsToJson(lists)),
  };
}

/**
 * jieba's dictionary as this code read it from dict.txt, kept as bytes: keyed on what identifies the file
 * without reading it (dictionary.ts dictionarySource) and the scan's code (`code`: scanCodeKey, jieba's
 * version with it); none is kept or read when dict.txt cannot be looked at.
 */
export function keptDictionary(storePath: string, code: string): KeptDictionary {
  const keyOf = (): string | null => {
    const source = dictionarySource();
    return source === null ? null : derivedKey({ dictionary: source, code });
  };
  return {
    read: () => {
      const key = keyOf();
      const bytes = key === null ? undefined : readDerivedBytes(storePath, 'jieba-dictionary', key);
      return bytes && dictionaryFromBytes(bytes);
    },
    write: (dict) => {
      const key = keyOf();
      if (key !== null) writeDerivedBytes(storePath, 'jieba-dictionary', key, dictionaryBytes(dict));
    },
  };
}

/**
 * What the scan's answers depend on besides its inputs: its code — in the bundled CLI the bundle's build
 * (src/game/game-cache.ts BUILD: a digest of the bundle, the packages it holds included) with pinyin-pro's
 * installed version (loaded from its package, not bundled: text-fold.ts pinyinLib), else the scan's
 * own modules as built (.js under dist/, .ts under src/ in tests) and the installed versions of the
 * libraries it calls (pinyin, simplified forms) — with jieba's version (never bundled) and the data files
 * the scan reads. Read once per process (~30 KB).
 */
let codeKey: string | undefined;
function scanCodeKey(): string {
  if (codeKey !== undefined) return codeKey;
  const here = fileURLToPath(import.meta.url);
  const root = path.join(path.dirname(here), '..');
  const modules = ['violations/wording', 'violations/pattern-index', 'violations/text-fold', 'violations/segment', 'violations/dictionary', 'violations/word-lists', 'text/simplified', 'text/read-utf8'];
  const dataDir = packagePath('src', 'violations', 'data');
  try {
    const code = BUILD !== null
      ? [BUILD, installedVersion('pinyin-pro')]
      : [...modules.map((m) => fs.readFileSync(path.join(root, `${m}${path.extname(here)}`), 'utf8')), ...['pinyin-pro', 'opencc-js'].map(installedVersion)];
    const parts = [
      ...code,
      installedVersion('@node-rs/jieba'),
      ...fs.readdirSync(dataDir).sort().map((f) => `${f}\n${fs.readFileSync(path.join(dataDir, f), 'utf8')}`),
    ];
    codeKey = hash('sha256', parts.join('\u0000'), 'base64');
  } catch {
    // The code cannot be read: a key no later run has, so no kept hit is ever used.
    codeKey = `unknown code ${process.pid} ${Date.now()} ${Math.random()}`;
  }
  return codeKey;
}
