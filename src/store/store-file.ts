/**
 * The evidence store on disk: one lowdb JSON file per game, written so that a crash can never lose
 * what was already stored.
 *
 * lowdb's own JSONFile adapter writes through steno, which writes a temp file and renames it over the
 * target (atomic on POSIX) but never fsyncs. This adapter keeps that shape and adds what evidence needs:
 *  - the temp file is fsynced before the rename, and the directory after it (a power cut cannot leave
 *    a renamed-but-empty file);
 *  - before each write the previous good file is kept as `<store>.bak` (a hard link, so no copy);
 *  - reading falls back to the backup when the main file is missing or unreadable;
 *  - a lock file stops two bansha processes from writing the same store at once.
 * A process killed at any moment therefore leaves either the old or the new store readable.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Low, type Adapter } from 'lowdb';
import { UserError } from '../cli/errors.js';
import type { StoreData } from './types.js';

/** An open evidence store: the data in memory and a way to persist it. */
export interface Store {
  /** Absolute path of the store file. */
  readonly path: string;
  /** The store's data; mutate it, then call write(). */
  readonly data: StoreData;
  /** Persist `data` atomically (keeps the previous file as `<path>.bak`). Writes are serialised. */
  write(): Promise<void>;
  /** True when the main file was unreadable and the backup was loaded instead. */
  readonly recoveredFromBackup: boolean;
  /** Release the write lock (if taken). The store must not be written afterwards. */
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** Forum root recorded in a new store (an existing store keeps its own). */
  forum?: string;
  /** Take the writer lock (default true). Read-only users (tally, report) may pass false. */
  lock?: boolean;
}

/** A fresh, empty store. */
export function emptyStore(forum = ''): StoreData {
  return { version: 1, forum, threads: {}, posts: {}, users: {} };
}

/** The backup kept beside a store file. */
export function backupPath(storePath: string): string {
  return `${storePath}.bak`;
}

function lockPath(storePath: string): string {
  return `${storePath}.lock`;
}

/** Size of the pieces the store JSON is encoded in (characters). */
const CHUNK_CHARS = 1 << 20;

/**
 * The store as compact UTF-8 JSON, byte for byte what `JSON.stringify(data)` encodes to, in pieces of
 * about 1 MiB: the big maps (posts, threads) are serialised entry by entry and each piece is encoded
 * at once, so the whole text never exists as one string beside its encoding (at 50,000 posts that
 * string alone was ~60 MB of UTF-16 next to 37 MB of UTF-8). Synchronous: the pieces are one snapshot.
 */
export function storeJsonChunks(data: StoreData): Buffer[] {
  const out: Buffer[] = [];
  let pending = '';
  const push = (s: string): void => {
    pending += s;
    if (pending.length >= CHUNK_CHARS) {
      out.push(Buffer.from(pending, 'utf8'));
      pending = '';
    }
  };
  /** `"key":` plus the value's JSON, or nothing when JSON.stringify would skip the member (undefined, function). */
  const member = (first: boolean, key: string, value: unknown, stream: boolean): boolean => {
    if (stream && value !== null && typeof value === 'object' && !Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
      push(`${first ? '' : ','}${JSON.stringify(key)}:{`);
      let inner = true;
      for (const [k, v] of Object.entries(value)) if (member(inner, k, v, false)) inner = false;
      push('}');
      return true;
    }
    const json = JSON.stringify(value) as string | undefined;
    if (json === undefined) return false;
    push(`${first ? '' : ','}${JSON.stringify(key)}:${json}`);
    return true;
  };
  push('{');
  let first = true;
  for (const [k, v] of Object.entries(data)) if (member(first, k, v, k === 'posts' || k === 'threads')) first = false;
  push('}');
  out.push(Buffer.from(pending, 'utf8'));
  return out;
}

function isStoreData(v: unknown): v is StoreData {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return o.version === 1 && typeof o.threads === 'object' && typeof o.posts === 'object' && typeof o.users === 'object';
}

/** Read and validate one store file: the data, null when absent, or 'corrupt'. */
async function readStoreFile(file: string): Promise<StoreData | null | 'corrupt'> {
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  try {
    const data: unknown = JSON.parse(text);
    return isStoreData(data) ? data : 'corrupt';
  } catch {
    return 'corrupt';
  }
}

async function fsyncDir(dir: string): Promise<void> {
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

/** lowdb adapter: atomic, fsynced JSON writes with a backup of the previous good file. */
export class AtomicJsonFile implements Adapter<StoreData> {
  /** Set by read() when the main file was unreadable and the backup answered. */
  recoveredFromBackup = false;
  #chain: Promise<void> = Promise.resolve();
  #seq = 0;

  constructor(readonly file: string) {}

  async read(): Promise<StoreData | null> {
    const main = await readStoreFile(this.file);
    if (main !== null && main !== 'corrupt') return main;
    const bak = await readStoreFile(backupPath(this.file));
    if (bak !== null && bak !== 'corrupt') {
      this.recoveredFromBackup = true;
      return bak;
    }
    if (main === 'corrupt') {
      throw new UserError(`the store ${this.file} is unreadable and has no usable backup (${backupPath(this.file)}); move it aside and crawl again`, 3);
    }
    return null;
  }

  write(data: StoreData): Promise<void> {
    const chunks = storeJsonChunks(data); // the snapshot, taken now (later changes are the next write's)
    const next = this.#chain.then(() => this.#writeNow(chunks));
    this.#chain = next.catch(() => undefined);
    return next;
  }

  async #writeNow(chunks: Buffer[]): Promise<void> {
    const dir = path.dirname(this.file);
    const base = path.basename(this.file);
    const tmp = path.join(dir, `.${base}.${process.pid}.${++this.#seq}.tmp`);
    // 1. The new content, durable, under a temp name.
    const h = await fsp.open(tmp, 'w');
    try {
      for (const chunk of chunks) {
        for (let at = 0; at < chunk.length; ) at += (await h.write(chunk, at, chunk.length - at)).bytesWritten;
      }
      await h.sync();
    } finally {
      await h.close();
    }
    // 2. Keep the current good file as the backup (unless it is the corrupt one we could not read).
    if (!this.recoveredFromBackup && fs.existsSync(this.file)) {
      const bakTmp = path.join(dir, `.${base}.bak.${process.pid}.tmp`);
      await fsp.rm(bakTmp, { force: true });
      try {
        await fsp.link(this.file, bakTmp);
      } catch {
        await fsp.copyFile(this.file, bakTmp);
      }
      await fsp.rename(bakTmp, backupPath(this.file));
    }
    // 3. Atomically replace the store.
    await fsp.rename(tmp, this.file);
    this.recoveredFromBackup = false;
    await fsyncDir(dir);
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Take the writer lock: a file holding our pid, created exclusively; a dead holder's lock is taken over. */
async function takeLock(storePath: string): Promise<() => Promise<void>> {
  const file = lockPath(storePath);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await fsp.writeFile(file, String(process.pid), { flag: 'wx' });
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        await fsp.rm(file, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = Number.parseInt(await fsp.readFile(file, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(holder) && holder > 0 && pidAlive(holder)) {
        throw new UserError(`another bansha process (pid ${holder}) is writing ${storePath}; wait for it to finish`, 2);
      }
      await fsp.rm(file, { force: true }); // stale lock of a process that died
    }
  }
  throw new UserError(`could not lock ${storePath}`, 2);
}

/** Temp files left by a writer that was killed mid-write (`.<store>.<pid>.<n>.tmp`, pid dead). */
async function removeDeadTempFiles(file: string): Promise<void> {
  const dir = path.dirname(file);
  const prefix = `.${path.basename(file)}.`;
  for (const name of await fsp.readdir(dir)) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = Number(/\.(\d+)(?:\.\d+)?\.tmp$/.exec(name)?.[1]);
    if (Number.isInteger(pid) && pid > 0 && !pidAlive(pid)) await fsp.rm(path.join(dir, name), { force: true });
  }
}

/**
 * Open (or create) the evidence store at `storePath`. The file is created on the first write.
 * Falls back to `<storePath>.bak` when the main file is unreadable (see `recoveredFromBackup`).
 */
export async function openStore(storePath: string, opts: OpenStoreOptions = {}): Promise<Store> {
  const file = path.resolve(storePath);
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const release = opts.lock === false ? async () => undefined : await takeLock(file);
  try {
    if (opts.lock !== false) await removeDeadTempFiles(file);
    const adapter = new AtomicJsonFile(file);
    const db = new Low<StoreData>(adapter, emptyStore(opts.forum ?? ''));
    await db.read();
    if (!db.data.forum && opts.forum) db.data.forum = opts.forum;
    const recovered = adapter.recoveredFromBackup;
    return {
      path: file,
      get data() {
        return db.data;
      },
      write: () => db.write(),
      recoveredFromBackup: recovered,
      close: release,
    };
  } catch (e) {
    await release();
    throw e;
  }
}
