/**
 * `bansha watch --serve` as a director runs it (bin/bansha.js in a child process) against the replay
 * server: it prints the address with its token, the page's count after the close is the closing count
 * `bansha tally` gives, Ctrl-C (SIGINT) stops it with exit 0, the store's lock released and nothing left
 * listening; --open or --port without --serve is a usage error.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadGame } from '../../src/game/game-file.js';
import { startReplayServer, type ReplayServer } from '../../src/replay/server.js';
import { FIXTURES } from '../helpers/captured.js';
import { bansha } from '../helpers/cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
let server: ReplayServer;
let dir: string;
let gameFile: string;
const AFTER_CLOSE = String(Date.parse('2026-11-22T21:05:00+08:00'));

beforeAll(async () => {
  server = await startReplayServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-watch-serve-'));
  gameFile = path.join(dir, 'public.yaml');
  fs.writeFileSync(gameFile, fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8').replace(/^forum: .*$/m, `forum: ${server.url}`));
  fs.writeFileSync(loadGame(gameFile).sessionPath, JSON.stringify(server.sessionState()), { mode: 0o600 });
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('--open and --port go with --serve', async () => {
  for (const opt of [['--open'], ['--port', '8123']]) {
    const r = await bansha(['watch', '--game', gameFile, '--day', '2', ...opt]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${opt[0]} 须与 --serve 一起使用`);
  }
  expect((await bansha(['watch', '--game', gameFile, '--day', '2', '--serve', '--port', '0'])).code).toBe(2);
});

test('watch --serve: the address with its token, the closing count as tally gives it, Ctrl-C leaves nothing', async () => {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'bansha.js'), 'watch', '--game', gameFile, '--day', '2', '--serve', '--delay-ms', '0'], {
    env: { ...process.env, LANG: 'zh_CN.UTF-8', LC_ALL: '', BANSHA_NOW: AFTER_CLOSE }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    await expect.poll(() => /http:\/\/127\.0\.0\.1:\d+\/[\w-]{32}\//.exec(out)?.[0], { timeout: 60_000, interval: 200 }).toBeTruthy();
    const url = /http:\/\/127\.0\.0\.1:\d+\/[\w-]{32}\//.exec(out)![0];
    let state: { open: boolean; stale: unknown[]; tally: unknown; publishRefusal: string | null } | null = null;
    await expect.poll(async () => {
      const r = await fetch(`${url}api/state`);
      state = r.status === 200 ? await r.json() : null;
      return state !== null && !state.open && state.tally !== null;
    }, { timeout: 60_000, interval: 300 }).toBe(true);
    expect(state!.stale).toEqual([]);
    const tally = await bansha(['tally', '--game', gameFile, '--day', '2', '--json'], { BANSHA_NOW: AFTER_CLOSE });
    expect(tally.code).toBe(0);
    expect(state!.tally).toEqual(JSON.parse(tally.stdout));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(out).toContain('关门驾驶舱已停止');
    await expect(fetch(url)).rejects.toThrow();
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.lock'))).toEqual([]);
  } finally {
    child.kill('SIGKILL');
    if (err.trim()) console.log(err);
  }
}, 120_000);
