/**
 * `bansha rule accept|reject PID|CARD --game G --day N --why TEXT`, `rule list`, `rule undo [ID]`: the
 * director's rulings (导演裁定, src/rulings). A ruling overrides what the rules make of one ballot (the
 * pid of a post in the day's vote thread), one flagged post (`--flag`, or a pid outside the vote
 * threads) or one proposed card (C3: decided in the card ledger). Rulings are kept append-only in
 * `<game>.rulings.json` beside the game file and every count, report and render applies them from
 * then on; the public outputs say 导演裁定 and why. A pid the store does not hold, a ballot of another
 * day, or an acceptance that cannot count is refused with the reason (exit 2).
 */
import os from 'node:os';
import type { Command } from 'commander';
import { ledgerPath, readLedger, writeLedger } from '../../cards/ledger.js';
import { loadGame } from '../../game/game-file.js';
import type { Game } from '../../game/types.js';
import { terminalSafe as s } from '../../render/safe-text.js';
import { activeRulings, appendEntry, latestActive } from '../../rulings/active.js';
import { applyCardRuling, ledgerCard, reopenCard } from '../../rulings/cards.js';
import { checkBallotRuling } from '../../rulings/check.js';
import { readRulings, rulingsPath, writeRulings } from '../../rulings/file.js';
import type { Ruling, RulingVerb } from '../../rulings/types.js';
import { UserError } from '../../errors.js';
import { dayNumber, withStore } from '../options.js';
import { closingDay } from '../../close/closing-day.js';
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

const CARD_ID = /^C\d+$/i;

/** Who rules: --by, else the game's first director, else the local user. */
function ruler(game: Game, by?: string): string {
  return by?.trim() || game.directors[0] || os.userInfo().username;
}

/** One ruling in words, for list and the command's answer. */
function rulingLine(r: Ruling): string {
  const what = r.subject === 'card' ? `card ${r.card}` : `${r.subject === 'flag' ? 'flag on ' : ''}pid ${r.pid}`;
  return `#${r.id}  day ${r.day}  ${r.verb === 'accept' ? '认可' : '不计'}  ${what}  — ${s(r.why)}  (${s(r.by)}, ${r.at})`;
}

async function rule(verb: RulingVerb, target: string, o: RuleCliOptions): Promise<void> {
  if (!o.why?.trim()) throw new UserError(`rule ${verb} needs --why "…": the reason is shown in public as 导演裁定（…）`);
  const game = loadGame(o.game, { store: o.store });
  const file = rulingsPath(game.file);
  const data = readRulings(file);
  const base = { verb, why: o.why.trim(), by: ruler(game, o.by), at: new Date().toISOString() };
  const out: string[] = [];

  if (!o.flag && CARD_ID.test(target.trim())) {
    const ledgerFile = ledgerPath(game.file);
    const ledger = readLedger(game, ledgerFile);
    const card = ledgerCard(ledger, target);
    if (!card) throw new UserError(`no card ${target} in the ledger ${ledgerFile} (run bansha report --day N first)`);
    const { data: next, entry } = appendEntry(data, { ...base, subject: 'card' as const, card: card.id, day: card.day });
    await writeLedger(applyCardRuling(ledger, entry, new Date()), ledgerFile);
    await writeRulings(next, file);
    out.push(`导演裁定 ${rulingLine(entry)}`, `${card.id} ${verb === 'accept' ? 'confirmed' : 'dismissed'} in ${ledgerFile}`);
    process.stdout.write(`${out.join('\n')}\n`);
    return;
  }

  const pid = Number(target);
  if (!Number.isInteger(pid) || pid <= 0) throw new UserError(`"${target}" is neither a post id (pid) nor a card id (C3)`);
  if (o.day === undefined) throw new UserError('--day N: the day the ballot or flag belongs to');
  const day = o.day;
  await withStore(game, async (store) => {
    const inVoteThread = game.days.some((d) => [d.vote?.tid, d.rules?.tid].includes(store.posts[String(pid)]?.tid));
    if (!o.flag && (inVoteThread || !store.posts[String(pid)])) {
      const ruling = { ...base, subject: 'ballot' as const, pid, day };
      const effect = checkBallotRuling(game, store, ruling);
      const { data: next, entry } = appendEntry(data, ruling);
      await writeRulings(next, file);
      const b = effect.ballot;
      out.push(
        `导演裁定 ${rulingLine(entry)}`,
        `  ${s(b.voter)} → ${s(b.target ?? '?')} ${b.floor ?? '?'}#: ${effect.was.status} → ${b.status}`,
        `  day ${day} result: ${s(effect.before.result.name ?? '—')} → ${s(effect.after.result.name ?? '—')}`,
      );
      return;
    }
    if (!store.posts[String(pid)]) throw new UserError(`pid ${pid} is not in the store ${game.storePath}`);
    const flagged = closingDay(game, store, day, { ledgerFile: null }).report.flags.filter((f) => f.pid === pid);
    if (!flagged.length) throw new UserError(`pid ${pid} is neither a ballot nor a flagged post of day ${day}: nothing to rule on`);
    const { data: next, entry } = appendEntry(data, { ...base, subject: 'flag' as const, pid, day });
    await writeRulings(next, file);
    out.push(`导演裁定 ${rulingLine(entry)}`, ...flagged.map((f) => `  ${s(f.player)} ${f.kind}: ${verb === 'accept' ? 'stands' : 'dropped (no card proposed)'}`));
  });
  process.stdout.write(`${out.join('\n')}\n`);
}

export function register(program: Command): void {
  const cmd = program.command('rule').description(t('rule.description'));
  for (const verb of ['accept', 'reject'] as const) {
    cmd
      .command(`${verb} <pid-or-card>`)
      .description(verb === 'accept' ? 'count a ballot the rules rejected (or confirm a flag/card), with the reason' : 'void a ballot the rules counted (or drop a flag, dismiss a card), with the reason')
      .requiredOption('--game <file>', 'the game file (YAML)')
      .option('--day <n>', 'the day of the ballot or flag (a pid only)', dayNumber)
      .requiredOption('--why <text>', 'why: shown in public as 导演裁定（…）')
      .option('--by <name>', 'who rules (default: the game\'s first director)')
      .option('--flag', 'the pid is a flagged post, not a ballot')
      .option('--store <path>', 'the store file (default: beside the game file)')
      .action((target: string, o: RuleCliOptions) => rule(verb, target, o));
  }
  cmd
    .command('list')
    .description('the rulings in force (and, with --json, every entry of the file)')
    .requiredOption('--game <file>', 'the game file (YAML)')
    .option('--json', 'print JSON: {active, entries}')
    .action((o: RuleCliOptions) => {
      const game = loadGame(o.game);
      const data = readRulings(rulingsPath(game.file));
      const active = activeRulings(data);
      if (o.json) {
        process.stdout.write(`${JSON.stringify({ active, entries: data.entries }, null, 2)}\n`);
        return;
      }
      const lines = active.length ? active.map(rulingLine) : ['(no rulings: bansha rule accept|reject PID --game … --day N --why …)'];
      process.stdout.write(`Rulings of ${game.file} (${rulingsPath(game.file)})\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
    });
  cmd
    .command('undo [id]')
    .description('take back a ruling (default: the latest in force); the file keeps it, marked undone')
    .requiredOption('--game <file>', 'the game file (YAML)')
    .option('--by <name>', 'who takes it back (default: the game\'s first director)')
    .action(async (id: string | undefined, o: RuleCliOptions) => {
      const game = loadGame(o.game);
      const file = rulingsPath(game.file);
      const data = readRulings(file);
      const active = activeRulings(data);
      const target = id === undefined ? latestActive(data) : active.find((r) => r.id === Number(id.replace(/^#/, '')));
      if (!target) {
        throw new UserError(id === undefined ? 'no ruling in force to undo' : `no ruling #${id} in force (in force: ${active.map((r) => `#${r.id}`).join(', ') || 'none'})`);
      }
      const { data: next } = appendEntry(data, { verb: 'undo' as const, undoes: target.id, by: ruler(game, o.by), at: new Date().toISOString() });
      if (target.subject === 'card' && target.card) {
        const ledgerFile = ledgerPath(game.file);
        await writeLedger(reopenCard(readLedger(game, ledgerFile), target.card), ledgerFile);
      }
      await writeRulings(next, file);
      process.stdout.write(`undone: ${rulingLine(target)}\n`);
    });
}
