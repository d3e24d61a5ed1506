import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { migratedV1Path, openStore, readThreadRecords, threadLogPath, threadsDir } from '../../src/store/store-file.js';
import { applyPage, recordPage } from '../../src/store/record.js';
import { appendLine, logLine } from '../../src/store/thread-log.js';
import type { StoreData } from '../../src/store/types.js';
import { UserError } from '../../src/errors.js';
import { editPostText } from '../../src/replay/page-edits.js';
import { capture, capturedPages, ids, pageHtml } from './fixture-pages.js';

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
const vote = ids.threads.d1vote.tid;

async function seeded(file: string) {
  const store = await openStore(file, { forum: ids.base });
  const a = capture(tid, 1);
  await recordPage(store, a.fetched, a.parsed);
  const pid = store.data.threads[String(tid)].pages['1'].pids[1];
  const b = capture(tid, 1, { html: editPostText(pageHtml(tid, 1), pid, '第二版'), at: new Date('2026-11-24T00:00:00Z') });
  await recordPage(store, b.fetched, b.parsed);
  return { store, pid };
}

/** Every page of two real threads, in memory (a version-1 store's content). */
function twoThreads(): StoreData {
  const data: StoreData = { version: 1, forum: ids.base, threads: {}, posts: {}, users: {} };
  for (const t of [tid, vote]) for (let p = 1; p <= capturedPages(t); p++) {
    const c = capture(t, p);
    applyPage(data, c.fetched, c.parsed);
  }
  return data;
}

const mode = (f: string) => fs.statSync(f).mode & 0o777;

describe('store files', () => {
  test('one owner-only log per thread beside a small index; reopened, every version is there', async () => {
    const file = tmp();
    const { store, pid } = await seeded(file);
    await store.close();
    expect(fs.readdirSync(path.dirname(file)).sort()).toEqual(['game.store.json', 'game.store.threads']);
    expect(fs.readdirSync(threadsDir(file))).toEqual([`${tid}.jsonl`]);
    expect(mode(file)).toBe(0o600);
    expect(mode(threadsDir(file))).toBe(0o700);
    expect(mode(threadLogPath(file, tid))).toBe(0o600);
    const index = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(Object.keys(index).sort()).toEqual(['forum', 'users', 'version']);
    const reopened = await openStore(file, { lock: false });
    expect(reopened.data.posts[String(pid)].versions.map((v) => v.post.text)[1]).toBe('第二版');
  });

  test('writes cost what changed: nothing for an unchanged store or page, one line for an edit', async () => {
    const file = tmp();
    const { store, pid } = await seeded(file);
    const log = threadLogPath(file, tid);
    const size = fs.statSync(log).size;
    await store.write();
    expect(store.bytesWritten).toBeGreaterThan(0);
    const before = store.bytesWritten;
    // The same page again (same body): nothing changes, nothing is written.
    const same = capture(tid, 1, { html: editPostText(pageHtml(tid, 1), pid, '第二版'), at: new Date('2026-11-24T00:00:00Z') });
    await recordPage(store, same.fetched, same.parsed);
    expect(store.bytesWritten).toBe(before);
    expect(fs.statSync(log).size).toBe(size);
    // One more edit: one line much smaller than the thread.
    const c = capture(tid, 1, { html: editPostText(pageHtml(tid, 1), pid, '第三版'), at: new Date('2026-11-25T00:00:00Z') });
    await recordPage(store, c.fetched, c.parsed);
    expect(fs.statSync(log).size - size).toBe(store.bytesWritten - before);
    expect(fs.statSync(log).size - size).toBeLessThan(size / 2);
    await store.close();
  });

  test('a command opens only the threads it reads: a damaged other thread does not stop it', async () => {
    const file = tmp();
    const w = await openStore(file, { forum: ids.base });
    Object.assign(w.data, twoThreads());
    await w.write();
    await w.close();
    fs.appendFileSync(threadLogPath(file, vote), 'garbage line\n');
    const part = await openStore(file, { lock: false, threads: [tid] });
    expect(Object.keys(part.data.threads)).toEqual([String(tid)]);
    expect(Object.values(part.data.posts).every((p) => p.tid === tid)).toBe(true);
    await expect(openStore(file, { lock: false, threads: [vote] })).rejects.toMatchObject({ exitCode: 3 });
  });

  test('a line cut short by a crash is ignored by readers and cut off by the next writer', async () => {
    const file = tmp();
    const { store, pid } = await seeded(file);
    await store.close();
    const log = threadLogPath(file, tid);
    const whole = fs.readFileSync(log);
    fs.appendFileSync(log, whole.subarray(0, 200)); // an append that never finished
    const r = await openStore(file, { lock: false });
    expect(r.data.posts[String(pid)].versions).toHaveLength(2);
    const w = await openStore(file);
    expect(fs.readFileSync(log).equals(whole)).toBe(true);
    await w.close();
  });

  test('a damaged log is refused, naming the line and what the backup holds, and nothing is changed', async () => {
    const file = tmp();
    const { store } = await seeded(file);
    await store.close();
    const log = threadLogPath(file, tid);
    const lines = fs.readFileSync(log, 'utf8').split('\n');
    lines[1] = lines[1].replace('第二版', '第二坂');
    fs.writeFileSync(log, lines.join('\n'));
    const damaged = fs.readFileSync(log);
    for (const lock of [false, true]) {
      const err = await openStore(file, { lock }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UserError);
      expect((err as UserError).exitCode).toBe(3);
      expect((err as Error).message).toMatch(/在第 2 行损坏.*校验和不符.*第 1–1 行可读.*没有备份.*bansha store recover/s);
    }
    expect(fs.readFileSync(log).equals(damaged)).toBe(true);
  });

  test('a damaged version-1 store is refused (never the older backup read instead), naming what the backup holds', async () => {
    const file = tmp();
    const data = twoThreads();
    fs.writeFileSync(`${file}.bak`, JSON.stringify(data));
    fs.writeFileSync(file, JSON.stringify(data).slice(0, 5000));
    const err = await openStore(file, { lock: false }).catch((e: unknown) => e);
    expect((err as UserError).exitCode).toBe(3);
    expect((err as Error).message).toMatch(new RegExp(`不是有效的 JSON.*备份 .*含 2 个帖子中的 ${Object.keys(data.posts).length} 帖`, 's'));
  });
});

describe('thread records without their posts (the elevator)', () => {
  test('are the records and uids a reader opens, from logs and from a version-1 file; an unstored thread is absent', async () => {
    const file = tmp();
    const { store } = await seeded(file);
    Object.assign(store.data, { ...twoThreads(), threads: { ...twoThreads().threads, ...store.data.threads } });
    await store.write();
    await store.close();
    const opened = (await openStore(file, { lock: false, threads: [tid, vote] })).data;
    const records = await readThreadRecords(file, [tid, vote, 999]);
    expect(records).toEqual({ forum: opened.forum, users: opened.users, threads: opened.threads });
    const v1 = tmp();
    fs.writeFileSync(v1, JSON.stringify(twoThreads()));
    const old = (await openStore(v1, { lock: false, threads: [vote] })).data;
    expect(await readThreadRecords(v1, [vote])).toEqual({ forum: old.forum, users: old.users, threads: old.threads });
  });

  test('a damaged log is refused as a reader refuses it, though the damage is among the posts', async () => {
    const file = tmp();
    const { store } = await seeded(file);
    await store.close();
    const log = threadLogPath(file, tid);
    fs.writeFileSync(log, fs.readFileSync(log, 'utf8').replace('第二版', '第二坂'));
    const refusal = await openStore(file, { lock: false }).catch((e: unknown) => e);
    const err = await readThreadRecords(file, [tid]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect(err).toMatchObject({ exitCode: 3, message: (refusal as Error).message });
    fs.rmSync(file);
    await expect(readThreadRecords(file, [tid])).rejects.toMatchObject({ exitCode: 3 }); // logs without their index
  });
});

describe('a handle holding some threads (a crawl holds one at a time)', () => {
  test('opens a thread, writes it on release and drops it, keeping only which thread its posts are in', async () => {
    const file = tmp();
    const { store: first, pid } = await seeded(file);
    await first.close();
    const store = await openStore(file, { forum: ids.base, threads: [] });
    try {
      expect(store.holds(tid)).toBe(false);
      expect(store.data.posts).toEqual({});
      await store.learnPosts([tid]);
      expect(store.threadOfPost(pid)).toBe(tid);
      expect(store.data.posts).toEqual({}); // learned, not held
      await store.open([vote]); // not stored yet: held as a new thread
      for (let p = 1; p <= capturedPages(vote); p++) {
        const c = capture(vote, p);
        applyPage(store.data, c.fetched, c.parsed);
      }
      const votePid = store.data.threads[String(vote)].pages['1'].pids[0];
      await store.release([vote]);
      expect(store.holds(vote)).toBe(false);
      expect([store.data.threads, store.data.posts]).toEqual([{}, {}]);
      expect(store.threadOfPost(votePid)).toBe(vote);
      expect([store.threadOfPost(pid), store.threadOfPost(votePid + 0.5), store.threadOfPost(1)]).toEqual([tid, undefined, undefined]); // each thread's own
      // a released thread changed without being opened again would be overwritten by a partial view: refused
      const again = capture(vote, 1, { at: new Date('2026-11-26T00:00:00Z') });
      applyPage(store.data, again.fetched, again.parsed);
      expect(() => store.write()).toThrow(`thread ${vote} is stored but was not opened`);
    } finally {
      await store.close();
    }
    const disk = (await openStore(file, { lock: false })).data;
    expect(Object.keys(disk.threads).map(Number).sort()).toEqual([tid, vote].sort());
    expect(disk.posts[String(pid)].versions).toHaveLength(2);
  });

  test('a post moved to another thread stays with the thread that said so last: the one it left, released again, does not take it back', async () => {
    const file = tmp();
    const whole = await openStore(file, { forum: ids.base });
    for (const t of [tid, vote]) for (let p = 1; p <= capturedPages(t); p++) {
      const c = capture(t, p);
      await recordPage(whole, c.fetched, c.parsed);
    }
    const moved = whole.data.threads[String(tid)].pages['1'].pids[1];
    const stays = whole.data.threads[String(tid)].pages['1'].pids[2];
    const post = structuredClone(whole.data.posts[String(moved)]);
    await whole.close();
    // crafted: the vote thread's log says it holds the talk thread's post (moved between threads)
    await appendLine(threadLogPath(file, vote), logLine({ p: [{ ...post, tid: vote }] }));

    const store = await openStore(file, { forum: ids.base, threads: [] });
    try {
      await store.open([tid]);
      await store.release([tid]); // the talk thread owns both posts
      expect([store.threadOfPost(moved), store.threadOfPost(stays)]).toEqual([tid, tid]);
      await store.open([tid]);
      await store.open([vote]); // read last: the vote thread says it owns the moved post
      expect([store.data.posts[String(moved)].tid, store.data.posts[String(stays)].tid]).toEqual([vote, tid]);
      await store.release([vote]);
      expect(store.data.posts[String(moved)]).toBeUndefined(); // released with the vote thread it is in
      expect(store.threadOfPost(moved)).toBe(vote);
      await store.release([tid]); // the talk thread owns what it held again, which is not the moved post
      expect([store.threadOfPost(moved), store.threadOfPost(stays)]).toEqual([vote, tid]);
      expect(store.bytesWritten).toBe(0);
    } finally {
      await store.close();
    }
    // a reader of every thread sees the same owner (the vote thread's log is read after the talk thread's)
    expect(vote).toBeGreaterThan(tid);
    const reader = await openStore(file, { lock: false });
    expect(reader.data.posts[String(moved)].tid).toBe(vote);
  });

  test('a thread opened again appends only what changed since; a handle on every thread cannot release one', async () => {
    const file = tmp();
    const { store: whole, pid } = await seeded(file);
    await expect(whole.release([tid])).rejects.toThrow('keeps them all');
    await whole.close();
    const store = await openStore(file, { forum: ids.base, threads: [] });
    try {
      await store.open([tid]);
      const same = capture(tid, 1, { html: editPostText(pageHtml(tid, 1), pid, '第二版'), at: new Date('2026-11-27T00:00:00Z') });
      applyPage(store.data, same.fetched, same.parsed);
      await store.release([tid]);
      expect(store.bytesWritten).toBe(0); // the page as last written: nothing new
      await store.open([tid]);
      const edited = capture(tid, 1, { html: editPostText(pageHtml(tid, 1), pid, '第三版'), at: new Date('2026-11-28T00:00:00Z') });
      applyPage(store.data, edited.fetched, edited.parsed);
      await store.release([tid]);
      expect(store.bytesWritten).toBeGreaterThan(0);
      expect(store.bytesWritten).toBeLessThan(fs.statSync(threadLogPath(file, tid)).size / 2); // one line, not the thread again
    } finally {
      await store.close();
    }
  });
});

describe('migration from the one-file store (version 1)', () => {
  test('a reader reads it as it is; the first writer migrates it once, keeping the old file, and the data is the same', async () => {
    const file = tmp();
    const data = twoThreads();
    fs.writeFileSync(file, JSON.stringify(data), { mode: 0o644 });
    fs.writeFileSync(`${file}.bak`, JSON.stringify(data), { mode: 0o644 });
    const r = await openStore(file, { lock: false, threads: [vote] });
    expect(Object.keys(r.data.threads)).toEqual([String(vote)]);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).version).toBe(1); // a reader changes nothing
    const w = await openStore(file);
    expect(w.data).toEqual(data);
    await w.close();
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).version).toBe(2);
    expect([file, migratedV1Path(file), `${file}.bak`].map(mode)).toEqual([0o600, 0o600, 0o600]);
    expect(JSON.parse(fs.readFileSync(migratedV1Path(file), 'utf8'))).toEqual(data);
    expect(fs.readdirSync(threadsDir(file)).sort()).toEqual([`${tid}.jsonl`, `${vote}.jsonl`].sort());
    const again = await openStore(file, { lock: false });
    expect(again.data).toEqual(data);
  });

  test('a migration cut short (logs written, index not yet) is redone from the version-1 file', async () => {
    const file = tmp();
    const data = twoThreads();
    fs.writeFileSync(file, JSON.stringify(data));
    fs.mkdirSync(threadsDir(file));
    fs.writeFileSync(threadLogPath(file, tid), 'half a migration');
    const w = await openStore(file);
    expect(w.data).toEqual(data);
    await w.close();
    expect((await openStore(file, { lock: false })).data).toEqual(data);
  });
});

describe('store lock', () => {
  test('a second writer is refused while the first holds the store; a dead holder\'s lock is taken over', async () => {
    const file = tmp();
    const first = await openStore(file);
    await expect(openStore(file)).rejects.toBeInstanceOf(UserError);
    await first.close();
    fs.writeFileSync(`${file}.lock`, JSON.stringify({ pid: 999999999, started: 0, nonce: 'x' }));
    const second = await openStore(file);
    expect(JSON.parse(fs.readFileSync(`${file}.lock`, 'utf8')).pid).toBe(process.pid);
    await second.close();
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });

  test('writers started at the same moment: exactly one holds the lock, over a stale lock too (20 rounds)', async () => {
    const file = tmp();
    const child = path.join(__dirname, 'lock-child.mjs');
    const children = [0, 1, 2, 3].map(() => fork(child, [`${file}.lock`], { execArgv: ['--import', path.join(__dirname, 'register-ts.mjs')], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] }));
    const next = (c: (typeof children)[number]) => new Promise<string>((resolve) => c.once('message', (m) => resolve(String(m))));
    await Promise.all(children.map(next)); // "ready"
    try {
      for (let round = 0; round < 20; round++) {
        if (round % 2) fs.writeFileSync(`${file}.lock`, JSON.stringify({ pid: 999999999, started: 0, nonce: `r${round}` }));
        const outcomes = children.map(next);
        const at = Date.now() + 50;
        for (const c of children) c.send({ at });
        const results = await Promise.all(outcomes);
        expect(results.filter((r) => r === 'held').length, `round ${round}: ${results.join(', ')}`).toBe(1);
        expect(results.filter((r) => r === 'refused').length).toBe(3);
        const released = children.map(next);
        for (const c of children) c.send('release');
        await Promise.all(released);
        expect(fs.existsSync(`${file}.lock`)).toBe(false);
      }
    } finally {
      for (const c of children) c.kill();
    }
  }, 60_000);
});

describe('crash consistency', () => {
  test('a process killed in the middle of store writes leaves a readable store with every version it had', async () => {
    const file = tmp();
    const { store, pid } = await seeded(file);
    // The child writes to post "1": make sure it exists with our seeded versions as the baseline.
    store.data.posts['1'] = structuredClone(store.data.posts[String(pid)]);
    store.data.posts['1'].pid = 1;
    await store.write();
    await store.close();
    const baseline = (await openStore(file, { lock: false })).data.posts; // as on disk

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
          if (m.versions - baseline['1'].versions.length >= killAfter) setTimeout(() => child.kill('SIGKILL'), Math.random() * 15);
        });
        child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited ${code}: ${stderr}`))));
      });
      const after = await openStore(file);
      // The dead writer's temp files are cleared away; the store itself is whole.
      for (const dir of [path.dirname(file), threadsDir(file)]) expect(fs.readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
      const versions = after.data.posts['1'].versions;
      // Every version seen before is still there, in order, and every confirmed write survived.
      expect(versions.length).toBeGreaterThanOrEqual(confirmed);
      for (const [key, post] of Object.entries(baseline)) {
        expect(after.data.posts[key].versions.slice(0, post.versions.length)).toEqual(post.versions);
      }
      await after.close();
    }
  }, 60_000);
});
