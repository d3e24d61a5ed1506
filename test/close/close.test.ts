/**
 * `bansha close` on the public captured game served by the replay server: one command crawls, counts,
 * reports and writes the next day's elevator into a folder with a summary; the day's result the game
 * file lacks (月饼 voted out on day 2) is shown, `--confirm` writes it into the game file keeping its
 * comments, and the next day's elevator marks her out; `--post --yes` in real Chromium replies once and
 * a second run edits that post instead of posting again; the tool's own post is never read as a ballot.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formLogin } from '../../src/demo/form-login.js';
import { loadGame } from '../../src/game/game-file.js';
import { startReplayServer, type ReplayServer } from '../../src/replay/server.js';
import { FIXTURES, ids as readIds } from '../helpers/captured.js';
import { bansha } from '../helpers/cli.js';

const chromium = process.env.BANSHA_CHROMIUM ?? '/usr/bin/chromium';
const DIRECTOR = { username: '导演A', password: 'lab123456' };
const ids = readIds('public');
const VOTE = ids.threads.d2vote.tid;
const EVENT = '  - {player: 月饼, out: "2026-11-22 21:00", how: vote}\n';

let server: ReplayServer;
let dir: string;
let gameFile: string;

beforeAll(async () => {
  server = await startReplayServer({ users: { [DIRECTOR.username]: DIRECTOR.password } });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-close-'));
  gameFile = path.join(dir, 'public.yaml');
  const text = fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8');
  expect(text).toContain(EVENT);
  // The director has not recorded day 2's result yet, and the game goes on to a day 3.
  const day3 = '  - {day: 3, discussion: 4, opens: "2026-11-23 10:00", closes: "2026-11-23 21:00"}  # 第三日\n';
  fs.writeFileSync(gameFile, text.replace(/^forum: .*$/m, `forum: ${server.url}`).replace(EVENT, '').replace(/(  - \{day: 2,[^\n]*\n)/, `$1${day3}`));
  await formLogin(loadGame(gameFile).forum, loadGame(gameFile).sessionPath, DIRECTOR);
}, 60_000);

afterAll(async () => {
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('bansha close', () => {
  test('one command: crawl, count, report, next day\'s elevator and a summary; the unrecorded result is shown', async () => {
    const r = await bansha(['close', '--game', gameFile, '--day', '2']);
    expect(r.code, r.stderr).toBe(0);
    const out = path.join(dir, 'public-day2');
    for (const f of ['tally-day2.txt', 'tally-day2.bbcode.txt', 'tally-day2.json', 'report-day2.txt', 'report-day2.bbcode.txt', 'report-day2.json', 'report-day2.html', 'elevator-day3.bbcode.txt', 'summary.txt']) {
      expect(fs.existsSync(path.join(out, f)), f).toBe(true);
    }
    expect(r.stdout).toMatch(/抓取：第 2 日 \d+ 个帖子/);
    expect(r.stdout).toContain('第 2 日：出局 月饼 —— 月饼 7.5，花卷 4');
    expect(r.stdout).toContain('结果：月饼 投票出局，时间 11-22 21:00 —— 游戏文件中没有（加 --confirm 运行）');
    expect(r.stdout).toContain('不一致：第 2 日结果：月饼 投票出局（11-22 21:00），但游戏文件 events 中没有记录');
    // The next day starts from the closed day's result even before it is confirmed.
    expect(fs.readFileSync(path.join(out, 'elevator-day3.bbcode.txt'), 'utf8')).toMatch(/\[s\]月饼\[\/s\]/);
    // The announcement to paste carries the public sentences only.
    const bb = fs.readFileSync(path.join(out, 'tally-day2.bbcode.txt'), 'utf8');
    expect(bb).not.toMatch(/导演可|请导演|导演备注|062 l\./);
    expect(bb.trimEnd().split('\n').at(-1)).toBe('bansha 计票 · 第2日放逐投票');
  }, 60_000);

  test('--confirm writes the result into the game file, keeping its comments; then the file and the count agree', async () => {
    const before = fs.readFileSync(gameFile, 'utf8');
    const r = await bansha(['close', '--game', gameFile, '--day', '2', '--confirm', '--no-crawl']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('已写入游戏文件');
    const after = fs.readFileSync(gameFile, 'utf8');
    expect(after.startsWith(before.trimEnd())).toBe(true); // nothing of the director's file changed, comments included
    expect(after.slice(before.trimEnd().length)).toBe(`\n${EVENT}`);
    expect(loadGame(gameFile).events.map((e) => e.player)).toEqual(['馒头', '月饼']);
    const again = await bansha(['close', '--game', gameFile, '--day', '2', '--confirm', '--no-crawl']);
    expect(again.stdout).toContain('结果：月饼 投票出局，时间 11-22 21:00 —— 游戏文件中已有');
    expect(again.stdout).not.toContain('不一致');
    expect(fs.readFileSync(gameFile, 'utf8')).toBe(after); // idempotent
  }, 60_000);

  describe.skipIf(!fs.existsSync(chromium))('--post in real Chromium', () => {
    test('the first run replies, the second finds its own post and edits it; it is never read as a ballot', async () => {
      const dry = await bansha(['close', '--game', gameFile, '--day', '2', '--post']);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toContain(`位置：回复帖子 ${VOTE}`);
      expect(server.posted).toEqual([]);

      const first = await bansha(['close', '--game', gameFile, '--day', '2', '--post', '--yes']);
      expect(first.code, first.stderr).toBe(0);
      expect(server.posted).toEqual([expect.objectContaining({ kind: 'reply', tid: VOTE, user: '导演A' })]);
      const pid = server.posted[0].pid;

      const second = await bansha(['close', '--game', gameFile, '--day', '2', '--post', '--yes']);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toContain(`将编辑工具之前发的帖子（pid ${pid}）`);
      expect(second.stdout).toMatch(new RegExp(`已发布：已编辑帖子 ${VOTE} 的 \\d+ 楼（pid ${pid}）`));
      expect(server.posted).toHaveLength(2);
      expect(server.posted[1]).toMatchObject({ kind: 'edit', tid: VOTE, pid });

      // The crawl saw the tool's post (it found it), and the count does not read it.
      const t = JSON.parse((await bansha(['tally', '--game', gameFile, '--day', '2', '--json'])).stdout);
      expect(t.ballots.some((b: { pid: number }) => b.pid === pid)).toBe(false);
      expect(t.totals).toEqual([{ name: '月饼', votes: 7.5 }, { name: '花卷', votes: 4 }]);
    }, 180_000);
  });
});
