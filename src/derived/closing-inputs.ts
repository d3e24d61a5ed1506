/**
 * What a report of day N reads, so that it costs day N's work: the day's threads, its tally's and the
 * process thread in full; the earlier days' threads as digests (src/store/thread-digest.ts); the closed
 * days' outcomes from src/derived/closed-days.ts. Both are kept between runs in the store's derived files
 * and rebuilt from a thread's log when it changes. A 120b game (filler reads every earlier post's words)
 * and a version-1 store (no thread logs to key a digest on) read every thread of days 1..N in full.
 */
import fs from 'node:fs';
import { closingDay, markIncomplete, threadsForReport, threadsThroughDay, type ClosingDay, type ClosingDayOptions } from '../close/closing-day.js';
import { withKnownUids } from '../game/roster.js';
import type { Game } from '../game/types.js';
import { threadsDir } from '../store/store-file.js';
import { makeMissingDigests, threadDigests } from '../store/thread-digest.js';
import type { Completeness, StoreData } from '../store/types.js';
import { closedOutcomes, withHandoverGaps } from './closed-days.js';
import { wordingMemo } from './wording-hits.js';

/** The threads a report of `day` counts (checked complete) and those it opens in full. */
export function reportThreads(game: Game, day: number): { tids: number[]; load: number[] } {
  const tids = threadsForReport(game, day);
  if (!readsDigests(game)) return { tids, load: threadsThroughDay(game, day) };
  return { tids, load: [...new Set([...tids, ...(game.process ? [game.process.tid] : [])])] };
}

function readsDigests(game: Game): boolean {
  return !game.rules.flagFiller && fs.existsSync(threadsDir(game.storePath));
}

/**
 * What a report of `day` does before it opens the store: the earlier threads' digests a first run
 * lacks, made one thread at a time with nothing else held (made later, each would be read beside the
 * day's threads: at 200,000 posts a 20,000-post day and a 17,000-post thread at once).
 */
export async function beforeReport(game: Game, day: number): Promise<void> {
  if (readsDigests(game)) await makeMissingDigests(game.storePath, lookBackThreads(game, day));
}

/** The threads of days 1..N a report of `day` reads through their digests. */
function lookBackThreads(game: Game, day: number): number[] {
  const { tids, load } = reportThreads(game, day);
  const opened = new Set([...tids, ...load]);
  return threadsThroughDay(game, day).filter((tid) => !opened.has(tid));
}

/**
 * The rest of what `closingDay` reads for `day`, given the store opened with `reportThreads(…).load`,
 * and the threads read incompletely: `checked`, those of the report's own (with-store.ts), with those of
 * its tally's handovers (refused, unless allowIncomplete, as the report's own are).
 */
export async function reportInputs(
  game: Game, day: number, store: StoreData, checked: readonly Completeness[] = [], allowIncomplete?: boolean,
): Promise<Pick<ClosingDayOptions, 'closed' | 'lookBack'> & { incomplete: Completeness[] }> {
  const earlier = await closedOutcomes(withKnownUids(game, store.users), day, store);
  const incomplete = withHandoverGaps(game, checked, earlier, allowIncomplete);
  if (!readsDigests(game)) return { closed: earlier.closed, incomplete };
  const before = threadsThroughDay(game, day).filter((tid) => !store.threads[String(tid)]);
  return { closed: earlier.closed, lookBack: await threadDigests(game.storePath, store.forum, before), incomplete };
}

/**
 * Day `day` at closing from the store opened with `reportThreads(…).load`, as `report` and `close` read
 * it: the earlier days through reportInputs, the wording hits of the versions scanned before through
 * src/derived/wording-hits.ts (and those scanned now kept for the next run), marked with the threads
 * read incompletely.
 */
export async function closingDayFromStore(
  game: Game, day: number, store: StoreData, opts: { ledgerFile: string | null; checked?: readonly Completeness[]; allowIncomplete?: boolean },
): Promise<{ closing: ClosingDay; incomplete: Completeness[] } & Pick<ClosingDayOptions, 'closed' | 'lookBack'>> {
  const { closed, lookBack, incomplete } = await reportInputs(game, day, store, opts.checked, opts.allowIncomplete);
  const wording = wordingMemo(game.storePath, game);
  const closing = closingDay(game, store, day, { ledgerFile: opts.ledgerFile, closed, lookBack, wording: wording.hitsOf });
  wording.save();
  return { closing: markIncomplete(closing, incomplete), closed, lookBack, incomplete };
}
