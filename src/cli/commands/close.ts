/**
 * `bansha close --day N --game G [--out DIR] [--confirm] [--post [--yes]]`: the closing-time job in one
 * command (src/close): crawl the day's threads, tally, report, the next day's elevator floor, into one
 * folder with a summary; `--confirm` writes the day's results into the game file; `--post` publishes
 * the announcement (a dry run unless --yes), editing the tool's earlier post of the day when there is one.
 * Before the day's close `--post` and `--confirm` refuse (exit 7) and the count is a running one; after
 * it, a thread deciding the count that was not fetched whole after the close (a failed crawl) is named
 * in the summary with as of when it is, nothing is posted or written, and the exit code is 7
 * (--allow-incomplete without --post: the files carry that line, exit 0).
 */
import type { Command } from 'commander';
import { closeDay, refuseIncompletePost } from '../../close/index.js';
import { runPost } from '../../publish/index.js';
import { UserError } from '../../errors.js';
import { gameOptions, loadGameDay } from '../options.js';
import { t } from '../../i18n/index.js';
import { displayWidth, padDisplay } from '../../text/width.js';
import { now as clockNow } from '../../clock.js';
import { refuseOpenDay, refuseStale } from '../../crawl/freshness.js';
import { crawlFlagOptions, crawlFlags, type CrawlFlags } from './crawl.js';

interface CloseCliOptions extends CrawlFlags {
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
  crawlFlagOptions(gameOptions(program.command('close').description(t('close.description')), { day: true, store: true }))
    .option('--out <dir>', t('close.opt.out'))
    .option('--no-crawl', t('close.opt.noCrawl'))
    .option('--confirm', t('close.opt.confirm'))
    .option('--allow-incomplete', t('close.opt.allowIncomplete'))
    .option('--post', t('close.opt.post'))
    .option('--yes', t('opt.yes'))
    .action(async (o: CloseCliOptions) => {
      if (o.yes && !o.post) throw new UserError(t('opt.goesWith', '--yes', '--post'));
      const loaded = await loadGameDay(o); // a bad file or day fails before any crawl
      const now = clockNow();
      // Nothing is published or written as a result before the close (exit 7), and nothing crawled for it.
      if (o.post) refuseOpenDay(loaded.game, o.day, now, '--post');
      if (o.confirm) refuseOpenDay(loaded.game, o.day, now, '--confirm');
      const r = await closeDay({
        gameFile: o.game, day: o.day, out: o.out, store: o.store, crawl: o.crawl && crawlFlags(o), confirm: o.confirm, allowIncomplete: o.allowIncomplete, now,
        log: process.stderr.isTTY ? (l) => process.stderr.write(`${l}\n`) : undefined,
      });
      const lines = [t('close.heading', o.day, o.game), ...r.summary.map((l) => `  ${l}`), '', t('close.writtenTo', r.out)];
      // aligned by display width: a Chinese label takes two columns a character
      const width = Math.max(0, ...r.files.map((f) => displayWidth(f.what)));
      for (const f of r.files) lines.push(`  ${padDisplay(f.what, width)}  ${f.path}`);
      process.stdout.write(`${lines.join('\n')}\n`);
      // A closing count not as of the close: exit 7 naming the stale threads (--allow-incomplete: the files say so, exit 0).
      if (o.post) {
        refuseIncompletePost(r.incomplete, r.tally);
        refuseStale(loaded.game, r.stale, '--post');
      } else if (!o.allowIncomplete) refuseStale(loaded.game, r.stale, 'bansha close');
      if (!o.post) return;
      if (!r.plan) throw new UserError(t('close.noPublicCount', o.day));
      const { game } = await loadGameDay(o);
      process.stdout.write(`\n${(await runPost(r.plan, game, { yes: o.yes, log: (l) => process.stderr.write(`${l}\n`) })).text}`);
    });
}
