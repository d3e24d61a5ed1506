/**
 * Derived files beside the evidence store: what later commands need from threads they would otherwise
 * re-read (a closed day's count, …), kept in `<store>.derived/<name>.json` so a closing command costs
 * its own day's work (a value of megabytes of numbers as bytes, `<name>.bin`). They are a cache, never
 * evidence: each is saved with the key of everything it was computed from, and a file that is missing,
 * unreadable, damaged (its checksum), or saved under another key is ignored and computed again — a
 * stale or broken cache can cost time, never give another answer.
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
import { appendTo, keyedFileKey, readAppended, readKeyedBytes, readKeyedFile, readKeyedSave, writeKeyedBytes, writeKeyedFile, type KeyedSave } from './keyed-file.js';
import { threadLogPath } from './store-file.js';
import { LINE_END } from './thread-log.js';
import { VERSION } from '../version.js';

/** Bump when what a derived file holds changes shape or meaning. */
const FORMAT = 2;

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

/** The key of a derived value: a digest of everything it was computed from (any JSON value). */
export function derivedKey(inputs: unknown): string {
  return createHash('sha256').update(JSON.stringify([FORMAT, VERSION, inputs])).digest('hex');
}

const fileOf = (storePath: string, name: string): string => path.join(derivedDir(storePath), `${name}.json`);

/**
 * The value saved as `name` under `key`, or undefined when there is none, it was saved under another key,
 * or the file is damaged (then the caller computes it again and saves it over).
 */
export function readDerived<T>(storePath: string, name: string, key: string): T | undefined {
  return readKeyedFile<T>(fileOf(storePath, name), key);
}

/** The value saved as `name` under `key` as saved (keyed-file.ts readKeyedSave: with the head its appended changes follow), or undefined. */
export function readDerivedSave<T>(storePath: string, name: string, key: string): KeyedSave<T> | undefined {
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
export function writeDerived(storePath: string, name: string, key: string, value: unknown): void {
  writeKeyedFile(fileOf(storePath, name), key, value);
}

const bytesFileOf = (storePath: string, name: string): string => path.join(derivedDir(storePath), `${name}.bin`);

/** The bytes saved as `name` under `key` (8-aligned: to be viewed as typed arrays), or undefined, as readDerived. */
export function readDerivedBytes(storePath: string, name: string, key: string): Uint8Array | undefined {
  return readKeyedBytes(bytesFileOf(storePath, name), key);
}

/** Save the bytes of `parts`, one after the other, as `name` under `key` (atomically, owner-only; a failure is ignored). */
export function writeDerivedBytes(storePath: string, name: string, key: string, parts: readonly ArrayBufferView[]): void {
  writeKeyedBytes(bytesFileOf(storePath, name), key, parts);
}
