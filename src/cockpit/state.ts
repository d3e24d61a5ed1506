/**
 * The closing cockpit's state (issue 33): one game day as the director's page shows it, and the rounds
 * that keep it current. A round crawls what the count reads (the watch's crawl: crawlForCount), then
 * counts and reports from the store exactly as `bansha close` does (closingDayFromStore: the tally, the
 * report, the proposals into the ledger once the day has closed), and says as of when the count is
 * (src/crawl/freshness.ts); before the close the count is drawn first, as `watch` makes it, then the
 * whole view. A crawl that fails keeps the last count on the page, marked stale since the
 * oldest fetch it reads. The director's acts — a ruling, an undo, a card, 发布 — run the CLI's own
 * functions (src/rulings/rule.ts, decideCard, announcementPlan + runPost under the fresh gating) and
 * redraw at once, without a crawl. Rounds and acts run one at a time, in order.
 */
import fs from 'node:fs';
import { decideCard, ledgerPath, readLedger } from '../cards/ledger.js';
import type { LedgerCard } from '../cards/types.js';
import { crawlForCount } from '../close/live-count.js';
import { announcementPlan, refuseIncompletePost } from '../close/announcement.js';
import { recordProposals } from '../close/proposals.js';
import type { Clock } from '../clock.js';
import type { CrawlOptions, CrawlResult } from '../crawl/crawler.js';
import { countFreshness, decidingThreads, goneThreads, readFetches, refuseOpenDay, refuseStale, staleThreads, type ThreadFreshness } from '../crawl/freshness.js';
import { countFromStore } from '../derived/closed-days.js';
import { beforeReport, closingDayFromStore, reportThreads } from '../derived/closing-inputs.js';
import { UserError } from '../errors.js';
import { loadGame } from '../game/game-file.js';
import { findDay } from '../game/roster.js';
import type { Game } from '../game/types.js';
import { t } from '../i18n/index.js';
import { runPost, sessionIdentity, threadUrl, type Poster, type PublishPlan } from '../publish/index.js';
import { renderTallyBBCode } from '../render/tally-bbcode.js';
import type { DayReport } from '../report/day-report.js';
import { activeRulings } from '../game/rulings/active.js';
import { readRulings, rulingsPath } from '../game/rulings/file.js';
import { applyRuling, undoRuling } from '../rulings/rule.js';
import type { Ruling, RulingVerb } from '../game/rulings/types.js';
import { withCountingStore } from '../store/with-store.js';
import type { Completeness } from '../store/types.js';
import type { StaleThread, TallyResult } from '../votes/types.js';

/** What the last crawl did. */
export interface CrawlNote {
  /** When it ended (the cockpit's clock, epoch ms). */
  at: number;
  /** Posts new to the store. */
  newPosts: number;
  /** Pages it could not fetch, with why. */
  failures: Array<{ tid: number; page: number; reason: string }>;
  /** Why the round failed as a whole (a login needed, a refused page…), null when it did not. */
  error: string | null;
}

/** The announcement as it will be posted, where and as whom. */
export interface Announcement {
  bbcode: string;
  plan: PublishPlan;
  threadUrl: string;
  poster: Poster | null;
  /** Why the poster is unknown (no session, a guest…). */
  problem: string | null;
}

/** Everything the page shows. */
export interface CockpitView {
  game: Game;
  day: number;
  /** The cockpit's clock when the view was made. */
  now: number;
  opens: number;
  closes: number;
  /** The day has not closed (a running count). */
  open: boolean;
  /** The count (null: none yet: the first crawl failed, or the day has no public vote). */
  tally: TallyResult | null;
  report: DayReport | null;
  /**
   * As of when the count is: before the close, when the last crawl that fetched every page it asked for
   * ended; after it, the oldest fetch of the threads deciding it (null: none yet, or one never fetched whole).
   */
  asOf: number | null;
  freshness: ThreadFreshness[];
  /** After the close: the threads deciding the count not fetched whole after it. */
  stale: StaleThread[];
  incomplete: Completeness[];
  lastCrawl: CrawlNote | null;
  /** Why the count could not be made this round (the page keeps the last one), null when it was. */
  countError: string | null;
  /** The rulings in force on this day. */
  rulings: Ruling[];
  /** The ledger's cards of this day. */
  cards: LedgerCard[];
  announcement: Announcement | null;
  /** Why 发布 is refused now (the fresh gating's words), null when it may publish. */
  publishRefusal: string | null;
  published: { url: string; pid: number; at: number; kind: 'reply' | 'edit' } | null;
  /** A count of the views made: the page ignores an older one. */
  version: number;
}

export interface CockpitOptions {
  game: Game;
  day: number;
  clock: Clock;
  /** Options for each crawl (tests and the demo: delays, the clock pages are stamped with). */
  crawl?: CrawlOptions;
}

/** The message of an error, for the page. */
function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The gating's refusal as words, null when it lets the call through. */
function refusalOf(check: () => void): string | null {
  try {
    check();
    return null;
  } catch (err) {
    if (err instanceof UserError) return err.message;
    throw err;
  }
}

/** A file's size and modification time ('-' when absent): what tells the cockpit to read it again. */
function fileStamp(file: string): string {
  try {
    const st = fs.statSync(file);
    return `${st.size}:${st.mtimeMs};`;
  } catch {
    return '-;';
  }
}

/** Before the close: the threads the count reads with their last crawl's failure, as the crawler recorded it (no store read). */
function recordedFailures(game: Game, day: number): ThreadFreshness[] {
  const records = readFetches(game.storePath);
  return decidingThreads(game, day).map(({ tid, due }) => {
    const rec = records[String(tid)];
    const asOf = rec?.asOf ? Date.parse(rec.asOf) : NaN;
    return { tid, due, asOf: Number.isFinite(asOf) ? asOf : null, fresh: false, failure: rec?.failure ?? null, cause: rec?.cause ?? null };
  });
}

/** The cockpit's model: rounds, acts, and the view each of them leaves. */
export class Cockpit {
  game: Game;
  readonly day: number;
  readonly clock: Clock;
  #crawl: CrawlOptions | undefined;
  #view: CockpitView | null = null;
  #lastCrawl: CrawlNote | null = null;
  /** When the last crawl that fetched every page it asked for ended. */
  #lastGood: number | null = null;
  #published: CockpitView['published'] = null;
  #identity = new Map<string, { poster: Poster | null; problem: string | null }>();
  #listeners = new Set<(v: CockpitView) => void>();
  #queue: Promise<unknown> = Promise.resolve();
  #version = 0;
  #gameStamp = '';

  constructor(o: CockpitOptions) {
    this.game = o.game;
    this.day = o.day;
    this.clock = o.clock;
    this.#crawl = o.crawl;
    findDay(o.game, o.day); // an unknown day is refused before anything runs
  }

  get view(): CockpitView | null {
    return this.#view;
  }

  /** Called with each new view; returns the unsubscribe. */
  subscribe(fn: (v: CockpitView) => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  /** Runs `job` after every earlier round and act (one at a time, in order). */
  #serial<T>(job: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(job, job);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Waits for the rounds and acts queued so far. */
  async idle(): Promise<void> {
    await this.#queue;
  }

  /** A round: crawl what the count reads (unless `crawl` is false), then count and redraw. */
  round(crawl = true): Promise<CockpitView> {
    return this.#serial(async () => {
      if (crawl) await this.#crawlNow();
      await this.#countFirst();
      return this.#recount();
    });
  }

  async #crawlNow(): Promise<void> {
    const at = this.clock.now();
    const crawlOpts: CrawlOptions = { now: () => this.clock.now(), ...this.#crawl };
    try {
      const crawls: CrawlResult[] = await crawlForCount(this.game, this.day, at, { crawl: crawlOpts });
      const failures = crawls.flatMap((c) => c.threads.flatMap((x) => x.failures.map((f) => ({ tid: x.tid, page: f.page, reason: f.reason }))));
      this.#lastCrawl = { at: this.clock.now(), newPosts: crawls.reduce((n, c) => n + c.threads.reduce((m, x) => m + x.newPosts, 0), 0), failures, error: null };
      if (!failures.length) this.#lastGood = this.#lastCrawl.at;
    } catch (err) {
      // A refused page, a login needed: the page says so and keeps the last count, stale since it was made.
      if (!(err instanceof UserError)) throw err;
      this.#lastCrawl = { at: this.clock.now(), newPosts: 0, failures: [], error: messageOf(err) };
    }
  }

  /**
   * Before the close, the count first: made as `watch` and `tally` make it (countFromStore: the threads
   * read in part, the earlier days from their kept outcomes) and drawn at once with the rest of the last
   * view, before the report is made again (#recount, which draws the whole view: the same count).
   */
  async #countFirst(): Promise<void> {
    const prev = this.#view;
    this.#freshGame();
    const { game, day } = this;
    const now = this.clock.now();
    if (!prev || now >= findDay(game, day).closes || !game.rules.publicVote) return;
    let tally: TallyResult;
    try {
      tally = await countFromStore(game, day, { at: now, allowIncomplete: true, gone: [] }, (result) => result); // (open: nothing is gone from a running count)
    } catch (err) {
      if (err instanceof UserError) return; // the whole recount says why
      throw err;
    }
    this.#emit({ ...prev, now, open: true, tally, incomplete: tally.incomplete ?? [], asOf: this.#lastGood, lastCrawl: this.#lastCrawl, version: ++this.#version });
  }

  #emit(view: CockpitView): void {
    this.#view = view;
    for (const fn of this.#listeners) fn(view);
  }

  /** The game file and the rulings beside it as they are now (a ruling from the page or the CLI, an edit): read again when either changed on disk. */
  #freshGame(): void {
    const stamp = fileStamp(this.game.file) + fileStamp(rulingsPath(this.game.file));
    if (stamp !== this.#gameStamp) {
      try {
        this.game = loadGame(this.game.file, { store: this.game.storePath });
      } catch (err) {
        if (!(err instanceof UserError)) throw err;
        this.game = { ...this.game, rulings: activeRulings(readRulings(rulingsPath(this.game.file))) };
      }
      this.#gameStamp = stamp;
    }
  }

  /** Counts and reports from the store as `bansha close` does, and makes the view. */
  async #recount(): Promise<CockpitView> {
    this.#freshGame();
    const { game, day } = this;
    const now = this.clock.now();
    const d = findDay(game, day);
    const open = now < d.closes;
    // Open: what the crawler recorded is enough (what failed); closed: as of when each deciding thread is.
    const freshness = open ? recordedFailures(game, day) : await countFreshness(game, day);
    const stale = open ? [] : staleThreads(game, freshness.filter((f) => !f.fresh));
    // As of when. Open: the last crawl that got every page it asked for (what a running count has read).
    // Closed: the oldest fetch of the threads deciding the count (freshness.ts; an earlier day's thread
    // fetched whole after its own close cannot change it).
    const asOfs = freshness.filter((f) => f.due >= d.closes || !f.fresh).map((f) => f.asOf);
    const asOf = open ? this.#lastGood : asOfs.length && asOfs.every((x): x is number => x !== null) ? Math.min(...asOfs) : null;
    const ledgerFile = ledgerPath(game.file);
    let tally: TallyResult | null = this.#view?.tally ?? null;
    let report: DayReport | null = this.#view?.report ?? null;
    let incomplete: Completeness[] = this.#view?.incomplete ?? [];
    let plan: PublishPlan | null = null;
    let bbcode: string | null = null;
    let countError: string | null = null;
    try {
      const threads = reportThreads(game, day);
      await beforeReport(game, day);
      const made = await withCountingStore(game, { tids: threads.tids, load: threads.load, vouched: threads.vouched, allowIncomplete: true }, async (store, checked) => {
        const { closing, incomplete: gaps } = await closingDayFromStore(game, day, store, { ledgerFile, checked, allowIncomplete: true, at: open ? now : undefined, gone: open ? [] : goneThreads(game, freshness) });
        // As close: once the day has closed its proposals go into the ledger (ids to confirm or dismiss by).
        if (!open) await recordProposals(game, closing.report, ledgerFile);
        const count = closing.tally;
        if (count && stale.length) count.stale = stale;
        const text = count && !open && count.kind !== 'none' && count.tid !== null ? renderTallyBBCode(count) : null;
        return { closing, gaps, text, plan: text && count ? announcementPlan(store, game, count, text) : null };
      });
      tally = made.closing.tally;
      report = made.closing.report;
      incomplete = made.gaps;
      bbcode = made.text;
      plan = made.plan;
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      countError = messageOf(err);
    }
    const announcement = plan && bbcode ? await this.#announcement(plan, bbcode) : null;
    const publishRefusal =
      refusalOf(() => refuseOpenDay(game, day, now, t('cockpit.publish'))) ??
      (countError !== null ? countError : null) ??
      refusalOf(() => refuseIncompletePost(incomplete, tally)) ?? // (and posts this account cannot read that could change it: issue 31)
      refusalOf(() => refuseStale(game, freshness, t('cockpit.publish'))) ??
      (announcement ? null : t('close.noPublicCount', day));
    const rulings = activeRulings(readRulings(rulingsPath(game.file))).filter((r) => r.day === day);
    const cards = readLedger(game, ledgerFile).cards.filter((c) => c.day === day);
    const view: CockpitView = {
      game, day, now, opens: d.opens, closes: d.closes, open, tally, report, asOf, freshness, stale, incomplete,
      lastCrawl: this.#lastCrawl, countError, rulings, cards, announcement, publishRefusal, published: this.#published, version: ++this.#version,
    };
    this.#emit(view);
    return view;
  }

  /** The announcement with who the session posts as (asked of the forum once per thread). */
  async #announcement(plan: PublishPlan, bbcode: string): Promise<Announcement> {
    const key = `${plan.forum}#${plan.tid}`;
    let who = this.#identity.get(key);
    if (!who) {
      who = await sessionIdentity(plan.forum, plan.tid, this.game.sessionPath, this.game.file);
      if (who.poster) this.#identity.set(key, who);
    }
    return { bbcode, plan, threadUrl: threadUrl(plan.forum, plan.tid), poster: who.poster, problem: who.problem };
  }

  /** Accept or reject a ballot (by pid) or a flag, with the director's reason: `bansha rule`'s call. */
  rule(verb: RulingVerb, target: string, why: string, flag = false): Promise<{ lines: string[]; view: CockpitView }> {
    return this.#serial(async () => {
      const lines = await applyRuling(this.game, verb, target, { day: this.day, why, flag });
      return { lines, view: await this.#recount() };
    });
  }

  /** Take back a ruling: `bansha rule undo`'s call. */
  undo(id: number): Promise<{ ruling: Ruling; view: CockpitView }> {
    return this.#serial(async () => {
      const ruling = await undoRuling(this.game, String(id));
      return { ruling, view: await this.#recount() };
    });
  }

  /** Confirm or dismiss a card: `bansha cards confirm|dismiss`'s call. */
  card(id: string, status: 'confirmed' | 'dismissed', note?: string): Promise<{ card: LedgerCard; view: CockpitView }> {
    return this.#serial(async () => {
      const { card } = await decideCard(this.game, id, status, note);
      return { card, view: await this.#recount() };
    });
  }

  /**
   * 发布: the announcement through `close --post`'s path (announcementPlan: an edit of the tool's own
   * earlier post when the store holds one, else a reply; runPost --yes), refused (a UserError, exit 7 or 3)
   * while the day is open, the count is not as of the close or is incomplete — checked again now, from the
   * files, not from the page. Then a round, so the store holds what was posted (a second 发布 edits it).
   */
  publish(): Promise<{ url: string; pid: number; view: CockpitView }> {
    return this.#serial(async () => {
      const { game, day } = this;
      const what = t('cockpit.publish');
      refuseOpenDay(game, day, this.clock.now(), what);
      refuseStale(game, await countFreshness(game, day), what);
      const view = await this.#recount();
      if (view.countError !== null) throw new UserError(view.countError, 3);
      refuseIncompletePost(view.incomplete, view.tally);
      if (!view.announcement) throw new UserError(t('close.noPublicCount', day));
      const posted = await runPost(view.announcement.plan, game, { yes: true });
      if (posted.dryRun) throw new Error('a post with yes came back a dry run');
      this.#published = { url: posted.result.url, pid: posted.result.pid, at: this.clock.now(), kind: view.announcement.plan.kind };
      await this.#crawlNow();
      return { url: posted.result.url, pid: posted.result.pid, view: await this.#recount() };
    });
  }
}
