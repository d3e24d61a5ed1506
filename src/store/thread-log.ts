/**
 * One thread of the evidence store on disk: `<tid>.jsonl`, an append-only log of what changed.
 *
 * Each line is one write's changes to the thread — its record (title, page count, reply count…), the
 * page records that changed, the posts that are new or changed — followed by a checksum of the line. Replaying the lines in order gives the thread.
 * So a write costs what changed, not the thread (let alone the game), and nothing already written is
 * ever rewritten — except by compaction: once the log is several times the thread it holds, it is
 * rewritten as one line (temp file, fsync, rename, the previous file kept as `<tid>.jsonl.bak`).
 *
 * Crash safety: a line is appended (its chunks one after another, the newline last) and fsynced; a
 * crash mid-append leaves a last line without its newline, which was never acknowledged: readers ignore it, and the next writer cuts it
 * off. Any other unreadable line (bad checksum, bad JSON) is damage: the file is refused, never read
 * as its readable part (src/store/check.ts says what is damaged and recovers on request).
 *
 * A line's posts come last in it, so a reader that needs no post (the elevator: replayThreadRecord) or
 * only their pids (a crawl learning the threads it has not opened: replayPids) checks every line's
 * checksum but does not parse the posts.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FetchedPageRecord, StoredPost, StoredThread } from './types.js';
import { t } from '../i18n/index.js';

/** A thread's record without its page records (those are logged one by one). */
export type ThreadMeta = Omit<StoredThread, 'pages'>;

/** One line of a thread log. */
export interface LogEntry {
  /** The thread's record, when it changed. */
  t?: ThreadMeta;
  /** Page records new or changed. */
  pg?: Record<string, FetchedPageRecord>;
  /** Page records dropped (the thread shrank). */
  rm?: string[];
  /** Posts new or changed, whole. */
  p?: StoredPost[];
}

/** A thread as replayed from its log. */
export interface ThreadContent {
  thread: StoredThread | null;
  posts: StoredPost[];
}

/** Where a log stops being readable. */
export interface LogDamage {
  /** 1-based line number and byte offset of the first unreadable line. */
  line: number;
  offset: number;
  reason: string;
}

export interface ReadLog extends ThreadContent {
  /** Bytes of the file, and of its complete lines. */
  bytes: number;
  goodBytes: number;
  lines: number;
  /** The last line had no newline: an append cut short by a crash (ignored). */
  torn: boolean;
  damage: LogDamage | null;
}

const SUM_CHARS = 16;
/** Bytes of a line's end: the space, the checksum and the newline (`json sum\n`). */
export const LINE_END = SUM_CHARS + 2;

function checksum(json: Uint8Array): string {
  return createHash('sha256').update(json).digest('hex').slice(0, SUM_CHARS);
}

/** An entry's keys in the order a line writes them: the posts last (replayThreadRecord stops before them). */
const ENTRY_KEYS = ['t', 'pg', 'rm', 'p'] as const satisfies ReadonlyArray<keyof LogEntry>;

/** A log line's chunks are cut at about this many characters of JSON. */
const CHUNK_CHARS = 64 * 1024;

/**
 * One log line, newline included, as chunks of its UTF-8 bytes: the entry's JSON (what JSON.stringify
 * gives, its keys in ENTRY_KEYS order) made post by post and checksummed as it goes, so a whole thread
 * (a compaction, a migration, a long thread's first write: 13 MB at 17,640 posts) is never also one
 * string — twice its bytes for Chinese text, and copied again to append the checksum — in memory beside
 * its bytes (issue #16).
 */
export function logLine(entry: LogEntry): Buffer[] {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  let pending = '';
  const flush = (): void => {
    const b = Buffer.from(pending, 'utf8');
    hash.update(b);
    chunks.push(b);
    pending = '';
  };
  const put = (s: string): void => {
    pending += s;
    if (pending.length >= CHUNK_CHARS) flush();
  };
  let sep = '{';
  for (const key of ENTRY_KEYS) {
    const value = entry[key];
    if (value === undefined) continue; // as JSON.stringify leaves it out
    put(`${sep}${JSON.stringify(key)}:`);
    sep = ',';
    if (key === 'p') {
      put('[');
      (value as StoredPost[]).forEach((sp, i) => put(i ? `,${JSON.stringify(sp)}` : JSON.stringify(sp)));
      put(']');
    } else put(JSON.stringify(value));
  }
  put(sep === '{' ? '{}' : '}');
  flush();
  chunks.push(Buffer.from(` ${hash.digest('hex').slice(0, SUM_CHARS)}\n`));
  return chunks;
}

/** Bytes of a line's chunks. */
export function lineBytes(line: readonly Buffer[]): number {
  return line.reduce((n, b) => n + b.length, 0);
}

/**
 * Apply one entry to a thread being replayed: its record and page records to `state.thread`, each of its
 * posts (new or changed, whole: it replaces the post of its pid) to `put`.
 */
function applyEntry(state: { thread: StoredThread | null }, e: LogEntry, put: (sp: StoredPost) => void): void {
  if (e.t) state.thread = { ...e.t, pages: state.thread?.pages ?? {} };
  if (e.pg || e.rm) {
    if (!state.thread) throw new Error('page records before the thread record');
    for (const [k, rec] of Object.entries(e.pg ?? {})) state.thread.pages[k] = rec;
    for (const k of e.rm ?? []) delete state.thread.pages[k];
  }
  for (const sp of e.p ?? []) put(sp);
}

/** Where a log's complete lines end, and where (if anywhere) it is damaged. */
export type LogWalk = Omit<ReadLog, keyof ThreadContent>;

/**
 * Walk a log's complete lines in order, each held to its checksum (over its bytes, not decoded first):
 * `apply` gets the JSON's byte range; a bad checksum, or anything `apply` throws, is the damage the walk
 * stops at.
 */
function walkLog(buf: Buffer, apply: (start: number, end: number) => void): LogWalk {
  let at = 0;
  let line = 0;
  let damage: LogDamage | null = null;
  while (at < buf.length) {
    const nl = buf.indexOf(10, at);
    if (nl < 0) break; // torn tail
    line++;
    const space = buf.lastIndexOf(32, nl);
    let reason: string | null = null;
    if (space < at || nl - space - 1 !== SUM_CHARS || checksum(buf.subarray(at, space)) !== buf.toString('latin1', space + 1, nl)) {
      reason = t('store.checksum');
    } else {
      try {
        apply(at, space);
      } catch (e) {
        reason = (e as Error).message;
      }
    }
    if (reason !== null) {
      damage = { line, offset: at, reason };
      break;
    }
    at = nl + 1;
  }
  return { bytes: buf.length, goodBytes: at, lines: damage ? damage.line - 1 : line, torn: damage === null && at < buf.length, damage };
}

/** Replay a log's bytes: the thread, and where (if anywhere) the log is damaged. */
export function replayLog(buf: Buffer): ReadLog {
  const posts = new Map<number, StoredPost>();
  const replayed = replayPosts(buf, null, (sp) => posts.set(sp.pid, sp));
  return { ...replayed, posts: [...posts.values()] };
}

/**
 * Replay a log's lines (`buf`: whole lines from the log's start, or those after a point the caller
 * replayed it to, `thread` being its record there) onto the thread's record, each post of each line handed
 * to `put` in order (a later one replaces an earlier of its pid): for a reader that keeps only some posts.
 */
export function replayPosts(buf: Buffer, thread: StoredThread | null, put: (sp: StoredPost) => void): LogWalk & { thread: StoredThread | null } {
  const state = { thread };
  const walk = walkLog(buf, (start, end) => applyEntry(state, JSON.parse(buf.toString('utf8', start, end)) as LogEntry, put));
  return { thread: state.thread, ...walk };
}

/**
 * Replay a log's bytes for the thread's record only (title, page records…): what a command that shows
 * no post reads (the elevator). Every line is still held to its checksum, but its posts are not parsed.
 * (`thread`: the record where the lines of `buf` take up, as replayPosts.)
 */
export function replayThreadRecord(buf: Buffer, thread: StoredThread | null = null): LogWalk & { thread: StoredThread | null } {
  const state = { thread };
  const walk = walkLog(buf, (start, end) => applyEntry(state, entryWithoutPosts(buf, start, end), () => undefined));
  return { thread: state.thread, ...walk };
}

/**
 * The pids of a log's posts, read off its bytes: every line held to its checksum, the posts not parsed.
 * A `"pid":` key stands only at a post (a stored post and each of its versions' posts, which record.ts
 * gives the same pid; page records say "pids"), and inside a JSON string a quote is escaped, so the key
 * is found exactly: what a crawl learns of the threads it has not opened yet (store-file.ts
 * learnPosts), in a scan, not a parse. (A version carrying another pid would be learned too: a page
 * claiming it is then refused, never let through.)
 */
export function replayPids(buf: Buffer): LogWalk & { pids: Set<number> } {
  const pids = new Set<number>();
  const walk = walkLog(buf, (start, end) => {
    for (let at = buf.indexOf(PID_KEY, start); at >= 0 && at < end; at = buf.indexOf(PID_KEY, at + PID_KEY.length)) {
      const before = buf[at - 1];
      if (before !== 0x7b && before !== 0x2c) continue; // not a key: { or , comes before one
      let i = at + PID_KEY.length;
      let pid = 0;
      for (; i < end && buf[i] >= 0x30 && buf[i] <= 0x39; i++) pid = pid * 10 + buf[i] - 0x30;
      if (i > at + PID_KEY.length) pids.add(pid);
    }
  });
  return { pids, ...walk };
}

const PID_KEY = Buffer.from('"pid":');

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The index after the JSON string starting at `i` (its opening quote). */
function skipString(buf: Buffer, i: number, end: number): number {
  for (i++; i < end; i++) {
    if (buf[i] === BACKSLASH) i++;
    else if (buf[i] === QUOTE) return i + 1;
  }
  return -1;
}

/** The index after the compact JSON value starting at `i` (as JSON.stringify writes it), or -1 when it is not one. */
function skipValue(buf: Buffer, i: number, end: number): number {
  const first = buf[i];
  if (first === QUOTE) return skipString(buf, i, end);
  if (first !== 0x7b && first !== 0x5b) {
    // a number, true, false or null: to the comma or close after it
    while (i < end && buf[i] !== 0x2c && buf[i] !== 0x7d) i++;
    return i < end ? i : -1;
  }
  let depth = 0;
  while (i < end) {
    const c = buf[i];
    if (c === QUOTE) {
      i = skipString(buf, i, end);
      if (i < 0) return -1;
      continue;
    }
    if (c === 0x7b || c === 0x5b) depth++; // { [
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i + 1; // } ]
    i++;
  }
  return -1;
}

/**
 * The entry on bytes `start..end` without its posts, which are not parsed: logLine writes them last, so
 * the JSON before their key is the rest of the entry. A line not shaped so (no posts, or something after
 * them) is parsed whole.
 */
function entryWithoutPosts(buf: Buffer, start: number, end: number): LogEntry {
  const whole = (): LogEntry => JSON.parse(buf.toString('utf8', start, end)) as LogEntry;
  // the posts last: the line ends with an array of objects closing the entry ("…}]}")
  if (end - start < 3 || buf[start] !== 0x7b || buf[end - 1] !== 0x7d || buf[end - 2] !== 0x5d || buf[end - 3] !== 0x7d) return whole();
  let i = start + 1;
  while (i < end && buf[i] === QUOTE) {
    const keyEnd = skipString(buf, i, end);
    if (keyEnd < 0 || buf[keyEnd] !== 0x3a) break; // :
    if (keyEnd - i === 3 && buf[i + 1] === 0x70) { // "p"
      return i === start + 1 ? {} : (JSON.parse(`${buf.toString('utf8', start, i - 1)}}`) as LogEntry);
    }
    const next = skipValue(buf, keyEnd + 1, end);
    if (next < 0 || buf[next] !== 0x2c) break; // ,
    i = next + 1;
  }
  return whole();
}

/** Read a thread log; null when the file does not exist. */
export async function readLog(file: string): Promise<ReadLog | null> {
  return readLogWith(file, replayLog);
}

/** Read a thread log with one of the replays (replayLog, replayThreadRecord, replayPids); null when the file does not exist. */
export async function readLogWith<R>(file: string, replay: (buf: Buffer) => R): Promise<R | null> {
  let buf: Buffer;
  try {
    buf = await fsp.readFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  return replay(buf);
}

/** The whole thread as one entry (a compacted log, or a migrated thread). */
export function fullEntry(content: ThreadContent): LogEntry {
  const e: LogEntry = {};
  if (content.thread) {
    const { pages, ...meta } = content.thread;
    e.t = meta;
    e.pg = pages;
  }
  if (content.posts.length) e.p = content.posts;
  return e;
}

export async function fsyncDir(dir: string): Promise<void> {
  try {
    const h = await fsp.open(dir, 'r');
    try {
      await h.sync();
    } finally {
      await h.close();
    }
  } catch {
    // Some platforms cannot fsync a directory; the rename is still atomic.
  }
}

let tmpSeq = 0;

/**
 * Replace `file` with `bytes` atomically and durably (owner-only): temp file, fsync, the current file
 * kept as `<file>.bak` when `backup`, rename, fsync of the folder. The temp file never outlives a failure.
 */
export async function writeFileAtomic(file: string, bytes: readonly Buffer[], opts: { backup?: boolean } = {}): Promise<number> {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${++tmpSeq}.tmp`);
  let written = 0;
  try {
    const h = await fsp.open(tmp, 'w', 0o600);
    try {
      for (const b of bytes) {
        for (let at = 0; at < b.length; ) at += (await h.write(b, at, b.length - at)).bytesWritten;
        written += b.length;
      }
      await h.sync();
    } finally {
      await h.close();
    }
    if (opts.backup && fs.existsSync(file)) {
      const bakTmp = `${tmp}.bak`;
      try {
        await fsp.link(file, bakTmp);
      } catch {
        await fsp.copyFile(file, bakTmp);
      }
      await fsp.rename(bakTmp, `${file}.bak`);
    }
    await fsp.rename(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true });
    await fsp.rm(`${tmp}.bak`, { force: true });
    throw e;
  }
  await fsyncDir(dir);
  return written;
}

/**
 * Append one line (its chunks) to a log, durably. A failed append is cut back off, so a later append
 * can never follow a half-written line (which would read as damage); a crash mid-append leaves a line
 * without its newline (the last chunk's), which readers ignore and the next writer cuts off.
 */
export async function appendLine(file: string, line: readonly Buffer[]): Promise<void> {
  const created = !fs.existsSync(file);
  const h = await fsp.open(file, 'a', 0o600);
  const size = (await h.stat()).size;
  try {
    for (const b of line) for (let at = 0; at < b.length; ) at += (await h.write(b, at, b.length - at)).bytesWritten;
    await h.sync();
  } catch (e) {
    await h.truncate(size).catch(() => undefined);
    throw e;
  } finally {
    await h.close();
  }
  if (created) await fsyncDir(path.dirname(file));
}

/** Cut a torn last line (left by a crash mid-append) off a log, so the next append starts a line. */
export async function cutTornTail(file: string, log: ReadLog): Promise<void> {
  if (log.torn) await fsp.truncate(file, log.goodBytes);
}
