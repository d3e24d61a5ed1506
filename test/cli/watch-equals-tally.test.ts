/**
 * `watch` counts what `tally` counts. On a fresh store with no fault its final count is tally's (day 2's
 * sheriff comes from day 1's election thread, which watch must crawl too); and under each fault of the
 * crawl fault matrix it ends with that same count or with a refusal carrying a documented exit code —
 * never another count. After a refused watch, tally on the store it left refuses too, or gives the
 * fault-free count: no fault can make the two disagree.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runWatch, type WatchClock } from '../../src/cli/commands/watch.js';
import type { Game } from '../../src/game/types.js';
import { renderTallyJson } from '../../src/render/tally-json.js';
import { startReplayServer, type FaultRule, type ReplayServer } from '../../src/replay/server.js';
import { FIXTURES, ids as readIds } from '../helpers/captured.js';
import { bansha } from '../helpers/cli.js';
import { gameOnReplay } from '../helpers/replay-game.js';

const ids = readIds('public');
const D1VOTE = ids.threads.d1vote.tid;
const D2VOTE = ids.threads.d2vote.tid;
const fast = { delayMs: 0, backoffMs: 2, maxBackoffMs: 20, challengeWaitMs: 2, timeoutMs: 1500, retries: 2, concurrency: 3 };

let server: ReplayServer;
let root: string;

/** A fresh game folder for the server: the public game file and a valid session, no store. */
const freshGame = (): Game => gameOnReplay(server, root);

/** A clock already past day 2's closing: the watch makes its final count at once. */
const afterClose = (game: Game): WatchClock => ({ now: () => game.days.find((d) => d.day === 2)!.closes + 60_000, sleep: async () => undefined });

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-watch-tally-'));
  server = await startReplayServer();
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('watch = tally', () => {
  let faultFree: string;

  test('no fault, fresh store: the final count is tally\'s — the sheriff from day 1 included (月饼 7.5)', async () => {
    const game = freshGame();
    const w = await bansha(['watch', '--game', game.file, '--day', '2', '--delay-ms', '0', '--concurrency', '4']);
    expect(w.stderr).toBe('');
    expect(w.code).toBe(0);
    expect(w.stdout).toContain('关门计票');
    expect(w.stdout).toMatch(/警长：包子/);
    expect(w.stdout).toMatch(/月饼 +7\.5/);
    const t = await bansha(['tally', '--game', game.file, '--day', '2', '--json']);
    expect(t.code).toBe(0);
    const final = await runWatch({ game, day: 2, clock: afterClose(game), crawl: fast, draw: () => undefined });
    expect(renderTallyJson(final)).toBe(t.stdout);
    faultFree = t.stdout;
    // and the same text: watch's final frame holds tally's terminal view
    const plain = await bansha(['tally', '--game', game.file, '--day', '2']);
    expect(w.stdout).toContain(plain.stdout);
  });

  const onSheriffThread = `tid=${D1VOTE}&page=2`;
  const cases: Array<[string, FaultRule[], 'same' | number]> = [
    ['HTTP 503 twice on the sheriff election thread', [{ fault: { kind: 'status', status: 503 }, path: onSheriffThread, times: 2 }], 'same'],
    ['connection reset twice', [{ fault: { kind: 'reset' }, path: `tid=${D2VOTE}&page=1`, times: 2 }], 'same'],
    ['truncated body twice', [{ fault: { kind: 'truncate' }, path: onSheriffThread, times: 2 }], 'same'],
    ['anti-CC reload page on every thread page', [{ fault: { kind: 'anticc' } }], 'same'],
    // (a thread deciding the final count not fetched whole after the close: not final, exit 7, as close and tally --post)
    ['the sheriff election thread never answers page 2', [{ fault: { kind: 'status', status: 500 }, path: onSheriffThread }], 7],
    ['the login expires mid-crawl', [{ fault: { kind: 'session-expiry', afterRequests: 3 } }], 4],
    ['a redirect off the forum host', [{ fault: { kind: 'redirect', location: 'http://127.0.0.2:9/forum.php' }, path: onSheriffThread }], 5],
    ['a same-host redirect to another thread', [{ fault: { kind: 'redirect', location: `/forum.php?mod=viewthread&tid=${D2VOTE}&page=1` }, path: onSheriffThread }], 3],
  ];

  for (const [name, rules, expected] of cases) {
    test(`${name}: ${expected === 'same' ? 'the fault-free count' : `a refusal (exit ${expected})`}, and tally agrees`, async () => {
      expect(faultFree).toBeDefined();
      const game = freshGame();
      server.setFault(...rules);
      let outcome: string | number;
      try {
        outcome = renderTallyJson(await runWatch({ game, day: 2, clock: afterClose(game), crawl: fast, draw: () => undefined }));
      } catch (err) {
        outcome = (err as { exitCode?: number }).exitCode ?? 1;
      } finally {
        server.setFault();
      }
      expect(outcome).toBe(expected === 'same' ? faultFree : expected);
      // tally on the store the watch left: the same count, or a refusal — never another count.
      const t = await bansha(['tally', '--game', game.file, '--day', '2', '--json']);
      if (t.code === 0) expect(t.stdout).toBe(faultFree);
      else expect(t.code).toBe(3);
      if (expected !== 'same') expect(t.code).toBe(3);
    });
  }

  test('a page of another thread served for the sheriff election thread: refused (exit 3), nothing counted from it', async () => {
    const game = freshGame();
    server.swapPage(D1VOTE, 2, fs.readFileSync(path.join(FIXTURES, 'discuz', 'public', `viewthread-t${D2VOTE}-p1.html`), 'utf8'));
    try {
      const err = await runWatch({ game, day: 2, clock: afterClose(game), crawl: fast, draw: () => undefined }).catch((e) => e);
      expect(err).toMatchObject({ name: 'PageMismatchError', exitCode: 3 });
      const t = await bansha(['tally', '--game', game.file, '--day', '2']);
      expect(t.code).toBe(3);
    } finally {
      server.swapPage(D1VOTE, 2, fs.readFileSync(path.join(FIXTURES, 'discuz', 'public', `viewthread-t${D1VOTE}-p2.html`), 'utf8'));
    }
  });

  test('a running round that is refused shows the refusal and the watch goes on to the fault-free final count', async () => {
    const game = freshGame();
    const closes = game.days.find((d) => d.day === 2)!.closes;
    let t = closes - 30 * 60_000;
    const clock: WatchClock = { now: () => t, sleep: async (ms) => void (t += ms) };
    const frames: string[] = [];
    server.setFault({ fault: { kind: 'status', status: 500 }, path: `tid=${D1VOTE}&page=2`, times: 3 });
    try {
      const final = await runWatch({ game, day: 2, intervalMs: 20 * 60_000, clock, crawl: fast, draw: (f) => frames.push(f) });
      expect(frames[0]).toMatch(/^11-22 20:30 无法给出当前票数——没能抓到 帖子 3 第 2 页/);
      expect(frames.at(-1)).toContain('关门计票');
      expect(renderTallyJson(final)).toBe(faultFree);
    } finally {
      server.setFault();
    }
  });
});
