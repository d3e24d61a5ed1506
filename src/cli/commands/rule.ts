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
import { auctionDayOf, checkBallotRuling, checkBidRuling } from '../../rulings/check.js';
import { readRulings, rulingsPath, writeRulings } from '../../rulings/file.js';
import type { Ruling, RulingVerb } from '../../rulings/types.js';
import { UserError } from '../../errors.js';
import { dayNumber, gameOptions } from '../options.js';
import { withStore } from '../../store/with-store.js';
import { closingDay } from '../../close/closing-day.js';
import { language, t } from '../../i18n/index.js';
import { flagKindLabel } from '../../violations/flag.js';
import { rulingTime } from '../../votes/select.js';

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
function rulingLine(r: Ruling, zone: string): string {
  const what = r.subject === 'card'
    ? t('rule.what.card', r.card ?? '')
    : r.subject === 'flag' ? t('rule.what.flag', r.pid ?? 0) : r.subject === 'bid' ? t('rule.what.bid', r.pid ?? 0) : t('rule.what.ballot', r.pid ?? 0);
  return t('rule.line', r.id, r.day, r.verb === 'accept', what, s(r.why), s(r.by), rulingTime(r.at, zone));
}

async function rule(verb: RulingVerb, target: string, o: RuleCliOptions): Promise<void> {
  if (!o.why?.trim()) throw new UserError(t('rule.needsWhy', verb));
  const game = loadGame(o.game, { store: o.store });
  const file = rulingsPath(game.file);
  const data = readRulings(file);
  const base = { verb, why: o.why.trim(), by: ruler(game, o.by), at: new Date().toISOString() };
  const out: string[] = [];

  if (!o.flag && CARD_ID.test(target.trim())) {
    const ledgerFile = ledgerPath(game.file);
    const ledger = readLedger(game, ledgerFile);
    const card = ledgerCard(ledger, target);
    if (!card) throw new UserError(t('rule.noCard', target, ledgerFile));
    const { data: next, entry } = appendEntry(data, { ...base, subject: 'card' as const, card: card.id, day: card.day });
    await writeLedger(applyCardRuling(ledger, entry, new Date()), ledgerFile);
    await writeRulings(next, file);
    out.push(t('rule.ruled', rulingLine(entry, game.timezone)), t('rule.cardDone', card.id, verb === 'accept', ledgerFile));
    process.stdout.write(`${out.join('\n')}\n`);
    return;
  }

  const pid = Number(target);
  if (!Number.isInteger(pid) || pid <= 0) throw new UserError(t('rule.badTarget', target));
  if (o.day === undefined) throw new UserError(t('rule.needsDay'));
  const day = o.day;
  await withStore(game, async (store) => {
    const stored = store.posts[String(pid)];
    // A post of an auction thread (wuhui 拍卖贴): its bids are ruled on like a ballot.
    if (!o.flag && stored && auctionDayOf(game, stored.tid) !== null) {
      const ruling = { ...base, subject: 'bid' as const, pid, day };
      const effect = checkBidRuling(game, store, ruling);
      const { data: next, entry } = appendEntry(data, ruling);
      await writeRulings(next, file);
      out.push(t('rule.ruled', rulingLine(entry, game.timezone)));
      for (const { item, bid, was } of effect.bids) {
        const winner = (r: typeof effect.after) => r.items.find((x) => x.item === item)?.winner ?? '—';
        out.push(t('rule.bidEffect', s(bid.bidder), item, bid.price, t(`auction.status.${was.status}`), t(`auction.status.${bid.status}`), s(winner(effect.before)), s(winner(effect.after))));
      }
      return;
    }
    const inVoteThread = game.days.some((d) => [d.vote?.tid, d.rules?.tid].includes(store.posts[String(pid)]?.tid));
    if (!o.flag && (inVoteThread || !store.posts[String(pid)])) {
      const ruling = { ...base, subject: 'ballot' as const, pid, day };
      const effect = checkBallotRuling(game, store, ruling);
      const { data: next, entry } = appendEntry(data, ruling);
      await writeRulings(next, file);
      const b = effect.ballot;
      out.push(
        t('rule.ruled', rulingLine(entry, game.timezone)),
        effect.was.status === b.status
          ? t('rule.ballotSame', s(b.voter), s(b.target ?? '?'), String(b.floor ?? '?'), t(`tally.status.${b.status}`))
          : t('rule.ballotEffect', s(b.voter), s(b.target ?? '?'), String(b.floor ?? '?'), t(`tally.status.${effect.was.status}`), t(`tally.status.${b.status}`)),
        sameOutcome(effect.before.result, effect.after.result)
          ? t('rule.dayResultSame', day, s(effect.after.result.name ?? '—'))
          : t('rule.dayResult', day, s(effect.before.result.name ?? '—'), s(effect.after.result.name ?? '—')),
      );
      return;
    }
    if (!store.posts[String(pid)]) throw new UserError(t('rule.notInStore', pid, game.storePath));
    const flagged = closingDay(game, store, day, { ledgerFile: null }).report.flags.filter((f) => f.pid === pid);
    if (!flagged.length) throw new UserError(t('rule.notFlagged', pid, day));
    const { data: next, entry } = appendEntry(data, { ...base, subject: 'flag' as const, pid, day });
    await writeRulings(next, file);
    out.push(t('rule.ruled', rulingLine(entry, game.timezone)), ...flagged.map((f) => t('rule.flagEffect', s(f.player), flagKindLabel(f.kind), verb === 'accept')));
  });
  process.stdout.write(`${out.join('\n')}\n`);
}

/** The day's result is the same after the ruling as before it: the same player (or nobody), the same tie. */
function sameOutcome(before: { name: string | null; tie: string[] }, after: { name: string | null; tie: string[] }): boolean {
  return before.name === after.name && before.tie.join('\n') === after.tie.join('\n');
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
      const file = rulingsPath(game.file);
      const data = readRulings(file);
      const active = activeRulings(data);
      const target = id === undefined ? latestActive(data) : active.find((r) => r.id === Number(id.replace(/^#/, '')));
      if (!target) {
        throw new UserError(id === undefined ? t('rule.nothingToUndo') : t('rule.noSuchRuling', id, active.map((r) => `#${r.id}`).join(', ')));
      }
      const { data: next } = appendEntry(data, { verb: 'undo' as const, undoes: target.id, by: ruler(game, o.by), at: new Date().toISOString() });
      if (target.subject === 'card' && target.card) {
        const ledgerFile = ledgerPath(game.file);
        await writeLedger(reopenCard(readLedger(game, ledgerFile), target.card), ledgerFile);
      }
      await writeRulings(next, file);
      process.stdout.write(`${t('rule.undone', rulingLine(target, game.timezone))}\n`);
    });
}
