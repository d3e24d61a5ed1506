/**
 * `bansha close --day N`: the closing-time job for the director's own game in one call — crawl the
 * threads the day needs, tally, report (proposals into the card ledger), the next day's elevator floor,
 * written to one folder (text, BBCode, JSON, HTML) with a summary; what `demo` does for the bundled
 * game. The day's results (voted out, red card 罚下) are derived from the closed tally and the ledger and
 * compared with the game file: every disagreement is in the summary; with `confirm` the missing ones
 * are written into the game file's events (comments and layout kept). Refuses (exit 3) an incomplete
 * crawl unless `allowIncomplete` — and then every output starts with what is missing. The announcement's
 * publish plan is returned for `--post` (never for an incomplete count).
 *
 * A count is as of a moment (issue 31). Before the day's close (`now`) it is a running count as of now:
 * leaders, no results derived, no card proposals into the ledger, no plan, and `confirm` refuses (exit
 * 7). After it, every thread that decides the count must have been fetched whole after the close
 * (src/crawl/freshness.ts): a stale one is named in the summary and every count file with as of when it
 * is, there is no plan, and `confirm` refuses (exit 7) — checked right after the crawl, before the day is
 * assembled, as the open-day refusal is before it: a refused --confirm writes nothing; the CLI exits 7
 * unless --allow-incomplete.
 */
import fs from 'node:fs';
import path from 'node:path';
import { dayTids } from '../game/threads.js';
import { ledgerPath } from '../cards/ledger.js';
import { UserError } from '../errors.js';
import { withCountingStore, withStore } from '../store/with-store.js';
import { crawlGame, type CrawlOptions } from '../crawl/crawler.js';
import { elevatorFloor } from '../elevator/floor.js';
import { loadGame } from '../game/game-file.js';
import { exitTime } from '../game/roster.js';
import type { Game, GameDay } from '../game/types.js';
import type { PublishPlan } from '../publish/plan.js';
import { incompleteLines } from '../render/incomplete.js';
import { renderDayReportBBCode } from '../render/report-bbcode.js';
import { renderDayReportJson } from '../render/report-json.js';
import { renderDayReportTerminal } from '../render/report-terminal.js';
import { renderTallyBBCode } from '../render/tally-bbcode.js';
import { renderTallyJson } from '../render/tally-json.js';
import { renderTallyTerminal } from '../render/tally-terminal.js';
import type { Completeness } from '../store/types.js';
import { exitDisagreements, exitsFromTally, type DerivedExit } from '../votes/carry-forward.js';
import { resolveAuction, voteOutShare } from '../auction/index.js';
import { withKnownUids } from '../game/roster.js';
import { renderAuctionText } from '../render/auction-text.js';
import { threadPosts } from '../store/slice.js';
import { successionThreads, type SheriffHandover } from '../votes/succession.js';
import { postsFromStore, postsWithClosed, tallyDay, threadsForTally } from '../votes/tally.js';
import { forumTime } from '../game/forum-time.js';
import type { TallyResult } from '../votes/types.js';
import { announcementPlan, refuseUnruled } from './announcement.js';
import { t } from '../i18n/index.js';
import { replaceFile } from '../replace-file.js';
import { renderElevatorBBCode } from '../render/elevator-bbcode.js';
import { storedPostLinks, threadsForReport, type ClosingDay } from '../day/closing-day.js';
import { recordProposals } from './proposals.js';
import { dayHtml } from '../day/day-page.js';
import { closedOutcomes, crawlWithHandovers } from '../derived/closed-days.js';
import { beforeReport, closingDayFromStore, reportThreads } from '../derived/closing-inputs.js';
import { refuseDayWithoutThreads } from '../report/day-report.js';
import { loadEdited, withDaySheriff, withExitEvents, writeGameFile } from './confirm.js';
import { carriedForward, sentOffOn } from './carried.js';
import { handoverAtClose, sheriffSummary } from './sheriff.js';
import { reportLines, tallyLine } from './summary-lines.js';
import { now as clockNow } from '../clock.js';
import { countFreshness, goneThreads, refuseOpenDay, refuseStale, staleThreads, type ThreadFreshness } from '../crawl/freshness.js';
import { staleLines } from '../render/incomplete.js';

export { announcementPlan, refuseIncompletePost } from './announcement.js';
export { withExitEvents } from './confirm.js';
export { carriedForward, sentOffOn } from './carried.js';

export interface CloseOptions {
  /** The game file. */
  gameFile: string;
  day: number;
  /** The folder to write (created); default `<game>-day<N>/` beside the game file. */
  out?: string;
  /** Store path override (--store). */
  store?: string;
  /** Crawl the day's threads first (default true); the crawl's own options (delay, concurrency…). */
  crawl?: boolean | CrawlOptions;
  allowIncomplete?: boolean;
  /** Write the derived results into the game file's events. */
  confirm?: boolean;
  log?: (line: string) => void;
  /** What time it is (epoch ms); default the process clock (src/clock.ts). */
  now?: number;
}

export interface CloseResult {
  out: string;
  /** Every file written, by what it is. */
  files: Array<{ what: string; path: string }>;
  /** The summary, one line each (also written as summary.txt). */
  summary: string[];
  tally: TallyResult | null;
  closing: ClosingDay;
  /** Results the closed day implies (voted out, 罚下). */
  derived: DerivedExit[];
  /** Where the game file and those results disagree (Chinese); empty when they agree. */
  disagreements: string[];
  /** The events written into the game file (with confirm). */
  confirmed: DerivedExit[];
  /** How the badge passes when the day's results put the sheriff out (successor from the posts, or null: see the summary). */
  handover: SheriffHandover | null;
  incomplete: Completeness[];
  /** True while the day has not closed: a running count as of `now`. */
  open: boolean;
  /** The threads deciding the count that were not fetched whole after the close (empty when fresh, or open). */
  stale: ThreadFreshness[];
  /** The announcement's publish plan (an edit of the tool's earlier post, or a reply); null when the day has no public count. */
  plan: PublishPlan | null;
}

/** Where `close` writes by default: `<game>-day<N>/` beside the game file. */
export function defaultCloseDir(gameFile: string, day: number): string {
  const base = path.basename(gameFile).replace(/\.ya?ml$/i, '');
  return path.join(path.dirname(path.resolve(gameFile)), `${base}-day${day}`);
}

/** Runs the closing-time job for day `opts.day` (see the module comment). */
export async function closeDay(opts: CloseOptions): Promise<CloseResult> {
  let game = loadGame(opts.gameFile, { store: opts.store });
  const day = game.days.find((d) => d.day === opts.day);
  if (!day) throw new UserError(t('close.noDay', opts.day, game.file, game.days.map((d) => d.day).join(', ')));
  refuseDayWithoutThreads(game, opts.day); // (before any crawl: issue 31)
  const summary: string[] = [];
  const now = opts.now ?? clockNow();
  const open = now < day.closes;
  if (opts.confirm) refuseOpenDay(game, opts.day, now, '--confirm');

  if (opts.crawl !== false) summary.push(await crawlForClose(game, day, opts));
  // After the close: were the threads that decide the count fetched whole after it (this crawl or an earlier one)?
  const freshness = open ? [] : await countFreshness(game, opts.day);
  const stale = freshness.filter((f) => !f.fresh);
  const staleMarks = staleThreads(game, stale);
  // A --confirm that must refuse refuses now, before the day is assembled: nothing written (no folder, no
  // card proposals into the ledger), nothing counted in vain.
  if (opts.confirm) refuseStale(game, stale, '--confirm');
  // Threads gone from the forum whose kept versions a ruling accepted: the count carries them, and says so first.
  const gone = goneThreads(game, freshness);

  const out = path.resolve(opts.out ?? defaultCloseDir(game.file, opts.day));
  fs.mkdirSync(out, { recursive: true });
  const files: CloseResult['files'] = [];
  const write: WriteFile = (what, name, text) => {
    const p = path.join(out, name);
    replaceFile(p, (fd) => fs.writeFileSync(fd, text)); // (a full disk leaves last close's file, not half of this one)
    files.push({ what, path: p });
  };
  const ledgerFile = ledgerPath(game.file);

  const assembled = await assembleDay(game, day, opts, { ledgerFile, open, now, staleMarks, gone });
  const { closing, incomplete, derived, handover, plan } = assembled;
  const tally = closing.tally;

  // The day's results against the game file; --confirm writes the missing ones (exits, the next day's sheriff) —
  // and refuses as --post does even when there are none to write (a tie with nobody out that unread posts could break).
  let confirmed: DerivedExit[] = [];
  let sheriffWritten = false;
  if (opts.confirm) ({ game, confirmed, sheriffWritten } = confirmResults(game, opts, assembled));
  const badge = handover ? sheriffSummary(game, opts.day, handover, sheriffWritten) : { lines: [], disagreements: [] };
  const disagreements = [...exitDisagreements(game, opts.day, day.closes, derived), ...badge.disagreements];

  writeDayFiles(write, game, day, assembled);
  if (fs.existsSync(ledgerFile)) files.push({ what: t('close.file.ledger'), path: ledgerFile });
  summary.push(...resultLines(game, day, assembled, { open, now, staleMarks, confirmed, disagreements, badgeLines: badge.lines }));

  const next = game.days.find((d) => d.day === opts.day + 1);
  // (an open day has no results yet to start the next day from)
  if (next?.discussion && !open) summary.push(...(await nextDayElevator(game, opts.day, next, write)));
  if (plan) summary.push(t('close.announcement', plan.kind === 'edit', plan.target?.pid, plan.tid, opts.day, game.file));
  write(t('close.file.summary'), 'summary.txt', `${summary.join('\n')}\n`);
  return { out, files, summary, tally, closing, derived, disagreements, confirmed, handover, incomplete, open, stale, plan };
}

/** Writes one file of the close into its folder and lists it: what it is, its name, its text. */
type WriteFile = (what: string, name: string, text: string) => void;

/**
 * Crawls every thread the day's count and report read: the day's own, the process thread, day 1's
 * election, those the count's sheriffs' handovers are read from, and where a successor to a sheriff out
 * at the close would be published (succession.ts). Returns the summary's line.
 */
async function crawlForClose(game: Game, day: GameDay, opts: CloseOptions): Promise<string> {
  const log = opts.log ?? (() => undefined);
  const tids = [...threadsForReport(game, opts.day), ...dayTids(day), ...successionThreads(game, day.closes)];
  const done = { threads: 0, pages: 0, requests: 0, incomplete: false };
  await crawlWithHandovers(game, opts.day, tids, async (threads) => {
    const crawl = await crawlGame(game, { ...(typeof opts.crawl === 'object' ? opts.crawl : {}), threads, log });
    done.threads += crawl.threads.length;
    done.pages += crawl.threads.reduce((n, x) => n + x.fetchedPages.length, 0);
    done.requests += crawl.requests;
    done.incomplete ||= Boolean(crawl.incomplete);
  });
  return t('close.crawl', done.threads, opts.day, done.pages, done.requests, done.incomplete);
}

/**
 * The closed day from the store, as `report` reads it (earlier days through the store's derived files),
 * with the threads a successor at the close is read from and, for wuhui, the duel-rule votes: the count
 * and report, the day's results and handover, the announcement and its plan, the HTML page, wuhui's rule
 * vote and auction. A closed day's proposed cards are recorded in the ledger.
 */
async function assembleDay(
  game: Game, day: GameDay, opts: CloseOptions,
  at: { ledgerFile: string; open: boolean; now: number; staleMarks: ReturnType<typeof staleThreads>; gone: ReturnType<typeof goneThreads> },
) {
  const { ledgerFile, open, now, staleMarks } = at;
  // Red cards confirmed before the close (the report's proposals recorded below are not confirmed ones).
  const sentOff = sentOffOn(game, opts.day, day.closes);
  const report = reportThreads(game, opts.day);
  const extra = [...successionThreads(game, day.closes), ...(day.rules ? threadsForTally(game, opts.day, { rules: true }) : [])];
  // Day 1's vote thread, when vouched for, is not opened — unless the close reads it for a handover or the rules.
  const vouched = report.vouched && ((users: Readonly<Record<string, number>>) => new Set([...report.vouched!(users)].filter((t) => !extra.includes(t))));
  await beforeReport(game, opts.day); // a first run's digests, before the day's threads are read
  return withCountingStore(game, { tids: report.tids, load: [...report.load, ...extra], vouched, allowIncomplete: opts.allowIncomplete }, async (store, checked) => {
    const { closing, closed, lookBack, incomplete } = await closingDayFromStore(game, opts.day, store, { ledgerFile, checked, allowIncomplete: opts.allowIncomplete, at: open ? now : undefined, gone: at.gone });
    // An open day's cards are not proposed into the ledger: its report is as of now, not the day's.
    if (!open) await recordProposals(game, closing.report, ledgerFile);
    const tally = closing.tally;
    if (tally && staleMarks.length) tally.stale = staleMarks;
    // The day's results, derived; the badge passes when they put the sheriff out.
    const derived = [...(tally ? exitsFromTally(tally) : []), ...sentOff];
    const handover = handoverAtClose(game, store, tally, derived);
    const announcement = tally && tally.kind !== 'none' ? renderTallyBBCode(tally) : null;
    const plan = announcement && tally && !incomplete.length && !open && !staleMarks.length ? announcementPlan(store, game, tally, announcement) : null;
    // wuhui: the morning duel-rule vote and the auction close with the day too (before then the vote is a running count).
    const stored = postsFromStore(store);
    const rules = day.rules ? tallyDay(withKnownUids(game, store.users), closed ? postsWithClosed(stored, closed) : stored, opts.day, { rules: true, at: open ? now : undefined }) : null;
    const auction = day.auction && game.rules.wuhui ? resolveAuction(threadPosts(store, day.auction.tid), game, opts.day) : null;
    return { closing, incomplete, links: storedPostLinks(game, store, lookBack?.values()), announcement, plan, html: dayHtml(game, store, closing, undefined, lookBack), derived, handover, rules, auction };
  });
}
type AssembledDay = Awaited<ReturnType<typeof assembleDay>>;

/**
 * --confirm: the day's derived results written into the game file (exit events, the next day's sheriff),
 * refused when the count is incomplete or unruled — whether or not there is anything to write: a day whose
 * count gives no result (a tie with nobody out) is confirmed as that result, which unread posts could
 * change as well as any other; the edited file must load with exactly those added before it replaces the
 * old one. Returns the game as then loaded and what was written.
 */
function confirmResults(game: Game, opts: CloseOptions, { derived, incomplete, closing, handover }: AssembledDay): { game: Game; confirmed: DerivedExit[]; sheriffWritten: boolean } {
  const tally = closing.tally;
  if (incomplete.length) throw new UserError(t('close.confirmIncomplete', incompleteLines(incomplete).join('\n  ')), 3);
  if (tally) refuseUnruled(tally, 'confirm'); // (issue 31: posts this account cannot read that could change the result)
  if (!derived.length) return { game, confirmed: [], sheriffWritten: false };
  const source = fs.readFileSync(game.file, 'utf8');
  const edited = withExitEvents(source, game, derived);
  // (not while a post the handover waits on cannot be read: it may name another successor — issue 31)
  const withSheriff = handover?.successor && !handover.unreadable.length ? withDaySheriff(edited.text, opts.day + 1, handover.successor) : null;
  const text = withSheriff ?? edited.text;
  if (text === source) return { game, confirmed: [], sheriffWritten: false };
  // The edited file must load, with exactly the new events (and sheriff) added, before it replaces the old one.
  const check = loadEdited(text, game.file, { store: opts.store });
  if (check.events.length !== game.events.length + edited.added.length) throw new Error(`adding events to ${game.file} did not give the expected events`);
  if (withSheriff && check.days.find((d) => d.day === opts.day + 1)?.sheriff !== handover?.successor) throw new Error(`adding the sheriff to ${game.file} did not give the expected day`);
  writeGameFile(game.file, text);
  // the file must still load: it is what the next day reads
  return { game: loadGame(opts.gameFile, { store: opts.store }), confirmed: edited.added, sheriffWritten: withSheriff !== null };
}

/** Files: the count, its announcement and JSON, the report in each form, wuhui's rule vote and auction. */
function writeDayFiles(write: WriteFile, game: Game, day: GameDay, { closing, announcement, links, html, rules, auction }: AssembledDay): void {
  const tally = closing.tally;
  const n = day.day;
  if (tally) {
    write(t('close.file.tally'), `tally-day${n}.txt`, renderTallyTerminal(tally));
    if (announcement) write(t('close.file.announcement'), `tally-day${n}.bbcode.txt`, announcement);
    write(t('close.file.tallyJson'), `tally-day${n}.json`, renderTallyJson(tally));
  }
  write(t('close.file.report'), `report-day${n}.txt`, renderDayReportTerminal(closing.report));
  write(t('close.file.reportBBCode'), `report-day${n}.bbcode.txt`, renderDayReportBBCode(closing.report, links));
  write(t('close.file.reportJson'), `report-day${n}.json`, renderDayReportJson(closing.report));
  write(t('close.file.reportHtml'), `report-day${n}.html`, html);
  if (rules) write(t('close.file.rules'), `rules-day${n}.txt`, renderTallyTerminal(rules));
  if (auction) write(t('close.file.auction'), `auction-day${n}.txt`, renderAuctionText(auction, voteOutShare(game, day)));
}

/** The summary's lines for the day: open or stale, incomplete, the count, rulings and notes, the report, each result, the badge, disagreements. */
function resultLines(
  game: Game, day: GameDay, { closing, incomplete, derived, rules, auction }: AssembledDay,
  s: { open: boolean; now: number; staleMarks: ReturnType<typeof staleThreads>; confirmed: readonly DerivedExit[]; disagreements: readonly string[]; badgeLines: readonly string[] },
): string[] {
  const zone = game.timezone;
  const tally = closing.tally;
  const summary: string[] = [];
  if (s.open) summary.push(t('fresh.closeOpen', day.day, forumTime(s.now, zone), forumTime(day.closes, zone)));
  if (s.staleMarks.length) summary.push(t('fresh.closeStale', staleLines(s.staleMarks, zone).join('; ')));
  if (incomplete.length) summary.push(t('close.incomplete', incompleteLines(incomplete).join('; ')));
  if (tally) {
    summary.push(tallyLine(tally, game));
    const ruled = tally.ballots.filter((b) => b.details?.some((x) => x.code.startsWith('ruling-'))).length;
    if (ruled) summary.push(t('close.ruled', day.day, ruled));
    for (const n of tally.notes) if (!s.disagreements.includes(n)) summary.push(t('close.note', n)); // (a disagreement has its own line below)
  }
  if (rules) summary.push(rules.running ? t('close.line.rulesRunning', day.day, forumTime(rules.countedAt, zone), rules.result.name) : t('close.line.rules', day.day, rules.result.name));
  if (auction) summary.push(t('close.line.auction', day.day, auction.items.map((i) => t('close.line.auctionItem', i.item, i.winner ? `${i.winner} ${i.price}G` : '—')).join(t('list.sep'))));
  summary.push(...reportLines(closing.report, game));
  for (const x of derived) {
    const recorded = exitTime(game, x.player);
    summary.push(t('close.result', x.player, x.how, forumTime(x.out, zone), s.confirmed.includes(x) ? 'written' : recorded !== null ? 'recorded' : 'missing'));
  }
  summary.push(...s.badgeLines);
  for (const d of s.disagreements) summary.push(t('close.disagreement', d));
  return summary;
}

/**
 * The next day's elevator floor, written: the next day starts from the closed days' results, confirmed
 * or not (the summary says which). Returns the summary's lines: earlier days' unrecorded results (this
 * day's own are in the summary already) and the floor's.
 */
async function nextDayElevator(game: Game, day: number, next: GameDay, write: WriteFile): Promise<string[]> {
  const { floor, carried } = await withStore(game, async (store) => {
    const c = carriedForward(game, (await closedOutcomes(withKnownUids(game, store.users), next.day, store, { outcomesOnly: true })).closed, next.day);
    return { floor: elevatorFloor(store, c.game, next.day), carried: c };
  }, dayTids(next));
  const lines: string[] = [];
  for (const w of carried.warnings) if (w.day < day) lines.push(t('close.note', w.text));
  write(t('close.file.elevator', next.day), `elevator-day${next.day}.bbcode.txt`, renderElevatorBBCode(floor));
  const marked = floor.entries.filter((e) => e.out).map((e) => e.player);
  lines.push(t('close.elevator', next.day, floor.entries.filter((e) => e.url).length, marked.join('、')));
  return lines;
}
