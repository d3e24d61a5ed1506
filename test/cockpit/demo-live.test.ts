/**
 * `bansha demo --live`: the real CLI (bin/bansha.js) replays day 2 of the bundled game into the local
 * forum with the cockpit on it: the ballots arrive over the replay, the day ends with the closing count
 * (fetched whole after the close, 发布 allowed), and Ctrl-C (SIGINT) stops it — the store's lock released,
 * nothing left listening.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { cockpitAddress, startBansha } from '../helpers/child.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-demo-live-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

interface State { open: boolean; tally: { ballots: Array<{ voter: string; floor: number }> } | null; publishRefusal: string | null; stale: unknown[] }

test('demo --live: ballots arrive in order, the closing count ends it, Ctrl-C leaves nothing listening', async () => {
  const b = startBansha(['demo', '--live', '--minutes', '0.4', '--out', tmp]);
  try {
    await expect.poll(() => cockpitAddress(b), { timeout: 60_000, interval: 200 }).toBeTruthy();
    const url = cockpitAddress(b)!;
    expect(b.out()).toContain('关门驾驶舱已启动');
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
    b.child.kill('SIGINT');
    expect(await b.exited).toBe(0);
    expect(b.out()).toContain('关门驾驶舱已停止');
    await expect(fetch(url)).rejects.toThrow();
    const live = path.join(tmp, 'live');
    expect(fs.readdirSync(live).filter((f) => f.endsWith('.lock'))).toEqual([]);
  } finally {
    b.child.kill('SIGKILL');
    if (b.err().trim()) console.log(b.err());
  }
}, 180_000);
