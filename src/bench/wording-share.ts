/**
 * How much of `bansha report` the banned-wording scan takes (issue #15: at most 20% on a 50k-post
 * game). Over a store the bench's pipeline left (the synthetic game: lines players wrote in the
 * captured games), for every day it times what `report` does (closingDay: slice, tally, flags, cards)
 * and, separately, what of that is the wording scan: loading the word lists and scanning every version
 * of the day's posts with them. The lists are compiled, and jieba's dictionary and the pinyin tables
 * loaded, once before the first day (a later load of unchanged files reuses the compiled set:
 * word-lists.ts), so that cost — once a `report` run, about 0.1 s for the lists and 0.09 s for the
 * dictionary, cold — is in neither part. CPU time of this process
 * (the machine may be shared), each part the least of `ROUNDS` tries taken in turn (one run on a
 * loaded machine scattered by ±10%, a collection landing in one part or the other).
 * Run alone: `node dist/bench/wording-share.js [posts]`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gameOf, runPipeline } from './pipeline.js';
import { synthGame } from './synth-game.js';
import { closingDay } from '../day/closing-day.js';
import { gameTids } from '../game/threads.js';
import { threadPosts, type SlicePost } from '../store/slice.js';
import { openStore } from '../store/index.js';
import type { Game } from '../game/types.js';
import { postsOfDay } from '../violations/scan.js';
import { loadWordLists } from '../violations/word-lists.js';
import { findBannedWording } from '../violations/wording.js';

export interface WordingShare {
  days: number;
  /** Post versions scanned over all days. */
  texts: number;
  reportMs: number;
  wordingMs: number;
  /** wordingMs / reportMs over all days, and the highest of a single day. */
  share: number;
  maxDayShare: number;
}

/** CPU time of this process (the machine is shared: wall time would measure the neighbours). */
function cpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

/** How many times each day's report and scan are timed (the least counts). */
const ROUNDS = 3;

/** Times report and the wording scan in it over every day of the game stored at `game.storePath`. */
export async function measureWordingShare(game: Game): Promise<WordingShare> {
  const { data } = await openStore(game.storePath, { lock: false });
  // The segmenter's dictionary and the pinyin tables load once a run, whichever comes first.
  findBannedWording('预热：发誓', loadWordLists(game.rules.bannedCategories));

  const r: WordingShare = { days: game.days.length, texts: 0, reportMs: 0, wordingMs: 0, share: 0, maxDayShare: 0 };
  for (const d of game.days) {
    const byThread = new Map<number, SlicePost[]>();
    for (const tid of gameTids(game)) if (data.threads[String(tid)]) byThread.set(tid, threadPosts(data, tid));
    const texts = postsOfDay(game, d, byThread).flatMap((p) => p.versions.map((v) => v.post.text));
    let reportMs = Infinity;
    let wordingMs = Infinity;
    for (let round = 0; round < ROUNDS; round++) {
      const t0 = cpuMs();
      closingDay(game, data, d.day, { ledgerFile: null });
      reportMs = Math.min(reportMs, cpuMs() - t0);
      const t1 = cpuMs();
      const lists = loadWordLists(game.rules.bannedCategories);
      for (const text of texts) findBannedWording(text, lists, { names: game.players });
      wordingMs = Math.min(wordingMs, cpuMs() - t1);
    }

    r.texts += texts.length;
    r.reportMs += reportMs;
    r.wordingMs += wordingMs;
    r.maxDayShare = Math.max(r.maxDayShare, wordingMs / reportMs);
  }
  r.share = r.wordingMs / r.reportMs;
  return r;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const posts = Number(process.argv[2] ?? 50_000);
  const synth = synthGame({ posts });
  const dir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), 'bansha-wording-'));
  try {
    await runPipeline(synth, { dir, keepDir: true, baselineEvery: 1_000_000 });
    const r = await measureWordingShare(gameOf(synth, dir));
    console.log(
      `${posts} posts, ${r.days} days: report ${r.reportMs.toFixed(0)} ms (CPU), of which the wording scan (lists compiled once, not counted, ` +
        `${r.texts} post versions) ${r.wordingMs.toFixed(0)} ms = ${(100 * r.share).toFixed(1)}% (highest day ${(100 * r.maxDayShare).toFixed(1)}%)`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
