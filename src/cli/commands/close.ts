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
import { gameOptions, loadGameDay } from '../options.js';
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
  gameOptions(program.command('close').description(t('close.description')), { day: true, store: true })
    .option('--out <dir>', t('close.opt.out'))
    .option('--no-crawl', t('close.opt.noCrawl'))
    .option('--confirm', t('close.opt.confirm'))
    .option('--allow-incomplete', t('close.opt.allowIncomplete'))
    .option('--post', t('close.opt.post'))
    .option('--yes', t('opt.yes'))
    .action(async (o: CloseCliOptions) => {
      if (o.yes && !o.post) throw new UserError(t('opt.goesWith', '--yes', '--post'));
      await loadGameDay(o); // a bad file or day fails before any crawl
      const r = await closeDay({
        gameFile: o.game, day: o.day, out: o.out, store: o.store, crawl: o.crawl, confirm: o.confirm, allowIncomplete: o.allowIncomplete,
        log: process.stderr.isTTY ? (l) => process.stderr.write(`${l}\n`) : undefined,
      });
      const lines = [t('close.heading', o.day, o.game), ...r.summary.map((l) => `  ${l}`), '', t('close.writtenTo', r.out)];
      for (const f of r.files) lines.push(`  ${f.what.padEnd(32)} ${f.path}`);
      process.stdout.write(`${lines.join('\n')}\n`);
      if (!o.post) return;
      refuseIncompletePost(r.incomplete, r.tally);
      if (!r.plan) throw new UserError(t('close.noPublicCount', o.day));
      const { game } = await loadGameDay(o);
      process.stdout.write(`\n${(await runPost(r.plan, game, { yes: o.yes, log: (l) => process.stderr.write(`${l}\n`) })).text}`);
    });
}
