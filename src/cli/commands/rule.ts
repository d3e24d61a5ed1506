/**
 * `bansha rule accept|reject PID|CARD --game G --day N --why TEXT`, `rule list`, `rule undo [ID]`: the
 * director's rulings (导演裁定, src/rulings). A ruling overrides what the rules make of one ballot (the
 * pid of a post in the day's vote thread), one flagged post (`--flag`, or a pid outside the vote
 * threads), one proposed card (C3: decided in the card ledger) or, `accept` only, a thread the forum says
 * no longer exists (T2: the day's count goes by its versions read before; src/crawl/freshness.ts). Rulings are kept append-only in
 * `<game>.rulings.json` beside the game file and every count, report and render applies them from
 * then on; the public outputs say 导演裁定 and why. A pid the store does not hold, a ballot of another
 * day, or an acceptance that cannot count is refused with the reason (exit 2).
 */
import type { Command } from 'commander';
import { loadGame } from '../../game/game-file.js';
import { activeRulings } from '../../game/rulings/active.js';
import { readRulings, rulingsPath } from '../../game/rulings/file.js';
import { applyRuling, rulingLine, undoRuling } from '../../rulings/rule.js';
import type { RulingVerb } from '../../game/rulings/types.js';
import { dayNumber, gameOptions } from '../options.js';
import { t } from '../../i18n/index.js';

interface RuleCliOptions {
  game: string;
  day?: number;
  why?: string;
  by?: string;
  flag?: boolean;
  store?: string;
  json?: boolean;
}

async function rule(verb: RulingVerb, target: string, o: RuleCliOptions): Promise<void> {
  const game = loadGame(o.game, { store: o.store });
  const out = await applyRuling(game, verb, target, o);
  process.stdout.write(`${out.join('\n')}\n`);
}

export function register(program: Command): void {
  const cmd = program.command('rule').description(t('rule.description'));
  for (const verb of ['accept', 'reject'] as const) {
    gameOptions(cmd.command(`${verb} <pidOrCard>`).description(t(verb === 'accept' ? 'rule.accept.description' : 'rule.reject.description')))
      .option('--day <n>', t('rule.opt.day'), dayNumber)
      .requiredOption('--why <text>', t('rule.opt.why'))
      .option('--by <name>', t('rule.opt.by'))
      .option('--flag', t('rule.opt.flag'))
      .option('--store <path>', t('opt.store'))
      .action((target: string, o: RuleCliOptions) => rule(verb, target, o));
  }
  gameOptions(cmd.command('list').description(t('rule.list.description')))
    .option('--json', t('rule.opt.json'))
    .action((o: RuleCliOptions) => {
      const game = loadGame(o.game);
      const data = readRulings(rulingsPath(game.file));
      const active = activeRulings(data);
      if (o.json) {
        process.stdout.write(`${JSON.stringify({ active, entries: data.entries }, null, 2)}\n`);
        return;
      }
      const lines = active.length ? active.map((r) => rulingLine(r, game.timezone)) : [t('rule.none')];
      process.stdout.write(`${t('rule.listHeading', game.file, rulingsPath(game.file))}\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
    });
  gameOptions(cmd.command('undo [id]').description(t('rule.undo.description')))
    .option('--by <name>', t('rule.opt.undoBy'))
    .action(async (id: string | undefined, o: RuleCliOptions) => {
      const game = loadGame(o.game);
      const target = await undoRuling(game, id, o.by);
      process.stdout.write(`${t('rule.undone', rulingLine(target, game.timezone))}\n`);
    });
}
