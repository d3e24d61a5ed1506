/**
 * `bansha elevator --game G --day N`: the 电梯楼 BBCode for floor 2 of day N's discussion thread
 * (rules-spec §9), ready to paste; `--pairs` the wuhui day-1 duel pairs by elevator neighbours;
 * `--arbiter-from NAME` the 120b 仲裁者 range. `--json` for scripts. `--post [reply|edit]` publishes the
 * floor (a reply, or floor 2 replaced) through the logged-in browser (src/publish): a dry run unless --yes.
 */
import type { Command } from 'commander';
import { dayTids } from '../../activity/threads.js';
import { loadGame } from '../../game/game-file.js';
import { findDay } from '../../game/roster.js';
import { arbiterRange, duelPairs, elevatorFloor } from '../../elevator/index.js';
import { UserError } from '../errors.js';
import { dayNumber, withStore } from '../options.js';

export function register(program: Command): void {
  program
    .command('elevator')
    .description('the elevator floor (电梯楼) BBCode for day N; --pairs: day-1 duel pairs; --arbiter-from: the 仲裁者 range')
    .requiredOption('--game <file>', 'the game file (YAML)')
    .requiredOption('--day <n>', 'the game day', dayNumber)
    .option('--store <path>', 'the store file (default: beside the game file)')
    .option('--pairs', 'wuhui: duel pairs of elevator neighbours (1–2, 3–4, …)')
    .option('--arbiter-from <name>', '120b: the 仲裁者 range starting from this player')
    .option('--json', 'print JSON')
    .option('--post [how]', 'publish the floor on the forum: "reply" (default) or "edit" (replace floor 2); a dry run unless --yes')
    .option('--yes', 'with --post: really post (else only show what would be posted)')
    .action(async (o: { game: string; day: number; store?: string; pairs?: boolean; arbiterFrom?: string; json?: boolean; post?: string | boolean; yes?: boolean }) => {
      const game = loadGame(o.game, { store: o.store });
      if (o.pairs && o.arbiterFrom !== undefined) throw new UserError('use --pairs or --arbiter-from, not both');
      const post = o.post === undefined ? null : o.post === true ? 'reply' : o.post;
      if (post !== null && post !== 'reply' && post !== 'edit') throw new UserError(`--post takes "reply" or "edit" (got "${post}")`);
      if (post !== null && (o.pairs || o.arbiterFrom !== undefined)) throw new UserError('--post publishes the elevator floor: not with --pairs or --arbiter-from');
      if (o.yes && post === null) throw new UserError('--yes goes with --post');
      if (o.pairs) {
        const pairs = duelPairs(game, o.day);
        process.stdout.write(o.json ? `${JSON.stringify({ day: o.day, pairs }, null, 2)}\n` : pairs.map((p, i) => `${i + 1}. ${p.length === 2 ? `${p[0]} — ${p[1]}` : `${p[0]} (轮空)`}`).join('\n') + '\n');
        return;
      }
      if (o.arbiterFrom !== undefined) {
        const range = arbiterRange(game, o.day, o.arbiterFrom);
        process.stdout.write(o.json ? `${JSON.stringify({ day: o.day, from: range[0], range }, null, 2)}\n` : `仲裁范围 (${range.length}人): ${range.join('、')}\n`);
        return;
      }
      await withStore(game, async (store) => {
        const floor = elevatorFloor(store, game, o.day);
        for (const w of floor.warnings) process.stderr.write(`warning: ${w}\n`);
        if (post !== null) {
          const { editFloor2Plan, replyPlan, runPost } = await import('../../publish/index.js'); // the browser only when posting
          const what = `the day ${o.day} elevator floor (电梯楼)`;
          const plan = post === 'edit' ? editFloor2Plan(store, game.forum, floor.tid, floor.bbcode, what, game.file) : replyPlan(store, game.forum, floor.tid, floor.bbcode, what);
          process.stdout.write((await runPost(plan, game, { yes: o.yes, json: o.json, log: (l) => process.stderr.write(`${l}\n`) })).text);
          return;
        }
        process.stdout.write(o.json ? `${JSON.stringify(floor, null, 2)}\n` : floor.bbcode);
      }, dayTids(findDay(game, o.day)));
    });
}
