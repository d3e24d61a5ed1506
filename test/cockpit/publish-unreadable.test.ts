/**
 * The cockpit's 发布 refused while posts this account cannot read could change the closing count (issue
 * 31), driven over HTTP as the page drives it (api/state, api/publish, api/rule): the replay server shows
 * two day-2 ballots of the captured public game as Discuz shows a banned author's posts to others (the
 * template's locked notice in place of the message: test/discuz/discuz-markup.ts). 月饼 5.5 against 花卷 4
 * with two unread ballots that could move 2 (rules-spec §4): the state names them, 发布 is refused (exit
 * 3) with the words `tally --post` and `close --post` use, nothing is posted — until the director rules
 * (`bansha rule reject PID`'s call) so that what is still unread cannot change it, and then 发布 posts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCockpit, type RunningCockpit } from '../../src/cockpit/index.js';
import { startReplayServer, type ReplayServer } from '../../src/replay/server.js';
import { ids as readIds } from '../helpers/captured.js';
import { gameOnReplay } from '../helpers/replay-game.js';
import { NOTICE, replaceMessageBox } from '../discuz/discuz-markup.js';

const ids = readIds('public');
const VOTE = ids.threads.d2vote.tid;
const after = Date.parse('2026-11-22T21:05:00+08:00');
const fast = { delayMs: 0, backoffMs: 2, maxBackoffMs: 20, challengeWaitMs: 2, timeoutMs: 3000, retries: 1, concurrency: 3 };

/** The day-2 vote post of `author` (their first ballot). */
const votePid = (author: string) => Object.values(ids.posts).find((x) => x.threadKey === 'd2vote' && x.author === author)!.pid;
const HIDDEN = [votePid('烧卖'), votePid('春卷')];

let server: ReplayServer;
let root: string;
let running: RunningCockpit;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-cockpit-unreadable-'));
  server = await startReplayServer();
  for (let page = 1; page <= server.pageCounts[VOTE]; page++) {
    server.swapPage(VOTE, page, (html) => HIDDEN.reduce((h, pid) => (h.includes(`id="post_${pid}"`) ? replaceMessageBox(h, pid, `<div class="locked">${NOTICE.banned}</div>\n`) : h), html));
  }
  running = await runCockpit({ game: gameOnReplay(server, root), day: 2, clock: { now: () => after }, intervalMs: 60_000, crawl: fast, log: () => undefined });
  await running.cockpit.idle();
}, 60_000);
afterAll(async () => {
  await running?.stop();
  await server?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

/** A request as the page's own script sends it: this server's Origin, JSON. */
async function api(name: string, body?: object): Promise<{ status: number; json: Record<string, unknown> }> {
  const origin = `http://127.0.0.1:${running.server.port}`;
  const r = await fetch(`${running.url}api/${name}`, body === undefined ? {} : { method: 'POST', headers: { Origin: origin, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
}

type State = { open: boolean; publishRefusal: string | null; tally: { totals: Array<{ name: string; votes: number }>; unreadable?: { pids: number[]; couldChange: boolean } } };
const refusal = `--post 不会发布第 2 日的结果：投票帖中本账号看不到文字的帖子（pid ${HIDDEN.join(', ')}）可能改变结果`;

test('the closing count says which posts it could not read; 发布 is refused (exit 3) naming them, and nothing is posted', async () => {
  const state = (await api('state')).json as unknown as State;
  expect(state.open).toBe(false);
  expect(state.tally.totals.filter((x) => x.votes > 0).map((x) => [x.name, x.votes])).toEqual([['月饼', 5.5], ['花卷', 4]]);
  expect(state.tally.unreadable).toEqual({ pids: HIDDEN, couldChange: true });
  // the page says why 发布 is off…
  expect(state.publishRefusal).toContain(refusal);
  expect(state.publishRefusal).toContain('bansha rule reject PID --day 2');
  // …and the server refuses it whatever the page shows
  const refused = await api('publish', {});
  expect(refused.status).toBe(409);
  expect(refused.json).toMatchObject({ exitCode: 3 });
  expect(refused.json.error).toContain(refusal);
  expect(server.posted).toEqual([]);
}, 60_000);

test('the director rules on one: the other alone cannot change the result (月饼 5.5 against at most 5), and 发布 posts', async () => {
  const ruled = await api('rule', { verb: 'reject', pid: HIDDEN[0], why: '被封禁玩家的帖子不计' });
  expect(ruled.status, JSON.stringify(ruled.json)).toBe(200);
  const state = (await api('state')).json as unknown as State;
  expect(state.tally.unreadable).toEqual({ pids: [HIDDEN[1]], couldChange: false });
  expect(state.publishRefusal).toBeNull();
  const posted = await api('publish', {});
  expect(posted.status, JSON.stringify(posted.json)).toBe(200);
  expect(server.posted.map((p) => [p.kind, p.tid])).toEqual([['reply', VOTE]]);
}, 120_000);
