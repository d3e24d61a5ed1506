/**
 * End to end in real Chromium: `login` against the replay server's login form (headless, env-style
 * credentials), crawl, then an incremental recrawl after the server swaps in a newer page with an
 * edited post — both versions stored, and the recrawl asked only for the last known pages.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { login } from '../../src/crawl/login.js';
import { crawlThreads } from '../../src/crawl/crawler.js';
import { readSession } from '../../src/crawl/session.js';
import { openStore } from '../../src/store/store-file.js';
import { startReplayServer, type ReplayServer } from '../../src/replay/server.js';
import { editPostText } from '../../src/replay/page-edits.js';
import { ids as readIds } from '../helpers/captured.js';

const chromium = process.env.BANSHA_CHROMIUM ?? '/usr/bin/chromium';
const ids = readIds('public');
const users = { 导演A: 'lab123456' };

describe.skipIf(!fs.existsSync(chromium))('login and crawl in real Chromium', () => {
  let srv: ReplayServer;
  let dir: string;
  beforeAll(async () => {
    srv = await startReplayServer({ users });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-e2e-'));
  });
  afterAll(async () => {
    await srv.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a wrong password is refused without echoing it', async () => {
    const err = await login({ forum: srv.url, sessionPath: path.join(dir, 'bad.json'), username: '导演A', password: 'not-the-pw-4711', timeoutMs: 2500 }).catch((e) => e);
    expect(err).toMatchObject({ exitCode: 4 });
    expect(String(err.message)).not.toContain('not-the-pw-4711');
    expect(fs.existsSync(path.join(dir, 'bad.json'))).toBe(false);
  });

  test('login, crawl, then an incremental recrawl keeps both versions of an edited post', async () => {
    const sessionPath = path.join(dir, 'game.session.json');
    const logs: string[] = [];
    const start = srv.requests.length;
    const res = await login({ forum: srv.url, sessionPath, username: '导演A', password: users['导演A'], log: (l) => logs.push(l) });
    expect(res.uid).toBeGreaterThan(0);
    expect(fs.statSync(sessionPath).mode & 0o777).toBe(0o600);
    const loginPosts = srv.requests.slice(start).filter((r) => r.method === 'POST' && r.path.startsWith('/member.php'));
    expect(loginPosts.length).toBe(1);
    // Nothing secret in what login printed.
    const session = await readSession(sessionPath);
    for (const c of session.cookies) expect(logs.join('\n')).not.toContain(c.value);
    expect(logs.join('\n')).not.toContain(users['导演A']);

    const tid = ids.threads.d1talk.tid;
    const pages = srv.pageCounts[tid];
    const store = await openStore(path.join(dir, 'game.store.json'));
    try {
      const first = await crawlThreads(store, srv.url, [tid], { session, delayMs: 0 });
      expect(first.threads[0].completeness.complete).toBe(true);
      expect(first.threads[0].fetchedPages).toEqual(Array.from({ length: pages }, (_, i) => i + 1));

      // The server now shows a newer last page: one post edited.
      const lastPids = store.data.threads[String(tid)].pages[String(pages)].pids;
      const edited = lastPids[0];
      const before = store.data.posts[String(edited)].versions.length;
      srv.swapPage(tid, pages, (html) => editPostText(html, edited, '改票：我投 饺子'));
      const mark = srv.requests.length;
      const again = await crawlThreads(store, srv.url, [tid], { session, delayMs: 0 });
      const asked = srv.requests.slice(mark).map((r) => r.path);
      expect(asked).toEqual([`/forum.php?mod=viewthread&tid=${tid}&page=${pages}&ordertype=2`]);
      expect(again.threads[0].changedPosts).toBe(1);
      const versions = store.data.posts[String(edited)].versions;
      expect(versions.length).toBe(before + 1);
      expect(versions[versions.length - 1].post.text).toBe('改票：我投 饺子');
      expect(versions[0].post.text).not.toBe('改票：我投 饺子');
    } finally {
      await store.close();
    }
  });
});
