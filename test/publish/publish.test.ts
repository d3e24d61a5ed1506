/**
 * `--post` in real Chromium against the replay server serving the public captured game: the director
 * logs in (form login), the game is crawled, then the elevator floor and the tally announcement are
 * published — a dry run first (exact BBCode, nothing posted), then a reply and an edit of floor 2 with
 * --yes — and read back from the served pages with the real parser.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { crawlGame } from '../../src/crawl/crawler.js';
import { formLogin } from '../../src/demo/form-login.js';
import { parsePage } from '../../src/discuz/index.js';
import type { Page } from '../../src/discuz/types.js';
import { elevatorFloor } from '../../src/elevator/index.js';
import { renderElevatorBBCode } from '../../src/render/elevator-bbcode.js';
import { loadGame } from '../../src/game/game-file.js';
import type { Game } from '../../src/game/types.js';
import { editFloor2Plan, messageOf, publish, replyPlan } from '../../src/publish/index.js';
import { renderTallyBBCode } from '../../src/render/tally-bbcode.js';
import { startReplayServer, type ReplayServer } from '../../src/replay/server.js';
import { openStore } from '../../src/store/index.js';
import type { StoreData } from '../../src/store/types.js';
import { postsFromStore, tallyDay } from '../../src/votes/tally.js';
import { FIXTURES, ids as readIds } from '../helpers/captured.js';
import { bansha } from '../helpers/cli.js';

const chromium = process.env.BANSHA_CHROMIUM ?? '/usr/bin/chromium';
const DIRECTOR = { username: '导演A', password: 'lab123456' };
const ids = readIds('public');
const GAME_TEXT = fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8');
const DAY = 2;
const TALK = ids.threads.d2talk.tid;
const VOTE = ids.threads.d2vote.tid;
const floor2 = (tid: number) => Object.values(ids.posts).find((p) => p.tid === tid && p.floor === 2)!;

let server: ReplayServer;
let dir: string;
let game: Game;
let store: StoreData;

/** The BBCode block of a dry run, exactly as printed. */
function dryRunMessage(stdout: string): string {
  const m = /^----- BBCode（\d+ 行）-----\n([\s\S]*)\n----- BBCode 结束 -----\n$/m.exec(stdout);
  if (!m) throw new Error(`no BBCode block in:\n${stdout}`);
  return m[1];
}

/** A served thread page, read by the real parser with the director's session. */
async function served(tid: number, page: number): Promise<Page> {
  const state = JSON.parse(fs.readFileSync(game.sessionPath, 'utf8')) as { cookies: Array<{ name: string; value: string }> };
  const url = `${server.url}forum.php?mod=viewthread&tid=${tid}&page=${page}`;
  const res = await fetch(url, { headers: { cookie: state.cookies.map((c) => `${c.name}=${c.value}`).join('; ') } });
  return parsePage({ bytes: new Uint8Array(await res.arrayBuffer()), url, fetchedAt: new Date(), status: res.status, contentType: res.headers.get('content-type') ?? undefined });
}

function cookieValues(): string[] {
  return (JSON.parse(fs.readFileSync(game.sessionPath, 'utf8')) as { cookies: Array<{ value: string }> }).cookies.map((c) => c.value);
}

function expectNoSecrets(...texts: string[]) {
  for (const v of cookieValues()) for (const t of texts) expect(t).not.toContain(v);
}

/** The game file for the server, in `folder` (players renamed by `rename`). */
function writeGame(folder: string, rename: Record<string, string> = {}, extra = ''): string {
  fs.mkdirSync(folder, { recursive: true });
  let text = GAME_TEXT.replace(/^forum: .*$/m, `forum: ${server.url}`);
  for (const [from, to] of Object.entries(rename)) text = text.split(from).join(JSON.stringify(to));
  const file = path.join(folder, 'public.yaml');
  fs.writeFileSync(file, text + extra);
  return file;
}

describe.skipIf(!fs.existsSync(chromium))('--post in real Chromium', () => {
  beforeAll(async () => {
    server = await startReplayServer({ users: { [DIRECTOR.username]: DIRECTOR.password } });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-publish-'));
    game = loadGame(writeGame(path.join(dir, 'game')));
    await formLogin(game.forum, game.sessionPath, DIRECTOR);
    const crawl = await crawlGame(game, { delayMs: 0, concurrency: 4, progress: false });
    expect(crawl.incomplete).toBe(false);
    const s = await openStore(game.storePath, { lock: false });
    store = s.data;
    await s.close();
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('dry run: prints exactly the BBCode, where and as whom, and posts nothing', async () => {
    const floor = elevatorFloor(store, game, DAY);
    const mark = server.requests.length;
    const r = await bansha(['elevator', '--game', game.file, '--day', String(DAY), '--post']);
    expect(r.code).toBe(0);
    expect(dryRunMessage(r.stdout)).toBe(messageOf(renderElevatorBBCode(floor)));
    expect(r.stdout).toContain(`位置：回复帖子 ${TALK}`);
    expect(r.stdout).toContain(`身份：导演A（uid ${ids.users['导演A']}）`);
    expect(r.stdout).toMatch(/什么也没有发出/);
    const e = await bansha(['elevator', '--game', game.file, '--day', String(DAY), '--post', 'edit']);
    expect(e.code).toBe(0);
    expect(dryRunMessage(e.stdout)).toBe(messageOf(renderElevatorBBCode(floor)));
    expect(e.stdout).toContain(`位置：编辑帖子 ${TALK}`);
    expect(e.stdout).toContain(`的 2 楼（pid ${floor2(TALK).pid}，`);
    expect(server.requests.slice(mark).filter((q) => q.method !== 'GET')).toEqual([]);
    expect(server.posted).toEqual([]);
    expectNoSecrets(r.stdout, r.stderr, e.stdout, e.stderr);
  });

  test('elevator --post reply --yes: the reply lands on the last page and parses back with the elevator links', async () => {
    const floor = elevatorFloor(store, game, DAY);
    const r = await bansha(['elevator', '--game', game.file, '--day', String(DAY), '--post', 'reply', '--yes']);
    expect(r.stderr.replace(/^(正在打开 |已登录为 |正在回复帖子 ).*\n/gm, '')).toBe(''); // the steps, in Chinese, and nothing else
    expect(r.code).toBe(0);
    expect(server.posted).toHaveLength(1);
    const sent = server.posted[0];
    expect(sent).toMatchObject({ kind: 'reply', tid: TALK, user: '导演A', message: messageOf(renderElevatorBBCode(floor)) });
    expect(r.stdout).toContain(`${server.url}forum.php?mod=redirect&goto=findpost&ptid=${TALK}&pid=${sent.pid}`);
    const first = await served(TALK, 1);
    const last = await served(TALK, first.page.pageCount!);
    const post = last.posts.find((p) => p.pid === sent.pid)!;
    expect(post).toBeDefined();
    expect(post.authorId).toBe(ids.users['导演A']);
    expect(post.links).toEqual(floor.entries.filter((x) => x.url !== null).map((x) => x.url));
    for (const e of floor.entries) expect(post.text).toContain(e.player);
    expectNoSecrets(r.stdout, r.stderr);
  });

  test('elevator --post edit --yes: floor 2 now carries the floor, marked edited', async () => {
    const floor = elevatorFloor(store, game, DAY);
    const target = floor2(TALK);
    expect(target.author).toBe('导演A');
    const r = await bansha(['elevator', '--game', game.file, '--day', String(DAY), '--post', 'edit', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    const sent = server.posted.at(-1)!;
    expect(sent).toMatchObject({ kind: 'edit', tid: TALK, pid: target.pid, message: messageOf(renderElevatorBBCode(floor)) });
    const page1 = await served(TALK, 1);
    const post = page1.posts.find((p) => p.pid === target.pid)!;
    expect(post.floor).toBe(2);
    expect(post.links).toEqual(floor.entries.filter((x) => x.url !== null).map((x) => x.url));
    expect(post.edited?.by).toBe('导演A');
    expect(r.stdout).toContain(`已编辑帖子 ${TALK} 的 2 楼（pid ${target.pid}）`);
    expectNoSecrets(r.stdout, r.stderr);
  });

  test('tally --post: the dry run shows the announcement; --yes replies in the vote thread', async () => {
    const announcement = messageOf(renderTallyBBCode(tallyDay(game, postsFromStore(store), DAY)));
    const dry = await bansha(['tally', '--game', game.file, '--day', String(DAY), '--post']);
    expect(dry.code).toBe(0);
    expect(dryRunMessage(dry.stdout)).toBe(announcement);
    expect(dry.stdout).toContain(`位置：回复帖子 ${VOTE}`);
    const before = server.posted.length;
    const r = await bansha(['tally', '--game', game.file, '--day', String(DAY), '--post', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(server.posted.slice(before)).toEqual([expect.objectContaining({ kind: 'reply', tid: VOTE, message: announcement })]);
    expectNoSecrets(dry.stdout, r.stdout, r.stderr);
  });

  test('a player name carrying [url] BBCode cannot break the posted floor', async () => {
    const evil = '饺子[/url][url=http://evil.example/]点我';
    const folder = path.join(dir, 'evil');
    const file = writeGame(folder, { 饺子: evil }, `store: ${JSON.stringify(game.storePath.replace('/game/', '/evil/'))}\nsession: ${JSON.stringify(game.sessionPath)}\n`);
    const data: StoreData = (await openStore(game.storePath, { lock: false })).data;
    data.users[evil] = data.users['饺子'];
    fs.writeFileSync(path.join(folder, 'public.store.json'), JSON.stringify(data));
    const evilGame = loadGame(file);
    const floor = elevatorFloor(data, evilGame, DAY);
    const r = await bansha(['elevator', '--game', file, '--day', String(DAY), '--post', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    const sent = server.posted.at(-1)!;
    expect(sent.message).toBe(messageOf(renderElevatorBBCode(floor)));
    const first = await served(TALK, 1);
    const post = (await served(TALK, first.page.pageCount!)).posts.find((p) => p.pid === sent.pid)!;
    expect(post.links).toEqual(floor.entries.filter((x) => x.url !== null).map((x) => x.url));
    expect(post.links.some((l) => l.includes('evil.example'))).toBe(false);
    expect(post.text.replace(/[\u200b-\u200d\u2060]/g, '')).toContain(evil);
  });

  test('the browser requests nothing off the forum host: off-host resources on the page are aborted unsent', async () => {
    const first = await served(VOTE, 1);
    server.swapPage(VOTE, first.page.pageCount!, (html) =>
      html.replace('</head>', '<script src="http://tracker.example/t.js"></script><link rel="stylesheet" href="https://cdn.example.net/x.css"></head>'),
    );
    server.swapPage(VOTE, 1, (html) => html.replace('</head>', '<script src="http://tracker.example/t.js"></script></head>'));
    const plan = replyPlan(store, game.forum, VOTE, '[b]测试[/b]\n外站资源不应加载', 'a test reply');
    const res = await publish(plan, { sessionPath: game.sessionPath, gameFile: game.file });
    const host = new URL(server.url).host;
    const offHost = res.requested.filter((u) => new URL(u).host !== host);
    expect(offHost.length).toBeGreaterThan(0);
    expect(res.blocked.sort()).toEqual(offHost.sort());
    expect(server.requests.every((q) => q.host === host)).toBe(true);
  });

  test('edit refuses a floor 2 written by someone else, saying only its author or a moderator can edit it', async () => {
    const other = floor2(VOTE);
    expect(other.author).not.toBe('导演A');
    const plan = editFloor2Plan(store, game.forum, VOTE, '[b]x[/b]', 'a test edit', game.file);
    const before = server.posted.length;
    const err = await publish(plan, { sessionPath: game.sessionPath, gameFile: game.file }).catch((e) => e);
    expect(err).toMatchObject({ exitCode: 2 });
    expect(String(err.message)).toContain(`是 ${other.author}`);
    expect(String(err.message)).toMatch(/只有发帖人（或版主）能编辑/);
    expect(server.posted.length).toBe(before);
    const dry = await bansha(['elevator', '--game', game.file, '--day', '1', '--post', 'edit']);
    expect(dry.code).toBe(0);
  });

  test('--yes refuses a session file other users can read, and prints no cookie', async () => {
    fs.chmodSync(game.sessionPath, 0o644);
    try {
      const r = await bansha(['elevator', '--game', game.file, '--day', String(DAY), '--post', '--yes']);
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/其他用户也能读写它/);
      expectNoSecrets(r.stdout, r.stderr);
    } finally {
      fs.chmodSync(game.sessionPath, 0o600);
    }
  });
});
