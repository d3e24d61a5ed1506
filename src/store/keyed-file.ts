/**
 * A cache file: one JSON value saved with the key of everything it was computed from. Line 1 is the key
 * and a checksum of key and value, line 2 the value's JSON. Reading gives nothing for a file that is
 * missing, unreadable, damaged (its checksum) or saved under another key (its first line alone is read
 * then), so a stale or broken cache costs time, never another answer. Written atomically (temp file,
 * rename) and owner-only (0600, in an owner-only folder when it makes one); a write that fails (a
 * read-only folder) is ignored. Changes to a value can be appended beside it (readAppended, appendTo).
 * The store's derived files (memo.ts) and the checked game (src/game/game-cache.ts) are such files.
 * A value of megabytes of numbers is kept as bytes instead (readKeyedBytes): read into typed-array views,
 * with no text to parse.
 */
import fs from 'node:fs';
import path from 'node:path';
import { replaceFile } from '../replace-file.js';
import { crc32 } from './crc32.js';

/** A JSON file's checksum: CRC-32 of the key and the value's UTF-8 bytes (as read, or a text's: crc32.ts encodes it), as a bytes file's (bytesSumOf). */
const sumOf = (key: string, json: Uint8Array | string): string => crcHex(json, crc32(`${key}\n`));

/** CRC-32 (continued from `from`) as 8 hex digits. */
const crcHex = (data: Uint8Array | string, from = 0): string => hex8(crc32(data, from));

const hex8 = (crc: number): string => crc.toString(16).padStart(8, '0');

/** The value `file` holds under `key`, or undefined. */
export function readKeyedFile<T>(file: string, key: string): T | undefined {
  return readKeyedSave<T>(file, key)?.value;
}

/** A value as saved: what `file` holds under `key`, its first line (which names this save: appended changes follow it) and the file's size. */
export interface KeyedSave<T> {
  value: T;
  head: string;
  bytes: number;
}

/** The value `file` holds under `key` as saved, or undefined (as readKeyedFile). */
export function readKeyedSave<T>(file: string, key: string): KeyedSave<T> | undefined {
  let buf: Buffer;
  try {
    // (a file kept under another key — after every change to what it was computed from — is not read whole)
    if (!startsWithKey(file, key)) return undefined;
    buf = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  const nl = buf.indexOf(0x0a);
  if (nl < 0) return undefined;
  const head = buf.subarray(0, nl).toString('latin1');
  const [savedKey, sum] = head.split(' ');
  const json = buf.subarray(nl + 1);
  // (the checksum over the bytes as read: no text to encode again)
  if (savedKey !== key || sum !== sumOf(key, json)) return undefined;
  try {
    return { value: JSON.parse(json.toString('utf8')) as T, head, bytes: buf.length };
  } catch {
    return undefined;
  }
}

/**
 * Changes appended to a saved value (readKeyedSave), kept in `file` beside it so that a small change is not
 * the whole value written again: line 1 is the head of the save they follow, then a line a change, its
 * CRC-32 and its JSON. Read up to the first line that is torn or damaged (a crash during an append) and
 * nothing when they follow another save; the reader decides what a change means and whether it follows
 * the one before. `bytes`: the file's size (when to save the value whole again); `whole`: every line read
 * (else a line appended now would follow a damaged one, and the value is to be saved whole).
 */
export function readAppended<T>(file: string, head: string): { values: T[]; bytes: number; whole: boolean } {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch {
    return { values: [], bytes: 0, whole: true };
  }
  const values: T[] = [];
  let at = buf.indexOf(0x0a);
  if (at < 0 || buf.subarray(0, at).toString('latin1') !== head) return { values, bytes: 0, whole: true };
  for (let end = buf.indexOf(0x0a, at + 1); end >= 0; at = end, end = buf.indexOf(0x0a, at + 1)) {
    const line = buf.subarray(at + 1, end);
    const space = line.indexOf(0x20);
    const json = line.subarray(space + 1);
    if (space < 0 || line.subarray(0, space).toString('latin1') !== crcHex(json)) return { values, bytes: buf.length, whole: false };
    try {
      values.push(JSON.parse(json.toString('utf8')) as T);
    } catch {
      return { values, bytes: buf.length, whole: false };
    }
  }
  return { values, bytes: buf.length, whole: at === buf.length - 1 };
}

/**
 * Appends `value` to the changes in `file` that follow the save whose head is `head` (the file begun again
 * when it follows another save or none); owner-only. A failure is ignored: it is a cache.
 */
export function appendTo(file: string, head: string, value: unknown): void {
  const json = JSON.stringify(value);
  const line = `${crcHex(json)} ${json}\n`;
  try {
    if (startsWithLine(file, head)) {
      // (one write, appended: a reader sees the line whole or, torn, stops before it)
      const fd = fs.openSync(file, 'a', 0o600);
      try {
        fs.writeSync(fd, line);
      } finally {
        fs.closeSync(fd);
      }
      return;
    }
  } catch {
    // begun again below
  }
  writeAtomically(file, (fd) => fs.writeFileSync(fd, `${head}\n${line}`));
}

/** Whether `file`'s first line is `line`. */
const startsWithLine = (file: string, line: string): boolean => startsWith(file, `${line}\n`);

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

/** Writes `file` atomically (replaceFile), owner-only, in an owner-only folder; a failure is ignored: it is a cache. */
function writeAtomically(file: string, write: (fd: number) => void): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    replaceFile(file, write, 0o600, { cache: true });
  } catch {
    // nothing kept: the next run computes it again
  }
}

/** Saves `value` in `file` under `key` (a failure is ignored: it is a cache). */
export function writeKeyedFile(file: string, key: string, value: unknown): void {
  // (encoded once, for the checksum and the write; the key line and the value written one after the
  // other: no copy of a value of megabytes joined to it)
  const json = Buffer.from(JSON.stringify(value));
  writeAtomically(file, (fd) => {
    fs.writeFileSync(fd, `${key} ${sumOf(key, json)}\n`);
    fs.writeFileSync(fd, json);
  });
}

/**
 * A bytes file's checksum: CRC-32 of the key and the bytes, as a JSON file's (sumOf). Either tells damage (a
 * torn or flipped file), not forgery (whoever can write the file can compute either), in a third of SHA-256's time.
 */
function bytesSumOf(key: string, parts: readonly ArrayBufferView[]): string {
  let crc = crc32(key);
  // (an empty part is skipped: node:zlib's crc32 of an empty view of an empty buffer gives 0, not the CRC it continues, on Node 20)
  for (const p of parts) if (p.byteLength) crc = crc32(new Uint8Array(p.buffer, p.byteOffset, p.byteLength), crc);
  return hex8(crc);
}

/** Line 1 of a bytes file: key and checksum, padded with spaces to a multiple of 8 bytes so that the bytes
 *  after it can be viewed as arrays of any element size. */
const bytesHead = (key: string, sum: string): string => {
  const line = `${key} ${sum}`;
  return `${line.padEnd(Math.ceil((line.length + 1) / 8) * 8 - 1)}\n`;
};

/** The bytes `file` holds under `key` (8-aligned in memory), or undefined. */
export function readKeyedBytes(file: string, key: string): Uint8Array | undefined {
  let buf: Buffer;
  try {
    if (!startsWithKey(file, key)) return undefined;
    buf = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  const nl = buf.subarray(0, 512).indexOf(0x0a);
  if (nl < 0 || (nl + 1) % 8 !== 0) return undefined;
  const [savedKey, sum] = buf.subarray(0, nl).toString('latin1').trimEnd().split(' ');
  const bytes: Uint8Array = buf.subarray(nl + 1);
  if (savedKey !== key || sum !== bytesSumOf(key, [bytes])) return undefined;
  // (a file of this size has a buffer of its own, at offset 0; were it not so, a copy that is)
  return bytes.byteOffset % 8 === 0 ? bytes : new Uint8Array(bytes);
}

/** Whether `file`'s first line begins with `key` and a space. */
const startsWithKey = (file: string, key: string): boolean => startsWith(file, `${key} `);

/** Whether `file` begins with `text` (latin1), its first bytes alone read. */
function startsWith(file: string, text: string): boolean {
  const head = Buffer.alloc(Buffer.byteLength(text, 'latin1'));
  const fd = fs.openSync(file, 'r');
  try {
    return fs.readSync(fd, head, 0, head.length, 0) === head.length && head.toString('latin1') === text;
  } finally {
    fs.closeSync(fd);
  }
}

/** Saves the bytes of `parts`, one after the other, in `file` under `key` (a failure is ignored: it is a cache). */
export function writeKeyedBytes(file: string, key: string, parts: readonly ArrayBufferView[]): void {
  writeAtomically(file, (fd) => {
    fs.writeFileSync(fd, bytesHead(key, bytesSumOf(key, parts)), 'latin1');
    for (const p of parts) fs.writeFileSync(fd, new Uint8Array(p.buffer, p.byteOffset, p.byteLength));
  });
}
