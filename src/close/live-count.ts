/**
 * The count while a day is still open, as the watch and the cockpit make it each round: crawl exactly
 * the threads the tally reads (incrementally), then count from the store as `bansha tally` does —
 * refused the same way. Below the commands, so src/cli/commands/watch.ts and src/cockpit both use it.
 */
import { crawlGame, type CrawlOptions, type CrawlResult } from '../crawl/crawler.js';
import { assertFetched } from '../crawl/fetched.js';
import { countFreshness, goneThreads, refuseStale } from '../crawl/freshness.js';
import { countFromStore, crawlWithHandovers } from '../derived/closed-days.js';
import { findDay } from '../game/roster.js';
import type { Game } from '../game/types.js';
import { privateVoteResult } from '../votes/private-vote.js';
import { threadsForTally } from '../votes/tally.js';
import type { TallyResult } from '../votes/types.js';

/**
 * Day `day`'s count at `at`, exactly as `bansha crawl` then `bansha tally` make it: the threads the
 * tally reads are crawled (incrementally) — its own, and those its sheriffs' handovers are read from as
 * the store names them (src/derived/closed-days.ts) — every page of them must have been fetched, and the
 * store must hold them completely (unless allowIncomplete) — else the same refusal.
 */
export async function countAsTally(game: Game, day: number, at: number, opts: { crawl?: CrawlOptions; allowIncomplete?: boolean } = {}): Promise<TallyResult> {
  const none = privateVoteResult(game, day, at); // 120b: nothing to read, as tally
  if (none) return none;
  const closed = at >= findDay(game, day).closes;
  // The final count: a failed page is named as stale (exit 7) when it decides the count, below.
  const failed = await crawlForCount(game, day, at, { crawl: opts.crawl, check: closed ? undefined : assertFetched });
  const freshness = closed ? await countFreshness(game, day) : [];
  if (closed) {
    // As tally --post and close: the final count only when every deciding thread was fetched whole after the close.
    refuseStale(game, freshness, 'watch');
    for (const c of failed) assertFetched(c);
  }
  return countFromStore(game, day, { at, allowIncomplete: opts.allowIncomplete, gone: goneThreads(game, freshness) }, (result) => result);
}

/**
 * The crawl of a round (the watch's, the cockpit's: src/cockpit): the threads day `day`'s count reads at
 * `at` — its own, and those its sheriffs' handovers are read from as the store names them — crawled
 * incrementally; each crawl handed to `check` as it ends (assertFetched refuses a page not fetched), and
 * all of them returned.
 */
export async function crawlForCount(game: Game, day: number, at: number, opts: { crawl?: CrawlOptions; check?: (crawl: CrawlResult) => void } = {}): Promise<CrawlResult[]> {
  const crawls: CrawlResult[] = [];
  await crawlWithHandovers(game, day, threadsForTally(game, day), async (threads) => {
    const crawl = await crawlGame(game, { progress: false, ...opts.crawl, threads });
    crawls.push(crawl);
    opts.check?.(crawl);
  }, at);
  return crawls;
}
