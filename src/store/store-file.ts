/**
 * The evidence store on disk, readable in part: a command reads the threads it counts and nothing
 * else, and a write costs what changed.
 *
 * Layout (store version 2), for the store path `game.store.json`:
 *  - `game.store.json` — the index: store version, forum root, uids learned by name (small);
 *  - `game.store.threads/<tid>.jsonl` — one append-only log per thread (src/store/thread-log.ts);
 *  - `game.store.json.lock` — the writer's lock (src/store/lock.ts).
 * Files are owner-only (0600) in an owner-only folder (0700): they hold what players wrote, deleted
 * posts included.
 *
 * In memory a store is the same StoreData as ever (threads, posts, users), holding the threads opened.
 * A write compares each opened thread with what its log holds (a fingerprint per post and page record,
 * taken when it was read or last written) and appends only the difference; an unchanged thread, and an
 * unchanged store, write nothing. A handle opened on some threads (`threads`) can open more later and
 * release them once written, so a crawl holds one thread at a time however long the game (issue #16);
 * it remembers only which thread each post it has seen belongs to.
 *
 * A version-1 store (the whole game in one JSON file) is read as it is by a reader, and migrated once
 * by the first writer: every thread written to its log, then the index renamed over the old file (the
 * old file kept as `game.store.json.v1`). A crash during migration leaves the version-1 file in place,
 * and the next writer migrates again.
 *
 * A damaged file (unreadable index, a log line with a bad checksum, a version-1 file that is not JSON)
 * is refused with exit 3 naming what is damaged and what its backup holds — never read as a smaller
 * store. `bansha store check|recover` (src/store/check.ts) inspect and, when the director asks, recover.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../errors.js';
import { t } from '../i18n/index.js';
import { jsonProblem } from '../i18n/parser-problems.js';
import { renameOverAsync } from '../replace-file.js';
import { takeFileLock } from './lock.js';
import {
  appendLine, cutTornTail, LINE_END, openLog, fsyncDir, fullEntry, lineBytes, logLine, logReplay, pidsReplay, postsReplay, readLog, readLogWith, recordReplay, replayFile, writeFileAtomic,
  type LogDamage, type LogEntry, type MakeReplay, type ReadLog, type ThreadContent, type ThreadMeta,
} from './thread-log.js';
import { currentVersion, type FetchedPageRecord, type StoreData, type StoredPost, type StoredThread } from './types.js';

/** An open evidence store: the opened threads in memory and a way to persist changes. */
export interface Store {
  /** Absolute path of the store (index) file. */
  readonly path: string;
  /** The store's data (the opened threads); mutate it, then call write(). */
  readonly data: StoreData;
  /** Persist what changed since the last write (nothing when nothing did). Writes are serialised. */
  write(): Promise<void>;
  /** Bytes written to the store's files so far by this handle (the bench's write amplification). */
  readonly bytesWritten: number;
  /** Release the write lock (if taken). The store must not be written afterwards. */
  close(): Promise<void>;
  /** Whether thread `tid` is open in `data` (a handle opened on every thread holds every thread, new ones too). */
  holds(tid: number): boolean;
  /** Open these threads too: their logs read into `data` (a damaged log refused), then changed and written as any other. */
  open(tids: readonly number[]): Promise<void>;
  /**
   * Write what changed, then drop these threads from `data` (their posts remembered as pid → tid only):
   * memory for the next thread. A handle opened on every thread cannot release one.
   */
  release(tids: readonly number[]): Promise<void>;
  /** Read these threads' logs only to learn which thread each of their posts is in (a damaged log refused); nothing else is kept. */
  learnPosts(tids: readonly number[]): Promise<void>;
  /** The thread of post `pid` as this handle knows it (open, released or learned threads), or undefined. */
  threadOfPost(pid: number): number | undefined;
}

export interface OpenStoreOptions {
  /** Forum root recorded in a new store (an existing store keeps its own). */
  forum?: string;
  /** Take the writer lock (default true). Read-only users (tally, report) pass false. */
  lock?: boolean;
  /** Open only these threads (default: every stored thread). */
  threads?: readonly number[];
}

/** A fresh, empty store. */
export function emptyStore(forum = ''): StoreData {
  return { version: 1, forum, threads: {}, posts: {}, users: {} };
}

/** The backup kept beside a file: the previous version-1 store, a thread log before compaction. */
export function backupPath(file: string): string {
  return `${file}.bak`;
}

/** The folder of a store's thread logs. */
export function threadsDir(storePath: string): string {
  return `${storePath.replace(/\.json$/i, '')}.threads`;
}

/** The log file of thread `tid`. */
export function threadLogPath(storePath: string, tid: number): string {
  return path.join(threadsDir(storePath), `${tid}.jsonl`);
}

/** The version-1 file a migration keeps. */
export function migratedV1Path(storePath: string): string {
  return `${storePath}.v1`;
}

interface IndexV2 {
  version: 2;
  forum: string;
  users: Record<string, number>;
}

/** The index file's text for `data` (compact JSON: the writer compares it to skip unchanged writes). */
export function indexText(data: StoreData): string {
  const index: IndexV2 = { version: 2, forum: data.forum, users: data.users };
  return JSON.stringify(index);
}

/** What the store path holds. */
type StoreFile =
  | { kind: 'absent' }
  | { kind: 'v2'; index: IndexV2; text: string }
  | { kind: 'v1'; data: StoreData }
  | { kind: 'damaged'; reason: string };

function isStoreDataV1(v: unknown): v is StoreData {
  const o = v as Record<string, unknown> | null;
  return typeof o === 'object' && o !== null && o.version === 1 && typeof o.threads === 'object' && typeof o.posts === 'object' && typeof o.users === 'object';
}

function isIndexV2(v: unknown): v is IndexV2 {
  const o = v as Record<string, unknown> | null;
  return typeof o === 'object' && o !== null && o.version === 2 && typeof o.forum === 'string' && typeof o.users === 'object' && o.users !== null;
}

/** Read the store path: a version-2 index, a version-1 store, nothing, or damage. */
export async function readStoreFile(file: string): Promise<StoreFile> {
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'absent' };
    throw e;
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { kind: 'damaged', reason: t('store.notJson', jsonProblem(e, text)) };
  }
  if (isIndexV2(v)) return { kind: 'v2', index: v, text };
  if (isStoreDataV1(v)) return { kind: 'v1', data: v };
  return { kind: 'damaged', reason: t('store.notStore') };
}

/** The refusal for a damaged store file; `detail` says what the backup holds. */
export function damagedError(file: string, what: string, backup: string, storePath: string): UserError {
  return new UserError(
    t('store.damagedError', file, what, backup, storePath),
    3,
  );
}

/** What a backup file holds, in words, for a damage message. */
export async function describeBackup(file: string): Promise<string> {
  const bak = backupPath(file);
  if (!fs.existsSync(bak)) return t('store.noBackup', bak);
  const mtime = fs.statSync(bak).mtime.toISOString();
  if (file.endsWith('.jsonl')) {
    const log = await readLog(bak);
    if (!log || log.damage) return t('store.backupDamaged', bak);
    return t('store.backupLog', bak, mtime, log.posts.length, Object.keys(log.thread?.pages ?? {}).length);
  }
  const f = await readStoreFile(bak);
  if (f.kind === 'v1') return t('store.backupV1', bak, mtime, Object.keys(f.data.posts).length, Object.keys(f.data.threads).length);
  if (f.kind === 'v2') return t('store.backupIndex', bak, mtime);
  return t('store.backupUnreadable', bak);
}

/**
 * What a write compares, as JSON: a record without the fields that only say *when* it was last looked
 * at (a post's lastSeen, a page's fetchedAt and body hash, the thread's lastCrawl and repliesSeenAt).
 * A refetch that changed nothing but those writes nothing; they reach the disk with the thread's next
 * real change (or its compaction), so on disk they are "as of the last change written".
 */
function postJson(sp: StoredPost): string {
  const last = currentVersion(sp);
  const seen = last.lastSeen;
  last.lastSeen = '';
  try {
    return JSON.stringify(sp);
  } finally {
    last.lastSeen = seen;
  }
}
const pageJson = ({ fetchedAt: _f, bodyHash: _b, ...rest }: FetchedPageRecord): string => JSON.stringify(rest);
const metaJson = ({ lastCrawl: _l, repliesSeenAt: _r, ...rest }: ThreadMeta): string => JSON.stringify(rest);
const digest = (json: string): string => createHash('sha1').update(json).digest('base64');

/** What a thread's log holds, as fingerprints: a write appends the difference from these. */
class ThreadPrint {
  meta = '';
  pages = new Map<string, string>();
  posts = new Map<number, string>();
  /** Bytes of the log file, and of the thread written as one line (for compaction). */
  fileBytes = 0;
  liveBytes = 0;

  /** Fingerprint `content` as written (`fileBytes`: the log's size). */
  static of(content: ThreadContent, fileBytes: number): ThreadPrint {
    const p = new ThreadPrint();
    p.diff(content.thread, content.posts);
    p.fileBytes = fileBytes;
    return p;
  }

  /** The entry that brings the log from these fingerprints to (thread, posts); updates them. Null when nothing changed. */
  diff(thread: StoredThread | null, posts: Iterable<StoredPost>): LogEntry | null {
    const e: LogEntry = {};
    let live = 0;
    if (thread) {
      const { pages, ...meta } = thread;
      const m = metaJson(meta);
      live += m.length;
      if (m !== this.meta) {
        e.t = meta;
        this.meta = m;
      }
      for (const [k, rec] of Object.entries(pages)) {
        const json = pageJson(rec);
        live += json.length;
        if (this.pages.get(k) !== json) {
          (e.pg ??= {} as Record<string, FetchedPageRecord>)[k] = rec;
          this.pages.set(k, json);
        }
      }
      for (const k of [...this.pages.keys()]) {
        if (!(k in pages)) {
          (e.rm ??= []).push(k);
          this.pages.delete(k);
        }
      }
    }
    for (const sp of posts) {
      const json = postJson(sp);
      live += Buffer.byteLength(json);
      const d = digest(json);
      if (this.posts.get(sp.pid) !== d) {
        (e.p ??= []).push(sp);
        this.posts.set(sp.pid, d);
      }
    }
    this.liveBytes = live;
    return e.t || e.pg || e.rm || e.p ? e : null;
  }
}

/** Compact a log once it is this many times the thread it holds (plus some slack for small threads). */
const COMPACT_FACTOR = 3;
const COMPACT_SLACK = 256 * 1024;

/** Group the opened posts by thread. */
function postsByThread(data: StoreData): Map<number, StoredPost[]> {
  const by = new Map<number, StoredPost[]>();
  for (const sp of Object.values(data.posts)) {
    let list = by.get(sp.tid);
    if (!list) by.set(sp.tid, (list = []));
    list.push(sp);
  }
  return by;
}

async function mkdirPrivate(dir: string): Promise<void> {
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
}

/** The stored thread ids (log files present). */
export async function storedTids(storePath: string): Promise<number[]> {
  let names: string[];
  try {
    names = await fsp.readdir(threadsDir(storePath));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  return names.map((n) => /^(\d+)\.jsonl$/.exec(n)?.[1]).filter((t): t is string => t !== undefined).map(Number).sort((a, b) => a - b);
}

/** Bytes the store takes on disk: the index and every thread log (backups and kept files aside). */
export function storeBytesOnDisk(storePath: string): number {
  let n = fs.statSync(storePath, { throwIfNoEntry: false })?.size ?? 0;
  const dir = threadsDir(storePath);
  if (fs.existsSync(dir)) for (const name of fs.readdirSync(dir)) if (name.endsWith('.jsonl')) n += fs.statSync(path.join(dir, name)).size;
  return n;
}

/** Temp files left by a writer that was killed mid-write (`.<name>.<pid>.<n>.tmp`, pid dead). */
async function removeDeadTempFiles(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^\..*\.(\d+)\.[0-9a-f]+\.tmp(?:\.bak)?$/.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    let alive = true;
    try {
      process.kill(pid, 0);
    } catch (e) {
      alive = (e as NodeJS.ErrnoException).code === 'EPERM';
    }
    if (!alive && pid !== process.pid) await fsp.rm(path.join(dir, name), { force: true });
  }
}

/**
 * Migrate a version-1 store to logs (the caller holds the lock): every thread into a fresh folder,
 * the folder renamed into place, the old file kept as `.v1`, then the index over the old file.
 */
async function migrateV1(storePath: string, data: StoreData): Promise<void> {
  const dir = threadsDir(storePath);
  if (fs.existsSync(dir)) await renameOverAsync(dir, `${dir}.old-${Date.now()}`); // a migration cut short: keep, redo
  const fresh = `${dir}.migrating-${process.pid}`;
  await fsp.rm(fresh, { recursive: true, force: true });
  await mkdirPrivate(fresh);
  const byTid = postsByThread(data);
  const tids = new Set<number>([...Object.values(data.threads).map((t) => t.tid), ...byTid.keys()]);
  for (const tid of tids) {
    const content = { thread: data.threads[String(tid)] ?? null, posts: (byTid.get(tid) ?? []).sort((a, b) => a.pid - b.pid) };
    await writeFileAtomic(path.join(fresh, `${tid}.jsonl`), logLine(fullEntry(content)));
  }
  await renameOverAsync(fresh, dir);
  await fsyncDir(path.dirname(dir));
  await fsp.rm(migratedV1Path(storePath), { force: true });
  await fsp.link(storePath, migratedV1Path(storePath)).catch(() => fsp.copyFile(storePath, migratedV1Path(storePath)));
  await fsp.chmod(migratedV1Path(storePath), 0o600);
  if (fs.existsSync(backupPath(storePath))) await fsp.chmod(backupPath(storePath), 0o600); // the old layout's backup: evidence too
  await writeFileAtomic(storePath, [Buffer.from(indexText(data))]);
}

/** The refusal of a damaged thread log. */
async function damagedLogError(storePath: string, file: string, damage: LogDamage): Promise<UserError> {
  return damagedError(file, t('store.damagedAt', damage.line, damage.offset, damage.reason, damage.line - 1), await describeBackup(file), storePath);
}

/** Read thread `tid`'s log with `replay` (thread-log.ts: null when it has no log); a damaged log is refused. */
async function readThreadLog<R extends { damage: LogDamage | null }>(storePath: string, tid: number, replay: MakeReplay<R>): Promise<R | null> {
  const file = threadLogPath(storePath, tid);
  const log = await readLogWith(file, replay);
  if (log?.damage) throw await damagedLogError(storePath, file, log.damage);
  return log;
}

/** Read the logs of `tids` into `data`; a damaged log is refused. Returns each log as read. */
async function loadThreads(storePath: string, data: StoreData, tids: readonly number[]): Promise<Map<number, ReadLog>> {
  const logs = new Map<number, ReadLog>();
  for (const tid of tids) {
    const log = await readThreadLog(storePath, tid, logReplay);
    if (!log) continue;
    if (log.thread) data.threads[String(tid)] = log.thread;
    for (const sp of log.posts) data.posts[String(sp.pid)] = sp;
    logs.set(tid, log);
  }
  return logs;
}

/** Whether the sorted `xs` holds `x` (binary search). */
function sortedHas(xs: Float64Array, x: number): boolean {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo < xs.length && xs[lo] === x;
}

/**
 * Which threads a handle holds in `data`, and the thread of every post it has seen: what lets a crawl
 * open one thread at a time yet still refuse a page that claims another thread's post (record.ts).
 */
class Residency {
  /**
   * The posts of threads released or only learned: per thread its pids, sorted, in the order the
   * threads were last added to (8 bytes a post, not a map entry: a crawl learns the whole game's).
   */
  readonly #owners: Array<{ tid: number; pids: Float64Array }> = [];
  /** The threads open (null: every thread, new ones included). */
  readonly #open: Set<number> | null;

  constructor(
    readonly storePath: string,
    readonly data: StoreData,
    open: readonly number[] | undefined,
  ) {
    this.#open = open ? new Set(open) : null;
  }

  holds(tid: number): boolean {
    return this.#open === null || this.#open.has(tid);
  }

  /** Read the logs of the threads not open yet into `data`; returns them. */
  async open(tids: readonly number[]): Promise<Map<number, ReadLog>> {
    const fresh = [...new Set(tids)].filter((tid) => !this.holds(tid));
    const logs = await loadThreads(this.storePath, this.data, fresh);
    for (const tid of fresh) this.#open!.add(tid);
    return logs;
  }

  /** Drop these threads from `data`, keeping their posts' pid → tid. */
  drop(tids: readonly number[]): void {
    if (this.#open === null) throw new Error('a store handle opened on every thread keeps them all: open it on some threads to release any');
    const gone = new Map(tids.filter((tid) => this.#open!.delete(tid)).map((tid) => [tid, [] as number[]]));
    for (const [key, sp] of Object.entries(this.data.posts)) {
      const pids = gone.get(sp.tid);
      if (!pids) continue;
      pids.push(sp.pid);
      delete this.data.posts[key];
    }
    for (const [tid, pids] of gone) {
      this.#own(tid, pids);
      delete this.data.threads[String(tid)];
    }
  }

  async learnPosts(tids: readonly number[]): Promise<void> {
    for (const tid of tids) {
      if (this.holds(tid)) continue;
      // the pids only, scanned off the log (a crawl opens the thread, and parses it, when its turn comes)
      const log = await readThreadLog(this.storePath, tid, pidsReplay);
      if (log) this.#own(tid, log.pids);
    }
  }

  /** Thread `tid` owns these posts too (the last thread said to own a post is its owner). */
  #own(tid: number, pids: Iterable<number>): void {
    const at = this.#owners.findIndex((o) => o.tid === tid);
    // what it owned before, less what a thread said to own it since has taken (it moves last)
    const later = this.#owners.slice(at + 1);
    const had = at < 0 ? [] : [...this.#owners.splice(at, 1)[0].pids].filter((pid) => !later.some((o) => sortedHas(o.pids, pid)));
    this.#owners.push({ tid, pids: Float64Array.from(new Set([...had, ...pids])).sort() });
  }

  threadOfPost(pid: number): number | undefined {
    const held = this.data.posts[String(pid)]?.tid;
    if (held !== undefined) return held;
    for (let i = this.#owners.length - 1; i >= 0; i--) if (sortedHas(this.#owners[i].pids, pid)) return this.#owners[i].tid;
    return undefined;
  }
}

/**
 * Open (or create) the evidence store at `storePath`: the threads `opts.threads` (default every one).
 * A writer (the default) takes the lock and migrates a version-1 store; a reader (`lock: false`) reads
 * either version as it is. A damaged file is a UserError (exit 3); see the module comment.
 */
export async function openStore(storePath: string, opts: OpenStoreOptions = {}): Promise<Store> {
  const file = path.resolve(storePath);
  const writer = opts.lock !== false;
  const dir = path.dirname(file);
  if (writer) await fsp.mkdir(dir, { recursive: true });
  const release = writer ? takeFileLock(`${file}.lock`, file) : () => undefined;
  try {
    if (writer) {
      await removeDeadTempFiles(dir);
      await removeDeadTempFiles(threadsDir(file));
    }
    let f = await readUsableStoreFile(file);
    if (f.kind === 'v1' && writer) {
      await migrateV1(file, f.data);
      const migrated = await readStoreFile(file);
      if (migrated.kind !== 'v2') throw new Error(`migration of ${file} did not leave an index`);
      f = migrated;
    }
    if (f.kind === 'v1') return legacyReader(file, f.data, opts.threads);

    const data = emptyStore(f.kind === 'v2' ? f.index.forum : '');
    if (f.kind === 'v2') data.users = f.index.users;
    if (!data.forum && opts.forum) data.forum = opts.forum;
    const residency = new Residency(file, data, opts.threads ? [] : undefined);
    const logs = opts.threads ? await residency.open(opts.threads) : await loadThreads(file, data, await storedTids(file));
    if (!writer) return reader(file, residency);

    await mkdirPrivate(threadsDir(file));
    const prints = new Map<number, ThreadPrint>();
    await takePrints(file, logs, prints);
    return writerStore(file, residency, prints, f.kind === 'v2' ? f.text : '', release);
  } catch (e) {
    release();
    throw e;
  }
}

/** The store path as readStoreFile reads it, a damaged index refused, and so are logs without their index. */
async function readUsableStoreFile(file: string): Promise<Exclude<StoreFile, { kind: 'damaged' }>> {
  const f = await readStoreFile(file);
  if (f.kind === 'damaged') throw damagedError(file, f.reason, await describeBackup(file), file);
  if (f.kind === 'absent' && (await storedTids(file)).length) {
    throw damagedError(file, t('store.indexMissingIn', threadsDir(file)), t('store.logsHoldAll'), file);
  }
  return f;
}

/** The uids in the index of a store with thread logs, or null when it has none (a version-1 store, not read for this, or no store yet). */
export async function indexUsers(storePath: string): Promise<Record<string, number> | null> {
  const file = path.resolve(storePath);
  if (!fs.existsSync(threadsDir(file))) return null;
  const f = await readUsableStoreFile(file);
  return f.kind === 'v2' ? f.index.users : null;
}

/** What a command that shows no post reads of the store: the index's forum and uids, and thread records. */
export type ThreadRecords = Pick<StoreData, 'forum' | 'users' | 'threads'>;

/**
 * The index and the records (title, page records…) of the threads `tids` that are stored, their posts
 * not parsed (thread-log.ts recordReplay): what the elevator shows. Damage is refused as by
 * openStore; nothing is locked or written.
 */
export async function readThreadRecords(storePath: string, tids: readonly number[]): Promise<ThreadRecords> {
  const file = path.resolve(storePath);
  const f = await readUsableStoreFile(file);
  const out: ThreadRecords = { forum: '', users: {}, threads: {} };
  if (f.kind === 'v1') {
    Object.assign(out, { forum: f.data.forum, users: f.data.users });
    for (const tid of tids) if (f.data.threads[String(tid)]) out.threads[String(tid)] = f.data.threads[String(tid)];
    return out;
  }
  if (f.kind === 'v2') Object.assign(out, { forum: f.index.forum, users: f.index.users });
  for (const tid of new Set(tids)) {
    const read = await readThreadLog(file, tid, recordReplay());
    if (read?.thread) out.threads[String(tid)] = read.thread;
  }
  return out;
}

/**
 * Where a replay of a thread log stopped: the file (its inode, as a string: it may not fit a double) and
 * the end of its last complete line, with that line's checksum. A log is only ever appended to — a
 * compaction or recovery renames a new file in — so while the file is the same and still has that line
 * ending there, everything before the point is what was replayed (the trust of a derived file's
 * threadLogKey: an edit by hand that keeps both is not seen; `bansha store check` reads the logs).
 */
export interface LogPoint {
  ino: string;
  offset: number;
  sum: string;
}

/** What replayThreadFrom found: the thread's record, the point it replayed to, whether that is another point than the caller's. */
export interface ReplayedFrom {
  thread: StoredThread | null;
  point: LogPoint;
  /** The point is not the caller's (the log grew, or was replayed from its start): what a keeper saves again. */
  moved: boolean;
}

/**
 * Thread `tid`'s log replayed for a reader that keeps only some posts (thread-log.ts postsReplay) or
 * none (recordReplay: the posts not parsed): from `from` — a point an earlier replay reached,
 * `from.thread` the record there — when the log still holds it (see LogPoint), so only the lines appended
 * since are read, else from the start. `start(resumed)` is called before any post is handed over and
 * gives the post sink, or null for none (on a start from the beginning the caller drops what it kept).
 * Every line read is held to its checksum; a damaged log is refused as openStore refuses it (damage after
 * the point: the log is read again from its start, to name the line). Null when the thread has no log.
 */
export async function replayThreadFrom(
  storePath: string, tid: number, from: { point: LogPoint; thread: StoredThread | null } | null,
  start: (resumed: boolean) => ((sp: StoredPost) => void) | null,
): Promise<ReplayedFrom | null> {
  const replayOf = (thread: StoredThread | null, put: ((sp: StoredPost) => void) | null) => (put ? postsReplay(thread, put) : recordReplay(thread));
  const file = threadLogPath(path.resolve(storePath), tid);
  const h = await openLog(file);
  if (!h) return null;
  try {
    const st = await h.stat({ bigint: true });
    const ino = String(st.ino);
    const size = Number(st.size);
    const at = from?.point;
    if (from && at && at.ino === ino && at.offset >= LINE_END && size >= at.offset) {
      const seam = await readAt(h, at.offset - LINE_END, LINE_END);
      if (seam.toString('latin1') === ` ${at.sum}\n`) {
        const r = await replayFile(h, replayOf(from.thread, start(true)), at.offset, size);
        if (!r.damage) return { thread: r.thread, point: r.goodBytes ? { ino, offset: at.offset + r.goodBytes, sum: r.lastSum } : at, moved: r.goodBytes > 0 };
      }
    }
    const r = await replayFile(h, replayOf(null, start(false)), 0, size);
    if (r.damage) throw await damagedLogError(storePath, file, r.damage);
    return { thread: r.thread, point: { ino, offset: r.goodBytes, sum: r.lastSum }, moved: true };
  } finally {
    await h.close();
  }
}

/** `length` bytes of an open file from `position` (fewer when it ends first). */
async function readAt(h: fsp.FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  let got = 0;
  while (got < length) {
    const { bytesRead } = await h.read(buf, got, length - got, position + got);
    if (!bytesRead) break;
    got += bytesRead;
  }
  return buf.subarray(0, got);
}

/** A writer's start on logs just read: a torn last line cut off, each log fingerprinted. */
async function takePrints(file: string, logs: Map<number, ReadLog>, prints: Map<number, ThreadPrint>): Promise<void> {
  for (const [tid, log] of logs) {
    await cutTornTail(threadLogPath(file, tid), log);
    prints.set(tid, ThreadPrint.of(log, log.goodBytes));
  }
}

function reader(file: string, residency: Residency): Store {
  return {
    path: file,
    data: residency.data,
    bytesWritten: 0,
    write: () => Promise.reject(new Error(`the store ${file} was opened read-only`)),
    close: async () => undefined,
    holds: (tid) => residency.holds(tid),
    open: async (tids) => void (await residency.open(tids)),
    release: async (tids) => residency.drop(tids),
    learnPosts: (tids) => residency.learnPosts(tids),
    threadOfPost: (pid) => residency.threadOfPost(pid),
  };
}

/** A version-1 store opened by a reader: the threads asked for, from the one file. */
function legacyReader(file: string, all: StoreData, tids: readonly number[] | undefined): Store {
  const data = tids ? emptyStore(all.forum) : all;
  if (tids) {
    const want = new Set(tids);
    data.users = all.users;
    for (const tid of want) if (all.threads[String(tid)]) data.threads[String(tid)] = all.threads[String(tid)];
    for (const [k, sp] of Object.entries(all.posts)) if (want.has(sp.tid)) data.posts[k] = sp;
  }
  const whole = reader(file, new Residency(file, data, undefined));
  const refuse = (): Promise<never> => Promise.reject(new Error(`the version-1 store ${file} is read whole: a writer migrates it first`));
  return { ...whole, open: refuse, release: refuse, learnPosts: refuse };
}

function writerStore(file: string, residency: Residency, prints: Map<number, ThreadPrint>, lastIndex: string, release: () => void): Store {
  const data = residency.data;
  let chain: Promise<void> = Promise.resolve();
  let written = 0;
  let broken: unknown = null;

  /** The writes that bring the files to `data`, decided now (later changes are the next write's). */
  const snapshot = (): Array<() => Promise<void>> => {
    const jobs: Array<() => Promise<void>> = [];
    const byTid = postsByThread(data);
    const tids = new Set<number>([...Object.keys(data.threads).map(Number), ...byTid.keys()]);
    for (const tid of tids) {
      let print = prints.get(tid);
      if (!print) {
        // A log this handle did not open would be overwritten by a partial view of the thread.
        if (fs.existsSync(threadLogPath(file, tid))) throw new Error(`thread ${tid} is stored but was not opened in this store handle: open it before changing it`);
        prints.set(tid, (print = new ThreadPrint()));
      }
      const thread = data.threads[String(tid)] ?? null;
      const posts = byTid.get(tid) ?? [];
      const entry = print.diff(thread, posts);
      if (!entry) continue;
      const log = threadLogPath(file, tid);
      const p = print;
      if (p.fileBytes > COMPACT_FACTOR * p.liveBytes + COMPACT_SLACK) {
        const whole = logLine(fullEntry({ thread, posts: [...posts].sort((a, b) => a.pid - b.pid) }));
        jobs.push(async () => {
          written += await writeFileAtomic(log, whole, { backup: true });
          p.fileBytes = lineBytes(whole);
        });
      } else {
        const line = logLine(entry);
        const bytes = lineBytes(line);
        jobs.push(async () => {
          await appendLine(log, line);
          written += bytes;
          p.fileBytes += bytes;
        });
      }
    }
    const text = indexText(data);
    if (text !== lastIndex && (jobs.length || lastIndex || Object.keys(data.users).length)) {
      const bytes = Buffer.from(text);
      const job = async () => {
        written += await writeFileAtomic(file, [bytes]);
      };
      // A new store's index first (logs without an index read as damage); later, after the logs.
      if (lastIndex) jobs.push(job);
      else jobs.unshift(job);
      lastIndex = text;
    }
    return jobs;
  };

  const write = (): Promise<void> => {
    if (broken) return Promise.reject(broken);
    const jobs = snapshot();
    if (!jobs.length) return chain;
    const next = chain.then(async () => {
      try {
        if (jobs.length) await mkdirPrivate(threadsDir(file));
        for (const job of jobs) await job();
      } catch (e) {
        // The fingerprints already count this write: no later write may go on from them.
        broken = e;
        throw e;
      }
    });
    chain = next.catch(() => undefined);
    return next;
  };

  return {
    path: file,
    data,
    get bytesWritten() {
      return written;
    },
    write,
    async close() {
      await chain;
      release();
    },
    holds: (tid) => residency.holds(tid),
    open: async (tids) => takePrints(file, await residency.open(tids), prints),
    async release(tids) {
      // The write's lines are decided synchronously (snapshot), so the threads can go at once.
      const landed = write();
      residency.drop(tids);
      for (const tid of tids) prints.delete(tid);
      await landed;
    },
    learnPosts: (tids) => residency.learnPosts(tids),
    threadOfPost: (pid) => residency.threadOfPost(pid),
  };
}
