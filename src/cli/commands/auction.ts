/**
 * `bansha auction --game G --day N`: the wuhui auction thread (拍卖贴) resolved — per item the winner
 * and every bid with its status, code and Chinese reason (src/auction/reasons.ts), pledges, what could not be read, and the vote-out's G split.
 * Refuses (exit 3) when the auction thread's crawl is incomplete, unless --allow-incomplete.
 */
import type { Command } from 'commander';
import { threadPosts } from '../../store/slice.js';
import { resolveAuction, voteOutShare } from '../../auction/index.js';
import { renderAuctionText } from '../../render/auction-text.js';
import { UserError } from '../errors.js';
import { dayNumber, loadGameDay, withCountingStore } from '../options.js';

export function register(program: Command): void {
  program
    .command('auction')
    .description('wuhui: resolve day N\'s auction thread (拍卖贴): winners, every bid and why, pledges, the vote-out\'s G split')
    .requiredOption('--game <file>', 'the game file (YAML)')
    .requiredOption('--day <n>', 'the game day', dayNumber)
    .option('--store <path>', 'the store file (default: beside the game file)')
    .option('--allow-incomplete', 'resolve even when the thread\'s crawl has gaps')
    .option('--json', 'print JSON')
    .action(async (o: { game: string; day: number; store?: string; allowIncomplete?: boolean; json?: boolean }) => {
      const { game, day } = loadGameDay(o);
      if (!game.rules.wuhui) throw new UserError(`the ${game.rules.name} ruleset has no auction (only wuhui has 拍卖贴)`);
      const auction = day.auction;
      if (!auction) throw new UserError(`day ${o.day} has no auction thread in ${game.file}: add "auction: TID" to the day`);
      const notStored = () => new UserError(`the auction thread ${auction.tid} is not in the store yet: run \`bansha crawl --game ${game.file} --day ${o.day}\``, 3);
      const result = await withCountingStore(game, { tids: [auction.tid], allowIncomplete: o.allowIncomplete, notStored }, (store) =>
        resolveAuction(threadPosts(store, auction.tid), game, o.day));
      const share = voteOutShare(game, day);
      if (o.json) {
        const { day: d, items, pledges, ignored, diamondValue, tid } = result;
        process.stdout.write(`${JSON.stringify({ day: d, tid, diamondValue, items, pledges, ignored, voteOutShare: share }, null, 2)}\n`);
      } else {
        process.stdout.write(renderAuctionText(result, share));
      }
    });
}
