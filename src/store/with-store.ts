/**
 * The game's evidence store opened read-only for one job — what the commands and the library's closing
 * job (src/close) share: for a counting job (tally, report, auction, close), only once every thread the
 * count reads is stored and completely crawled, unless --allow-incomplete.
 */
import { UserError } from '../errors.js';
import { t } from '../i18n/index.js';
import { completenessOf, refuseGaps } from './completeness.js';
import { indexUsers, openStore } from './store-file.js';
import type { Completeness, StoreData } from './types.js';

/**
 * What opening a game's store needs to know of the game (a Game is one): where its store is, which
 * forum it reads, and the game file a refusal names. Narrow, so the store sits below the game's types.
 */
export interface StoreOwner {
  storePath: string;
  forum: string;
  file: string;
}

/**
 * Opens the game's store read-only (no lock: a crawl may be writing) — only the threads `tids` when
 * given, so a command parses what it reads and nothing else — hands its data to `use`, and closes it.
 */
export async function withStore<T>(game: StoreOwner, use: (store: StoreData) => T | Promise<T>, tids?: readonly number[]): Promise<T> {
  const store = await openStore(game.storePath, { lock: false, forum: game.forum, threads: tids });
  try {
    return await use(store.data);
  } finally {
    await store.close();
  }
}

/** What a counting command reads and how strict it is about it. */
export interface CountingStoreOptions {
  /** The threads the count reads. */
  tids: number[];
  /** The threads to open (default `tids`): a superset, for a command that also reads threads it does not count. */
  load?: readonly number[];
  /** --allow-incomplete: count even when a thread's crawl has gaps (or it is not stored at all). */
  allowIncomplete?: boolean;
  /**
   * The refusal when some of `tids` are not in the store, or undefined to go on without them. Default:
   * "thread(s) … not in the store … yet: run `bansha crawl`" (exit 3), unless --allow-incomplete.
   */
  notStored?: (missing: number[]) => UserError | undefined;
  /**
   * Those of `tids` the count reads only through an outcome saved in the derived files that vouches for
   * them (complete when counted, their logs unchanged since: src/derived/closed-days.ts vouchedElection),
   * given the store index's uids: neither opened nor checked again. (A store without thread logs: none.)
   */
  vouched?: (users: Readonly<Record<string, number>>) => ReadonlySet<number>;
  /**
   * Those of `tids` the caller read apart (the part of them the count reads: src/derived/kept-posts.ts),
   * with how they are stored: not opened (not even when in `load`), checked here with the rest.
   */
  apart?: ReadonlyMap<number, ThreadRead>;
}

/** A thread a count reads, as found: whether it is stored at all, and how completely. */
export interface ThreadRead {
  stored: boolean;
  completeness: Completeness;
}

/**
 * The counting commands' check of the threads a count read: a refusal (exit 3) when one is not stored
 * (see `notStored`) or, unless --allow-incomplete, incompletely crawled; else those read incompletely
 * (empty unless --allow-incomplete let gaps through: the outputs must say so).
 */
export function countingGaps(game: StoreOwner, reads: readonly ThreadRead[], opts: Omit<CountingStoreOptions, 'tids' | 'load'>): Completeness[] {
  const missing = reads.filter((r) => !r.stored).map((r) => r.completeness.tid);
  if (missing.length) {
    const refusal = opts.notStored
      ? opts.notStored(missing)
      : opts.allowIncomplete
        ? undefined
        : new UserError(t('opt.notStored', missing.join(', '), game.storePath, game.file), 3);
    if (refusal) throw refusal;
  }
  refuseGaps(reads.filter((r) => r.stored).map((r) => r.completeness), opts.allowIncomplete);
  return reads.filter((r) => !r.completeness.complete).map((r) => r.completeness);
}

/** How the threads `tids` of an opened store read. */
export function threadReads(store: StoreData, tids: readonly number[]): ThreadRead[] {
  return completenessOf(store, tids).map((c) => ({ stored: Boolean(store.threads[String(c.tid)]), completeness: c }));
}

/** A game's store opened read-only for a count (openCountingStore): its data, what the check let through, and the close. */
export interface CountingStore {
  store: StoreData;
  /** The threads read incompletely (empty unless --allow-incomplete let gaps through: the outputs must say so). */
  incomplete: Completeness[];
  close(): Promise<void>;
}

/**
 * The game's store, read-only, for a counting command: refuses (exit 3) when a thread of `opts.tids`
 * is not stored (see `notStored`) or, unless --allow-incomplete, is incompletely crawled (then closed
 * again); else opened, with what is missing. The caller closes it.
 */
export async function openCountingStore(game: StoreOwner, opts: CountingStoreOptions): Promise<CountingStore> {
  const users = opts.vouched ? await indexUsers(game.storePath) : null;
  const vouched = users ? opts.vouched?.(users) : undefined;
  const tids = vouched ? opts.tids.filter((t) => !vouched.has(t)) : opts.tids;
  const apart = opts.apart ?? new Map<number, ThreadRead>();
  const load = opts.load?.filter((t) => !vouched?.has(t) && !apart.has(t)); // not opened either
  const opened = tids.filter((t) => !apart.has(t));
  const store = await openStore(game.storePath, { lock: false, forum: game.forum, threads: load ? [...new Set([...opened, ...load])] : opened });
  try {
    const reads = new Map(threadReads(store.data, opened).map((r) => [r.completeness.tid, r]));
    const incomplete = countingGaps(game, tids.map((t) => apart.get(t) ?? reads.get(t)!), opts);
    return { store: store.data, incomplete, close: () => store.close() };
  } catch (err) {
    await store.close();
    throw err;
  }
}

/**
 * The game's store, read-only, for a counting command (openCountingStore): hands the store's data to
 * `use` with what is missing, and closes the store.
 */
export async function withCountingStore<T>(game: StoreOwner, opts: CountingStoreOptions, use: (store: StoreData, incomplete: Completeness[]) => T | Promise<T>): Promise<T> {
  const counting = await openCountingStore(game, opts);
  try {
    return await use(counting.store, counting.incomplete);
  } finally {
    await counting.close();
  }
}
