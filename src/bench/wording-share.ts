/**
 * How much of `bansha report` the banned-wording scan takes (issue #15: at most 20% on a 50k-post
 * game). Builds the bench's synthetic game (src/bench/synth-game.ts: lines players wrote in the
 * captured games), stores it through the pipeline, then for every day times what `report` does
 * (closingDay: slice, tally, flags, cards) and, separately, the wording scan alone over the same
 * posts and versions with the same lists. Run: `node dist/bench/wording-share.js [posts]`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gameOf, runPipeline } from './pipeline.js';
import { synthGame } from './synth-game.js';
import { closingDay } from '../close/closing-day.js';
import { gameTids } from '../activity/threads.js';
import { threadPosts, type SlicePost } from '../store/slice.js';
import { openStore } from '../store/index.js';
import { postsOfDay } from '../violations/scan.js';
import { loadWordLists } from '../violations/word-lists.js';
import { findBannedWording } from '../violations/wording.js';

export interface WordingShare {
  posts: number;
  reportMs: number;
  wordingMs: number;
  share: number;
}

/** CPU time of this process (the machine is shared: wall time would measure the neighbours). */
function cpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

/** Times report and the wording scan over every day of a synthetic game of `posts` posts. */
export async function measureWordingShare(posts: number): Promise<WordingShare> {
  const synth = synthGame({ posts });
  const dir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), 'bansha-wording-'));
  await runPipeline(synth, { dir, keepDir: true, baselineEvery: 1_000_000 });
  const game = gameOf(synth, dir);
  const { data } = await openStore(game.storePath, { lock: false });
  const lists = loadWordLists(game.rules.bannedCategories);
  findBannedWording('预热', lists); // the segmenter's dictionary loads once per run, in either

  let reportMs = 0;
  let wordingMs = 0;
  for (const d of game.days) {
    const t0 = cpuMs();
    closingDay(game, data, d.day, { ledgerFile: null });
    reportMs += cpuMs() - t0;

    const byThread = new Map<number, SlicePost[]>();
    for (const tid of gameTids(game)) if (data.threads[String(tid)]) byThread.set(tid, threadPosts(data, tid));
    const scope = postsOfDay(game, d, byThread);
    const t1 = cpuMs();
    for (const p of scope) for (const v of p.versions) findBannedWording(v.post.text, lists, { names: game.players });
    wordingMs += cpuMs() - t1;
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return { posts, reportMs, wordingMs, share: wordingMs / reportMs };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const r = await measureWordingShare(Number(process.argv[2] ?? 50_000));
  console.log(`${r.posts} posts: report ${r.reportMs.toFixed(0)} ms over all days, wording scan ${r.wordingMs.toFixed(0)} ms (CPU) = ${(100 * r.share).toFixed(1)}%`);
}
