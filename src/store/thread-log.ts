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
 * A log is read a chunk at a time (replayFile), never whole, and a line's posts are parsed a group of
 * whole posts at a time, never the line as one string (issue #16: memory bounded by one thread's work).
 * A line's posts come last in it, so a reader that needs no post (the elevator: recordReplay) or only
 * their pids (a crawl learning the threads it has not opened: pidsReplay) checks every line's checksum
 * but does not parse the posts.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Post } from '../discuz/types.js';
import type { FetchedPageRecord, StoredPost, StoredThread } from './types.js';
import { t } from '../i18n/index.js';
import { atFile } from '../file-fault.js';
import { renameOverAsync } from '../replace-file.js';

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
  /** The checksum of the last complete line read ('' when none). */
  lastSum: string;
}

const SUM_CHARS = 16;
/** Bytes of a line's end: the space, the checksum and the newline (`json sum\n`). */
export const LINE_END = SUM_CHARS + 2;

function checksum(json: Uint8Array): string {
  return createHash('sha256').update(json).digest('hex').slice(0, SUM_CHARS);
}

/** An entry's keys in the order a line writes them: the posts last (the record and pid reads walk them unparsed). */
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
/** A record a replay may change (applyEntry sets its page records in place), not the caller's. */
const ownCopy = (thread: StoredThread | null): StoredThread | null => thread && { ...thread, pages: { ...thread.pages } };

function applyEntry(state: { thread: StoredThread | null }, e: LogEntry, put: (sp: StoredPost) => void): void {
  if (e.t) state.thread = { ...e.t, pages: state.thread?.pages ?? {} };
  if (e.pg || e.rm) {
    if (!state.thread) throw new Error('page records before the thread record');
    for (const [k, rec] of Object.entries(e.pg ?? {})) state.thread.pages[k] = rec;
    for (const k of e.rm ?? []) delete state.thread.pages[k];
  }
  for (const sp of e.p ?? []) put(sp);
}

/** Where a log's complete lines end, where (if anywhere) it is damaged, and the last good line's checksum. */
export type LogWalk = Omit<ReadLog, keyof ThreadContent>;

/** A log is read this many bytes at a time: never the whole file, nor a whole line, in one buffer (issue #16). */
const READ_CHUNK = 64 * 1024;

/**
 * What a replay does with a log's lines as they stream by. `post` gets each post, parsed (`posts`: the
 * raw bytes of the line's posts instead, piece by piece; neither: the posts are skipped, not parsed);
 * `line` the rest of the entry once the line is whole and its checksum holds — a line is applied whole
 * or not at all, so a replay holds a line's posts until then — and `drop` forgets what a line gave so far
 * (its checksum failed, it did not parse, it is read again whole, or the log ended inside it).
 */
interface LineSink {
  post?: (sp: StoredPost) => void;
  posts?: (piece: Buffer) => void;
  line: (head: LogEntry) => void;
  drop: () => void;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const EMPTY = Buffer.alloc(0);
/** Where one post ends and the next begins in logLine's posts (`},{"pid":`): no JSON string holds it (its quote would be escaped). */
const POST_SEAM = Buffer.from('},{"pid":');
/**
 * Posts are parsed in groups of at least this many bytes: at least 102,400 UTF-16 units (UTF-8 takes at
 * most 3 bytes for one), the length from which V8 parses JSON straight into the old generation — the
 * posts are kept, and a smaller text's objects are copied by a scavenge or two first (measured: 4× the
 * GC time of parsing the line whole).
 */
const GROUP_BYTES = 300 * 1024;

/** A post's list fields, most of them empty in most posts. */
const LIST_FIELDS = ['quotes', 'colors', 'sizes', 'links', 'images', 'attachments'] as const satisfies ReadonlyArray<keyof Post>;

/** The one empty list the posts read share: frozen, so that no reader grows one post's list for all (a Post's lists are read-only types: tsc holds it first). */
const NO_ITEMS: readonly never[] = Object.freeze([]);

/**
 * The post as parsed, its versions' empty lists replaced by one shared empty list: JSON.parse makes
 * an array for each (32 bytes; six a version, 4.5 MB of a 20,000-post day's threads at 200,000 posts,
 * held through the tally and the report).
 */
function withSharedEmptyLists(sp: StoredPost): StoredPost {
  for (const v of sp.versions) {
    const post = v.post as unknown as Partial<Record<(typeof LIST_FIELDS)[number], readonly unknown[]>>;
    for (const k of LIST_FIELDS) if (post[k]?.length === 0) post[k] = NO_ITEMS; // (a store of an older layout may lack one)
  }
  return sp;
}

/**
 * One line's JSON, fed in pieces: the entry's keys walked byte by byte up to its top-level "p" array
 * (the posts, which logLine writes last), then the posts in groups of whole posts — cut where
 * POST_SEAM is, each group held to JSON.parse, which fails on a cut inside a post (it would leave a
 * bracket open) — so a long thread's line (13 MB at 17,640 posts) is never one string. A line not laid
 * out so (a key after the posts) is read again whole (`whole`) and parsed as it is.
 */
class EntrySplitter {
  #head: Buffer[] = [];
  #depth = 0;
  #inString = false;
  #escaped = false;
  /** At depth 1: the next string is a key (1), the open string is a key (2); the last key was "p"; the value after `:` is p's. */
  #key: 0 | 1 | 2 = 0;
  #keyIsP = false;
  #pValue = false;
  /** Offset in the line of the current piece, of the open key's quote, and the previous piece's last byte. */
  #at = 0;
  #keyAt = 0;
  #lastByte = -1;
  /** In the posts (from after the p array's `[` to the line's end), the current group, the JSON's last bytes. */
  #inPosts = false;
  /** The group's bytes (after a `[`: `#group[0]`) and their count. */
  #group: Buffer = EMPTY;
  #groupBytes = 0;
  #postsBytes = 0;
  #last: Buffer = EMPTY;

  constructor(private readonly sink: LineSink) {}

  feed(piece: Buffer): void {
    if (this.#inPosts) return this.#posts(piece);
    const end = piece.length;
    let depth = this.#depth;
    let inString = this.#inString;
    let i = 0;
    if (inString && this.#escaped) {
      this.#escaped = false;
      i = 1;
    }
    for (; i < end; i++) {
      let c = piece[i];
      if (inString) {
        // to the string's closing quote, past escapes
        while (c !== QUOTE) {
          if (c === BACKSLASH) i++;
          if (++i >= end) break;
          c = piece[i];
        }
        if (i >= end) {
          this.#escaped = i > end; // the piece ended on a backslash: the next piece's first byte is escaped
          break;
        }
        inString = false;
        if (this.#key === 2) this.#keyIsP = this.#at + i - this.#keyAt === 2 && (i > 0 ? piece[i - 1] : this.#lastByte) === 0x70; // "p"
        this.#key = 0;
      } else if (c === QUOTE) {
        inString = true;
        if (depth === 1) {
          this.#key = this.#key === 1 ? 2 : 0;
          this.#keyAt = this.#at + i;
          this.#pValue = false;
        }
      } else if (c === 0x7b || c === 0x5b) {
        // { [
        depth++;
        if (depth === 1) this.#key = c === 0x7b ? 1 : 0;
        else if (depth === 2 && c === 0x5b && this.#pValue) {
          this.#head.push(Buffer.from(piece.subarray(0, i + 1)));
          this.#inPosts = true;
          this.#posts(piece.subarray(i + 1));
          return;
        }
        this.#pValue = false;
      } else if (c === 0x7d || c === 0x5d) depth--; // } ]
      else if (depth === 1) {
        if (c === 0x2c) this.#key = 1;
        else if (c === 0x3a) this.#pValue = this.#keyIsP;
        else if (c !== 0x20 && c !== 0x09 && c !== 0x0d) this.#pValue = false;
      }
    }
    this.#head.push(Buffer.from(piece));
    this.#depth = depth;
    this.#inString = inString;
    if (end) this.#lastByte = piece[end - 1];
    this.#at += end;
  }

  /** A piece of the posts: raw to `posts`, or cut into groups of whole posts for `post` (the piece's bytes copied: its chunk is reused). */
  #posts(piece: Buffer): void {
    this.#last = Buffer.concat([this.#last, piece.subarray(Math.max(0, piece.length - 3))]).subarray(-3);
    this.#postsBytes += piece.length;
    this.sink.posts?.(piece);
    if (!this.sink.post) return;
    let from = 0;
    for (let k = piece.indexOf(POST_SEAM); k >= 0; k = piece.indexOf(POST_SEAM, k + 1)) {
      if (this.#groupBytes + k + 1 - from < GROUP_BYTES) continue;
      this.#toGroup(piece.subarray(from, k + 1));
      from = k + 1;
      if (!this.#parseGroup(this.#groupBytes)) continue; // a seam inside a post: the group goes on
      this.#groupBytes = 0;
      from = k + 2; // (the comma)
    }
    this.#toGroup(piece.subarray(from));
  }

  #toGroup(bytes: Buffer): void {
    if (!bytes.length) return;
    const need = 1 + this.#groupBytes + bytes.length + 1;
    if (need > this.#group.length) {
      const grown = Buffer.allocUnsafe(Math.max(need, 2 * this.#group.length, GROUP_BYTES + READ_CHUNK + 2)); // (doubling: one long post is not copied per chunk)
      this.#group.copy(grown, 0, 0, 1 + this.#groupBytes);
      grown[0] = 0x5b; // [
      this.#group = grown;
    }
    bytes.copy(this.#group, 1 + this.#groupBytes);
    this.#groupBytes += bytes.length;
  }

  /** Whether the group's first `n` bytes are whole posts, comma-separated: then each is handed to `post`. */
  #parseGroup(n: number): boolean {
    this.#group[1 + n] = 0x5d; // ]
    let posts: StoredPost[];
    try {
      posts = JSON.parse(this.#group.toString('utf8', 0, n + 2)) as StoredPost[];
    } catch {
      return false;
    }
    for (const sp of posts) this.sink.post!(withSharedEmptyLists(sp));
    return true;
  }

  /**
   * The entry without the posts handed over; when the posts were not last, `whole()` (the line's JSON
   * read again) parsed as it is, what was handed over of it dropped. A SyntaxError when it is no JSON.
   */
  finish(whole: () => Buffer): LogEntry {
    if (!this.#inPosts) return JSON.parse(Buffer.concat(this.#head).toString('utf8')) as LogEntry;
    // the posts last: the line's JSON ends with the array closing the entry ("}]}", or "[]}" with none)
    const last = this.#last.toString('latin1');
    const rest = this.#groupBytes - 2; // the posts not parsed yet, before the closing "]}"
    if ((last === '}]}' || (last === ']}' && this.#postsBytes === 2)) && (!this.sink.post || rest <= 0 || this.#parseGroup(rest))) {
      return JSON.parse(`${Buffer.concat(this.#head).toString('utf8')}]}`) as LogEntry;
    }
    this.sink.drop();
    return JSON.parse(whole().toString('utf8')) as LogEntry;
  }
}

/**
 * Walks a log's bytes, pushed a chunk at a time in order: each complete line held to its checksum (over
 * its bytes, not decoded first: the line's last 17 bytes are held back until its newline says where its
 * JSON ends) and split as it streams (EntrySplitter); a bad checksum, or anything the sink throws, is the
 * damage the walk stops at. `reread` gives bytes of the log again (a line whose posts are not last).
 */
class LogWalker {
  #bytes = 0;
  #lineStart = 0;
  #lines = 0;
  #lastSum = '';
  #damage: LogDamage | null = null;
  #hash = createHash('sha256');
  #tail: Buffer = EMPTY;
  #split: EntrySplitter;

  constructor(
    private readonly sink: LineSink,
    private readonly reread: (start: number, end: number) => Buffer,
  ) {
    this.#split = new EntrySplitter(sink);
  }

  push(chunk: Buffer): void {
    for (let from = 0; !this.#damage && from < chunk.length; ) {
      const nl = chunk.indexOf(10, from);
      this.#take(chunk.subarray(from, nl < 0 ? chunk.length : nl));
      if (nl < 0) break;
      this.#endLine(this.#bytes + nl + 1);
      from = nl + 1;
    }
    this.#bytes += chunk.length;
  }

  /** A piece of the current line: all but its last LINE_END - 1 bytes hashed and split. */
  #take(piece: Buffer): void {
    const hold = LINE_END - 1;
    const tail = this.#tail;
    if (tail.length + piece.length <= hold) {
      this.#tail = Buffer.concat([tail, piece]);
    } else if (piece.length >= hold) {
      this.#feed(tail);
      this.#feed(piece.subarray(0, piece.length - hold));
      this.#tail = Buffer.from(piece.subarray(piece.length - hold));
    } else {
      const keep = hold - piece.length;
      this.#feed(tail.subarray(0, tail.length - keep));
      this.#tail = Buffer.concat([tail.subarray(tail.length - keep), piece]);
    }
  }

  #feed(b: Buffer): void {
    if (!b.length) return;
    this.#hash.update(b);
    this.#split.feed(b);
  }

  /** The current line ended (its newline before `next`): checked, then applied or the walk's damage. */
  #endLine(next: number): void {
    this.#lines++;
    const tail = this.#tail;
    const sum = this.#hash.digest('hex').slice(0, SUM_CHARS);
    const split = this.#split;
    const start = this.#lineStart;
    this.#tail = EMPTY;
    this.#hash = createHash('sha256');
    this.#split = new EntrySplitter(this.sink);
    let reason: string | null = null;
    if (tail.length !== LINE_END - 1 || tail[0] !== 0x20 || tail.toString('latin1', 1) !== sum) reason = t('store.checksum');
    else {
      try {
        this.sink.line(split.finish(() => this.reread(start, next - LINE_END)));
      } catch (e) {
        reason = (e as Error).message;
      }
    }
    if (reason !== null) {
      this.sink.drop();
      this.#damage = { line: this.#lines, offset: start, reason };
      return;
    }
    this.#lastSum = sum;
    this.#lineStart = next;
  }

  end(): LogWalk {
    const torn = this.#damage === null && this.#lineStart < this.#bytes;
    if (torn) this.sink.drop();
    const lines = this.#damage ? this.#damage.line - 1 : this.#lines;
    return { bytes: this.#bytes, goodBytes: this.#lineStart, lines, torn, damage: this.#damage, lastSum: this.#lastSum };
  }
}

/**
 * A replay of a log: made over a way to read its bytes again (`reread`: offsets from where the replay
 * starts), then fed them in order a chunk at a time (`push`), then asked what it read (`end`).
 */
export interface Replay<R> {
  push(chunk: Buffer): void;
  end(): R;
}
export type MakeReplay<R> = (reread: (start: number, end: number) => Buffer) => Replay<R>;

function replayOver<R>(sink: LineSink, reread: (start: number, end: number) => Buffer, result: (walk: LogWalk) => R): Replay<R> {
  const walker = new LogWalker(sink, reread);
  return { push: (chunk) => walker.push(chunk), end: () => result(walker.end()) };
}

/**
 * Replay a log's lines (from the log's start, or those after a point the caller replayed it to, `thread`
 * being its record there) onto the thread's record, each post of each line handed to `put` in order (a
 * later one replaces an earlier of its pid): for a reader that keeps only some posts.
 */
export const postsReplay = (thread: StoredThread | null, put: (sp: StoredPost) => void): MakeReplay<LogWalk & { thread: StoredThread | null }> => (reread) => {
  const state = { thread: ownCopy(thread) };
  let posts: StoredPost[] = [];
  const sink: LineSink = {
    post: (sp) => posts.push(sp),
    line: (head) => {
      applyEntry(state, head, put);
      for (const sp of posts) put(sp);
      posts = [];
    },
    drop: () => (posts = []),
  };
  return replayOver(sink, reread, (walk) => ({ thread: state.thread, ...walk }));
};

/** Replay a whole log: the thread, and where (if anywhere) the log is damaged. */
export const logReplay: MakeReplay<ReadLog> = (reread) => {
  const posts = new Map<number, StoredPost>();
  const replay = postsReplay(null, (sp) => posts.set(sp.pid, sp))(reread);
  return { push: replay.push, end: () => ({ ...replay.end(), posts: [...posts.values()] }) };
};

/**
 * Replay a log for the thread's record only (title, page records…): what a command that shows no post
 * reads (the elevator). Every line is still held to its checksum, but its posts are not parsed.
 * (`thread`: the record where the lines take up, as postsReplay.)
 */
export const recordReplay = (thread: StoredThread | null = null): MakeReplay<LogWalk & { thread: StoredThread | null }> => (reread) => {
  const state = { thread: ownCopy(thread) };
  return replayOver({ line: (head) => applyEntry(state, head, () => undefined), drop: () => undefined }, reread, (walk) => ({ thread: state.thread, ...walk }));
};

/**
 * The pids of a log's posts, read off their bytes: every line held to its checksum, the posts not parsed.
 * A `"pid":` key stands only at a post (a stored post and each of its versions' posts, which record.ts
 * gives the same pid; page records say "pids"), and inside a JSON string a quote is escaped, so the key
 * is found exactly: what a crawl learns of the threads it has not opened yet (store-file.ts
 * learnPosts), in a scan, not a parse. (A version carrying another pid would be learned too: a page
 * claiming it is then refused, never let through.)
 */
export const pidsReplay: MakeReplay<LogWalk & { pids: Set<number> }> = (reread) => {
  const pids = new Set<number>();
  let line: number[] = [];
  // the last bytes of the previous piece: a key and its digits may run across two pieces
  let carry = EMPTY;
  /**
   * The pids of the keys begun in `bytes` before `keysBefore` whose digits end at or after `from` and
   * before its end (digits at its end may go on); `before0`: the byte before `bytes`.
   */
  const scan = (bytes: Buffer, from: number, keysBefore: number, before0: number): void => {
    for (let at = bytes.indexOf(PID_KEY); at >= 0 && at < keysBefore; at = bytes.indexOf(PID_KEY, at + PID_KEY.length)) {
      const before = at > 0 ? bytes[at - 1] : before0;
      if (before !== 0x7b && before !== 0x2c) continue; // not a key: { or , comes before one
      let i = at + PID_KEY.length;
      let pid = 0;
      for (; i < bytes.length && bytes[i] >= 0x30 && bytes[i] <= 0x39; i++) pid = pid * 10 + bytes[i] - 0x30;
      if (i > at + PID_KEY.length && i >= from && i < bytes.length) line.push(pid);
    }
  };
  const sink: LineSink = {
    posts: (piece) => {
      // keys begun in the carry, then those begun in the piece
      if (carry.length) scan(Buffer.concat([carry, piece.subarray(0, PID_CARRY)]), carry.length, carry.length, -1);
      scan(piece, 0, piece.length, carry.length ? carry[carry.length - 1] : -1);
      carry = Buffer.from((piece.length >= PID_CARRY ? piece : Buffer.concat([carry, piece])).subarray(-PID_CARRY));
    },
    line: (head) => {
      for (const pid of line) pids.add(pid);
      for (const sp of head.p ?? []) if (typeof sp?.pid === 'number') pids.add(sp.pid); // a line read whole
      line = [];
      carry = EMPTY;
    },
    drop: () => {
      line = [];
      carry = EMPTY;
    },
  };
  return replayOver(sink, reread, (walk) => ({ pids, ...walk }));
};

const PID_KEY = Buffer.from('"pid":');
/** A byte before the key, the key, and a pid's digits. */
const PID_CARRY = 1 + PID_KEY.length + 16;

/** A replay fed one buffer: a log's bytes in memory (the whole-buffer form the tests hold every streamed read to). */
function replayBytes<R>(make: MakeReplay<R>, buf: Buffer): R {
  const replay = make((start, end) => buf.subarray(start, end));
  replay.push(buf);
  return replay.end();
}

/** Replay a log's bytes (logReplay). */
export const replayLog = (buf: Buffer): ReadLog => replayBytes(logReplay, buf);
/** Replay a log's bytes for the thread's record only (recordReplay). */
export const replayThreadRecord = (buf: Buffer, thread: StoredThread | null = null): LogWalk & { thread: StoredThread | null } => replayBytes(recordReplay(thread), buf);
/** A log's pids, off its bytes (pidsReplay). */
export const replayPids = (buf: Buffer): LogWalk & { pids: Set<number> } => replayBytes(pidsReplay, buf);

/**
 * Replay an open file's bytes from `position` up to `end` (default: its end), READ_CHUNK at a time
 * (`reread` reads the file again, by offsets from `position`).
 */
export async function replayFile<R>(h: fsp.FileHandle, make: MakeReplay<R>, position = 0, end = Infinity): Promise<R> {
  const replay = make((start, stop) => {
    const buf = Buffer.allocUnsafe(stop - start);
    let got = 0;
    while (got < buf.length) {
      const n = fs.readSync(h.fd, buf, got, buf.length - got, position + start + got);
      if (!n) throw new Error(`the log ended while it was read again (at byte ${position + start + got})`);
      got += n;
    }
    return buf;
  });
  // one chunk, read into again and again: a replay copies what it keeps of one
  const chunk = Buffer.allocUnsafe(READ_CHUNK);
  for (let at = position; at < end; ) {
    const { bytesRead } = await h.read(chunk, 0, Math.min(READ_CHUNK, end - at), at);
    if (!bytesRead) break;
    replay.push(chunk.subarray(0, bytesRead));
    at += bytesRead;
  }
  return replay.end();
}

/** A thread log opened for reading; null when the file does not exist (any other failure is thrown). */
export async function openLog(file: string): Promise<fsp.FileHandle | null> {
  try {
    return await fsp.open(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** Read a thread log; null when the file does not exist. */
export async function readLog(file: string): Promise<ReadLog | null> {
  return readLogWith(file, logReplay);
}

/** Read a thread log with one of the replays (logReplay, recordReplay, pidsReplay), a chunk at a time; null when the file does not exist. */
export async function readLogWith<R>(file: string, make: MakeReplay<R>): Promise<R | null> {
  const h = await openLog(file);
  if (!h) return null;
  try {
    return await replayFile(h, make);
  } finally {
    await h.close();
  }
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
      await renameOverAsync(bakTmp, `${file}.bak`);
    }
    await renameOverAsync(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true });
    await fsp.rm(`${tmp}.bak`, { force: true });
    throw atFile(e, file);
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
    throw atFile(e, file);
  } finally {
    await h.close();
  }
  if (created) await fsyncDir(path.dirname(file));
}

/** Cut a torn last line (left by a crash mid-append) off a log, so the next append starts a line. */
export async function cutTornTail(file: string, log: ReadLog): Promise<void> {
  if (log.torn) await fsp.truncate(file, log.goodBytes);
}
