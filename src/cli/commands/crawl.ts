/**
 * `bansha crawl --game game.yaml [--day N] [--full]`: fetch the game's threads into the evidence store
 * (incrementally unless --full) and end with a completeness line per thread. Exit 4 when the session
 * no longer works, 5 when some pages could not be fetched (what was fetched stays stored: run it again),
 * 3 when a page is not what was asked for or a limit (--max-pages, --max-requests, --max-response-mb)
 * is reached.
 */
import type { Command } from 'commander';
import pc from 'picocolors';
import { UserError } from '../errors.js';
import { loadGame } from '../../game/game-file.js';
import { crawlGame, DEFAULT_MAX_PAGES_PER_THREAD, DEFAULT_MAX_REQUESTS, type CrawlOptions, type CrawlResult } from '../../crawl/crawler.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../../crawl/http.js';
import { describeGaps } from '../../store/completeness.js';
import { terminalSafe } from '../../render/safe-text.js';
import { dayNumber, wholeNumber, withStore } from '../options.js';
import { unknownUids, withKnownUids } from '../../game/roster.js';
import { fillUidsFromSpaces } from '../../crawl/space-uid.js';

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
    .option('--concurrency <n>', 'requests at a time (default 2)', wholeNumber('concurrency'))
    .option('--delay-ms <n>', 'minimum ms between requests (default 1000)', wholeNumber('delay-ms', 0))
    .option('--timeout-ms <n>', 'timeout per request in ms (default 30000)', wholeNumber('timeout-ms'))
    .option('--retries <n>', 'retries per page (default 4)', wholeNumber('retries', 0))
    .option('--max-pages <n>', `most pages one thread may have (default ${DEFAULT_MAX_PAGES_PER_THREAD})`, wholeNumber('max-pages'))
    .option('--max-requests <n>', `most requests one crawl may make (default ${DEFAULT_MAX_REQUESTS})`, wholeNumber('max-requests'))
    .option('--max-response-mb <n>', `largest response accepted, MiB (default ${DEFAULT_MAX_RESPONSE_BYTES / 1024 / 1024})`, wholeNumber('max-response-mb'));
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

/** Throws (exit 5) when some page could not be fetched after all retries, naming each one. */
export function assertFetched(result: CrawlResult): void {
  if (!result.incomplete) return;
  const missing = result.threads.flatMap((t) => t.failures.map((f) => `thread ${t.tid} page ${f.page}`));
  throw new UserError(`could not fetch ${missing.join(', ')}; everything else is stored — run the same crawl again to resume`, 5);
}

/** A note on stderr, through the terminal filter (reasons can quote what the forum said). */
export function stderrLine(line: string): void {
  process.stderr.write(`${terminalSafe(line)}\n`);
}

/** The per-thread summary lines printed after a crawl. */
export function summaryLines(result: CrawlResult): string[] {
  const lines: string[] = [];
  for (const t of result.threads) {
    const c = t.completeness;
    const head = `thread ${t.tid}${t.title ? ` ${terminalSafe(t.title)}` : ''}`;
    const pages = `pages ${c.pagesFetched}/${c.pageCount}`;
    const floors = c.maxFloor ? `floors 1..${c.maxFloor}` : 'no floors';
    const news = `fetched ${t.fetchedPages.length}, new posts ${t.newPosts}, edited ${t.changedPosts}` +
      (t.missingPosts.length ? `, now missing ${t.missingPosts.length} (pids ${t.missingPosts.join(', ')})` : '');
    const state = t.deleted ? pc.red('deleted on the forum (stored posts kept)') : c.complete ? pc.green('complete') : pc.yellow(describeGaps(c));
    lines.push(`${head}: ${pages}, ${floors} — ${state} [${news}]`);
    for (const f of t.failures) lines.push(`  page ${f.page}: ${terminalSafe(f.reason)}`);
  }
  return lines;
}

export function register(program: Command): void {
  const command = program
    .command('crawl')
    .description('fetch the game\'s threads into the evidence store (incremental; --full refetches every page)')
    .requiredOption('--game <file>', 'the game file (YAML)')
    .option('--day <n>', 'only this day\'s threads (plus the process thread)', dayNumber)
    .option('--full', 'refetch every page, to catch edits on old pages')
    .option('--store <path>', 'the store file (default: beside the game file)')
    .option('--no-progress', 'no progress bar')
    .option('--verbose', 'note every retry on stderr');
  crawlFlagOptions(command)
    .action(async (o: CrawlFlags & { game: string; day?: number; full?: boolean; store?: string; progress: boolean; verbose?: boolean }) => {
      const game = loadGame(o.game, { store: o.store });
      const result = await crawlGame(game, {
        ...crawlFlags(o),
        day: o.day, full: o.full,
        progress: o.progress === false ? false : undefined,
        log: o.verbose ? stderrLine : undefined,
      });
      process.stdout.write(`${summaryLines(result).join('\n')}\nstore: ${result.storePath} (${result.requests} requests)\n`);
      assertFetched(result);
      // uids up front: an account that has not posted yet is looked up on its profile page; say what is still unknown.
      const looked = await fillUidsFromSpaces(game, { delayMs: o.delayMs, timeoutMs: o.timeoutMs, maxResponseBytes: crawlFlags(o).maxResponseBytes });
      for (const f of looked) process.stdout.write(terminalSafe(f.uid !== null ? `uid ${f.name}: ${f.uid}（个人资料页）` : `uid ${f.name}: 未知 — ${f.why}`) + '\n');
      const unknown = await withStore(game, (store) => unknownUids(withKnownUids(game, store.users)));
      process.stdout.write(unknown.length ? `uid 未知（电梯里暂无链接；可在游戏文件 players 中写上 uid）：${terminalSafe(unknown.join('、'))}\n` : `uid：${game.seats.length} 个座位的账号都已知\n`);
    });
}
