/**
 * jieba's dictionary (@node-rs/jieba's dict.txt, 349,045 words) as the segmenter reads it (segment.ts): the
 * words' UTF-16 units and four arrays. Made from the file's text it costs every process time and garbage,
 * so a caller with somewhere to keep it (a report: the store's derived files,
 * src/derived/wording-hits.ts) keeps the arrays as bytes (dictionaryBytes), read back as typed-array views
 * onto one read of the file (dictionaryFromBytes), under a key made of what identifies dict.txt without
 * reading it (dictionarySource). Without one, dict.txt is read as before.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';

const require = createRequire(import.meta.url);
// The dictionary file itself, not '@node-rs/jieba/dict': that module also reads the 6 MB keyword (idf)
// table segmentation never uses, and keeps both buffers for the life of the process.
const dictPath = (): string => require.resolve('@node-rs/jieba/dict.txt');
export const dictFile = (): Buffer => fs.readFileSync(dictPath());

/** The segmenter's stand-in word (segment.ts): a character jieba never takes into a word, and no word of a
 *  dictionary read here has. */
export const STAND_IN = '\uE000';

/** jieba's dictionary as read: word i is chars[start[i], start[i] + length[i]) (UTF-16 units), sorted so. */
export interface Dictionary {
  chars: Uint16Array;
  start: Int32Array;
  length: Uint8Array;
  freq: Uint32Array;
  total: number;
  /** The words beginning with UTF-16 unit u are [byFirstUnit[u], byFirstUnit[u + 1]). */
  byFirstUnit: Int32Array;
}

/** Where a dictionary read earlier is kept, and read back (src/derived/wording-hits.ts keptDictionary). */
export interface KeptDictionary {
  read(): Dictionary | undefined;
  write(dict: Dictionary): void;
}

/** byFirstUnit's length: a bound for every UTF-16 unit and the end. */
const BY_FIRST_UNIT = 0x10001;

/** Lines of `word freq [tag]` (UTF-8), sorted, each word once; null when the file is not so (then jieba reads it whole). */
export function readDictionary(buf: Buffer): Dictionary | null {
  const NL = 0x0a;
  const SPACE = 0x20;
  // UTF-16 units of the UTF-8 sequence led by byte b (0: not a lead byte)
  const unitsOf = (b: number): number => (b < 0x80 ? 1 : b < 0xc0 ? 0 : b < 0xf0 ? 1 : 2);
  // sized first (lines, and the units of their words), read from the bytes: no copy of the file as text
  let n = 0;
  let units = 0;
  for (let line = 0; line < buf.length; n++) {
    const end = buf.indexOf(NL, line);
    const space = buf.indexOf(SPACE, line);
    for (let i = line; i < space && (end < 0 || i < end); i++) units += unitsOf(buf[i]);
    line = end < 0 ? buf.length : end + 1;
  }
  const chars = new Uint16Array(units);
  const start = new Int32Array(n);
  const length = new Uint8Array(n);
  const freq = new Uint32Array(n);
  let total = 0;
  let count = 0;
  let used = 0;
  for (let line = 0; line < buf.length; ) {
    let end = buf.indexOf(NL, line);
    if (end < 0) end = buf.length;
    const space = buf.indexOf(SPACE, line);
    if (space <= line || space >= end) return null;
    let f = 0;
    let i = space + 1;
    for (; i < end && buf[i] >= 0x30 && buf[i] <= 0x39; i++) f = f * 10 + buf[i] - 0x30;
    if (i === space + 1 || (i < end && buf[i] !== SPACE && buf[i] !== 0x0d) || f > 0xffffffff) return null;
    const from = used;
    for (let c = line; c < space; ) {
      const b = buf[c];
      const size = b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
      let cp = size === 1 ? b : b & (0xff >> (size + 1));
      for (let k = 1; k < size; k++) cp = (cp << 6) | (buf[c + k] & 0x3f);
      if (unitsOf(b) === 0 || c + size > space || used + (cp > 0xffff ? 2 : 1) > units) return null;
      if (cp > 0xffff) {
        chars[used++] = 0xd800 + ((cp - 0x10000) >> 10);
        chars[used++] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
      } else chars[used++] = cp;
      c += size;
    }
    if (used - from > 255 || used === from) return null;
    start[count] = from;
    length[count] = used - from;
    freq[count] = f;
    // (a word twice: jieba would take the later line's frequency)
    if (count > 0 && compareUnits(chars, start[count - 1], length[count - 1], chars, from, used - from) >= 0) return null;
    if (chars.subarray(from, used).includes(STAND_IN.charCodeAt(0))) return null;
    total += f;
    count++;
    line = end + 1;
  }
  const byFirstUnit = new Int32Array(BY_FIRST_UNIT);
  for (let u = 0, w = 0; u < BY_FIRST_UNIT; u++) {
    while (w < count && chars[start[w]] < u) w++;
    byFirstUnit[u] = w;
  }
  return { chars, start: start.subarray(0, count), length: length.subarray(0, count), freq: freq.subarray(0, count), total, byFirstUnit };
}

/** UTF-16 units a[aFrom, +aLen) against b[bFrom, +bLen). */
function compareUnits(a: Uint16Array, aFrom: number, aLen: number, b: Uint16Array, bFrom: number, bLen: number): number {
  const n = Math.min(aLen, bLen);
  for (let i = 0; i < n; i++) {
    const d = a[aFrom + i] - b[bFrom + i];
    if (d !== 0) return d;
  }
  return aLen - bLen;
}

/**
 * The dictionary as bytes, in this machine's byte order (dictionarySource names it): a header of three
 * float64 — the words, the UTF-16 units, the frequencies' total — then the arrays, widest first, so that
 * each lies aligned for its view when the bytes start 8-aligned.
 */
export function dictionaryBytes(d: Dictionary): ArrayBufferView[] {
  return [new Float64Array([d.start.length, d.chars.length, d.total]), d.start, d.byFirstUnit, d.freq, d.chars, d.length];
}

/** The dictionary dictionaryBytes wrote, as views onto `bytes` (8-aligned); undefined when they are not laid out so. */
export function dictionaryFromBytes(bytes: Uint8Array): Dictionary | undefined {
  if (bytes.byteOffset % 8 !== 0 || bytes.length < 24) return undefined;
  const [n, units, total] = new Float64Array(bytes.buffer, bytes.byteOffset, 3);
  if (![n, units, total].every((v) => Number.isSafeInteger(v) && v >= 0)) return undefined;
  if (bytes.length !== 24 + 4 * (n + BY_FIRST_UNIT + n) + 2 * units + n) return undefined;
  let at = bytes.byteOffset + 24;
  const next = <T extends { byteLength: number }>(view: T): T => ((at += view.byteLength), view);
  const start = next(new Int32Array(bytes.buffer, at, n));
  const byFirstUnit = next(new Int32Array(bytes.buffer, at, BY_FIRST_UNIT));
  const freq = next(new Uint32Array(bytes.buffer, at, n));
  const chars = next(new Uint16Array(bytes.buffer, at, units));
  const length = new Uint8Array(bytes.buffer, at, n);
  return byFirstUnit[BY_FIRST_UNIT - 1] === n ? { chars, start, length, freq, total, byFirstUnit } : undefined;
}

/**
 * What identifies dict.txt's content without reading it (a kept dictionary's key, with the reader's code
 * and jieba's version: wording-hits.ts): its path, size, file id and modification time, and the byte
 * order the arrays are kept in; null when it cannot be looked at. An installed package's file is replaced
 * (a new file id), never edited in place; an edit by hand that keeps size, id and time is not seen.
 */
export function dictionarySource(): string | null {
  try {
    const file = dictPath();
    const st = fs.statSync(file);
    return `${file}\n${st.size}:${st.dev}:${st.ino}:${st.mtimeMs}\n${os.endianness()}`;
  } catch {
    return null;
  }
}
