/**
 * The browser stays on the forum host, redirect hops included — in real Chromium against the replay
 * server on 127.0.0.1, with two "other hosts" that count every request they get: a server on 127.0.0.2
 * and one reached as `localhost` on another port. The forum redirects first to itself, then off-host
 * (the hop Playwright's route interception never sees), on the login page, the login's probe, the
 * thread page `--post` opens, and a subresource. Whatever happens, the other hosts see no request; a
 * page sent off-host is a refusal (exit 5), a subresource hop is refused and listed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { login } from '../../src/crawl/login.js';
import { formLogin } from '../../src/demo/form-login.js';
import { replyPlan, publish } from '../../src/publish/index.js';
import { startReplayServer, type ReplayServer } from '../../src/replay/server.js';
import type { StoreData } from '../../src/store/types.js';
import { ids as readIds } from '../helpers/captured.js';

const chromium = process.env.BANSHA_CHROMIUM ?? '/usr/bin/chromium';
const DIRECTOR = { username: '导演A', password: 'lab123456' };
const VOTE = readIds('public').threads.d2vote.tid;

let forum: ReplayServer;
let farA: ReplayServer;
let farB: ReplayServer;
let dir: string;
const farUrls = () => [farA.url, farB.url.replace('127.0.0.1', 'localhost')];

beforeAll(async () => {
  forum = await startReplayServer({ users: { [DIRECTOR.username]: DIRECTOR.password } });
  farA = await startReplayServer({ host: '127.0.0.2' });
  farB = await startReplayServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-browser-host-'));
});
afterEach(() => forum.setFault());
afterAll(async () => {
  await Promise.all([forum?.close(), farA?.close(), farB?.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The forum redirects `match` to itself (`/hop…`), and the hop on to `far`. */
function twoHops(match: string | RegExp, far: string, tag: string) {
  forum.setFault(
    { fault: { kind: 'redirect', location: `/forum.php?mod=hop&tag=${tag}` }, path: match },
    { fault: { kind: 'redirect', location: `${far}forum.php?mod=viewthread&tid=1&from=${tag}` }, path: `mod=hop&tag=${tag}` },
  );
}

const noFarRequests = () => expect([...farA.requests, ...farB.requests]).toEqual([]);

describe.skipIf(!fs.existsSync(chromium))('every browser path stays on the forum host', () => {
  test('fault-free: login succeeds and nothing off-host is requested', async () => {
    const res = await login({ forum: forum.url, sessionPath: path.join(dir, 'ok.session.json'), ...DIRECTOR, timeoutMs: 10_000 });
    expect(res.uid).toBeGreaterThan(0);
    noFarRequests();
  });

  for (const [i, far] of [0, 1].map((i) => [i, i] as const)) {
    test(`login: the login page redirects to itself, then off-host (${i === 0 ? '127.0.0.2' : 'localhost:other port'}): refused, exit 5`, async () => {
      twoHops('mod=logging', farUrls()[far], `login${i}`);
      const session = path.join(dir, `login${i}.session.json`);
      const err = await login({ forum: forum.url, sessionPath: session, ...DIRECTOR, timeoutMs: 5000 }).catch((e) => e);
      expect(err).toMatchObject({ name: 'OutOfScopeError', exitCode: 5 });
      expect(err.message).toContain('bansha 只访问本游戏的论坛');
      expect(fs.existsSync(session)).toBe(false);
      noFarRequests();
    });
  }

  test('login: after the form is sent, the forum front page redirects off-host: refused, exit 5, no session saved', async () => {
    twoHops(/^\/forum\.php$/, farA.url, 'probe');
    const session = path.join(dir, 'probe.session.json');
    const err = await login({ forum: forum.url, sessionPath: session, ...DIRECTOR, timeoutMs: 5000 }).catch((e) => e);
    expect(err).toMatchObject({ exitCode: 5 });
    expect(fs.existsSync(session)).toBe(false);
    noFarRequests();
  });

  describe('--post', () => {
    let store: StoreData;
    let sessionPath: string;
    beforeAll(async () => {
      sessionPath = path.join(dir, 'post.session.json');
      await formLogin(forum.url, sessionPath, DIRECTOR);
      store = { version: 1, forum: forum.url, threads: { [VOTE]: { tid: VOTE, title: '投票', pageCount: 1, pages: {}, lastCrawl: null, deletedSince: null } }, posts: {}, users: {} };
    });

    test('the thread page redirects to itself, then off-host: refused, exit 5, nothing posted', async () => {
      twoHops(new RegExp(`mod=viewthread&tid=${VOTE}$`), farA.url, 'post');
      const err = await publish(replyPlan(store, forum.url, VOTE, '测试', 'a test reply'), { sessionPath, timeoutMs: 5000 }).catch((e) => e);
      expect(err).toMatchObject({ exitCode: 5 });
      expect(forum.posted).toEqual([]);
      noFarRequests();
    });

    test('a subresource whose redirect hop leaves the host: the hop is refused and listed, the reply still lands', async () => {
      forum.swapPage(VOTE, 1, (html) => html.replace('</head>', '<script src="forum.php?mod=hop&tag=img"></script></head>'));
      forum.setFault({ fault: { kind: 'redirect', location: `${farA.url}track.js` }, path: 'mod=hop&tag=img' });
      const res = await publish(replyPlan(store, forum.url, VOTE, '[b]测试[/b] 跳转', 'a test reply'), { sessionPath, timeoutMs: 10_000 });
      expect(res.pid).toBeGreaterThan(0);
      expect(res.blocked).toContain(`${farA.url}track.js`);
      expect(res.requested).not.toContain(`${farA.url}track.js`); // a hop: route interception never saw it
      noFarRequests();
    });
  });
});
