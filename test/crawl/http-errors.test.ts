/**
 * HTTP errors named as such, with the advice that fits the cause (issue 31), on the public captured game
 * served by the replay server and crawled by `bansha crawl` as a director runs it:
 * - a 404 from the web server (a `forum:` pointing at the wrong folder) is "HTTP 404", never "正文被截断"
 *   (the body is not a cut Discuz page), asked once (a 404 is not retried), and the advice is to check
 *   `forum:` in the game file — not to run the same crawl again;
 * - a thread id the forum does not have (Discuz's own 主题不存在 page) and a refused connection (a wrong
 *   port) get the same advice;
 * - only transient faults (a 503 on every try) advise running again; their retries stay as they are
 *   (the first try and `--retries` more).
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formLogin } from '../../src/demo/form-login.js';
import { loadGame } from '../../src/game/game-file.js';
import { startReplayServer, type ReplayServer } from '../../src/replay/server.js';
import { FIXTURES, ids as readIds } from '../helpers/captured.js';
import { bansha } from '../helpers/cli.js';
import { threadAnswers, withFault } from '../helpers/fault.js';

const DIRECTOR = { username: '导演A', password: 'lab123456' };
const ids = readIds('public');
const GAME_TEXT = fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8');
const D2VOTE = ids.threads.d2vote.tid;
const FAST = ['--delay-ms', '0', '--concurrency', '2', '--retries', '2'];
const RERUN = '再运行同样的抓取即可续抓';
const CHECK_FORUM = '检查游戏文件里的 forum:';

let server: ReplayServer;
let dir: string;

/** The public game with `forum` and the text edited by `edit`, logged in at the replay server. */
async function game(name: string, forum: string, edit: (text: string) => string = (s) => s): Promise<string> {
  const folder = path.join(dir, name);
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, 'public.yaml');
  fs.writeFileSync(file, edit(GAME_TEXT.replace(/^forum: .*$/m, `forum: ${forum}`)));
  // The session is the replay server's (a wrong address has no login form to log in at).
  await formLogin(server.url, loadGame(file).sessionPath, DIRECTOR);
  return file;
}

beforeAll(async () => {
  server = await startReplayServer({ users: { [DIRECTOR.username]: DIRECTOR.password } });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-http-errors-'));
}, 60_000);

afterAll(async () => {
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a wrong address: HTTP errors named, advice to check the game file', () => {
  test('a 404 from the web server (forum: the wrong folder): "HTTP 404", not truncation; asked once; check forum:', async () => {
    const file = await game('wrong-folder', `${server.url}bbs/`);
    const before = server.requests.length;
    const r = await bansha(['crawl', '--game', file, '--day', '2', ...FAST]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('HTTP 404');
    expect(r.stderr).toContain(CHECK_FORUM);
    expect(r.out).not.toContain('正文被截断');
    expect(r.out).not.toContain('</html>');
    expect(r.stderr).not.toContain(RERUN);
    const asked = server.requests.slice(before).filter((q) => q.path.includes(`tid=${D2VOTE}&page=1`));
    expect(asked).toHaveLength(1);
  });

  test('a thread id the forum does not have: named, check the thread ids in the game file', async () => {
    const file = await game('wrong-tid', server.url, (s) => s.replace(`vote: ${D2VOTE},`, 'vote: 999,'));
    const r = await bansha(['crawl', '--game', file, '--day', '2', ...FAST]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('帖子 999 第 1 页');
    expect(r.stderr).toContain('vote:');
    expect(r.stderr).not.toContain(RERUN);
  });

  test('a refused connection (forum: a port nothing listens on): named, check forum:', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(port));
      });
    });
    const file = await game('wrong-port', `http://127.0.0.1:${closed}/`);
    const r = await bansha(['crawl', '--game', file, '--day', '2', ...FAST]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('连接被拒绝');
    expect(r.stderr).toContain(CHECK_FORUM);
    expect(r.stderr).not.toContain(RERUN);
  });
});

describe('a transient fault: rerun advised, retries as before', () => {
  test('a 503 on every try of one page: "HTTP 503", asked 1 + --retries times, run the same crawl again', async () => {
    const file = await game('busy', server.url);
    const before = server.requests.length;
    const r = await withFault(server, threadAnswers(D2VOTE, 503, 2), () => bansha(['crawl', '--game', file, '--day', '2', ...FAST]));
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('HTTP 503');
    expect(r.stderr).toContain(RERUN);
    expect(r.stderr).not.toContain(CHECK_FORUM);
    expect(server.requests.slice(before).filter((q) => q.path.includes(`tid=${D2VOTE}&page=2`))).toHaveLength(3);
  }, 60_000);
});
