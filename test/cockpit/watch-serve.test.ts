/**
 * `bansha watch --serve` as a director runs it (bin/bansha.js in a child process) against the replay
 * server: it prints the address with its token, the page's count after the close is the closing count
 * `bansha tally` gives, Ctrl-C (SIGINT) stops it with exit 0, the store's lock released and nothing left
 * listening; --open or --port without --serve is a usage error.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startReplayServer, type ReplayServer } from '../../src/replay/server.js';
import { bansha } from '../helpers/cli.js';
import { cockpitAddress, startBansha } from '../helpers/child.js';
import { gameOnReplay } from '../helpers/replay-game.js';

let server: ReplayServer;
let dir: string;
let gameFile: string;
const AFTER_CLOSE = String(Date.parse('2026-11-22T21:05:00+08:00'));

beforeAll(async () => {
  server = await startReplayServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-watch-serve-'));
  const game = gameOnReplay(server, dir);
  gameFile = game.file;
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
  const b = startBansha(['watch', '--game', gameFile, '--day', '2', '--serve', '--delay-ms', '0'], { env: { BANSHA_NOW: AFTER_CLOSE } });
  try {
    await expect.poll(() => cockpitAddress(b), { timeout: 60_000, interval: 200 }).toBeTruthy();
    const url = cockpitAddress(b)!;
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
    b.child.kill('SIGINT');
    expect(await b.exited).toBe(0);
    expect(b.out()).toContain('关门驾驶舱已停止');
    await expect(fetch(url)).rejects.toThrow();
    expect(fs.readdirSync(path.dirname(gameFile)).filter((f) => f.endsWith('.lock'))).toEqual([]);
  } finally {
    b.child.kill('SIGKILL');
    if (b.err().trim()) console.log(b.err());
  }
}, 120_000);
