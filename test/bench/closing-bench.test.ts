/**
 * The closing bench's "after new posts" case (src/bench/closing-bench.ts postArrivals): the posts it adds
 * before each run are the synthetic game's kind, reach the store through the crawler's write path (the
 * day's thread logs appended, nothing before rewritten) and read back as the posts they were made as.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { postArrivals } from '../../src/bench/closing-bench.js';
import { gameOf, runPipeline } from '../../src/bench/pipeline.js';
import { latePosts, synthGame } from '../../src/bench/synth-game.js';
import { dayTids } from '../../src/game/threads.js';
import { findDay } from '../../src/game/roster.js';
import { forumTimeMs } from '../../src/replay/synth.js';
import { openStore, threadLogPath } from '../../src/store/store-file.js';

describe('closing bench: posts arriving between reruns', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-closing-bench-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('appends each run\'s posts to the day\'s thread logs, before the close, as the posts they were made as', async () => {
    const synth = synthGame({ posts: 500 });
    await runPipeline(synth, { dir });
    const g = gameOf(synth, dir);
    const d = findDay(g, 10);
    const tids = dayTids(d);
    expect(tids).toHaveLength(2); // discussion and vote
    const logs = tids.map((tid) => fs.readFileSync(threadLogPath(g.storePath, tid)));
    const arrive = postArrivals(synth, g.storePath, tids, d.closes, 5, 2, 7);
    await arrive();
    await arrive();

    // what the same seed makes, on copies of the same threads
    const more = latePosts(synth, 7);
    const copies = tids.map((tid) => ({ ...synth.threads.find((t) => t.tid === tid)!, posts: [...synth.threads.find((t) => t.tid === tid)!.posts] }));
    const expected = [...copies.map((t) => more(t, 5, 1)), ...copies.map((t) => more(t, 5, 1))].flat();
    const store = await openStore(g.storePath, { lock: false, threads: tids });
    for (const [i, tid] of tids.entries()) {
      // appended: the log as it was is the start of the log as it is
      const now = fs.readFileSync(threadLogPath(g.storePath, tid));
      expect(now.length).toBeGreaterThan(logs[i].length);
      expect(now.subarray(0, logs[i].length).equals(logs[i])).toBe(true);
      const stored = Object.values(store.data.posts).filter((p) => p.tid === tid);
      expect(stored).toHaveLength(synth.threads.find((t) => t.tid === tid)!.posts.length + 10);
    }
    for (const e of expected) {
      const p = store.data.posts[String(e.pid)]?.versions.at(-1)?.post;
      expect(p, `pid ${e.pid}`).toBeDefined();
      expect([p!.author, p!.authorId, p!.quotes]).toEqual([e.author, e.uid, e.quote !== undefined ? [e.quote] : []]);
      expect(p!.text.replace(/\s+/g, '')).toBe(e.body.replace(/\[\/?(color|size)[^\]]*\]/g, '').replace(/\s+/g, ''));
      expect(Date.parse(p!.postedAt)).toBeLessThan(d.closes);
      expect(Date.parse(p!.postedAt)).toBeGreaterThan(d.opens);
      expect(synth.players.filter((x) => (synth.out.get(x) ?? Infinity) > forumTimeMs(e.at))).toContain(e.author);
    }
    // the vote thread's new posts are ballots, changed votes or chatter, as the game's own
    const votes = expected.filter((e) => tids.indexOf(copies.find((t) => t.posts.includes(e))!.tid) === 1);
    expect(votes).toHaveLength(10);
    for (const v of votes) expect(v.quote !== undefined, v.body).toBe(v.body.startsWith('改票对象：')); // a changed vote quotes the first ballot
    await store.close();
  }, 120_000);
});
