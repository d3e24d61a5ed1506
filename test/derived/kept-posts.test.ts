/**
 * Kept posts (src/derived/kept-posts.ts) across reruns after a crawl: the changes a replay made appended
 * to the save, not the whole written again, and read back as the thread read afresh — also when an
 * append was torn by a crash, when two runs appended from the same point, and once the changes weigh
 * half the save (saved whole again). Over the real captured threads of the lab forum, stored on disk.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { keptPosts, type Keep } from '../../src/derived/kept-posts.js';
import type { Game } from '../../src/game/types.js';
import { derivedDir } from '../../src/store/memo.js';
import { openStore } from '../../src/store/index.js';
import type { StoredPost, StoredThread } from '../../src/store/types.js';
import { mayHoldBallot } from '../../src/votes/ballot.js';
import { FIXTURES, storeFromFixture, threadPageFiles } from '../helpers/captured.js';
import { storeOnDisk } from '../helpers/store-on-disk.js';

let root: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-kept-posts-'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const publicGame = (name: string) => storeOnDisk(root, name, path.join(FIXTURES, 'games', 'public.yaml'), storeFromFixture('public', threadPageFiles('public')));

/**
 * A post added to thread `tid` after its last, its text `text`, on the thread's last page or (`newPage`)
 * a page after it, as a recrawl stores it: the post's log line and the thread's record.
 */
async function addPost(game: Game, tid: number, text: string, n: number, newPage = false): Promise<void> {
  const store = await openStore(game.storePath, { threads: [tid] });
  const last = Object.values(store.data.posts).filter((p) => p.tid === tid).sort((a, b) => b.pid - a.pid)[0];
  const v = last.versions[last.versions.length - 1];
  const pid = last.pid + 100_000 + n;
  const floor = (v.post.floor ?? 0) + 1;
  store.data.posts[String(pid)] = { ...last, pid, versions: [{ ...v, hash: `h${pid}`, post: { ...v.post, pid, floor, floorLabel: `${floor}#`, text } }] };
  const thread = store.data.threads[String(tid)];
  const lastPage = Math.max(...Object.keys(thread.pages).map(Number));
  const at = new Date(Date.parse('2026-12-20T00:00:00Z') + n * 1000).toISOString();
  if (newPage) {
    thread.pages[String(lastPage + 1)] = { ...thread.pages[lastPage], page: lastPage + 1, fetchedAt: at, bodyHash: `b${pid}`, pids: [pid] };
    thread.pageCount = lastPage + 1;
  } else {
    const page = thread.pages[lastPage];
    thread.pages[lastPage] = { ...page, fetchedAt: at, bodyHash: `b${pid}`, pids: [...page.pids, pid] };
  }
  thread.lastCrawl = at;
  await store.write();
  await store.close();
}

/** The earliest post of thread `tid` edited to say `text` (a new version: one log line appended). */
async function editPost(game: Game, tid: number, text: string): Promise<number> {
  const store = await openStore(game.storePath, { threads: [tid] });
  const first = Object.values(store.data.posts).filter((p) => p.tid === tid && p.versions.length === 1).sort((a, b) => a.pid - b.pid)[0];
  const v = first.versions[0];
  first.versions.push({ ...v, hash: `edit${first.pid}`, post: { ...v.post, text } });
  await store.write();
  await store.close();
  return first.pid;
}

/** The thread read afresh: the posts `shaped` keeps, its floors and its record. */
async function afresh(game: Game, tid: number): Promise<{ pids: number[]; floors: number[]; thread: StoredThread }> {
  const store = await openStore(game.storePath, { lock: false, threads: [tid] });
  const posts = Object.values(store.data.posts).filter((p: StoredPost) => p.tid === tid);
  const thread = store.data.threads[String(tid)];
  await store.close();
  const kept = posts.filter((p) => !mayHoldBallot(p.versions[p.versions.length - 1].post.text)).map((p) => p.pid).sort((a, b) => a - b);
  return { pids: kept, floors: posts.map((p) => p.versions[p.versions.length - 1].post.floor ?? 0).sort((a, b) => a - b), thread };
}

/** Every post but those whose current text may hold a ballot, kept whole with their versions (a save of a thread's size, unlike ballotShaped's). */
const shaped: Keep = { name: 'test-shaped', key: 'test', keep: (sp) => (mayHoldBallot(sp.versions[sp.versions.length - 1].post.text) ? undefined : sp) };

const read = async (game: Game, tid: number) => {
  const k = await keptPosts(game.storePath, tid, shaped);
  return { pids: k.posts.map((p) => p.pid), complete: k.read.completeness.complete, floors: k.read.completeness, thread: k.thread };
};

describe('kept posts: a rerun appends what changed', () => {
  let game: Game;
  let tid: number;
  let save: string;
  let appended: string;
  beforeAll(async () => {
    game = await publicGame('appended');
    tid = game.days[0].discussion!.tid;
    save = path.join(derivedDir(game.storePath), `kept-test-shaped-${tid}.json`);
    appended = save.replace(/\.json$/, '.appended');
  }, 60_000);

  test('changes appended after the save, each read back as the thread afresh; the save left as it was', async () => {
    await read(game, tid); // the first run saves whole
    const saved = fs.readFileSync(save);
    for (let n = 0; n < 3; n++) {
      await addPost(game, tid, n % 2 ? '没什么' : `投票对象：${game.players[n]}`, n, n === 1);
      const kept = await read(game, tid);
      const fresh = await afresh(game, tid);
      expect(kept.pids).toEqual(fresh.pids);
      expect(kept.thread).toEqual(fresh.thread);
      expect(kept.complete).toBe(true);
    }
    // each change carries the pages it changed, not the thread's every page
    const changes = fs.readFileSync(appended, 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l.replace(/^\S+ /, '')));
    expect(changes.map((c) => Object.keys(c.thread.pages).length)).toEqual([1, 1, 1]);
    expect(Object.keys((await afresh(game, tid)).thread.pages).length).toBeGreaterThan(2);
    // a kept post edited to hold a ballot is no longer kept (and back again)
    const edited = await editPost(game, tid, `投票对象：${game.players[4]}`);
    expect((await read(game, tid)).pids).not.toContain(edited);
    expect((await read(game, tid)).pids).toEqual((await afresh(game, tid)).pids);
    expect(fs.readFileSync(save).equals(saved)).toBe(true);
    expect(fs.readFileSync(appended, 'utf8').trim().split('\n')).toHaveLength(1 + 4); // the save's head, then one line a rerun
    // a rerun with nothing new appends nothing
    const size = fs.statSync(appended).size;
    expect((await read(game, tid)).pids).toEqual((await afresh(game, tid)).pids);
    expect(fs.statSync(appended).size).toBe(size);
  }, 60_000);

  test('a torn append (a crash) is read up to the line before it, and the next change saves whole', async () => {
    fs.appendFileSync(appended, '0badc0de {"from":');
    expect((await read(game, tid)).pids).toEqual((await afresh(game, tid)).pids);
    await addPost(game, tid, `投票对象：${game.players[5]}`, 10);
    const before = fs.readFileSync(save);
    expect((await read(game, tid)).pids).toEqual((await afresh(game, tid)).pids);
    expect(fs.readFileSync(save).equals(before)).toBe(false); // saved whole: a line after the torn one would not be read
    expect((await read(game, tid)).pids).toEqual((await afresh(game, tid)).pids);
  }, 60_000);

  test('a change appended twice (two runs from the same point) reads as the thread; one that does not follow is not applied', async () => {
    await addPost(game, tid, '再说一句', 20);
    await read(game, tid);
    const lines = fs.readFileSync(appended, 'utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    fs.appendFileSync(appended, `${lines.at(-1)}\n`);
    await addPost(game, tid, '还有一句', 21);
    expect((await read(game, tid)).pids).toEqual((await afresh(game, tid)).pids);
    // a well-formed change from a point that is not where the one before ended: neither it nor what follows is read
    const change = JSON.parse(fs.readFileSync(appended, 'utf8').trim().split('\n').at(-1)!.replace(/^\S+ /, ''));
    const stray = { ...change.posts[0], pid: 9_999_999 };
    const json = Buffer.from(JSON.stringify({ ...change, from: { ...change.from, offset: change.from.offset + 1 }, posts: [stray] }));
    fs.appendFileSync(appended, Buffer.concat([Buffer.from(`${zlib.crc32(json).toString(16).padStart(8, '0')} `), json, Buffer.from('\n')]));
    expect((await read(game, tid)).pids).not.toContain(9_999_999);
    expect((await read(game, tid)).pids).toEqual((await afresh(game, tid)).pids);
  }, 60_000);

  test('once the changes weigh half the save, it is saved whole again and they follow that', async () => {
    let rewrites = 0;
    let last = fs.readFileSync(save);
    for (let n = 0; n < 80 && rewrites === 0; n++) {
      await addPost(game, tid, `投票对象：${game.players[n % game.players.length]} 理由：${'长'.repeat(1200)}`, 100 + n);
      expect((await read(game, tid)).pids).toEqual((await afresh(game, tid)).pids);
      const now = fs.readFileSync(save);
      if (!now.equals(last)) rewrites++;
      last = now;
    }
    expect(rewrites).toBe(1);
    expect(fs.statSync(appended).size).toBeLessThanOrEqual(fs.statSync(save).size / 2 + 10_000);
  }, 120_000);
});
