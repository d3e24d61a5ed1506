/**
 * A count is always "as of" a moment, and only a complete, fresh closing count is published (issue 31),
 * end to end on the public captured game served by the replay server (fixtures/discuz/public), with the
 * moment set through BANSHA_NOW (src/clock.ts) and every command run in-process as a director runs it.
 *
 * - Before the close (day 1, the sheriff election, closes 11-21 21:00; now 11-20 19:03): `tally` is a
 *   running count as of 19:03 with who leads — no 结果, no 当选警长 — in the terminal, BBCode and JSON;
 *   `report` proposes no card into the ledger; `tally --post`, `close --post --yes` and `close --confirm`
 *   refuse with exit 7 before anything is crawled or posted. Who leads at 19:03 is derived here from the
 *   scenario (fixtures/scenarios/public.yaml) by the m107 ballot form (投票对象：X + 投票理由：Y, the
 *   first such ballot of each voter counts; a post without the heads is no ballot) — not by the tally.
 * - The reproduced bug: the store is complete as of a crawl at 20:30 on day 2 (closes 21:00); at 21:05
 *   the process thread (where acceleration requests and their withdrawals are read) answers 503 to every
 *   request during `close --day 2 --post --yes`. It refuses with exit 7 (src/errors.ts), posts nothing,
 *   and the summary, the count files and the refusal name thread 6 as of 20:30 with the 503. Once the
 *   forum answers again, the same command's dry run plans the announcement. `tally --post` from that
 *   store and `watch`'s final count under the same fault refuse the same way.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ExitCode } from '../../src/errors.js';
import { loadGame } from '../../src/game/game-file.js';
import { runWatch } from '../../src/cli/commands/watch.js';
import { startReplayServer, type ReplayServer } from '../../src/replay/server.js';
import { FIXTURES, ids as readIds, scenario as readScenario } from '../helpers/captured.js';
import { bansha } from '../helpers/cli.js';
import { threadAnswers, withFault } from '../helpers/fault.js';
import { gameTextOnReplay } from '../helpers/replay-game.js';

const DIRECTOR = { username: '导演A', password: 'lab123456' };
const ids = readIds('public');
const scenario = readScenario('public');
const GAME_TEXT = fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8');
const PROCESS = ids.threads.process.tid;
const D1VOTE = ids.threads.d1vote.tid;
const D2VOTE = ids.threads.d2vote.tid;
/** Forum time is +08:00 (the game file's Asia/Shanghai). */
const at = (local: string) => `${local.replace(' ', 'T')}:00+08:00`;
const ms = (local: string) => Date.parse(at(local));

let server: ReplayServer;
let dir: string;

/** The public game for the server, in its own folder (its own store and ledger). */
const gameIn = (name: string): Promise<string> => gameTextOnReplay(server, dir, name, GAME_TEXT, DIRECTOR);

const FAST = ['--delay-ms', '0', '--concurrency', '4'];

beforeAll(async () => {
  server = await startReplayServer({ users: { [DIRECTOR.username]: DIRECTOR.password } });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-fresh-'));
}, 60_000);

afterAll(async () => {
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Day 1's votes at `now` as the m107 ballot form reads them (see the module comment): target → voters. */
function votesAt(now: number): Map<string, string[]> {
  const posts = scenario.threads.find((t) => t.key === 'd1vote')!.posts;
  const counted = new Map<string, string>();
  for (const p of posts) {
    if (ms(p.at.slice(0, 16)) > now || counted.has(p.author)) continue;
    const m = /投票对象[：:]\s*(\S+)\s*\n\s*投票理由[：:]\s*\S/.exec(p.body);
    if (m) counted.set(p.author, m[1]);
  }
  const by = new Map<string, string[]>();
  for (const [voter, target] of counted) by.set(target, [...(by.get(target) ?? []), voter]);
  return by;
}

describe('before the close: a running count, never a result', () => {
  const NOW = '2026-11-20 19:03';
  const env = { BANSHA_NOW: at(NOW) };
  let file: string;

  beforeAll(async () => {
    file = await gameIn('open');
    const r = await bansha(['crawl', '--game', file, '--day', '1', ...FAST], env);
    expect(r.code, r.stderr).toBe(0);
  }, 60_000);

  test('the scenario at 19:03: 花卷 leads 包子 3 to 2 (what the checks below expect)', () => {
    const v = votesAt(ms(NOW));
    expect(v.get('花卷')).toHaveLength(3);
    expect(v.get('包子')).toHaveLength(2);
  });

  test('tally: 截至 19:03, who leads, no 结果 and no 当选警长 — terminal, BBCode and JSON', async () => {
    const v = votesAt(ms(NOW));
    const leader = [...v].sort((a, b) => b[1].length - a[1].length)[0][0];
    const term = await bansha(['tally', '--game', file, '--day', '1'], env);
    expect(term.code, term.stderr).toBe(0);
    expect(term.stdout).toContain('截至 11-20 19:03');
    expect(term.stdout).toContain(`领先：${leader}`);
    expect(term.stdout).not.toMatch(/^结果：/m);
    expect(term.stdout).not.toContain('当选警长');
    for (const [target, voters] of v) expect(term.stdout).toMatch(new RegExp(`${target}\\s+${voters.length}\\s`));

    const bb = await bansha(['tally', '--game', file, '--day', '1', '--bbcode'], env);
    expect(bb.stdout.split('\n')[0]).toContain('实时统计');
    expect(bb.stdout.split('\n')[0]).toContain('截至 11-20 19:03');
    expect(bb.stdout).toContain(`[b]领先[/b]：${leader}`);
    expect(bb.stdout).not.toContain('[b]结果[/b]');
    expect(bb.stdout).not.toContain('当选警长');

    const json = JSON.parse((await bansha(['tally', '--game', file, '--day', '1', '--json'], env)).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ running: true, asOf: '2026-11-20T19:03:00+08:00', closes: '2026-11-21T21:00:00+08:00', result: { name: leader } });
  });

  test('report: as of 19:03, and no card proposed into the ledger', async () => {
    const ledger = path.join(path.dirname(file), 'public.cards.json');
    const r = await bansha(['report', '--game', file, '--day', '1'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toContain('截至 11-20 19:03');
    const cards = fs.existsSync(ledger) ? (JSON.parse(fs.readFileSync(ledger, 'utf8')) as { cards: unknown[] }).cards : [];
    expect(cards).toEqual([]);
    const json = JSON.parse((await bansha(['report', '--game', file, '--day', '1', '--json'], env)).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ running: true, asOf: '2026-11-20T19:03:00+08:00', day: 1 });
    const page = path.join(path.dirname(file), 'running-report.html');
    expect((await bansha(['report', '--game', file, '--day', '1', '--html', '--out', page], env)).code).toBe(0);
    expect(fs.readFileSync(page, 'utf8')).toContain('截至 2026-11-20 19:03 的实时统计');
    // After the close the same command proposes the day's cards (the control: the ledger is written then).
    const after = await bansha(['report', '--game', file, '--day', '1'], { BANSHA_NOW: at('2026-11-21 21:30') });
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).not.toContain('实时统计');
  });

  test.each([
    ['tally --post', ['tally', '--day', '1', '--post']],
    ['close --post --yes', ['close', '--day', '1', '--post', '--yes', ...FAST]],
    ['close --confirm', ['close', '--day', '1', '--confirm', ...FAST]],
  ])('%s refuses (exit 7): the day has not closed; nothing crawled, nothing posted', async (_name, args) => {
    const before = server.requests.length;
    const r = await bansha([args[0], '--game', file, ...args.slice(1)], env);
    expect(r.code).toBe(ExitCode.notFinal);
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('第 1 日还没关门');
    expect(r.stderr).toContain('11-21 21:00 关门');
    expect(server.requests.length).toBe(before);
    expect(server.posted).toEqual([]);
    expect(fs.readFileSync(file, 'utf8')).toBe(GAME_TEXT.replace(/^forum: .*$/m, `forum: ${server.url}`));
  });

  test('close (no --post): a running count in every file, no result, no proposals', async () => {
    const out = path.join(dir, 'open-close');
    const r = await bansha(['close', '--game', file, '--day', '1', '--no-crawl', '--out', out], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('第 1 日还没关门');
    expect(r.stdout).toContain('第 1 日（截至 11-20 19:03，还没关门）：领先 花卷');
    expect(r.stdout).not.toContain('第 1 日：警长');
    const bb = fs.readFileSync(path.join(out, 'tally-day1.bbcode.txt'), 'utf8');
    expect(bb).toContain('截至 11-20 19:03');
    expect(bb).not.toContain('当选警长');
    expect(fs.readFileSync(path.join(out, 'tally-day1.txt'), 'utf8')).not.toMatch(/^结果：/m);
  });
});

describe('a failed fetch at closing time: refused, never counted from the old store and posted', () => {
  let file: string;

  beforeAll(async () => {
    file = await gameIn('stale');
    // The whole game crawled at 20:30 on day 2: the store is complete — as of 20:30.
    const r = await bansha(['crawl', '--game', file, ...FAST], { BANSHA_NOW: at('2026-11-22 20:30') });
    expect(r.code, r.stderr).toBe(0);
  }, 60_000);

  test('close --post --yes at 21:05 while the process thread answers 503: exit 7, nothing posted, thread 6 named as of 20:30', async () => {
    const r = await withFault(server, threadAnswers(PROCESS, 503), () =>
      bansha(['close', '--game', file, '--day', '2', '--post', '--yes', ...FAST, '--retries', '1'], { BANSHA_NOW: at('2026-11-22 21:05') }));
    expect(r.code).toBe(7);
    expect(server.posted).toEqual([]);
    // The summary names the stale page and as of when; so does the refusal, with the forum's answer.
    expect(r.stdout).toMatch(new RegExp(`过时.*帖子 ${PROCESS}（进程帖）：只抓到截至 11-22 20:30 的状态`));
    expect(r.stderr).toContain(`帖子 ${PROCESS}（进程帖）：只抓到截至 11-22 20:30 的状态，须在 11-22 21:00 关门之后整帖重抓`);
    expect(r.stderr).toContain('HTTP 503');
    expect(r.stderr).toContain('--post 拒绝');
    // The vote thread was fetched whole after the close: it is not named.
    expect(r.stderr).not.toContain(`帖子 ${D2VOTE}（`);
    // The count files carry the as-of line too.
    const out = path.join(path.dirname(file), 'public-day2');
    expect(fs.readFileSync(path.join(out, 'tally-day2.bbcode.txt'), 'utf8')).toContain(`帖子 ${PROCESS}（进程帖）：只抓到截至 11-22 20:30`);
    const json = JSON.parse(fs.readFileSync(path.join(out, 'tally-day2.json'), 'utf8')) as { stale: Array<{ tid: number; asOf: string }> };
    expect(json.stale).toEqual([expect.objectContaining({ tid: PROCESS, role: 'process', asOf: '2026-11-22T20:30:00+08:00', due: '2026-11-22T21:00:00+08:00' })]);
  }, 120_000);

  test('tally --post from that store refuses the same way (exit 7); tally --json says as of when', async () => {
    const env = { BANSHA_NOW: at('2026-11-22 21:10') };
    const p = await bansha(['tally', '--game', file, '--day', '2', '--post'], env);
    expect(p.code).toBe(7);
    expect(p.stderr).toContain(`帖子 ${PROCESS}（进程帖）：只抓到截至 11-22 20:30 的状态`);
    const j = JSON.parse((await bansha(['tally', '--game', file, '--day', '2', '--json'], env)).stdout) as { stale: Array<{ tid: number }> };
    expect(j.stale.map((s) => s.tid)).toEqual([PROCESS]);
    // report says so too, first
    const rj = JSON.parse((await bansha(['report', '--game', file, '--day', '2', '--json', '--no-ledger'], env)).stdout) as { stale: Array<{ tid: number }> };
    expect(rj.stale.map((s) => s.tid)).toEqual([PROCESS]);
    const rt = await bansha(['report', '--game', file, '--day', '2', '--no-ledger'], env);
    expect(rt.code, rt.stderr).toBe(0);
    expect(rt.stdout.split('\n')[0]).toContain('过时');
    expect(rt.stdout.split('\n')[1]).toContain(`帖子 ${PROCESS}（进程帖）：只抓到截至 11-22 20:30 的状态`);
    // and the HTML page, in its count's section
    const page = path.join(path.dirname(file), 'stale-report.html');
    const rh = await bansha(['report', '--game', file, '--day', '2', '--no-ledger', '--html', '--out', page], env);
    expect(rh.code, rh.stderr).toBe(0);
    expect(fs.readFileSync(page, 'utf8')).toContain(`过时：帖子 ${PROCESS}（进程帖）：只抓到截至 11-22 20:30 的状态`);
    expect(server.posted).toEqual([]);
  });

  test('watch at the close while the process thread answers 503: the final count refuses the same way (exit 7)', async () => {
    const after = ms('2026-11-22 21:01');
    const err: unknown = await withFault(server, threadAnswers(PROCESS, 503), () =>
      runWatch({
        game: loadGame(file), day: 2, clock: { now: () => after, sleep: async () => undefined }, draw: () => undefined,
        crawl: { delayMs: 0, concurrency: 4, retries: 1, backoffMs: 5, maxBackoffMs: 5, now: () => after },
      }).then(() => null, (e: unknown) => e));
    expect((err as { exitCode?: number } | null)?.exitCode).toBe(7);
    expect((err as Error).message).toContain(`帖子 ${PROCESS}（进程帖）：只抓到截至 11-22 20:30 的状态`);
    expect((err as Error).message).toContain('HTTP 503');
  }, 60_000);

  test('once the forum answers, close fetches the process thread whole after the close and plans the post', async () => {
    const r = await bansha(['close', '--game', file, '--day', '2', '--post', ...FAST], { BANSHA_NOW: at('2026-11-22 21:15') });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('过时');
    expect(r.stdout).toContain(`位置：回复帖子 ${D2VOTE}`);
    // The day's count as the scenario's forum has it at the close (close.test.ts: 月饼 7.5, 花卷 4).
    expect(r.stdout).toContain('第 2 日：出局 月饼 —— 月饼 7.5，花卷 4');
    expect(server.posted).toEqual([]); // a dry run
  }, 120_000);

  test('day 1 (closed the day before) was fetched whole after its own close: its count is fresh', async () => {
    const r = await bansha(['tally', '--game', file, '--day', '1', '--json'], { BANSHA_NOW: at('2026-11-22 21:10') });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).not.toHaveProperty('stale');
    expect(D1VOTE).toBe(3);
  });
});
