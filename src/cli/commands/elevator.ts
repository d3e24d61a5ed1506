/**
 * `bansha elevator --game G --day N`: the 电梯楼 BBCode for floor 2 of day N's discussion thread
 * (rules-spec §9), ready to paste; `--pairs` the wuhui day-1 duel pairs by elevator neighbours;
 * `--arbiter-from NAME` the 120b 仲裁者 range. `--json` for scripts. `--post [reply|edit]` publishes the
 * floor (a reply, or floor 2 replaced) through the logged-in browser (src/publish): a dry run unless --yes.
 * A player the closed days put out (voted out, 罚下) whom the game file does not record yet is listed as
 * out, with a warning naming the player, the day and the result (src/close/carried.ts).
 */
import type { Command } from 'commander';
import { dayTids } from '../../game/threads.js';
import { loadGameCached } from '../../game/game-cache.js';
import { findDay, withKnownUids } from '../../game/roster.js';
import { arbiterRange, duelPairs, elevatorFloor } from '../../elevator/index.js';
import { renderElevatorBBCode } from '../../render/elevator-bbcode.js';
import { UserError } from '../../errors.js';
import { t } from '../../i18n/index.js';
import { gameOptions } from '../options.js';
import type { ThreadRecords } from '../../store/store-file.js';

export function register(program: Command): void {
  gameOptions(program.command('elevator').description(t('elevator.description')), { day: true, store: true })
    .option('--pairs', t('elevator.pairs'))
    .option('--arbiter-from <name>', t('elevator.arbiterFrom'))
    .option('--json', t('elevator.json'))
    .option('--post [how]', t('elevator.post'))
    .option('--yes', t('opt.yes'))
    .action(async (o: { game: string; day: number; store?: string; pairs?: boolean; arbiterFrom?: string; json?: boolean; post?: string | boolean; yes?: boolean }) => {
      const game = await loadGameCached(o.game, { store: o.store });
      if (o.pairs && o.arbiterFrom !== undefined) throw new UserError(t('elevator.pairsOrArbiter'));
      const post = o.post === undefined ? null : o.post === true ? 'reply' : o.post;
      if (post !== null && post !== 'reply' && post !== 'edit') throw new UserError(t('elevator.badPost', String(post)));
      if (post !== null && (o.pairs || o.arbiterFrom !== undefined)) throw new UserError(t('elevator.postAlone'));
      if (o.yes && post === null) throw new UserError(t('opt.goesWith', '--yes', '--post'));
      if (o.pairs) {
        const pairs = duelPairs(game, o.day);
        process.stdout.write(o.json ? `${JSON.stringify({ day: o.day, pairs }, null, 2)}\n` : pairs.map((p, i) => `${i + 1}. ${p.length === 2 ? `${p[0]} — ${p[1]}` : `${p[0]}${t('elevator.bye')}`}`).join('\n') + '\n');
        return;
      }
      if (o.arbiterFrom !== undefined) {
        const range = arbiterRange(game, o.day, o.arbiterFrom);
        process.stdout.write(o.json ? `${JSON.stringify({ day: o.day, from: range[0], range }, null, 2)}\n` : `${t('elevator.range', range.length, range.join('、'))}\n`);
        return;
      }
      // The store, the closed days' count and what carries forward only for the floor (--pairs and --arbiter-from read the game file alone).
      const tids = dayTids(findDay(game, o.day));
      /** The floor, and what the director must know, from the store's uids and the day's thread records. */
      const floorOf = async (store: ThreadRecords) => {
        const [{ emptyStore }, { carriedForward }, { closedOutcomes }] = await Promise.all([
          import('../../store/store-file.js'), import('../../close/carried.js'), import('../../derived/closed-days.js'),
        ]);
        // The closed days' results the game file does not record yet are applied, each named (carried.ts),
        // from their outcomes kept in the store's derived files (read apart: the day's posts are not needed).
        const { closed } = await closedOutcomes(withKnownUids(game, store.users), o.day, emptyStore(game.forum), { outcomesOnly: true });
        const carried = carriedForward(game, closed, o.day);
        const floor = elevatorFloor(store, carried.game, o.day);
        return { floor, bbcode: renderElevatorBBCode(floor), warnings: [...carried.warnings.map((x) => x.text), ...floor.warnings] };
      };
      const warn = (warnings: readonly string[]) => {
        for (const w of warnings) process.stderr.write(`${t('elevator.warning', w)}\n`);
      };
      if (post === null) {
        // Only the threads' records: the floor shows no post. Kept while nothing it is made from changed (kept-closing.ts).
        const { elevatorView } = await import('../../derived/kept-closing.js');
        const { floor, bbcode, warnings } = await elevatorView(game, o.day, async () => floorOf(await (await import('../../derived/thread-records.js')).keptThreadRecords(game.storePath, tids)));
        warn(warnings);
        process.stdout.write(o.json ? `${JSON.stringify({ ...floor, bbcode }, null, 2)}\n` : bbcode);
        return;
      }
      const { withStore } = await import('../../store/with-store.js');
      await withStore(game, async (store) => {
        const { floor, bbcode, warnings } = await floorOf(store);
        warn(warnings);
        const { editFloor2Plan, replyPlan, runPost } = await import('../../publish/index.js'); // the browser only when posting
        const what = t('elevator.postWhat', o.day);
        const plan = post === 'edit' ? editFloor2Plan(store, game.forum, floor.tid, bbcode, what, game.file) : replyPlan(store, game.forum, floor.tid, bbcode, what);
        process.stdout.write((await runPost(plan, game, { yes: o.yes, json: o.json, log: (l) => process.stderr.write(`${l}\n`) })).text);
      }, tids);
    });
}
