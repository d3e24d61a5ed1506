/**
 * `bansha tally --game G --day N`: day N's count at closing from the stored posts (rules-spec §2–§5):
 * totals, the result and the rule that decided it, every player's counted ballot and rejected attempts.
 * `--bbcode` prints the announcement to paste, `--json` the scripted interface, `--at TIME` the count
 * as it stood at a moment, `--rules` wuhui's morning duel-rule vote. Refuses (exit 3) when a thread it
 * reads is incompletely crawled, unless --allow-incomplete. A 120b game has no public vote: it says so
 * and exits 0. `--post` publishes the announcement as a reply in the day's vote thread through the
 * logged-in browser (src/publish): a dry run unless --yes.
 */
import type { Command } from 'commander';
import { DateTime } from 'luxon';
import { parseForumTime } from '../../game/forum-time.js';
import type { Game } from '../../game/types.js';
import { renderTallyBBCode } from '../../render/tally-bbcode.js';
import { renderTallyJson } from '../../render/tally-json.js';
import { renderTallyTerminal } from '../../render/tally-terminal.js';
import { postsFromStore, tallyDay, threadsForTally } from '../../votes/tally.js';
import { withKnownUids } from '../../game/roster.js';
import { UserError } from '../errors.js';
import { dayNumber, loadGameDay, stdoutColor, withCountingStore } from '../options.js';
import { earlierVoteThreads } from '../../votes/carry-forward.js';

interface TallyCliOptions {
  game: string;
  day: number;
  rules?: boolean;
  json?: boolean;
  bbcode?: boolean;
  at?: string;
  store?: string;
  allowIncomplete?: boolean;
  post?: boolean;
  yes?: boolean;
}

/** `--at`: forum-local "2026-11-22 18:00[:ss]" in the game's zone, or ISO 8601 with an offset. */
export function parseAtOption(s: string, game: Game): number {
  const local = parseForumTime(s, game.timezone);
  if (local !== null) return local;
  const iso = DateTime.fromISO(s.trim(), { setZone: true });
  if (!iso.isValid || !/(Z|[+-]\d{2}:?\d{2})$/.test(s.trim())) {
    throw new UserError(`--at "${s}": give a forum-local time like "2026-11-22 18:00" (${game.timezone}) or ISO 8601 with an offset`);
  }
  return iso.toMillis();
}

export function register(program: Command): void {
  program
    .command('tally')
    .description('count day N\'s votes by the rules: totals, result and why, every ballot and every rejected attempt')
    .requiredOption('--game <file>', 'the game file (YAML)')
    .requiredOption('--day <n>', 'the game day', dayNumber)
    .option('--rules', 'wuhui: the morning duel-rule vote (对战规则投票帖) instead of the vote thread')
    .option('--json', 'print JSON: {day, kind, sheriff, accelerated, totals, result, ballots}')
    .option('--bbcode', 'print the announcement to paste into the vote thread (Discuz BBCode)')
    .option('--at <time>', 'count as it stood at this moment ("2026-11-22 18:00", forum time)')
    .option('--store <path>', 'the store file (default: beside the game file)')
    .option('--allow-incomplete', 'count even when a thread\'s crawl has gaps')
    .option('--post', 'publish the announcement (the --bbcode text) as a reply in the day\'s vote thread; a dry run unless --yes')
    .option('--yes', 'with --post: really post (else only show what would be posted)')
    .action(async (o: TallyCliOptions) => {
      if (o.json && o.bbcode) throw new UserError('choose one of --json and --bbcode');
      if (o.yes && !o.post) throw new UserError('--yes goes with --post');
      if (o.post && o.at !== undefined) throw new UserError('--post publishes the count at closing: not with --at');
      const { game, day } = loadGameDay(o);
      const at = o.at !== undefined ? parseAtOption(o.at, game) : undefined;
      const write = (s: string) => process.stdout.write(s);
      const render = (r: ReturnType<typeof tallyDay>) =>
        o.json ? renderTallyJson(r) : o.bbcode ? renderTallyBBCode(r) : renderTallyTerminal(r, { color: stdoutColor() });

      if (!game.rules.publicVote && !o.rules && o.post) throw new UserError(`the ${game.rules.name} ruleset has no public vote: there is no tally announcement to post`);
      if (!game.rules.publicVote && !o.rules) {
        // 120b: nothing to read; say so (exit 0).
        write(render(tallyDay(game, () => [], o.day, { at })));
        return;
      }
      const tids = threadsForTally(game, o.day, { rules: o.rules });
      // Earlier days' vote threads too: the tally checks their results against the game file (carry-forward.ts).
      await withCountingStore(game, { tids, load: earlierVoteThreads(game, o.day), allowIncomplete: o.allowIncomplete }, async (store, incomplete) => {
        const result = tallyDay(withKnownUids(game, store.users), postsFromStore(store), o.day, { at, rules: o.rules });
        if (incomplete.length) result.incomplete = incomplete;
        if (o.post) {
          // The publishing code (and through it the page parser) only when posting.
          const { announcementPlan, refuseIncompletePost } = await import('../../close/announcement.js');
          const { runPost } = await import('../../publish/index.js');
          refuseIncompletePost(incomplete);
          // Edits the tool's own earlier announcement when the store holds one, else replies.
          const plan = announcementPlan(store, game, result, renderTallyBBCode(result));
          write((await runPost(plan, game, { yes: o.yes, json: o.json, log: (l) => process.stderr.write(`${l}\n`) })).text);
          return;
        }
        write(render(result));
      });
    });
}
