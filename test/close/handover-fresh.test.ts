/**
 * Issue 31: the threads a sheriff's handover is read from decide the count too (src/crawl/freshness.ts
 * decidingWithHandovers), end to end on the public captured game served by the replay server
 * (fixtures/discuz/public), commands run in-process at the moment BANSHA_NOW sets.
 *
 * The game file adds a night exit of day 1's elected sheriff (包子, 11-21 23:00): day 2's count reads the
 * handover from the process thread, day 1's discussion and vote threads and day 2's discussion
 * (succession.ts successionThreads). The whole game is crawled at 20:30 on day 2; then the director posts
 * 警长移交给花卷 in day 1's discussion thread (2) — a thread of a day closed the day before, which the
 * count of day 2 did not hold as deciding before. At 21:05 the close refuses (exit 7) naming thread 2 as
 * read for the handover, until a crawl fetched it whole after 21:00 — `bansha crawl --day 2` does, and
 * `close` does once the forum answers for it — and then day 2's sheriff is 花卷.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadGame } from '../../src/game/game-file.js';
import { countFreshness } from '../../src/crawl/freshness.js';
import { startReplayServer, type ReplayServer } from '../../src/replay/server.js';
import { FIXTURES, ids as readIds } from '../helpers/captured.js';
import { bansha } from '../helpers/cli.js';
import { threadAnswers, withFault } from '../helpers/fault.js';
import { gameTextOnReplay } from '../helpers/replay-game.js';

const DIRECTOR = { username: '导演A', password: 'lab123456' };
const ids = readIds('public');
const D1DISC = ids.threads.d1talk.tid;
const GAME_TEXT = fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8')
  .replace(/^events:\n/m, 'events:\n  - {player: 包子, out: "2026-11-21 23:00", how: night}\n');
const at = (local: string) => `${local.replace(' ', 'T')}:00+08:00`;
const FAST = ['--delay-ms', '0', '--concurrency', '4'];

let server: ReplayServer;
let dir: string;

const gameIn = (name: string): Promise<string> => gameTextOnReplay(server, dir, name, GAME_TEXT, DIRECTOR);

/** A reply by the director through the replay server's fast reply form (what a director's browser sends). */
async function reply(tid: number, message: string): Promise<void> {
  const cookie = server.sessionState(DIRECTOR.username).cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const page = await (await fetch(`${server.url}forum.php?mod=viewthread&tid=${tid}&page=1`, { headers: { cookie } })).text();
  const formhash = /name="formhash" value="([0-9a-f]+)"/.exec(page)![1];
  const res = await fetch(`${server.url}forum.php?mod=post&action=reply&fid=3&tid=${tid}&extra=&replysubmit=yes`, {
    method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ formhash, message }).toString(),
  });
  expect(res.status).toBe(302);
}

beforeAll(async () => {
  server = await startReplayServer({ users: { [DIRECTOR.username]: DIRECTOR.password } });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-handover-'));
}, 60_000);

afterAll(async () => {
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a handover posted in an earlier day\'s thread after its last fetch', () => {
  let file: string;

  beforeAll(async () => {
    file = await gameIn('handover');
    const r = await bansha(['crawl', '--game', file, ...FAST], { BANSHA_NOW: at('2026-11-22 20:30') });
    expect(r.code, r.stderr).toBe(0);
    await reply(D1DISC, '警长移交给花卷');
  }, 60_000);

  test('day 2\'s deciding threads hold day 1\'s discussion, read for the handover, due at day 2\'s close', async () => {
    const list = await countFreshness(loadGame(file), 2);
    const d1 = list.find((f) => f.tid === D1DISC);
    expect(d1).toMatchObject({ handover: true, due: Date.parse(at('2026-11-22 21:00')), fresh: false });
    // day 1's vote thread decides day 2 twice over (the election, the handover): the later due holds
    expect(list.find((f) => f.tid === ids.threads.d1vote.tid)).toMatchObject({ handover: true, due: Date.parse(at('2026-11-22 21:00')) });
    // day 1's own count has no sheriff to weigh: nothing read for a handover
    expect((await countFreshness(loadGame(file), 1)).some((f) => f.handover)).toBe(false);
  });

  test('close --no-crawl --post --yes at 21:05: exit 7, nothing posted, thread 2 named as read for the handover (zh and en)', async () => {
    const r = await bansha(['close', '--game', file, '--day', '2', '--no-crawl', '--post', '--yes'], { BANSHA_NOW: at('2026-11-22 21:05') });
    expect(r.code).toBe(7);
    expect(server.posted.filter((p) => p.kind === 'reply' && p.tid !== D1DISC)).toEqual([]);
    expect(r.stderr).toContain(`帖子 ${D1DISC}（第 1 日讨论帖，从中读取警长移交）：只抓到截至 11-22 20:30 的状态，须在 11-22 21:00 关门之后整帖重抓`);
    const en = await bansha(['close', '--game', file, '--day', '2', '--no-crawl', '--post', '--yes', '--lang', 'en'], { BANSHA_NOW: at('2026-11-22 21:05') });
    expect(en.code).toBe(7);
    expect(en.stderr).toContain(`thread ${D1DISC} (day 1 discussion thread, read for the sheriff's handover): only as of 11-22 20:30`);
    const json = JSON.parse((await bansha(['tally', '--game', file, '--day', '2', '--json'], { BANSHA_NOW: at('2026-11-22 21:05') })).stdout) as { stale: Array<{ tid: number; handover?: boolean }> };
    expect(json.stale).toContainEqual(expect.objectContaining({ tid: D1DISC, role: 'discussion', roleDay: 1, handover: true }));
  }, 60_000);

  test('close at 21:05 while thread 2 answers 503: refused (exit 7) naming it with the 503', async () => {
    const r = await withFault(server, threadAnswers(D1DISC, 503), () =>
      bansha(['close', '--game', file, '--day', '2', '--post', '--yes', ...FAST, '--retries', '1'], { BANSHA_NOW: at('2026-11-22 21:05') }));
    expect(r.code).toBe(7);
    expect(r.stderr).toContain(`帖子 ${D1DISC}（第 1 日讨论帖，从中读取警长移交）：只抓到截至 11-22 20:30 的状态`);
    expect(r.stderr).toContain('HTTP 503');
    // every other deciding thread was fetched whole after the close by that run
    expect(r.stderr).not.toContain(`帖子 ${ids.threads.process.tid}（`);
  }, 120_000);

  test('bansha crawl --day 2 after the close fetches it whole; then the count goes ahead with 花卷 as sheriff', async () => {
    const c = await bansha(['crawl', '--game', file, '--day', '2', ...FAST], { BANSHA_NOW: at('2026-11-22 21:10') });
    expect(c.code, c.stderr).toBe(0);
    expect(c.stdout).toContain(`帖子 ${D1DISC}`);
    const list = await countFreshness(loadGame(file), 2);
    expect(list.filter((f) => !f.fresh)).toEqual([]);
    const r = await bansha(['close', '--game', file, '--day', '2', '--no-crawl', '--post'], { BANSHA_NOW: at('2026-11-22 21:15') });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('过时');
    const tally = JSON.parse((await bansha(['tally', '--game', file, '--day', '2', '--json'], { BANSHA_NOW: at('2026-11-22 21:15') })).stdout) as { sheriff: string | null; stale?: unknown };
    expect(tally.sheriff).toBe('花卷');
    expect(tally).not.toHaveProperty('stale');
  }, 120_000);
});
