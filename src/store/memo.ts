/**
 * The one memo layer: every derived value bansha keeps between runs — the store's derived files beside
 * the evidence store (`<store>.derived/<name>.json`, a value of megabytes of numbers as `<name>.bin`) and
 * the checked game beside its file (src/game/game-cache.ts) — is kept and found here, under a key that
 * only `memoKey` makes: a digest of the identity of the code that runs (`codeIdentity`) and of every
 * input the value was computed from, as the caller names them. So no caller writes a key recipe of its
 * own (a format number, the package's version, a phrase), and a change to any rule function, word list
 * or other input makes the next run compute again: a stale memo costs time, never another answer
 * (test/derived/stale-after-code-change.test.ts changes a vote rule, a lurking rule and a word list).
 * They are a cache, never evidence: a file that is missing, unreadable, damaged (its checksum:
 * keyed-file.ts) or saved under another key is ignored and computed again.
 *
 * The code's identity (computed once per process): in the bundled CLI the bundle's build (a digest of
 * every chunk's code, the packages and YAML data it holds included, written into it by
 * scripts/bundle-cli.mjs: nothing to read at run time) with the installed versions of the packages
 * loaded beside it; run from src/ (tests) or dist/ (the library) a digest of the modules there as they
 * are on disk (.ts under src/, .js under dist/; ~1.5 MB, ~6 ms) and of the package's YAML data files,
 * with the installed versions of every dependency; and in every case Node's version, ICU and time-zone
 * data. Not the package's version: it names a release, not the code.
 *
 * A thread's part of a key is its log's length, file id, modification time and last line's checksum
 * (`threadLogKey`): the logs are append-only (src/store/thread-log.ts), so every write bansha makes to a
 * thread — an appended line, a compaction or recovery (a new file renamed in) — changes it, without
 * reading the log. (An edit by hand that keeps all four is not seen: `bansha store check` reads the logs.)
 * Files are owner-only (0600) in an owner-only folder, written atomically (temp file, rename); a write
 * that fails (a read-only folder) only means the next command computes again.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { appendTo, keyedFileKey, readAppended, readKeyedBytes, readKeyedFile, readKeyedSave, writeKeyedBytes, writeKeyedFile, type KeyedSave } from './keyed-file.js';
import { threadLogPath } from './store-file.js';
import { LINE_END } from './thread-log.js';
import { installedVersion, packagePath } from '../paths.js';

declare const BANSHA_BUILD: string | undefined;
/** The bundle's build (a digest of its code, set by scripts/bundle-cli.mjs), or null outside the bundle. */
export const BUILD: string | null = typeof BANSHA_BUILD === 'string' ? BANSHA_BUILD : null;

/** The packages the bundle loads from node_modules, not from itself (scripts/bundle-cli.mjs `external`, text-fold.ts pinyinLib): their versions are code too. */
const UNBUNDLED = ['@node-rs/jieba', 'pinyin-pro'];

/**
 * A key made by memoKey — the code's identity and a value's inputs — and the only kind of key the memo
 * files are read or written under.
 */
export type MemoKey = string & { readonly __memoKey: 'made by memoKey' };

let identity: string | undefined;

/** The identity of the code that runs (see the header), computed once per process. */
export function codeIdentity(): string {
  if (identity !== undefined) return identity;
  const runtime = [process.version, process.versions.icu ?? null, process.versions.tz ?? null, process.versions.unicode ?? null];
  try {
    const here = fileURLToPath(import.meta.url);
    const code = BUILD ?? codeDigest(path.dirname(path.dirname(here)), path.extname(here), packagePath('src'));
    const packages = BUILD !== null ? UNBUNDLED : dependencies();
    identity = createHash('sha256').update(JSON.stringify([code, packages.map(versionOf), runtime])).digest('hex');
  } catch {
    // The code cannot be read: an identity no other run has, so nothing kept is ever used.
    identity = `unknown code ${process.pid} ${Date.now()} ${Math.random()}`;
  }
  return identity;
}

/** A package's installed version; one not installed is named so (it loads no code). */
function versionOf(name: string): string {
  try {
    return installedVersion(name);
  } catch {
    return `${name}@not installed`;
  }
}

/** The package's dependencies (package.json), whose code the modules run from src/ or dist/ load. */
function dependencies(): string[] {
  const pkg = JSON.parse(fs.readFileSync(packagePath('package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  return Object.keys(pkg.dependencies ?? {}).sort();
}

/**
 * A digest of the code under `codeDir` (every file whose name ends in `ext`: the modules as they run) and
 * the YAML data under `dataDir` (read at run time from src/ by src/package-yaml.ts), each file named by
 * its path below its folder.
 */
export function codeDigest(codeDir: string, ext: string, dataDir: string): string {
  const digest = createHash('sha256');
  const walk = (root: string, dir: string, keep: (name: string) => boolean): void => {
    const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(root, p, keep);
      else if (keep(e.name)) {
        const bytes = fs.readFileSync(p);
        digest.update(`${path.relative(root, p)}\n${bytes.length}\n`).update(bytes);
      }
    }
  };
  const code = (name: string) => name.endsWith(ext) && !name.endsWith('.d.ts');
  if (path.resolve(codeDir) === path.resolve(dataDir)) walk(codeDir, codeDir, (n) => code(n) || n.endsWith('.yaml'));
  else {
    walk(codeDir, codeDir, code);
    digest.update('\0data\n');
    walk(dataDir, dataDir, (n) => n.endsWith('.yaml'));
  }
  return digest.digest('hex');
}

/**
 * The key of a value computed from `inputs` (any JSON value: what the computation reads, as the caller
 * names it — a thread log's key, a file's text, the day, the options) by the code that runs now.
 */
export function memoKey(inputs: unknown): MemoKey {
  return createHash('sha256').update(codeIdentity()).update('\0').update(JSON.stringify(inputs) ?? 'undefined').digest('hex') as MemoKey;
}

/**
 * A file's bytes as an input of a key (latin1: every byte kept; UTF-8 decoding would make a bad byte and
 * U+FFFD one key, where a fresh run refuses the bad byte): null when there is none, undefined when it
 * cannot be read.
 */
export function inputText(file: string): string | null | undefined {
  try {
    return fs.readFileSync(file, 'latin1');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
}

/** The folder of a store's derived files. */
export function derivedDir(storePath: string): string {
  return `${path.resolve(storePath).replace(/\.json$/i, '')}.derived`;
}

/**
 * What identifies the current content of thread `tid`'s log without reading it: "size:inode:mtime:last
 * checksum", or null when the thread has no log (not stored).
 */
export function threadLogKey(storePath: string, tid: number): string | null {
  let fd: number;
  try {
    fd = fs.openSync(threadLogPath(path.resolve(storePath), tid), 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  try {
    const st = fs.fstatSync(fd);
    const tail = Buffer.alloc(Math.min(LINE_END, st.size));
    fs.readSync(fd, tail, 0, tail.length, st.size - tail.length);
    return `${st.size}:${st.ino}:${st.mtimeMs}:${tail.toString('latin1').trim()}`;
  } finally {
    fs.closeSync(fd);
  }
}

const fileOf = (storePath: string, name: string): string => path.join(derivedDir(storePath), `${name}.json`);

/**
 * The value saved as `name` under `key`, or undefined when there is none, it was saved under another key,
 * or the file is damaged (then the caller computes it again and saves it over).
 */
export function readDerived<T>(storePath: string, name: string, key: MemoKey): T | undefined {
  return readKeyedFile<T>(fileOf(storePath, name), key);
}

/** The value saved as `name` under `key` as saved (keyed-file.ts readKeyedSave: with the head its appended changes follow), or undefined. */
export function readDerivedSave<T>(storePath: string, name: string, key: MemoKey): KeyedSave<T> | undefined {
  return readKeyedSave<T>(fileOf(storePath, name), key);
}

const appendedOf = (storePath: string, name: string): string => path.join(derivedDir(storePath), `${name}.appended`);

/** The changes appended to the save of `name` whose head is `head` (keyed-file.ts readAppended). */
export function readDerivedAppended<T>(storePath: string, name: string, head: string): ReturnType<typeof readAppended<T>> {
  return readAppended<T>(appendedOf(storePath, name), head);
}

/** Appends a change to the save of `name` whose head is `head` (a failure is ignored). */
export function appendDerived(storePath: string, name: string, head: string, value: unknown): void {
  appendTo(appendedOf(storePath, name), head, value);
}

/** The key a derived file was saved under (its first line alone is read), or undefined when there is none. */
export function derivedKeyOf(storePath: string, name: string): string | undefined {
  return keyedFileKey(fileOf(storePath, name));
}

/** Save `value` as `name` under `key` (atomically, owner-only). A failure is ignored: it is a cache. */
export function writeDerived(storePath: string, name: string, key: MemoKey, value: unknown): void {
  writeKeyedFile(fileOf(storePath, name), key, value);
}

const bytesFileOf = (storePath: string, name: string): string => path.join(derivedDir(storePath), `${name}.bin`);

/** The bytes saved as `name` under `key` (8-aligned: to be viewed as typed arrays), or undefined, as readDerived. */
export function readDerivedBytes(storePath: string, name: string, key: MemoKey): Uint8Array | undefined {
  return readKeyedBytes(bytesFileOf(storePath, name), key);
}

/** Save the bytes of `parts`, one after the other, as `name` under `key` (atomically, owner-only; a failure is ignored). */
export function writeDerivedBytes(storePath: string, name: string, key: MemoKey, parts: readonly ArrayBufferView[]): void {
  writeKeyedBytes(bytesFileOf(storePath, name), key, parts);
}

/**
 * Whether `v` is made only of what JSON gives back as it was: plain objects (an undefined property is
 * left out, as it reads), arrays without holes or undefined, strings, finite numbers but −0, booleans, null.
 */
export function jsonPlain(v: unknown): boolean {
  if (typeof v !== 'object') return typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v) && (v !== 0 || 1 / v > 0));
  if (v === null) return true;
  if (Array.isArray(v)) {
    // (a hole reads as undefined)
    for (let i = 0; i < v.length; i++) if (v[i] === undefined || !jsonPlain(v[i])) return false;
    return true;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype) return false;
  for (const k in v) {
    const x = (v as Record<string, unknown>)[k];
    if (x !== undefined && !jsonPlain(x)) return false;
  }
  return true;
}

/**
 * The value `name` kept in the store `storePath`'s derived files under the key of `inputs`, else
 * `compute()`d and kept when `keep` says it may be (default: when JSON gives it back as it is, jsonPlain —
 * a value read back is then the value computed).
 */
export async function memo<T>(storePath: string, name: string, inputs: unknown, compute: () => T | Promise<T>, keep: (value: T) => boolean = jsonPlain): Promise<T> {
  const kept = memoLookup<T>(storePath, name, inputs, keep);
  return kept.value !== undefined ? kept.value : kept.keep(await compute());
}

/** What memoLookup found: the value kept, if any, and how to keep the one computed instead. */
export interface MemoLookup<T> {
  value: T | undefined;
  /** Keeps `value` (when `keep` says it may be) and gives it back. */
  keep(value: T): T;
}

/**
 * memo in two steps, for a caller that computes on its own way down (a count: its walk does not come back
 * up through here): the value `name` kept under the key of `inputs`, else a `keep` for the value computed.
 */
export function memoLookup<T>(storePath: string, name: string, inputs: unknown, keep: (value: T) => boolean = jsonPlain): MemoLookup<T> {
  const key = memoKey(inputs);
  return {
    value: readDerived<T>(storePath, name, key),
    keep: (value) => {
      if (keep(value)) writeDerived(storePath, name, key, value);
      return value;
    },
  };
}

/** The value a file outside the store's derived files (the checked game: src/game/game-cache.ts) holds under `key`, or undefined. */
export function readMemoFile<T>(file: string, key: MemoKey): T | undefined {
  return readKeyedFile<T>(file, key);
}

/** Saves `value` in `file` under `key` (atomically, owner-only; a failure is ignored). */
export function writeMemoFile(file: string, key: MemoKey, value: unknown): void {
  writeKeyedFile(file, key, value);
}
