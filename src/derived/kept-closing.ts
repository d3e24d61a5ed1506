/**
 * A closing command whose inputs did not change costs what it prints: the day `bansha report` renders
 * (the tally and day report, with what its views read of the store besides — the links to the cards'
 * evidence, the HTML page's title and footer facts), the count `bansha tally` prints and the floor
 * `bansha elevator` prints are kept in the store's derived files (src/store/memo.ts), and a rerun whose key matches renders them without
 * opening a thread log or loading the analyses (they are imported on a miss only). A director reruns
 * these every minute at closing, mostly over threads no crawl changed since.
 *
 * The key is the whole risk: it covers everything the result is computed from (`closingKey`), each
 * taken before the computation reads it (a write in between leaves the older key, which the next run
 * finds changed):
 *  - the code that runs (src/store/memo.ts codeIdentity, in every key); kept only in the bundled CLI
 *    (`code`: its build) unless the caller asks for it (the library, dist/, tests);
 *  - the checked game whole (its file's content as read: presets and overrides, the rulings in force,
 *    events, where its files are), the day and the options that change the result (--allow-incomplete,
 *    --at, --rules), the language (t() text is inside the result);
 *  - every thread log of the game (threadLogKey: the day's threads, the process thread, the earlier
 *    days' threads behind the digests, closed outcomes, handovers and successions, day 1's vouched
 *    election — a superset, so a later day's thread changing costs a recount, never a stale answer) and
 *    the store's index (the uids learned);
 *  - for a report: the card ledger's bytes (the cards' status), the word lists' texts (the bundled
 *    ones, the data files the scan reads and `words/` beside the game file);
 *  - the TZ variable and what ICU's default locale comes from (the order of names tied in votes);
 *    Node's version, ICU and time-zone data are in the code's identity.
 * A refused run (an incomplete or missing thread without --allow-incomplete) throws before anything is
 * kept; a value JSON would not give back unchanged is not kept; a damaged or torn file is ignored
 * (keyed-file.ts checksum) and computed again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gameTids } from '../game/threads.js';
import type { ClosingDay } from '../day/closing-day.js';
import type { DayPage } from '../day/day-page.js';
import { reportWordDirs } from '../game/beside.js';
import type { Game } from '../game/types.js';
import { language } from '../i18n/index.js';
import { packagePath } from '../paths.js';
import { BUILD, derivedKeyOf, inputText, jsonPlain, memoKey, memoLookup, readDerived, threadLogKey, writeDerived, type MemoKey } from '../store/memo.js';
import { postUrl } from '../store/slice.js';
import { threadsDir } from '../store/store-file.js';
import type { StaleThread, TallyResult } from '../votes/types.js';
import { markGone } from './gone.js';

/**
 * What a report keeps of day N: the closing day (card ids as before the ledger step), the thread of each
 * card's evidence post by pid (null: not stored), the HTML page's facts.
 */
export interface ReportDay {
  closing: ClosingDay;
  evidence: Record<string, number | null>;
  page: DayPage;
}

/** The link to a card's evidence post, as storedPostLinks gives it (closing-day.ts), from a kept day. */
export function evidenceLinks(game: Game, day: ReportDay): (pid: number) => string | null {
  return (pid) => {
    const tid = day.evidence[pid];
    return tid == null ? null : postUrl(game.forum, tid, pid);
  };
}

/** What `reportDay` reads beside the store: the card ledger (null: none) and --allow-incomplete. */
export interface ReportDayOptions {
  ledgerFile: string | null;
  allowIncomplete?: boolean;
  /** The day's count as of this moment (before the close: a running count); default the close. */
  at?: number;
}

/**
 * Day `day` as `bansha report` renders it: kept (`kept: true`) when its key matches, else computed from
 * the store as src/derived/closing-inputs.ts does (refusing an incomplete crawl unless allowIncomplete)
 * and kept. `code` names the code (default the bundle's build; null: nothing kept; the key: reportKey's). The caller records
 * the proposals in the ledger afterwards (src/close/proposals.ts), on a hit as on a miss.
 */
export async function reportDay(
  game: Game, day: number, opts: ReportDayOptions, code: string | null = BUILD, { key }: { key: MemoKey | null } = reportKey(game, day, opts, code),
): Promise<ReportDay & { kept: boolean }> {
  const name = `closing-report-day${day}`;
  const saved = readKept<ReportDay>(game, name, key);
  if (saved && saved.closing.report.cards.every((c) => c.evidence.every((pid) => String(pid) in saved.evidence))) return { ...saved, kept: true };

  const [{ beforeReport, closingDayFromStore, readApart, reportThreads }, { storedThreadOf }, { dayPage }, { withCountingStore }, { wordingMemo }] = await Promise.all([
    import('./closing-inputs.js'), import('../day/closing-day.js'), import('../day/day-page.js'), import('../store/with-store.js'), import('./wording-hits.js'),
  ]);
  await beforeReport(game, day); // a first run's digests, before the day's threads are read
  // The day's discussion read apart, as kept and what was appended since (closing-inputs.ts readApart).
  const wording = wordingMemo(game.storePath, game);
  const apart = await readApart(game, day, wording, code);
  const reads = new Map([...apart].map(([tid, a]) => [tid, a.read]));
  const value = await withCountingStore(game, { ...reportThreads(game, day), allowIncomplete: opts.allowIncomplete, apart: reads }, async (store, incomplete): Promise<ReportDay> => {
    // Earlier days through their digests and outcomes kept in the store's derived files.
    // (kept without the threads gone from the forum: the crawler's records are not in its key; `bansha report` names them in its views)
    const { closing, lookBack, summed } = await closingDayFromStore(game, day, store, { ledgerFile: opts.ledgerFile, checked: incomplete, allowIncomplete: opts.allowIncomplete, apart, wording, code, at: opts.at, gone: [] });
    // The views link the cards' evidence and nothing else (report-bbcode.ts, html-day.ts).
    // (the earlier threads' digests and the threads read apart hold their posts in pid order; the sum finds its own)
    const besides = [...(lookBack?.values() ?? []), ...[...apart].map(([tid, a]) => ({ tid, posts: a.scanned }))];
    const threadOf = storedThreadOf(store, besides, summed?.threadOf);
    const evidence: Record<string, number | null> = {};
    for (const c of closing.report.cards) for (const pid of c.evidence) evidence[pid] = threadOf(pid);
    return { closing, evidence, page: dayPage(game, store, day, lookBack ?? summed?.titles, apart) };
  });
  if (key !== null && jsonPlain(value)) writeDerived(game.storePath, name, key, value);
  return { ...value, kept: false };
}

/**
 * The key a report of `day` is kept under (null: nothing kept), and the ledger's text it was read with
 * (null: none; undefined: unreadable, and no key).
 */
export function reportKey(game: Game, day: number, opts: ReportDayOptions, code: string | null = BUILD): { key: MemoKey | null; ledger: string | null | undefined } {
  const ledger = opts.ledgerFile === null ? null : inputText(opts.ledgerFile);
  const words = [...wordDataDirs(), ...reportWordDirs(game)].map(dirTexts);
  const key = ledger === undefined ? null : closingKey(game, code, { report: day, allowIncomplete: Boolean(opts.allowIncomplete), ledger, words, ...(opts.at !== undefined ? { at: opts.at } : {}) });
  return { key, ledger };
}

/** What `tallyResult` is asked: the options of `bansha tally` that change the count. */
export interface TallyOptions {
  at?: number;
  rules?: boolean;
  allowIncomplete?: boolean;
  /** The threads gone from the forum whose kept versions a ruling accepted (gone.ts): marked on the count, kept or counted, never kept with it (the crawler's records they come from are not in its key). */
  gone: readonly StaleThread[];
}

/**
 * Day `day`'s count as `bansha tally` prints it: kept when its key matches, else counted from the store
 * (src/derived/closed-days.ts countFromStore, refusing an incomplete crawl unless allowIncomplete) and
 * kept. `code` as for reportDay.
 */
export async function tallyResult(game: Game, day: number, opts: TallyOptions, code: string | null = BUILD): Promise<TallyResult> {
  const inputs = closingInputs(game, code, { tally: day, at: opts.at ?? null, rules: Boolean(opts.rules), allowIncomplete: Boolean(opts.allowIncomplete) });
  const kept = inputs === null ? null : memoLookup<TallyResult>(game.storePath, `closing-tally-day${day}`, inputs);
  if (kept?.value !== undefined) return markGone(kept.value, opts.gone);
  const { countFromStore } = await import('./closed-days.js');
  const result = await countFromStore(game, day, { ...opts, gone: [] }, (r) => r);
  return markGone(kept ? kept.keep(result) : result, opts.gone);
}

/**
 * Day `day`'s elevator floor as `bansha elevator` prints it (what `make` gives: the floor, its BBCode,
 * the warnings): kept when its key matches — the inputs of closingKey: the game, every thread log (the
 * day's thread records, the closed days' outcomes), the store's index (the uids), the language — else
 * made and kept. `code` as for reportDay. A warm run then loads neither the closed days nor the records.
 */
export async function elevatorView<T>(game: Game, day: number, make: () => Promise<T>, code: string | null = BUILD): Promise<T> {
  const inputs = closingInputs(game, code, { elevator: day });
  const kept = inputs === null ? null : memoLookup<T>(game.storePath, `closing-elevator-day${day}`, inputs);
  if (kept?.value !== undefined) return kept.value;
  const value = await make();
  return kept ? kept.keep(value) : value;
}

/** The value kept as `name` under `key`; its first line alone is read when it was kept under another (a rerun after new posts: the rest is not read). */
function readKept<T>(game: Game, name: string, key: MemoKey | null): T | undefined {
  return key !== null && derivedKeyOf(game.storePath, name) === key ? readDerived<T>(game.storePath, name, key) : undefined;
}

/** The key of a kept closing result (closingInputs), or null when nothing is kept. */
export function closingKey(game: Game, code: string | null, what: unknown): MemoKey | null {
  const inputs = closingInputs(game, code, what);
  return inputs === null ? null : memoKey(inputs);
}

/**
 * The inputs of a kept closing result of `game` asked as `what` (any JSON value: an input that could not
 * be read is undefined in an array, which makes no key), or null when nothing is kept: not asked to
 * (`code` null), a version-1 store (no thread logs to key on), a game JSON would not carry whole, an
 * unreadable input.
 */
function closingInputs(game: Game, code: string | null, what: unknown): unknown {
  if (code === null || !fs.existsSync(threadsDir(game.storePath)) || !jsonPlain(game) || !jsonPlain(what)) return null;
  const index = inputText(game.storePath);
  if (index === undefined) return null;
  const logs = gameTids(game).sort((a, b) => a - b).map((tid) => [tid, threadLogKey(game.storePath, tid)]);
  const locale = [process.env.TZ ?? null, defaultLocale()];
  return { closing: what, code, lang: language(), locale, game, index, logs };
}

/**
 * What ICU's default locale is read from — the order localeCompare gives (names tied in votes, count.ts, and in the report's profile changes, profile.ts):
 * on POSIX the environment (ICU's putil: LC_ALL, LC_MESSAGES, LANG), on Windows the user's setting, asked
 * of Intl there (ICU's set-up, which a warm run elsewhere never pays).
 */
function defaultLocale(): unknown {
  if (process.platform === 'win32') return new Intl.Collator().resolvedOptions().locale;
  return ['LC_ALL', 'LC_MESSAGES', 'LANG'].map((v) => process.env[v] ?? null);
}


/** The bundled word lists and the data files the wording scan reads (src/violations/word-lists.ts, text-fold.ts). */
const wordDataDirs = (): string[] => [packagePath('src', 'violations', 'words'), packagePath('src', 'violations', 'data')];

/** A folder's files by name with their bytes as inputText gives them (a few dozen KB; a folder in it is named alone); undefined when one cannot be read. */
function dirTexts(dir: string): Array<[string, string | null]> | undefined {
  try {
    const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return entries.map((e) => [e.name, e.isDirectory() ? null : fs.readFileSync(path.join(dir, e.name), 'latin1')]); // (a link read through)
  } catch {
    return undefined;
  }
}
