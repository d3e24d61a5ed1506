/**
 * `bansha close --day N --game G [--out DIR] [--confirm] [--post [--yes]]`: the closing-time job in one
 * command (src/close): crawl the day's threads, tally, report, the next day's elevator floor, into one
 * folder with a summary; `--confirm` writes the day's results into the game file; `--post` publishes
 * the announcement (a dry run unless --yes), editing the tool's earlier post of the day when there is one.
 */
import type { Command } from 'commander';
import { closeDay, refuseIncompletePost } from '../../close/index.js';
import { runPost } from '../../publish/index.js';
import { UserError } from '../../errors.js';
import { dayNumber, loadGameDay } from '../options.js';
import { t } from '../../i18n/index.js';

interface CloseCliOptions {
  game: string;
  day: number;
  out?: string;
  store?: string;
  crawl: boolean;
  confirm?: boolean;
  allowIncomplete?: boolean;
  post?: boolean;
  yes?: boolean;
}

export function register(program: Command): void {
  program
    .command('close')
    .description(t('close.description'))
    .requiredOption('--game <file>', 'the game file (YAML)')
    .requiredOption('--day <n>', 'the game day', dayNumber)
    .option('--out <dir>', 'where to write (default: <game>-day<N>/ beside the game file)')
    .option('--store <path>', 'the store file (default: beside the game file)')
    .option('--no-crawl', 'use the store as it is (no crawl first)')
    .option('--confirm', 'write the day\'s results (voted out, 罚下) into the game file\'s events')
    .option('--allow-incomplete', 'count even when a thread\'s crawl has gaps (every output then says what is missing; no --post, no --confirm)')
    .option('--post', 'publish the announcement in the day\'s vote thread; a dry run unless --yes')
    .option('--yes', 'with --post: really post (else only show what would be posted)')
    .action(async (o: CloseCliOptions) => {
      if (o.yes && !o.post) throw new UserError('--yes goes with --post');
      loadGameDay(o); // a bad file or day fails before any crawl
      const r = await closeDay({
        gameFile: o.game, day: o.day, out: o.out, store: o.store, crawl: o.crawl, confirm: o.confirm, allowIncomplete: o.allowIncomplete,
        log: process.stderr.isTTY ? (l) => process.stderr.write(`${l}\n`) : undefined,
      });
      const lines = [`bansha close — day ${o.day} of ${o.game}`, ...r.summary.map((l) => `  ${l}`), '', `written to ${r.out}:`];
      for (const f of r.files) lines.push(`  ${f.what.padEnd(32)} ${f.path}`);
      process.stdout.write(`${lines.join('\n')}\n`);
      if (!o.post) return;
      refuseIncompletePost(r.incomplete);
      if (!r.plan) throw new UserError(`day ${o.day} has no public count to announce`);
      const { game } = loadGameDay(o);
      process.stdout.write(`\n${(await runPost(r.plan, game, { yes: o.yes, log: (l) => process.stderr.write(`${l}\n`) })).text}`);
    });
}
