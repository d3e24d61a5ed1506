/**
 * The banned-wording hits of every post version a report scans, kept between runs in the store's
 * derived files (src/store/memo.ts), one file per thread, the texts a later run scanned
 * appended to it (keyed-file.ts appendTo) until they weigh half of it: a director reruns `report` every
 * minute at closing, and a rerun then scans only the versions it has not seen — jieba's dictionary is
 * not even loaded when none is new.
 *
 * A hit list is a pure function of the text, the word lists and the players' names (findBannedWording),
 * so an entry is filed under the text's SHA-256 and a file under the list files' texts, the names, the
 * scan's data files and the code (src/store/memo.ts: in every key): any of those changed, the file is
 * ignored and the texts scanned again. A new version of a post is a new text, so it is scanned; a damaged file is ignored
 * (memo.ts). The lists are compiled only when a text is to be scanned, and kept too (under
 * the same list texts and data files: `word-lists`), so that a rerun after new posts reads them compiled
 * rather than parsing them again (the pinyin of every character of every entry), with the readings of
 * the characters scanned so far (`char-readings`: pinyin-pro's tables are then loaded only for a
 * character no earlier text had). jieba's dictionary is kept too, as bytes (`jieba-dictionary`,
 * keptDictionary: not made again from dict.txt, nor its garbage), and the lists' compiled pattern index
 * (`pattern-index`, keptIndex: ~0.2 s of CPU to compile, to scan a rerun's few new posts).
 */
import { createHash, hash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { reportWordDirs } from '../game/beside.js';
import type { Game } from '../game/types.js';
import { packagePath } from '../paths.js';
import { appendDerived, memoKey, readDerived, readDerivedAppended, readDerivedBytes, readDerivedSave, writeDerived, writeDerivedBytes, type MemoKey } from '../store/memo.js';
import { dictionaryBytes, dictionaryFromBytes, dictionarySource, type KeptDictionary } from '../violations/dictionary.js';
import { keepIndexIn, type KeptIndex } from '../violations/pattern-index.js';
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
  /** What the hits depend on besides the text (the lists' texts, the names, the scan's data files), as a memo key. */
  readonly key: string;
}

/** On disk: the texts without hits (most), then those with theirs, by text digest. */
interface SavedHits {
  clean: string[];
  hits: Record<string, WordingHit[]>;
}

interface ThreadHits {
  key: MemoKey;
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
  const fileKey = { lists: hash('sha256', JSON.stringify([game.rules.bannedCategories, [...files.texts]]), 'base64'), names: game.players, data: scanDataKey() };
  let lists: WordLists | undefined;
  // the characters' readings kept beside the lists (text-fold.ts knownReadings): how many the file had, -1 unread
  const readingsKey = memoKey({ readings: true });
  let readingsKept = -1;
  const listsToScan = (): WordLists => {
    if (lists) return lists;
    const kept = readDerived<Record<string, string[]>>(storePath, 'char-readings', readingsKey);
    if (kept) addKnownReadings(kept);
    readingsKept = kept ? Object.keys(kept).length : 0;
    lists = loadWordLists(game.rules.bannedCategories, dirs, files, keptLists(storePath, fileKey)); // the texts the key was made of
    keepIndexIn(lists, keptIndex(storePath, fileKey));
    return lists;
  };
  const threads = new Map<number, ThreadHits>();
  let scanned = 0;
  const dictionary = keptDictionary(storePath, fileKey.data);
  const threadHits = (tid: number): ThreadHits => {
    let t = threads.get(tid);
    if (!t) {
      const key = memoKey({ wording: tid, ...fileKey });
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
    key: memoKey(fileKey),
  };
}

/** The lists compiled from the files (`lists`, their texts' digest; `data`: the scan's data files') by this code, as a run before kept them. */
export function keptLists(storePath: string, fileKey: { lists: string; data: string }): KeptWordLists {
  const key = memoKey({ wordLists: fileKey.lists, data: fileKey.data });
  return {
    read: () => {
      const json = readDerived<unknown>(storePath, 'word-lists', key);
      return json === undefined ? undefined : listsFromJson(json);
    },
    write: (lists) => writeDerived(storePath, 'word-lists', key, listsToJson(lists)),
  };
}

/**
 * The lists' pattern index (violations/pattern-index.ts) as compiled from the same lists (`lists`: their
 * texts' digest) and data files (`data`: the syllable frequencies choose each entry's anchor) by this code,
 * kept as bytes: a rerun after new posts reads it instead of compiling it to scan those posts.
 */
export function keptIndex(storePath: string, fileKey: { lists: string; data: string }): KeptIndex {
  const key = memoKey({ patternIndex: fileKey.lists, data: fileKey.data });
  return {
    read: () => readDerivedBytes(storePath, 'pattern-index', key),
    write: (parts) => writeDerivedBytes(storePath, 'pattern-index', key, parts),
  };
}

/**
 * jieba's dictionary as this code read it from dict.txt, kept as bytes: keyed on what identifies the file
 * without reading it (dictionary.ts dictionarySource), the scan's data files (`data`: scanDataKey) and
 * the code (jieba's version in it); none is kept or read when dict.txt cannot be looked at.
 */
export function keptDictionary(storePath: string, data: string): KeptDictionary {
  const keyOf = (): MemoKey | null => {
    const source = dictionarySource();
    return source === null ? null : memoKey({ dictionary: source, data });
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
 * The data files the scan reads (src/violations/data: the allow list, filler words, look-alikes, pinyin
 * syllables, the shared slots, the learned model) as a digest: read once per process (~0.75 MB).
 */
let dataKey: string | undefined;
function scanDataKey(): string {
  if (dataKey !== undefined) return dataKey;
  const dataDir = packagePath('src', 'violations', 'data');
  try {
    // (each file's bytes into the digest as read: the learned model is ~0.7 MB, not made a string and joined)
    const digest = createHash('sha256');
    fs.readdirSync(dataDir).sort().forEach((f, i) => digest.update(`${i ? '\u0000' : ''}${f}\n`, 'latin1').update(fs.readFileSync(path.join(dataDir, f))));
    dataKey = digest.digest('base64');
  } catch {
    // The files cannot be read: a key no later run has, so no kept hit is ever used.
    dataKey = `unreadable data ${process.pid} ${Date.now()} ${Math.random()}`;
  }
  return dataKey;
}
