/**
 * The director's rulings as one call each, what `bansha rule accept|reject|undo` (src/cli/commands/rule.ts)
 * and the closing cockpit's buttons (src/cockpit) both run: checked against the store, appended to the
 * rulings file beside the game (and a card's to the ledger) under the file's lock, so two of them at once
 * never lose an entry. Each returns the lines that say what changed.
 */
import os from 'node:os';
import { ledgerPath, readLedger, writeLedger } from '../cards/ledger.js';
import type { Game } from '../game/types.js';
import { terminalSafe as s } from '../text/safe-text.js';
import { activeRulings, appendEntry, latestActive } from '../game/rulings/active.js';
import { applyCardRuling, ledgerCard, reopenCard } from './cards.js';
import { auctionDayOf, checkBallotRuling, checkBidRuling, checkRequestRuling, checkSuccessorRuling } from './check.js';
import { readRulings, rulingsPath, writeRulings } from '../game/rulings/file.js';
import type { Ruling, RulingVerb } from '../game/rulings/types.js';
import { UserError } from '../errors.js';
import { withStore } from '../store/with-store.js';
import { takeFileLock } from '../store/lock.js';
import { closingDay } from '../day/closing-day.js';
import { t } from '../i18n/index.js';
import { flagKindLabel } from '../violations/flag.js';
import { rulingTime } from '../votes/select.js';
import { gameTids } from '../game/threads.js';
import { readFetches } from '../crawl/freshness.js';

/** What a ruling is given besides its verb and target. */
export interface RuleOptions {
  day?: number;
  why?: string;
  by?: string;
  flag?: boolean;
}

const CARD_ID = /^C\d+$/i;
const THREAD_ID = /^T\d+$/i;

/** Who rules: --by, else the game's first director, else the local user. */
export function ruler(game: Game, by?: string): string {
  return by?.trim() || game.directors[0] || os.userInfo().username;
}

/** One ruling in words, for list and the command's answer; its time in the forum's zone. */
export function rulingLine(r: Ruling, zone: string): string {
  const what = r.subject === 'card' ? t('rule.what.card', r.card ?? '')
    : r.subject === 'thread' ? t('rule.what.thread', r.tid ?? 0)
    : t(`rule.what.${r.subject}`, r.pid ?? 0); // (every other subject is a post, by pid)
  return t('rule.line', r.id, r.day, r.verb === 'accept', what, s(r.why), s(r.by), rulingTime(r.at, zone));
}

/** The day's result is the same after the ruling as before it: the same player (or nobody), the same tie. */
function sameOutcome(before: { name: string | null; tie: string[] }, after: { name: string | null; tie: string[] }): boolean {
  return before.name === after.name && before.tie.join('\n') === after.tie.join('\n');
}

/**
 * Rules `verb` on `target` (a pid: a ballot, a bid, or with `flag` a flagged post; or a card id "C3"):
 * refused with the reason (a UserError) when it cannot stand; returns the lines saying what it did.
 */
export async function applyRuling(game: Game, verb: RulingVerb, target: string, o: RuleOptions): Promise<string[]> {
  if (!o.why?.trim()) throw new UserError(t('rule.needsWhy', verb));
  return underLock(game, () => rule(game, verb, target, o));
}

/**
 * Runs a change of the rulings file under its lock (`<rulings>.lock`): the cockpit and a `bansha rule`
 * in another terminal read, append and write it, and neither may lose the other's entry.
 */
async function underLock<T>(game: Game, change: () => Promise<T>): Promise<T> {
  const file = rulingsPath(game.file);
  const release = takeFileLock(`${file}.lock`, `the rulings file ${file}`);
  try {
    return await change();
  } finally {
    release();
  }
}

async function rule(game: Game, verb: RulingVerb, target: string, o: RuleOptions): Promise<string[]> {
  const file = rulingsPath(game.file);
  let data = readRulings(file);
  const base = { verb, why: (o.why ?? '').trim(), by: ruler(game, o.by), at: new Date().toISOString() };
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
    return out;
  }
  if (!o.flag && THREAD_ID.test(target.trim())) return ruleOnThread(game, verb, Number(target.trim().slice(1)), o, base, data);
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
    // A post a sheriff's handover waits on that this account cannot read (issue 31): whom it names is ruled on —
    // and, when the same post may also be a ballot or an acceleration request, that too, below.
    if (!o.flag && stored) {
      const ruling = { ...base, subject: 'successor' as const, pid, day };
      const effect = checkSuccessorRuling(game, store, ruling);
      if (effect) {
        const { data: next, entry } = appendEntry(data, ruling);
        await writeRulings(next, file);
        const sheriff = (x: typeof effect.before) => s(x.sheriff ?? '—');
        out.push(t('rule.ruled', rulingLine(entry, game.timezone)), t('rule.successorEffect', day, sheriff(effect.before), sheriff(effect.after), effect.after.unreadableSuccession?.pids.length ?? 0));
        const alsoBallot = effect.before.unreadable?.pids.includes(pid) ?? false;
        const alsoRequest = effect.before.unreadableProcess?.pids.includes(pid) ?? false;
        if (!alsoBallot && !alsoRequest) return;
        data = next;
        game = { ...game, rulings: [...(game.rulings ?? []), entry] };
      }
    }
    // A post of the process thread this account cannot read: what it asks (acceleration) is ruled on.
    if (!o.flag && stored && game.process?.tid === stored.tid) {
      const ruling = { ...base, subject: 'request' as const, pid, day };
      const effect = checkRequestRuling(game, store, ruling);
      const { data: next, entry } = appendEntry(data, ruling);
      await writeRulings(next, file);
      out.push(t('rule.ruled', rulingLine(entry, game.timezone)), t('rule.requestEffect', day, effect.before.accelerated, effect.after.accelerated, effect.after.unreadable?.length ?? 0));
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
  return out;
}

/**
 * `rule accept T<tid> --day N`: day N's count goes by the versions of thread `tid` read before, the forum
 * having answered in the last crawl that the thread does not exist (freshness.ts FetchRecord.notFound).
 * Refused for a thread of no day of the game, a thread the forum did not say that of, and `reject`.
 */
async function ruleOnThread(
  game: Game, verb: RulingVerb, tid: number, o: RuleOptions, base: Omit<Ruling, 'id' | 'subject' | 'day'>, data: ReturnType<typeof readRulings>,
): Promise<string[]> {
  if (verb !== 'accept') throw new UserError(t('rule.threadOnlyAccept', tid));
  if (o.day === undefined) throw new UserError(t('rule.needsDay'));
  if (!gameTids(game).includes(tid)) throw new UserError(t('rule.threadNotInGame', tid, game.file));
  if (!readFetches(game.storePath)[String(tid)]?.notFound) throw new UserError(t('rule.threadNotGone', tid, game.storePath));
  const { data: next, entry } = appendEntry(data, { ...base, subject: 'thread' as const, tid, day: o.day });
  await writeRulings(next, rulingsPath(game.file));
  return [t('rule.ruled', rulingLine(entry, game.timezone)), t('rule.threadDone', tid, o.day)];
}

/** Takes back ruling `id` (default: the latest in force); returns the ruling taken back. */
export async function undoRuling(game: Game, id: string | undefined, by?: string): Promise<Ruling> {
  return underLock(game, () => undo(game, id, by));
}

async function undo(game: Game, id: string | undefined, by?: string): Promise<Ruling> {
  const file = rulingsPath(game.file);
  const data = readRulings(file);
  const active = activeRulings(data);
  const target = id === undefined ? latestActive(data) : active.find((r) => r.id === Number(id.replace(/^#/, '')));
  if (!target) {
    throw new UserError(id === undefined ? t('rule.nothingToUndo') : t('rule.noSuchRuling', id, active.map((r) => `#${r.id}`).join(', ')));
  }
  const { data: next } = appendEntry(data, { verb: 'undo' as const, undoes: target.id, by: ruler(game, by), at: new Date().toISOString() });
  if (target.subject === 'card' && target.card) {
    const ledgerFile = ledgerPath(game.file);
    await writeLedger(reopenCard(readLedger(game, ledgerFile), target.card), ledgerFile);
  }
  await writeRulings(next, file);
  return target;
}
