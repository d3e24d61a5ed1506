/**
 * The store's batched writer (src/store/write-batcher.ts): changes are written in the background at
 * most every interval, one write at a time, each write a whole snapshot; flush() persists the rest;
 * a failed write is reported, never swallowed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { openStore, type Store } from '../../src/store/store-file.js';
import { applyPage } from '../../src/store/record.js';
import { WriteBatcher } from '../../src/store/write-batcher.js';
import { capture, capturedPages, ids } from './fixture-pages.js';
import { countedStore } from '../helpers/counted-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
async function fresh(): Promise<Store> {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-batch-'));
  dirs.push(d);
  return openStore(path.join(d, 'game.store.json'), { forum: ids.base });
}
/** The store as a fresh reader sees it on disk. */
const onDisk = async (store: Store) => (await openStore(store.path, { lock: false })).data;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tid = ids.threads.d1talk.tid;
const pages = Array.from({ length: capturedPages(tid) }, (_, i) => capture(tid, i + 1));

describe('WriteBatcher', () => {
  test('many changes inside the interval make no write; flush writes them all at once', async () => {
    const store = countedStore(await fresh());
    const batch = new WriteBatcher(store, { intervalMs: 60_000 });
    for (const p of pages) {
      applyPage(store.data, p.fetched, p.parsed);
      batch.changed();
    }
    expect(store.writes).toBe(0);
    expect(fs.existsSync(store.path)).toBe(false);
    await batch.flush();
    expect(store.writes).toBe(1);
    expect((await onDisk(store)).posts).toEqual(store.data.posts);
    await batch.flush(); // nothing changed since: no write
    expect(store.writes).toBe(1);
    await batch.close();
    await store.close();
  });

  test('a change after the interval is written in the background without flush', async () => {
    const store = countedStore(await fresh());
    const batch = new WriteBatcher(store, { intervalMs: 20 });
    applyPage(store.data, pages[0].fetched, pages[0].parsed);
    batch.changed();
    for (let i = 0; i < 50 && store.writes === 0; i++) await sleep(10);
    expect(store.writes).toBe(1);
    for (let i = 0; i < 50 && !(await onDisk(store)).threads[String(tid)]; i++) await sleep(10);
    expect(Object.keys((await onDisk(store)).threads[String(tid)].pages)).toEqual(['1']);
    await batch.close();
    expect(() => batch.changed()).toThrow(/closed/);
    await store.close();
  });

  test('with no interval, changes during a write are coalesced into the next write (one at a time)', async () => {
    const store = countedStore(await fresh());
    const batch = new WriteBatcher(store, { intervalMs: 0, maxWriteShare: 1 });
    for (const p of pages) {
      applyPage(store.data, p.fetched, p.parsed);
      batch.changed(); // the first starts a write at once; the rest arrive while it is in flight
    }
    await batch.flush();
    expect(store.writes).toBe(2);
    expect(Object.keys((await onDisk(store)).threads[String(tid)].pages).length).toBe(pages.length);
    await batch.close();
    await store.close();
  });

  test('a failed background write is thrown by the next change and by flush', async () => {
    const store = countedStore(await fresh(), 1);
    const batch = new WriteBatcher(store, { intervalMs: 0 });
    applyPage(store.data, pages[0].fetched, pages[0].parsed);
    batch.changed();
    await expect(batch.flush()).rejects.toThrow('disk full');
    expect(() => batch.changed()).toThrow('disk full');
    await expect(batch.close()).rejects.toThrow('disk full');
    await store.close();
  });
});
