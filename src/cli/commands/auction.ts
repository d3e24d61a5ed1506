/**
 * `bansha auction --game G --day N`: the wuhui auction thread (拍卖贴) resolved — per item the winner
 * and every bid with its status, code and Chinese reason (src/auction/reasons.ts), pledges, what could not be read, and the vote-out's G split.
 * Refuses (exit 3) when the auction thread's crawl is incomplete, unless --allow-incomplete.
 */
import type { Command } from 'commander';
import { threadPosts } from '../../store/slice.js';
import { resolveAuction, voteOutShare } from '../../auction/index.js';
import { renderAuctionText } from '../../render/auction-text.js';
import { UserError } from '../../errors.js';
import { t } from '../../i18n/index.js';
import { gameOptions, loadGameDay, stdoutColor } from '../options.js';
import { withCountingStore } from '../../store/with-store.js';

export function register(program: Command): void {
  gameOptions(program.command('auction').description(t('auction.description')), { day: true, store: true })
    .option('--allow-incomplete', t('auction.allowIncomplete'))
    .option('--json', t('auction.json'))
    .action(async (o: { game: string; day: number; store?: string; allowIncomplete?: boolean; json?: boolean }) => {
      const { game, day } = await loadGameDay(o);
      if (!game.rules.wuhui) throw new UserError(t('auction.notWuhui', game.rules.name));
      const auction = day.auction;
      if (!auction) throw new UserError(t('auction.noThread', o.day, game.file));
      const notStored = () => new UserError(t('auction.notStored', auction.tid, game.file, o.day), 3);
      const result = await withCountingStore(game, { tids: [auction.tid], allowIncomplete: o.allowIncomplete, notStored }, (store) =>
        resolveAuction(threadPosts(store, auction.tid), game, o.day));
      const share = voteOutShare(game, day);
      if (o.json) {
        const { day: d, items, pledges, ignored, diamondValue, tid } = result;
        process.stdout.write(`${JSON.stringify({ day: d, tid, diamondValue, items, pledges, ignored, voteOutShare: share }, null, 2)}\n`);
      } else {
        process.stdout.write(renderAuctionText(result, share, stdoutColor()));
      }
    });
}
