/**
 * `bansha auction --game G --day N`: the wuhui auction thread (拍卖贴) resolved — per item the winner
 * and every bid with its status and reason, pledges, what could not be read, and the vote-out's G split.
 * Refuses (exit 3) when the auction thread's crawl is incomplete, unless --allow-incomplete.
 */
import type { Command } from 'commander';
import { loadGame } from '../../game/game-file.js';
import { findDay } from '../../game/roster.js';
import { assertComplete, openStore } from '../../store/index.js';
import { threadPosts } from '../../store/slice.js';
import { resolveAuction, voteOutShare } from '../../auction/index.js';
import { renderAuctionText } from '../../render/auction-text.js';
import { UserError } from '../errors.js';

function dayNumber(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UserError(`--day must be a whole number ≥ 1 (got "${v}")`);
  return n;
}

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
      const game = loadGame(o.game, { store: o.store });
      let day;
      try {
        day = findDay(game, o.day);
      } catch (e) {
        throw new UserError((e as Error).message);
      }
      if (!game.rules.wuhui) throw new UserError(`the ${game.rules.name} ruleset has no auction (only wuhui has 拍卖贴)`);
      if (!day.auction) throw new UserError(`day ${o.day} has no auction thread in ${game.file}: add "auction: TID" to the day`);
      const store = await openStore(game.storePath, { lock: false, forum: game.forum });
      try {
        if (!store.data.threads[String(day.auction.tid)]) {
          throw new UserError(`the auction thread ${day.auction.tid} is not in the store yet: run \`bansha crawl --game ${game.file} --day ${o.day}\``, 3);
        }
        assertComplete(store.data, [day.auction.tid], { allowIncomplete: o.allowIncomplete });
        const result = resolveAuction(threadPosts(store.data, day.auction.tid), game, o.day);
        const share = voteOutShare(game, day);
        if (o.json) {
          const { day: d, items, pledges, ignored, diamondValue, tid } = result;
          process.stdout.write(`${JSON.stringify({ day: d, tid, diamondValue, items, pledges, ignored, voteOutShare: share }, null, 2)}\n`);
        } else {
          process.stdout.write(renderAuctionText(result, share));
        }
      } finally {
        await store.close();
      }
    });
}
