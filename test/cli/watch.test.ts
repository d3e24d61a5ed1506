import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplayServer, type ReplayServer } from '../../src/replay/index.js';
import { runWatch, type WatchClock } from '../../src/cli/commands/watch.js';
import { countAsTally } from '../../src/close/live-count.js';
import { loadGame } from '../../src/game/game-file.js';
import { openStore } from '../../src/store/index.js';
import { threadsForTally } from '../../src/votes/tally.js';
import { FIXTURES, ids } from '../helpers/captured.js';

const TMP = path.resolve(import.meta.dirname, '../.tmp/watch');

describe('bansha watch with a fake clock', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    fs.rmSync(TMP, { recursive: true, force: true });
    fs.mkdirSync(TMP, { recursive: true });
    server = await startReplayServer();
  });
  afterAll(async () => server?.close());

  it('waits for the last hour, redraws every interval with who has not voted, then prints the final count', async () => {
    const file = path.join(TMP, 'game.yaml');
    fs.writeFileSync(file, fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8').replace(/^forum: .*$/m, `forum: ${server.url}`));
    const game = loadGame(file);
    const closes = game.days.find((d) => d.day === 2)!.closes;
    let t = closes - 65 * 60_000;
    const slept: number[] = [];
    const clock: WatchClock = { now: () => t, sleep: async (ms) => { slept.push(ms); t += ms; } };
    const frames: Array<{ frame: string; final: boolean }> = [];
    const final = await runWatch({
      game, day: 2, intervalMs: 20 * 60_000, clock,
      crawl: { session: server.sessionState(), delayMs: 0, concurrency: 4 },
      draw: (frame, f) => frames.push({ frame, final: f }),
    });
    expect(slept).toEqual([5, 20, 20, 20].map((m) => m * 60_000));
    expect(frames[0].frame).toMatch(/^第 2 日将从 /);
    const running = frames.slice(1, -1);
    expect(running).toHaveLength(3);
    for (const r of running) expect(r.frame).toMatch(/^实时票数 [\s\S]*\n尚未投票（\d+）：/);
    expect(frames.at(-1)!.final).toBe(true);
    expect(frames.at(-1)!.frame).toContain('关门计票');
    expect(final.running).toBe(false);
    // The running counts only see ballots posted before their moment; the last one before closing never
    // shows more counted ballots than the final count.
    const counted = (f: string) => (f.match(/^ {2}✓/gm) ?? []).length;
    expect(counted(running[0].frame)).toBeLessThanOrEqual(counted(frames.at(-1)!.frame));
  });

  it("crawls the threads a sheriff's handover is read from, as the posts name the sheriff, on a fresh store", async () => {
    // 包子, elected on day 1, leaves before day 2 opens: the handover is read from day 1's discussion too
    const dir = path.join(TMP, 'handover');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'game.yaml');
    fs.writeFileSync(file, fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8').replace(/^forum: .*$/m, `forum: ${server.url}`)
      .replace('events:\n', 'events:\n  - {player: 包子, out: "2026-11-22 09:00", how: night}\n'));
    const game = loadGame(file);
    const d1talk = ids('public').threads.d1talk.tid;
    expect(threadsForTally(game, 2)).not.toContain(d1talk);
    const closes = game.days.find((d) => d.day === 2)!.closes;
    const final = await countAsTally(game, 2, closes, { crawl: { session: server.sessionState(), delayMs: 0, concurrency: 4 } });
    expect(final.sheriffSource).toContain('包子');
    const store = await openStore(game.storePath, { lock: false });
    expect(Object.keys(store.data.threads)).toContain(String(d1talk));
    expect(final.incomplete).toBeUndefined();
  });
});

