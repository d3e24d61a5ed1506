import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { backupPath, openStore } from '../../src/store/store-file.js';
import { recordPage } from '../../src/store/record.js';
import { UserError } from '../../src/cli/errors.js';
import { editPostText } from '../../src/replay/page-edits.js';
import { capture, ids, pageHtml } from './fixture-pages.js';

const dirs: string[] = [];
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-store-'));
  dirs.push(d);
  return path.join(d, 'game.store.json');
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const tid = ids.threads.d1talk.tid;

async function seeded(file: string) {
  const store = await openStore(file, { forum: ids.base });
  const a = capture(tid, 1);
  await recordPage(store, a.fetched, a.parsed);
  const pid = store.data.threads[String(tid)].pages['1'].pids[1];
  const b = capture(tid, 1, { html: editPostText(pageHtml(tid, 1), pid, '第二版'), at: new Date('2026-11-24T00:00:00Z') });
  await recordPage(store, b.fetched, b.parsed);
  return { store, pid };
}

describe('store file', () => {
  test('writes through a temp file and rename, keeps the previous good file as .bak, and reads back', async () => {
    const file = tmp();
    const { store, pid } = await seeded(file);
    await store.close();
    const names = fs.readdirSync(path.dirname(file));
    expect(names.sort()).toEqual(['game.store.json', 'game.store.json.bak']);
    const reopened = await openStore(file);
    expect(reopened.data.posts[String(pid)].versions.map((v) => v.post.text)[1]).toBe('第二版');
    // The backup is the store as it was one write earlier.
    const bak = JSON.parse(fs.readFileSync(backupPath(file), 'utf8'));
    expect(bak.posts[String(pid)].versions).toHaveLength(1);
    await reopened.close();
  });

  test('a torn main file falls back to the backup', async () => {
    const file = tmp();
    const { store } = await seeded(file);
    await store.close();
    const full = fs.readFileSync(file);
    fs.writeFileSync(file, full.subarray(0, Math.floor(full.length / 2)));
    const reopened = await openStore(file);
    expect(reopened.recoveredFromBackup).toBe(true);
    expect(Object.keys(reopened.data.posts).length).toBeGreaterThan(0);
    // The next write does not overwrite the good backup with the torn file.
    await reopened.write();
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).version).toBe(1);
    await reopened.close();
  });

  test('an unreadable store without a usable backup is refused, not silently replaced', async () => {
    const file = tmp();
    fs.writeFileSync(file, '{"version":1,"threads":{');
    await expect(openStore(file)).rejects.toMatchObject({ exitCode: 3 });
    expect(fs.readFileSync(file, 'utf8')).toBe('{"version":1,"threads":{');
  });

  test('a second writer is refused while the first holds the store; a dead holder\'s lock is taken over', async () => {
    const file = tmp();
    const first = await openStore(file);
    await expect(openStore(file)).rejects.toBeInstanceOf(UserError);
    await first.close();
    fs.writeFileSync(`${file}.lock`, '999999999');
    const second = await openStore(file);
    await second.close();
  });

  test('a process killed in the middle of store writes leaves a readable store with every version it had', async () => {
    const file = tmp();
    const { store, pid } = await seeded(file);
    // The child writes to post "1": make sure it exists with our seeded versions as the baseline.
    store.data.posts['1'] = structuredClone(store.data.posts[String(pid)]);
    await store.write();
    const baseline = structuredClone(store.data.posts);
    await store.close();

    for (let round = 0; round < 3; round++) {
      const child = fork(path.join(__dirname, 'store-writer-child.mjs'), [file], {
        execArgv: ['--import', path.join(__dirname, 'register-ts.mjs')],
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      });
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += d));
      let confirmed = 0;
      const killAfter = 2 + round * 3 + Math.floor(Math.random() * 3);
      await new Promise<void>((resolve, reject) => {
        child.on('message', (m: { versions: number }) => {
          confirmed = m.versions;
          // Kill a little after a confirmed write: the next write is then in flight.
          if (m.versions - baselineVersions() >= killAfter) setTimeout(() => child.kill('SIGKILL'), Math.random() * 15);
        });
        child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited ${code}: ${stderr}`))));
      });
      // (Most rounds die with a write in flight: its temp file is left behind for openStore to clear.)
      const after = await openStore(file);
      // The dead writer's temp files are cleared away; the store itself is whole.
      expect(fs.readdirSync(path.dirname(file)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
      const versions = after.data.posts['1'].versions;
      // Every version seen before is still there, in order, and every confirmed write survived.
      expect(versions.length).toBeGreaterThanOrEqual(confirmed);
      for (const [key, post] of Object.entries(baseline)) {
        expect(after.data.posts[key].versions.slice(0, post.versions.length)).toEqual(post.versions);
      }
      await after.close();
    }
    function baselineVersions() {
      return baseline['1'].versions.length;
    }
  });
});

describe('store JSON', () => {
  test('is compact and byte for byte JSON.stringify of the data, whatever the chunking', async () => {
    const { storeJsonChunks } = await import('../../src/store/store-file.js');
    const file = tmp();
    const { store } = await seeded(file);
    // enough posts to span several 1 Mi-character pieces, with non-ASCII text and a skipped undefined member
    const base = Object.values(store.data.posts)[0];
    for (let i = 0; i < 3000; i++) store.data.posts[String(10_000 + i)] = { ...structuredClone(base), pid: 10_000 + i };
    (store.data.users as Record<string, number | undefined>)['无名'] = undefined;
    const chunks = storeJsonChunks(store.data);
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).equals(Buffer.from(JSON.stringify(store.data), 'utf8'))).toBe(true);
    await store.write();
    expect(fs.readFileSync(file, 'utf8')).toBe(JSON.stringify(store.data));
    await store.close();
  });
});
