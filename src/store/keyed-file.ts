/**
 * A cache file: one JSON value saved with the key of everything it was computed from. Line 1 is the key
 * and a checksum of key and value, line 2 the value's JSON. Reading gives nothing for a file that is
 * missing, unreadable, damaged (its checksum) or saved under another key, so a stale or broken cache
 * costs time, never another answer. Written atomically (temp file, rename) and owner-only (0600, in an
 * owner-only folder when it makes one); a write that fails (a read-only folder) is ignored.
 * The store's derived files (derived-cache.ts) and the checked game (src/game/game-cache.ts) are such files.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const sumOf = (key: string, json: string): string => createHash('sha256').update(key).update('\n').update(json).digest('hex').slice(0, 16);

/** The value `file` holds under `key`, or undefined. */
export function readKeyedFile<T>(file: string, key: string): T | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const nl = text.indexOf('\n');
  const [savedKey, sum] = text.slice(0, nl).split(' ');
  const json = text.slice(nl + 1);
  if (nl < 0 || savedKey !== key || sum !== sumOf(key, json)) return undefined;
  try {
    return JSON.parse(json) as T;
  } catch {
    return undefined;
  }
}

/** The key `file` was saved under (its first line alone is read), or undefined when there is none. */
export function keyedFileKey(file: string): string | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const head = Buffer.alloc(128);
    const line = head.subarray(0, fs.readSync(fd, head, 0, head.length, 0)).toString('latin1');
    return line.includes(' ') ? line.slice(0, line.indexOf(' ')) : undefined;
  } finally {
    fs.closeSync(fd);
  }
}

let tmpSeq = 0;

/** Saves `value` in `file` under `key` (a failure is ignored: it is a cache). */
export function writeKeyedFile(file: string, key: string, value: unknown): void {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${++tmpSeq}.tmp`);
  const json = JSON.stringify(value);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // (the key line and the value written one after the other: no copy of a value of megabytes joined to it)
    const fd = fs.openSync(tmp, 'w', 0o600);
    try {
      fs.writeFileSync(fd, `${key} ${sumOf(key, json)}\n`);
      fs.writeFileSync(fd, json);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // nothing was made
    }
  }
}

/**
 * A file's bytes as a key's text (latin1: every byte kept; UTF-8 decoding would make a bad byte and U+FFFD
 * one key, where a fresh run refuses the bad byte): null when there is none, undefined when it cannot be read.
 */
export function keyInputText(file: string): string | null | undefined {
  try {
    return fs.readFileSync(file, 'latin1');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
}
