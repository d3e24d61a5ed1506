/**
 * One day at closing time, assembled once from the store: its tally (src/votes/tally.ts) and its day
 * report (src/report/day-report.ts), whose acceleration comes from that tally — what `bansha report`,
 * `bansha close` and `demo` render. Also the report's threads and post links (the day's HTML page:
 * day-page.ts; the ledger step: proposals.ts).
 */
import { dayTids } from '../game/threads.js';
import { readLedger, ledgerPath } from '../cards/ledger.js';
import { reportWordDirs } from '../game/beside.js';
import { findDay, withKnownUids } from '../game/roster.js';
import type { Game, GameDay } from '../game/types.js';
import { buildDayReport, type DayReport } from '../report/day-report.js';
import { plainReportSource, type ReportSource } from '../report/source.js';
import { postUrl, type SlicePost } from '../store/slice.js';
import type { Completeness, StoreData, StoredThread } from '../store/types.js';
import type { ScannedPost } from '../violations/scanned-post.js';
import { loadWordLists } from '../violations/word-lists.js';
import { accelerationFor } from '../votes/acceleration.js';
import { outcomeOf, postsFromStore, postsWithClosed, withoutGapNotes, tallyDay, threadsForTally, type ClosedOutcomes, type PostsOf, type TallySource } from '../votes/tally.js';
import { exitDisagreements, exitsFromTally } from '../votes/carry-forward.js';
import { withLanguage } from '../i18n/index.js';
import type { TallyResult } from '../votes/types.js';

/** One day at closing time, assembled once: its tally (null when the day has no vote thread) and its report. */
export interface ClosingDay {
  tally: TallyResult | null;
  report: DayReport;
}

/**
 * Whether day `d` was accelerated, as the tally decides it: the day's tally's own `accelerated` when one
 * is given (src/votes/tally.ts, from accelerationFor over the process thread, the game file's
 * declaration overriding); otherwise — earlier days, and rulesets without a public vote, whose tally
 * carries no acceleration — the same accelerationFor call the tally makes (as of the cut-off), or the
 * game file's declaration when there is no process thread to count.
 */
export function acceleratedOn(game: Game, d: GameDay, posts: PostsOf, tally?: TallyResult | null): boolean {
  if (tally && tally.day === d.day && tally.kind !== 'none' && !tally.running) return tally.accelerated;
  if (game.process && (game.rules.acceleration.enabled || d.accelerated !== undefined)) {
    return accelerationFor(game, d, posts(game.process.tid)).accelerated;
  }
  return d.accelerated ?? false;
}

/**
 * Day `day`'s count at closing, when the day has one to make (a public-vote ruleset needs the day's vote
 * thread), from the posts `source` gives (tally.ts).
 */
function tallyForReport(
  game: Game, source: PostsOf | TallySource, day: number, at?: number, threadRecord?: (tid: number) => StoredThread | undefined,
): TallyResult | null {
  const d = findDay(game, day);
  if (game.rules.publicVote && !d.vote) return null;
  return tallyDay(game, source, day, { at, threadRecord });
}

/** The threads the report of `day` reads: the day's threads, its tally's threads and the process thread. */
export function threadsForReport(game: Game, day: number): number[] {
  const d = findDay(game, day);
  const tids = new Set(dayTids(d));
  if (game.process && d.accelerated === undefined) tids.add(game.process.tid);
  if (game.rules.publicVote && d.vote) for (const t of threadsForTally(game, day)) tids.add(t);
  return [...tids];
}

/**
 * The threads day `day`'s report reads, counted or not: every thread of days 1..N (the activity table,
 * lurking and the cards' standing look back) and the process thread. Later days' threads are not read.
 */
export function threadsThroughDay(game: Game, day: number): number[] {
  const tids = new Set<number>();
  for (const d of game.days) if (d.day <= day) for (const t of dayTids(d)) tids.add(t);
  if (game.process) tids.add(game.process.tid);
  for (const t of threadsForReport(game, day)) tids.add(t);
  return [...tids];
}

/** What `closingDay` may be given besides the store. */
export interface ClosingDayOptions {
  /** Count as of this moment: before the close, a running count (the day still open); default the close. */
  at?: number;
  /** The card ledger's file; null: none. Default: beside the game file. */
  ledgerFile?: string | null;
  /** The closed days' outcomes (src/derived/closed-days.ts); default: tallied again from the store. */
  closed?: ClosedOutcomes;
  /**
   * What the report reads beyond the store's posts and the threads read `apart` (src/report/source.ts;
   * at closing, src/derived/report-source.ts), for the game as seated (withKnownUids); default: the posts
   * in full, the bundled word lists with reportWordDirs'. Required with `apart`.
   */
  source?: (game: Game) => ReportSource<SlicePost | ScannedPost>;
  /** The store's posts by thread, when the caller made them already (postsFromStore); default: made here. */
  posts?: PostsOf;
  /**
   * Stored threads read apart, not in the store (src/derived/closing-inputs.ts readApart): their posts
   * scanned for the report, and in full those that may hold a ballot, for the count (read in part: the
   * closed days must be given).
   */
  apart?: ReadonlyMap<number, ApartThread>;
}

/** A thread read apart: every post scanned (violations/scan.ts), in full those that may hold a ballot (votes/ballot.ts mayHoldBallot). */
export interface ApartThread {
  scanned: readonly ScannedPost[];
  ballots: readonly SlicePost[];
  /** Its record (page records), when the reader has it: what the pages say of posts no longer on the forum. */
  thread?: StoredThread | null;
}

/** Day `day` from a store: the tally and the report (acceleration from that tally; the ledger read, not written). */
export function closingDay(gameAsFiled: Game, store: StoreData, day: number, opts: ClosingDayOptions = {}): ClosingDay {
  const game = withKnownUids(gameAsFiled, store.users);
  const stored = opts.posts ?? postsFromStore(store);
  const posts = new Map<number, readonly (SlicePost | ScannedPost)[]>();
  const full = new Map<number, readonly SlicePost[]>();
  for (const tid of threadsThroughDay(game, day)) {
    const apart = opts.apart?.get(tid);
    if (apart) posts.set(tid, apart.scanned);
    else if (store.threads[String(tid)]) {
      const list = stored(tid);
      full.set(tid, list);
      posts.set(tid, list);
    }
  }
  const postsOf: PostsOf = (tid) => full.get(tid) ?? [];
  const partOf = opts.apart && new Map([...opts.apart].map(([tid, a]) => [tid, a.ballots]));
  const threadRecord = (tid: number) => store.threads[String(tid)] ?? opts.apart?.get(tid)?.thread ?? undefined;
  // The count's source: the posts as stored, or, given the closed days, those with the threads read apart in part.
  const closed = opts.closed;
  const counting: PostsOf | TallySource = closed ? postsWithClosed((tid) => partOf?.get(tid) ?? postsOf(tid), closed) : postsOf;
  if (partOf && !closed) throw new Error('threads read apart need the closed days given');
  if (partOf && !opts.source) throw new Error('threads read apart need the report\'s source given');
  const tally = tallyForReport(game, counting, day, opts.at, threadRecord);
  const accelerated: Record<number, boolean> = {};
  for (const d of game.days) if (d.day <= day) accelerated[d.day] = acceleratedOn(game, d, postsOf, d.day === day ? tally : null);
  const base = opts.source?.(game) ?? (plainReportSource(game, { lists: loadWordLists(game.rules.bannedCategories, reportWordDirs(game)) }) as ReportSource<SlicePost | ScannedPost>);
  // The count at closing read the day's misplaced ballots from these posts (tally.ts): not read again.
  const read = tally && tally.kind !== 'none' && tally.kind !== 'rule' && !tally.running ? tally.misplaced : undefined;
  const source: ReportSource<SlicePost | ScannedPost> = read ? { ...base, ballotsOutOfPlace: (d, p) => base.ballotsOutOfPlace(d, p, read) } : base;
  const ledgerFile = opts.ledgerFile === undefined ? ledgerPath(game.file) : opts.ledgerFile;
  const report = buildDayReport(game, posts, day, {
    accelerated,
    ledger: ledgerFile ? readLedger(game, ledgerFile) : null,
    source,
    threadRecord,
  });
  // A result of this day the game file records that its count no longer gives (issue 31): the report says so
  // too (earlier days' are the tally's notes and the elevator's warnings: carried.ts).
  const disagree = (): string[] => (tally && tally.kind === 'elimination' && !tally.running
    ? exitDisagreements(game, day, tally.closes, exitsFromTally(outcomeOf(tally)), { unrecorded: false })
    : []);
  report.notes.push(...disagree());
  report.publicNotes.push(...withLanguage('zh', disagree));
  return { tally, report };
}

/** The day marked with the threads read incompletely (--allow-incomplete), tally and report alike. */
export function markIncomplete(day: ClosingDay, incomplete: Completeness[], game?: Pick<Game, 'forum' | 'timezone'>): ClosingDay {
  if (incomplete.length) {
    day.report.incomplete = incomplete;
    if (day.tally) day.tally.incomplete = incomplete;
    // (a floor the check lists as missing is a gap, not a post no longer on the forum)
    if (game) {
      if (day.tally) day.tally.notes = withoutGapNotes(day.tally.notes, game, incomplete);
      day.report.notes = withoutGapNotes(day.report.notes, game, incomplete);
      day.report.publicNotes = withLanguage('zh', () => withoutGapNotes(day.report.publicNotes, game, incomplete));
    }
  }
  return day;
}

/** The thread of a post by pid, or null when the posts looked in do not hold it. */
export type ThreadOfPost = (pid: number) => number | null;

/** Threads whose posts are listed in pid order, each with its tid: posts held besides the store's. */
export type ThreadsInPidOrder = Iterable<{ tid: number; posts: readonly { pid: number }[] }>;

/** Links to the stored posts by pid (the forum's find-post URL): those of the store and of `besides`. */
export function storedPostLinks(game: Game, store: StoreData, besides?: ThreadsInPidOrder): (pid: number) => string | null {
  const threadOf = storedThreadOf(store, besides);
  return (pid) => {
    const tid = threadOf(pid);
    return tid === null ? null : postUrl(game.forum, tid, pid);
  };
}

/**
 * The thread of a stored post by pid: of the store's, of the threads `besides` (their posts in pid
 * order), else as `elsewhere` finds it (null: none holds it).
 */
export function storedThreadOf(store: StoreData, besides?: ThreadsInPidOrder, elsewhere?: ThreadOfPost): ThreadOfPost {
  // A report links a few hundred posts: a search of each thread's pids, not a map of every pid.
  const others = [...(besides ?? [])];
  return (pid) => store.posts[String(pid)]?.tid ?? others.find((d) => holdsPid(d.posts.length, (i) => d.posts[i].pid, pid))?.tid ?? elsewhere?.(pid) ?? null;
}

/** Whether `n` pids in ascending order (`pidAt(i)`: the i-th) hold `pid`. */
export function holdsPid(n: number, pidAt: (i: number) => number, pid: number): boolean {
  let lo = 0;
  let hi = n - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = pidAt(mid);
    if (at === pid) return true;
    if (at < pid) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
