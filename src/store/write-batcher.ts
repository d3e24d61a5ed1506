/**
 * Persisting a store that changes many times a second (a crawl records one page at a time) without
 * writing the whole file after every change.
 *
 * A store write appends only what changed (src/store/store-file.ts), but it still compares every opened
 * thread with what its log holds and fsyncs, so writing after every page would serialise the concurrent
 * fetches behind the disk. The batcher instead writes in the background at most every
 * `intervalMs` (and never spends more than about `maxWriteShare` of the time writing: the gap after a
 * slow write grows with it), with at most one write in flight, and `flush()` writes what is left.
 *
 * What a crash can lose is bounded by the interval: each write is a snapshot of the changes, appended
 * thread by thread, so each thread's log on disk is always a state the thread really had;
 * pages recorded after the last write are simply absent from it, and the next crawl fetches them as
 * never fetched (the crawler schedules every page 1..N without a record).
 */
import type { Store } from './store-file.js';

/** How often the batcher writes. */
export interface WriteBatcherOptions {
  /** Least time between two writes, ms. Default 1500. 0 writes after every change (one at a time). */
  intervalMs?: number;
  /** Largest share of wall time spent writing (the gap after a write is at least its duration × (1/share − 1)). Default 0.25. */
  maxWriteShare?: number;
}

/** Writes a store in the background after changes, batched in time; `flush()` persists the rest. */
export class WriteBatcher {
  readonly #store: Store;
  readonly #intervalMs: number;
  readonly #gapFactor: number;
  /** Changes since the snapshot of the last write started. */
  #dirty = false;
  #inFlight: Promise<void> | null = null;
  #timer: NodeJS.Timeout | null = null;
  /** When the next background write may start (performance.now() ms). */
  #notBefore: number;
  #failed: unknown = null;
  #closed = false;
  /** Writes started so far (for tests and the bench). */
  writes = 0;

  constructor(store: Store, opts: WriteBatcherOptions = {}) {
    this.#store = store;
    this.#intervalMs = Math.max(0, opts.intervalMs ?? 1500);
    const share = Math.min(1, Math.max(0.01, opts.maxWriteShare ?? 0.25));
    this.#gapFactor = 1 / share - 1;
    this.#notBefore = performance.now() + this.#intervalMs;
  }

  /**
   * Note that `store.data` changed. Starts a background write when one is due, else makes sure one
   * will start when it is; never waits. Throws the error of an earlier background write that failed.
   */
  changed(): void {
    if (this.#failed) throw this.#failed;
    if (this.#closed) throw new Error('the store writer is closed');
    this.#dirty = true;
    this.#schedule();
  }

  /** Write now if anything changed since the last write, and wait until every write has landed. */
  async flush(): Promise<void> {
    this.#clearTimer();
    while (this.#inFlight || this.#dirty) {
      if (this.#failed) break;
      if (this.#inFlight) await this.#inFlight;
      else this.#start();
    }
    if (this.#failed) throw this.#failed;
  }

  /** Flush, then refuse further changes and stop the timer. */
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      this.#closed = true;
      this.#clearTimer();
    }
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #schedule(): void {
    if (!this.#dirty || this.#inFlight || this.#timer || this.#failed || this.#closed) return;
    const wait = this.#notBefore - performance.now();
    if (wait <= 0) {
      this.#start();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#schedule();
    }, wait);
    this.#timer.unref();
  }

  #start(): void {
    this.#dirty = false;
    this.writes++;
    const t0 = performance.now();
    // store.write() serialises the data synchronously: later changes are not in this snapshot.
    this.#inFlight = this.#store.write().then(
      () => {
        const t1 = performance.now();
        this.#notBefore = t1 + Math.max(this.#intervalMs, (t1 - t0) * this.#gapFactor);
        this.#inFlight = null;
        this.#schedule();
      },
      (err: unknown) => {
        this.#failed ??= err;
        this.#inFlight = null;
      },
    );
  }
}
