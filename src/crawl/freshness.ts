/**
 * A count is always "as of" a moment (issue 31): when every page it reads was last fetched. A closing
 * count may be published (`--post`) or written into the game file (`--confirm`) only when every thread
 * that can decide it — the vote thread, the discussion thread, the process thread (acceleration, the
 * director's proxy votes and handovers are read there), day 1's election, every thread the count's
 * sheriffs' handovers are read from (decidingWithHandovers) — was fetched whole after the close of the
 * day it decides; otherwise the refusal names each stale thread and as of when it is. A thread the forum
 * answered after the close does not exist (deleted, moved, under moderation: FetchRecord.notFound) is
 * named so, with the way forward: crawl again once it is back, or the director's ruling accepting the
 * versions read before (`bansha rule accept T<tid> --day N`), after which the count goes ahead and says so.
 *
 * As of when a thread is: the oldest fetch of its pages 1..N. Two lower bounds, the later one kept:
 *  - what the crawler recorded at the end of the thread's last crawl (`<store>.fetches.json`): the
 *    oldest fetch time of its pages then, in memory, and why that crawl did not get every page;
 *  - the page records the store holds (a page's fetchedAt is as of the last change written: a refetch
 *    that changed nothing is not written, so the store alone can only say older, never newer).
 * A thread never stored, or with a page never fetched, is as of nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { dayTids, gameTids } from '../game/threads.js';
import { ExitCode, UserError } from '../errors.js';
import { findDay } from '../game/roster.js';
import type { Game } from '../game/types.js';
import { t } from '../i18n/index.js';
import { replaceFile } from '../replace-file.js';
import { readThreadRecords, threadsDir } from '../store/store-file.js';
import { inputText, jsonPlain, memo, threadLogKey } from '../store/memo.js';
import type { StoredThread } from '../store/types.js';
import { staleLines } from '../render/incomplete.js';
import type { StaleThread } from '../votes/types.js';
import { threadsForTally } from '../votes/tally-threads.js';
import { forumTime } from '../game/forum-time.js';

/** What the crawler recorded of one thread's last crawl. */
export interface FetchRecord {
  /** The oldest fetch of its pages 1..N after that crawl (ISO), null when a page was never fetched. */
  asOf: string | null;
  /** When that crawl of the thread ended (ISO). */
  crawledAt: string;
  /** Why it did not get every page (the first failure), null when it did. */
  failure: string | null;
  /** What kind of failure: a transient one (5xx, timeout, reset: rerun) or the address (404, refused: check the game file). */
  cause?: FailureCause | null;
  /**
   * That crawl's answer for a thread the store holds was Discuz's "thread does not exist" page (lang_message.php
   * thread_nonexistence: 指定的主题不存在或已被删除或正在被审核): deleted, moved, or under moderation on the
   * forum — not a fault a rerun mends. Absent otherwise.
   */
  notFound?: boolean;
}

/** Transient: worth running again. Address: the tid or the forum's address is likely wrong. */
export type FailureCause = 'transient' | 'address';

interface FetchesFile {
  version: 1;
  threads: Record<string, FetchRecord>;
}

/** The file the crawler keeps its records in, beside the store. */
export function fetchesPath(storePath: string): string {
  return `${path.resolve(storePath).replace(/\.json$/i, '')}.fetches.json`;
}

/** The crawler's records (empty when none, or unreadable: the store's page records still speak). */
export function readFetches(storePath: string): Record<string, FetchRecord> {
  try {
    const f = JSON.parse(fs.readFileSync(fetchesPath(storePath), 'utf8')) as FetchesFile;
    return f && f.version === 1 && typeof f.threads === 'object' && f.threads ? f.threads : {};
  } catch {
    return {};
  }
}

/** Records `rec` as thread `tid`'s last crawl (the file replaced whole). */
export function writeFetch(storePath: string, tid: number, rec: FetchRecord): void {
  const threads = readFetches(storePath);
  threads[String(tid)] = rec;
  const file = fetchesPath(storePath);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  replaceFile(file, (fd) => fs.writeFileSync(fd, `${JSON.stringify({ version: 1, threads } satisfies FetchesFile, null, 2)}\n`), 0o600);
}

/** The oldest fetch of a stored thread's pages 1..N (epoch ms), null when one was never fetched (or none is known). */
export function oldestPageFetch(thread: StoredThread | undefined): number | null {
  if (!thread || thread.pageCount < 1) return null;
  let oldest = Infinity;
  for (let p = 1; p <= thread.pageCount; p++) {
    const rec = thread.pages[String(p)];
    const at = rec ? Date.parse(rec.fetchedAt) : NaN;
    if (!Number.isFinite(at)) return null;
    oldest = Math.min(oldest, at);
  }
  return oldest;
}

/** One thread a count reads, and whether it was fetched whole after the close it decides. */
export interface ThreadFreshness {
  tid: number;
  /** The moment it must be fetched after: the close of the latest day (up to the counted one) whose thread it is. */
  due: number;
  /** As of when it is (epoch ms), null: never fetched whole. */
  asOf: number | null;
  fresh: boolean;
  /** The last crawl's failure, when it had one. */
  failure: string | null;
  cause: FailureCause | null;
  /** Read for a sheriff's handover (succession.ts): due at the counted day's close, whatever day's thread it is. */
  handover?: boolean;
  /**
   * The forum answered "thread does not exist" in a crawl after the due close (FetchRecord.notFound): `at`, that
   * crawl's end; `day`, the counted day; `ruling`, the director's ruling accepting a count from the versions read
   * before (`bansha rule accept T<tid> --day N`) — then the thread counts as fresh, and the count says so (goneNotes).
   */
  gone?: { at: number; day: number; ruling: number | null };
}

/**
 * The threads a count of `day` reads and may be decided by (threadsForTally: the vote threads, the
 * discussion thread, the process thread unless the game file declares the acceleration, day 1's election),
 * each with the close it must be fetched after: its own day's for an earlier day's thread, else day `day`'s.
 */
export function decidingThreads(game: Game, day: number, opts: { rules?: boolean } = {}): Array<{ tid: number; due: number }> {
  const closes = findDay(game, day).closes;
  return threadsForTally(game, day, opts).map((tid) => {
    const days = game.days.filter((d) => d.day <= day && dayTids(d).includes(tid));
    return { tid, due: days.length ? Math.max(...days.map((d) => d.closes)) : closes };
  });
}

/**
 * The threads that decide a count of `day` (decidingThreads) and those its sheriffs' handovers are read
 * from as the store names them (src/derived/closed-days.ts handoverReads: the badge's path walked ahead
 * of the count — earlier days' discussion and vote threads, the next day's discussion). A handover is read
 * from every post of such a thread written after the sheriff left, up to the count's moment: a post
 * there before the day's close can change the day's sheriff, so each is due at the counted day's close
 * (a thread deciding it anyway keeps the later of the two dues). None for a duel-rule count (no sheriff).
 */
export async function decidingWithHandovers(game: Game, day: number, opts: { rules?: boolean } = {}): Promise<Array<{ tid: number; due: number; handover?: boolean }>> {
  const deciding: Array<{ tid: number; due: number; handover?: boolean }> = decidingThreads(game, day, opts);
  if (opts.rules) return deciding;
  const closes = findDay(game, day).closes;
  for (const tid of (await keptHandoverReads(game, [day])).get(day) ?? []) {
    const known = deciding.find((x) => x.tid === tid);
    if (known) {
      known.due = Math.max(known.due, closes);
      known.handover = true;
    } else deciding.push({ tid, due: closes, handover: true });
  }
  return deciding;
}

/**
 * For each thread of the game, the latest close at or before `now` that a count reads it for (its own
 * days' closes, and for a thread deciding a day's count that day's: decidingThreads; `handovers`: the
 * threads closed days' handovers are read from, with the close of the latest such day — handoverDues):
 * a page of it fetched before that close is fetched again by the next crawl, so a crawl after a close
 * leaves the threads it decides fetched whole after it. Undefined: no day reading it has closed.
 */
export function closesPassed(game: Game, now: number, handovers?: ReadonlyMap<number, number>): (tid: number) => number | undefined {
  const due = new Map<number, number>();
  const note = (tid: number, at: number) => due.set(tid, Math.max(due.get(tid) ?? -Infinity, at));
  for (const d of game.days) {
    if (d.closes > now) continue;
    for (const tid of dayTids(d)) note(tid, d.closes);
    for (const x of decidingThreads(game, d.day)) note(x.tid, x.due);
  }
  for (const [tid, at] of handovers ?? []) if (at <= now) note(tid, at);
  return (tid) => due.get(tid);
}

/**
 * The threads each day closed by `now` reads its sheriffs' handovers from (as the store names them),
 * with the latest such day's close: for closesPassed, so the crawl after a close refetches them too
 * (else a handover posted in an earlier day's thread after its last fetch would leave the count stale
 * for good). Empty without a store.
 */
export async function handoverDues(game: Game, now: number): Promise<Map<number, number>> {
  const due = new Map<number, number>();
  const closed = game.days.filter((d) => d.closes <= now && !(d.day === 1 && game.rules.day1Election));
  if (!closed.length) return due;
  const reads = await keptHandoverReads(game, closed.map((d) => d.day));
  for (const d of closed) for (const tid of reads.get(d.day) ?? []) due.set(tid, Math.max(due.get(tid) ?? -Infinity, d.closes));
  return due;
}

/**
 * closed-days.ts handoverReadsOf, kept between runs (src/store/memo.ts) under the game (its rulings
 * included), the store's index and every thread log's key: a warm command's freshness check loads none of
 * the count's code. Computed (and the count's code loaded) only when one of those changed.
 */
async function keptHandoverReads(game: Game, days: readonly number[]): Promise<Map<number, number[]>> {
  const compute = async (): Promise<Map<number, number[]>> => {
    const { handoverReadsOf } = await import('../derived/closed-days.js');
    return handoverReadsOf(game, days);
  };
  const index = fs.existsSync(threadsDir(game.storePath)) && jsonPlain(game) ? inputText(game.storePath) : undefined;
  if (index === undefined) return compute();
  const logs = gameTids(game).sort((a, b) => a - b).map((tid) => [tid, threadLogKey(game.storePath, tid)]);
  const inputs = { handoverReads: days, game, index, logs };
  return new Map(await memo(game.storePath, `handover-reads-${days.join('-')}`, inputs, async () => [...(await compute())]));
}

/** How fresh each thread a count of `day` reads is (from the crawler's records and the store's pages). */
export async function countFreshness(game: Game, day: number, opts: { rules?: boolean } = {}): Promise<ThreadFreshness[]> {
  const deciding = await decidingWithHandovers(game, day, opts);
  const records = readFetches(game.storePath);
  const recordedAt = (tid: number): number => {
    const asOf = records[String(tid)]?.asOf;
    return asOf ? Date.parse(asOf) : NaN;
  };
  // The crawler's record alone settles a thread it shows fetched whole after its close (the later of the two
  // bounds can only be later still): the store's page records are read only for the others.
  const unsettled = deciding.filter(({ tid, due }) => !(recordedAt(tid) >= due)).map((d) => d.tid);
  const stored = unsettled.length && fs.existsSync(game.storePath) ? (await readThreadRecords(game.storePath, unsettled)).threads : {};
  return deciding.map(({ tid, due, handover }) => {
    const rec = records[String(tid)];
    const recorded = recordedAt(tid);
    const fromPages = oldestPageFetch(stored[String(tid)]);
    const candidates = [Number.isFinite(recorded) ? recorded : null, fromPages].filter((x): x is number => x !== null);
    const asOf = candidates.length ? Math.max(...candidates) : null;
    const whole = asOf !== null && asOf >= due;
    // Gone from the forum since the close: only the versions read before remain — published from them only by the director's ruling.
    const goneAt = rec?.notFound ? Date.parse(rec.crawledAt) : NaN;
    const gone = !whole && goneAt >= due ? { at: goneAt, day, ruling: goneRuling(game, tid, day) } : null;
    return {
      tid, due, asOf, fresh: whole || (gone !== null && gone.ruling !== null), failure: rec?.failure ?? null, cause: rec?.cause ?? null,
      ...(handover ? { handover } : {}), ...(gone ? { gone } : {}),
    };
  });
}

/** The director's ruling in force accepting day `day`'s count from thread `tid`'s kept versions (the thread gone from the forum), by id. */
function goneRuling(game: Game, tid: number, day: number): number | null {
  return game.rulings?.find((r) => r.subject === 'thread' && r.verb === 'accept' && r.tid === tid && r.day === day)?.id ?? null;
}

/** What a thread is to the game: the process thread, or a day's vote, discussion or duel-rule thread. */
function roleOf(game: Game, tid: number): Pick<StaleThread, 'role' | 'roleDay'> {
  if (game.process?.tid === tid) return { role: 'process', roleDay: null };
  for (const d of game.days) {
    if (d.votes.some((v) => v.tid === tid)) return { role: 'vote', roleDay: d.day };
    if (d.discussion?.tid === tid) return { role: 'discussion', roleDay: d.day };
    if (d.rules?.tid === tid) return { role: 'rules', roleDay: d.day };
  }
  return { role: null, roleDay: null };
}

/** The threads of `list` not fetched whole after their close, as a count carries them (TallyResult.stale). */
export function staleThreads(game: Game, list: readonly ThreadFreshness[]): StaleThread[] {
  return list.filter((f) => !f.fresh).map((f) => ({
    tid: f.tid, ...roleOf(game, f.tid), ...(f.handover ? { handover: true } : {}), ...(f.gone ? { gone: f.gone.at } : {}), asOf: f.asOf, due: f.due, failure: f.failure,
  }));
}

/**
 * The threads of `list` gone from the forum since the close whose kept versions the director's ruling
 * accepted (counted as fresh), as a count carries them (TallyResult.gone): every view names them first.
 */
export function goneThreads(game: Game, list: readonly ThreadFreshness[]): StaleThread[] {
  return list.filter((f) => f.gone && f.gone.ruling !== null).map((f) => ({
    tid: f.tid, ...roleOf(game, f.tid), ...(f.handover ? { handover: true } : {}), gone: f.gone!.at, ruling: f.gone!.ruling!, asOf: f.asOf, due: f.due, failure: null,
  }));
}

/** A closing count that is not as of the close: the stale threads, for the caller's summary and JSON. */
export class StaleCountError extends UserError {
  constructor(message: string, readonly stale: readonly ThreadFreshness[]) {
    super(message, ExitCode.notFinal);
    this.name = 'StaleCountError';
  }
}

/**
 * Throws a StaleCountError (exit 7) naming every stale thread unless each thread of `list` was fetched
 * whole after the close it decides; `what`: what was refused ("--post", "--confirm").
 */
export function refuseStale(game: Game, list: readonly ThreadFreshness[], what: string): void {
  const stale = list.filter((f) => !f.fresh);
  if (!stale.length) return;
  const gone = stale.filter((f) => f.gone);
  const rest = stale.filter((f) => !f.gone);
  // The way forward for each kind: rerun (transient), the game file's addresses, or the director's ruling on a thread gone from the forum.
  const advice = [
    ...(rest.length ? [rest.every((f) => f.cause !== 'address') ? t('fresh.adviceRerun') : t('fresh.adviceAddress')] : []),
    ...(gone.length ? [t('fresh.adviceGone', gone.map((f) => t('fresh.goneThreadName', f.tid)).join(t('list.sep')), gone.map((f) => t('fresh.goneCommand', f.tid, f.gone!.day)).join(t('list.sep')))] : []),
  ];
  throw new StaleCountError(t('fresh.refusal', what, staleLines(staleThreads(game, stale), game.timezone).join('\n  '), advice.join('\n')), stale);
}

/** The refusal of `--post`/`--confirm` of a day that has not closed yet (exit 7), at `now`. */
export function refuseOpenDay(game: Game, day: number, now: number, what: string): void {
  const closes = findDay(game, day).closes;
  if (now >= closes) return;
  throw new UserError(t('fresh.notClosed', what, day, forumTime(now, game.timezone), forumTime(closes, game.timezone)), ExitCode.notFinal);
}
