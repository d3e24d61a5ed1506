/**
 * `bansha tally --game G --day N`: day N's count at closing from the stored posts (rules-spec §2–§5):
 * totals, the result and the rule that decided it, every player's counted ballot and rejected attempts.
 * `--bbcode` prints the announcement to paste, `--json` the scripted interface, `--at TIME` the count
 * as it stood at a moment, `--rules` wuhui's morning duel-rule vote. Refuses (exit 3) when a thread it
 * reads is incompletely crawled, unless --allow-incomplete. A 120b game has no public vote: it says so
 * and exits 0. `--post` publishes the announcement as a reply in the day's vote thread through the
 * logged-in browser (src/publish): a dry run unless --yes.
 *
 * A count is as of a moment (issue 31): before the day's close (now: src/clock.ts) it is a running count
 * as of now — leaders, not a result — and `--post` refuses (exit 7); after it, a thread the count reads
 * that was not fetched whole after the close makes every view start with as of when it is, and `--post`
 * refuses naming it (exit 7: src/crawl/freshness.ts).
 */
import type { Command } from 'commander';
import { DateTime } from 'luxon';
import { parseForumTime } from '../../game/forum-time.js';
import type { Game } from '../../game/types.js';
import { renderTallyBBCode } from '../../render/tally-bbcode.js';
import { renderTallyJson } from '../../render/tally-json.js';
import { renderTallyTerminal } from '../../render/tally-terminal.js';
import type { TallyResult } from '../../votes/types.js';
import { privateVoteResult } from '../../votes/private-vote.js';
import { UserError } from '../../errors.js';
import { t } from '../../i18n/index.js';
import { gameOptions, loadGameDay, oneOf, stdoutColor } from '../options.js';
import { tallyResult } from '../../derived/kept-closing.js';
import { now as clockNow } from '../../clock.js';
import { countFreshness, goneThreads, refuseOpenDay, refuseStale, staleThreads } from '../../crawl/freshness.js';

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
    throw new UserError(t('tally.badAt', s, game.timezone));
  }
  return iso.toMillis();
}

export function register(program: Command): void {
  gameOptions(program.command('tally').description(t('tally.description')), { day: true, store: true })
    .option('--rules', t('tally.rules'))
    .option('--json', t('tally.json'))
    .option('--bbcode', t('tally.bbcode'))
    .option('--at <time>', t('tally.at'))
    .option('--allow-incomplete', t('opt.allowIncomplete'))
    .option('--post', t('tally.post'))
    .option('--yes', t('opt.yes'))
    .action(async (o: TallyCliOptions) => {
      oneOf({ '--json': o.json, '--bbcode': o.bbcode });
      if (o.yes && !o.post) throw new UserError(t('opt.goesWith', '--yes', '--post'));
      if (o.post && o.at !== undefined) throw new UserError(t('tally.postNotAt'));
      const { game, day } = await loadGameDay(o);
      const now = clockNow();
      if (o.post) refuseOpenDay(game, o.day, now, '--post');
      // Before the close, the count as of now (a running count) — wuhui's duel-rule vote (--rules) too: it
      // closes with the day (tally.ts counts it up to the day's close), so before then it has leaders, not a result.
      const at = o.at !== undefined ? parseAtOption(o.at, game) : now < day.closes ? now : undefined;
      const write = (s: string) => process.stdout.write(s);
      const render = (r: TallyResult) =>
        o.json ? renderTallyJson(r) : o.bbcode ? renderTallyBBCode(r) : renderTallyTerminal(r, { color: stdoutColor() });

      // 120b: nothing to read; say so (exit 0), and never post it.
      const none = o.rules ? null : privateVoteResult(game, o.day, at);
      if (none && o.post) throw new UserError(t('tally.noPublicVote', game.rules.name));
      if (none) {
        write(render(none));
        return;
      }
      // After the close: as of when the threads that decide the count are (fetched whole after it, or not).
      const freshness = at === undefined || at >= day.closes ? await countFreshness(game, o.day, { rules: o.rules }) : [];
      const stale = staleThreads(game, freshness);
      // (threads gone from the forum whose kept versions a ruling accepted: the count carries them, and says so first)
      const opts = { at, rules: o.rules, allowIncomplete: o.allowIncomplete, gone: goneThreads(game, freshness) };
      if (!o.post) {
        // The count as kept when nothing it is made from changed (src/derived/kept-closing.ts), else counted.
        const result = await tallyResult(game, o.day, opts);
        write(render(stale.length ? { ...result, stale } : result));
        return;
      }
      // The earlier days' results (checked against the game file: carry-forward.ts), the day-1 election,
      // the sheriffs' handovers and what the count reads of the discussion and process threads, kept between
      // runs instead of read again each time; the publishing code (and through it the page parser) only when posting.
      const [{ countFromStore }, { announcementPlan, refuseIncompletePost }, { runPost }] = await Promise.all([
        import('../../derived/closed-days.js'), import('../../close/announcement.js'), import('../../publish/index.js'),
      ]);
      await countFromStore(game, o.day, opts, async (result, store) => {
        refuseIncompletePost(result.incomplete ?? [], result);
        refuseStale(game, freshness, '--post');
        // Edits the tool's own earlier announcement when the store holds one, else replies.
        const plan = announcementPlan(store, game, result, renderTallyBBCode(result));
        write((await runPost(plan, game, { yes: o.yes, json: o.json, log: (l) => process.stderr.write(`${l}\n`) })).text);
      });
    });
}
