/**
 * `bansha demo --live`: the real CLI (bin/bansha.js) replays day 2 of the bundled game into the local
 * forum with the cockpit on it: the ballots arrive over the replay, the day ends with the closing count
 * (fetched whole after the close, 发布 allowed), and Ctrl-C (SIGINT) stops it — the store's lock released,
 * nothing left listening.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-demo-live-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

interface State { open: boolean; tally: { ballots: Array<{ voter: string; floor: number }> } | null; publishRefusal: string | null; stale: unknown[] }

test('demo --live: ballots arrive in order, the closing count ends it, Ctrl-C leaves nothing listening', async () => {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'bansha.js'), 'demo', '--live', '--minutes', '0.4', '--out', tmp], {
    env: { ...process.env, LANG: 'zh_CN.UTF-8', LC_ALL: '' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    await expect.poll(() => /http:\/\/127\.0\.0\.1:\d+\/[\w-]+\//.exec(out)?.[0], { timeout: 60_000, interval: 200 }).toBeTruthy();
    const url = /http:\/\/127\.0\.0\.1:\d+\/[\w-]+\//.exec(out)![0];
    expect(out).toContain('关门驾驶舱已启动');
    const counts: number[] = [];
    let last: State | null = null;
    await expect.poll(async () => {
      const r = await fetch(`${url}api/state`);
      if (r.status !== 200) return false;
      last = (await r.json()) as State;
      const n = last.tally?.ballots.length ?? 0;
      if (counts.at(-1) !== n) counts.push(n);
      return !last.open && last.stale.length === 0 && last.publishRefusal === null;
    }, { timeout: 90_000, interval: 300 }).toBe(true);
    // they arrived over the replay, never all at once, and in floor order
    expect(counts.length).toBeGreaterThan(2);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    const floors = last!.tally!.ballots.map((b) => b.floor);
    expect(floors).toEqual([...floors].sort((a, b) => a - b));
    expect(floors).toHaveLength(16); // 15 ballots and the late one, after the close
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(out).toContain('关门驾驶舱已停止');
    await expect(fetch(url)).rejects.toThrow();
    const live = path.join(tmp, 'live');
    expect(fs.readdirSync(live).filter((f) => f.endsWith('.lock'))).toEqual([]);
  } finally {
    child.kill('SIGKILL');
    if (err.trim()) console.log(err);
  }
}, 180_000);
