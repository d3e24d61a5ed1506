/**
 * `bansha crawl --game game.yaml [--day N] [--full] [--json]`: fetch the game's threads into the evidence
 * store (incrementally unless --full) and end with a completeness line per thread (or, with --json, one
 * object: requests, pages, new/changed posts, completeness, unknown uids). Exit 4 when the session
 * no longer works, 5 when some pages could not be fetched (what was fetched stays stored: run it again
 * for a transient fault; for a 4xx, a refused connection or a thread that does not exist, check the
 * game file's forum: and thread ids),
 * 3 when a page is not what was asked for or a limit (--max-pages, --max-requests, --max-response-mb)
 * is reached.
 */
import type { Command } from 'commander';
import { createColors as colors } from 'picocolors';
import { UserError } from '../../errors.js';
import { t } from '../../i18n/index.js';
import { loadGame } from '../../game/game-file.js';
import { crawlGame, DEFAULT_MAX_PAGES_PER_THREAD, DEFAULT_MAX_REQUESTS, type CrawlOptions, type CrawlResult } from '../../crawl/crawler.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../../crawl/http.js';
import { describeGaps } from '../../store/completeness.js';
import { terminalSafe } from '../../text/safe-text.js';
import { dayNumber, gameOptions, stdoutColor, wholeNumber } from '../options.js';
import { withStore } from '../../store/with-store.js';
import { unknownUids, withKnownUids } from '../../game/roster.js';
import { fillUidsFromSpaces } from '../../crawl/space-uid.js';
import { assertFetched } from '../../crawl/fetched.js';

/** How to crawl, as flags (crawl, watch). */
export interface CrawlFlags {
  concurrency?: number;
  delayMs?: number;
  timeoutMs?: number;
  retries?: number;
  maxPages?: number;
  maxRequests?: number;
  maxResponseMb?: number;
}

/** Adds the flags of CrawlFlags to a command that crawls. */
export function crawlFlagOptions(command: Command): Command {
  return command
    .option('--concurrency <n>', t('crawl.concurrency'), wholeNumber('concurrency'))
    .option('--delay-ms <n>', t('crawl.delay'), wholeNumber('delay-ms', 0))
    .option('--timeout-ms <n>', t('crawl.timeout'), wholeNumber('timeout-ms'))
    .option('--retries <n>', t('crawl.retries'), wholeNumber('retries', 0))
    .option('--max-pages <n>', t('crawl.maxPages', DEFAULT_MAX_PAGES_PER_THREAD), wholeNumber('max-pages'))
    .option('--max-requests <n>', t('crawl.maxRequests', DEFAULT_MAX_REQUESTS), wholeNumber('max-requests'))
    .option('--max-response-mb <n>', t('crawl.maxResponse', DEFAULT_MAX_RESPONSE_BYTES / 1024 / 1024), wholeNumber('max-response-mb'));
}

/** The crawl options those flags set. */
export function crawlFlags(o: CrawlFlags): CrawlOptions {
  return {
    concurrency: o.concurrency, delayMs: o.delayMs, timeoutMs: o.timeoutMs, retries: o.retries,
    maxPagesPerThread: o.maxPages,
    maxRequests: o.maxRequests,
    maxResponseBytes: o.maxResponseMb === undefined ? undefined : o.maxResponseMb * 1024 * 1024,
  };
}

/** A note on stderr, through the terminal filter (reasons can quote what the forum said). */
export function stderrLine(line: string): void {
  process.stderr.write(`${terminalSafe(line)}\n`);
}

/** The per-thread summary lines printed after a crawl. */
export function summaryLines(result: CrawlResult, color = stdoutColor()): string[] {
  const pc = colors(color); // colour only on a terminal (picocolors alone turns it on wherever CI is set)
  const lines: string[] = [];
  for (const th of result.threads) {
    const c = th.completeness;
    const news = t('crawl.news', th.fetchedPages.length, th.newPosts, th.changedPosts) +
      (th.missingPosts.length ? t('crawl.nowMissing', th.missingPosts.length, th.missingPosts.join(', ')) : '');
    const state = th.deleted ? pc.red(t('crawl.deleted')) : c.complete ? pc.green(t('crawl.complete')) : pc.yellow(describeGaps(c));
    lines.push(`${t('crawl.thread', th.tid, th.title ? terminalSafe(th.title) : '')}: ${t('crawl.pages', c.pagesFetched, c.pageCount)}, ${t('crawl.floors', c.maxFloor)} — ${state} [${news}]`);
    for (const f of th.failures) lines.push(t('crawl.pageFailed', f.page, terminalSafe(f.reason)));
  }
  return lines;
}

/** The crawl for scripts (`--json`): totals first, then each thread with its completeness. */
export function crawlJson(result: CrawlResult, unknownUidPlayers: string[]): unknown {
  const sum = (f: (x: CrawlResult['threads'][number]) => number) => result.threads.reduce((n, x) => n + f(x), 0);
  return {
    store: result.storePath,
    requests: result.requests,
    pages: sum((x) => x.fetchedPages.length),
    newPosts: sum((x) => x.newPosts),
    changedPosts: sum((x) => x.changedPosts),
    complete: !result.incomplete && result.threads.every((x) => x.completeness.complete),
    unknownUids: unknownUidPlayers,
    threads: result.threads.map((x) => ({
      tid: x.tid,
      title: x.title,
      fetchedPages: x.fetchedPages,
      newPosts: x.newPosts,
      changedPosts: x.changedPosts,
      missingPosts: x.missingPosts,
      deleted: x.deleted,
      failures: x.failures,
      completeness: x.completeness,
    })),
  };
}

export function register(program: Command): void {
  const command = gameOptions(program.command('crawl').description(t('crawl.description')))
    .option('--day <n>', t('crawl.day'), dayNumber)
    .option('--full', t('crawl.full'))
    .option('--store <path>', t('opt.store'))
    .option('--json', t('crawl.json'))
    .option('--no-progress', t('crawl.noProgress'))
    .option('--verbose', t('crawl.verbose'));
  crawlFlagOptions(command)
    .action(async (o: CrawlFlags & { game: string; day?: number; full?: boolean; store?: string; json?: boolean; progress: boolean; verbose?: boolean }) => {
      const game = loadGame(o.game, { store: o.store });
      const result = await crawlGame(game, {
        ...crawlFlags(o),
        day: o.day, full: o.full,
        progress: o.progress === false || o.json ? false : undefined,
        log: o.verbose ? stderrLine : undefined,
      });
      if (!o.json) process.stdout.write(`${summaryLines(result).join('\n')}\n${t('crawl.store', result.storePath, result.requests)}\n`);
      assertFetched(result);
      // uids up front: an account that has not posted yet is looked up on its profile page; say what is still unknown.
      const looked = await fillUidsFromSpaces(game, { delayMs: o.delayMs, timeoutMs: o.timeoutMs, maxResponseBytes: crawlFlags(o).maxResponseBytes });
      const unknown = await withStore(game, (store) => unknownUids(withKnownUids(game, store.users)));
      if (o.json) {
        process.stdout.write(`${JSON.stringify(crawlJson(result, unknown), null, 2)}\n`);
        return;
      }
      for (const f of looked) process.stdout.write(terminalSafe(f.uid !== null ? t('crawl.uidFound', f.name, f.uid) : t('crawl.uidNotFound', f.name, f.why)) + '\n');
      process.stdout.write(`${unknown.length ? t('crawl.uidUnknown', terminalSafe(unknown.join('、'))) : t('crawl.uidKnown', game.seats.length)}\n`);
    });
}
