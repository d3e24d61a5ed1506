/**
 * One terminal filter for everything printed: a forum that puts ESC/BEL and bidi overrides into a thread
 * title and into the message of a refusal page, and the real CLI run against it (crawl summary, the
 * error reporter, --verbose notes, the --post dry run). Nothing raw reaches the terminal; the text
 * around it does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReplayServer, type ReplayServer } from '../../src/replay/server.js';
import { FIXTURES, ids as readIds } from '../helpers/captured.js';
import { bansha } from '../helpers/cli.js';

const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
const ESC = '\u001b]0;pwned\u0007\u001b[2J\u001b[31m\u202e';
const ids = readIds('public');
const D2VOTE = ids.threads.d2vote.tid;
const PUBLIC = path.join(FIXTURES, 'discuz', 'public');

let server: ReplayServer;
let dir: string;
let game: string;

beforeAll(async () => {
  server = await startReplayServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-terminal-filter-'));
  game = path.join(dir, 'public.yaml');
  fs.writeFileSync(game, fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8').replace(/^forum: .*$/m, `forum: ${server.url}`));
  fs.writeFileSync(path.join(dir, 'public.session.json'), JSON.stringify(server.sessionState()), { mode: 0o600 });
  for (const page of [1, 2]) server.swapPage(D2VOTE, page, hostileTitle);
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The thread's title (every page shows it) with escape sequences and a bidi override in it. */
const hostileTitle = (html: string) => html.split('[M901]第二日投票帖').join(`危${ESC}第二日投票帖`);
const crawlArgs = ['--delay-ms', '0', '--concurrency', '4', '--no-progress'];

describe('nothing raw reaches the terminal', () => {
  test('the crawl summary: a hostile thread title is printed filtered', async () => {
    const r = await bansha(['crawl', '--game', game, ...crawlArgs]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`帖子 ${D2VOTE} 危第二日投票帖: 页 2/2`);
    expect(r.out).not.toMatch(UNSAFE);
  });

  test('the --post dry run: title and identity filtered, the BBCode exactly what would be posted', async () => {
    const r = await bansha(['tally', '--game', game, '--day', '2', '--post']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('演练：什么也没有发出');
    expect(r.stdout).toContain('「危第二日投票帖」');
    expect(r.out).not.toMatch(UNSAFE);
  });

  test('an error quoting the forum\'s page message, and --verbose notes: filtered', async () => {
    const denied = fs.readFileSync(path.join(PUBLIC, 'guest-denied-t1.html'), 'utf8').replace('抱歉，您尚未登录', `${ESC}抱歉，您尚未登录`);
    server.swapPage(D2VOTE, 2, denied);
    server.setFault({ fault: { kind: 'status', status: 503 }, path: `tid=${D2VOTE}&page=1`, times: 1 });
    try {
      const r = await bansha(['crawl', '--game', game, '--full', '--verbose', ...crawlArgs, '--retries', '1']);
      expect(r.code).toBe(4);
      expect(r.stderr).toContain('抱歉，您尚未登录');
      expect(r.stderr).toMatch(/第 1\/1 次重试/);
      expect(r.out).not.toMatch(UNSAFE);
    } finally {
      server.setFault();
      server.swapPage(D2VOTE, 2, hostileTitle(fs.readFileSync(path.join(PUBLIC, `viewthread-t${D2VOTE}-p2.html`), 'utf8')));
    }
  });
});
