/**
 * The day report the director reads before handing out cards (issue 5; rules-spec §6–§8): every
 * player's post count and ballot, every flag with its evidence, the cards the tool proposes, and the
 * whole game's activity table. A pure function of (game, posts by thread, day, inputs the tally
 * supplies), reading what else it needs of the game's posts through its source (./source.ts): the CLI
 * reads the store, tests feed posts.
 */
import { findDay, isOut, seatPosts, type ReplacedPost } from '../game/roster.js';
import type { Game, GameDay } from '../game/types.js';
import type { SlicePost } from '../store/slice.js';
import { dayEnd, dayTids } from '../game/threads.js';
import { ballotPresence, type UnreadBallotPost } from '../activity/ballots.js';
import { countDayPosts, type CountedPost, type DayPosts } from '../activity/count.js';
import { lurkingFlags } from '../activity/lurking.js';
import { activityTableOf, type ActivityTable } from '../activity/table.js';
import { cardFor } from '../cards/ledger.js';
import { applyFlagRulings, flagRulingNote } from '../violations/flag-rulings.js';
import type { Completeness } from '../store/types.js';
import { proposeCards } from '../cards/propose.js';
import { standings } from '../cards/standing.js';
import type { CardColor, CardStatus, Ledger, Standing } from '../cards/types.js';
import { postFlag, type Flag } from '../violations/flag.js';
import { violationFlags, type ReportPost } from '../violations/scan.js';
import type { WordLists } from '../violations/word-lists.js';
import { plainReportSource, type ReportSource } from './source.js';
import { t, withLanguage } from '../i18n/index.js';
import { UserError } from '../errors.js';
import { vanishedPosts } from '../store/completeness.js';
import type { StoredThread } from '../store/types.js';
import { vanishedNotes } from '../votes/tally.js';

/** One player's line of the day (the JSON `activity` entry, plus the counted pids). */
export interface ActivityRow {
  player: string;
  posts: number;
  /**
   * Posted a ballot in the vote thread before closing; null when the day has no public vote thread;
   * 'unreadable' when the player's only posts there that may be a ballot are posts this account cannot
   * read (`unreadable` lists them): not known either way — never shown as yes or no, and no no-ballot card.
   */
  voted: boolean | 'unreadable' | null;
  /** With voted 'unreadable': the player's posts in the vote thread this account cannot read. */
  unreadable?: UnreadBallotPost[];
  /** Out before the day opened: the lurker rules do not apply. */
  exempt: boolean;
  /** The counted posts (evidence for the count). */
  pids: number[];
}

/** A card as the report shows it: the tool's proposal and the ledger's status. */
export interface ReportCard {
  /** Ledger id once the proposal is in the ledger (the CLI adds it), else null. */
  id: string | null;
  player: string;
  color: CardColor;
  /** The public sentence (what the notice shows once confirmed). */
  reason: string;
  /** For the director only: why this colour was proposed; never posted. */
  directorNote?: string;
  evidence: number[];
  status: CardStatus;
  kind: Flag['kind'];
  /** The flag kinds the card stands for. */
  kinds: Flag['kind'][];
  category?: string;
}

export interface DayReport {
  day: number;
  ruleset: string;
  timezone: string;
  opens: number;
  closes: number;
  accelerated: boolean;
  /** Accelerated and the ruleset waives the per-day lurker penalties then (§5). */
  waived: boolean;
  activity: ActivityRow[];
  flags: Flag[];
  cards: ReportCard[];
  /** Players × days up to this day. */
  table: ActivityTable;
  /** Confirmed cards with upgrades (empty without a ledger). */
  standings: Standing[];
  /** What the director should know about the report itself (missing threads, waivers…), in the director's language. */
  notes: string[];
  /** The same notes in Chinese, as the reports written in Chinese (HTML, Markdown) show them. */
  publicNotes: string[];
  /** Threads read while incompletely crawled (--allow-incomplete): every view starts with them. */
  incomplete?: Completeness[];
}

export interface DayReportOptions<P extends ReportPost = SlicePost> {
  /**
   * Whether days were accelerated (src/votes/acceleration.ts, or the game file's declaration): a map by
   * day for the streak rule, or a boolean for this day alone (earlier days then count as not accelerated).
   */
  accelerated: boolean | Readonly<Record<number, boolean>>;
  /** Players who posted a ballot on this day (from the tally); default: read from the vote thread. */
  ballots?: ReadonlySet<string>;
  /** Word lists; default: the bundled lists of the ruleset's bannedCategories. For the default source. */
  lists?: WordLists;
  /** The card ledger: decided cards keep their status, confirmed ones make repeats and standings. */
  ledger?: Ledger | null;
  /** What the report reads of the game's posts beyond those given (./source.ts); default: plainReportSource over `lists`, the posts given in full. */
  source?: ReportSource<P>;
  /** The store's record of a thread, when at hand: what its pages say of posts no longer on the forum (tally.ts TallyOptions.threadRecord). */
  threadRecord?: (tid: number) => StoredThread | undefined;
}

/**
 * Refuses (exit 2) a day whose game-file entry names no thread: nothing could be counted, and a report
 * would read every player's zero posts as lurking (issue 31).
 */
export function refuseDayWithoutThreads(game: Game, day: number): void {
  if (dayTids(findDay(game, day)).length === 0) throw new UserError(t('report.dayNoThreads', day, game.file));
}

/**
 * Builds day `day`'s report from `postsAsStored` (the day's threads, its tally's and the process thread,
 * and what else of days 1..N is given), the rest read through `opts.source`. Throws when the game has no
 * such day, or the day names no thread.
 */
export function buildDayReport(game: Game, postsAsStored: ReadonlyMap<number, readonly SlicePost[]>, day: number, opts: DayReportOptions<SlicePost>): DayReport;
export function buildDayReport<P extends ReportPost>(game: Game, postsAsStored: ReadonlyMap<number, readonly P[]>, day: number, opts: DayReportOptions<P> & { source: ReportSource<P> }): DayReport;
export function buildDayReport<P extends ReportPost>(game: Game, postsAsStored: ReadonlyMap<number, readonly P[]>, day: number, opts: DayReportOptions<P>): DayReport {
  refuseDayWithoutThreads(game, day);
  const d = findDay(game, day);
  // Posts as the seats see them (src/game/roster.ts): counts, ballots and cards follow the seat.
  const posts = new Map<number, readonly P[]>();
  const replaced: ReplacedPost<P>[] = [];
  for (const [tid, list] of postsAsStored) {
    const seated = seatPosts(game, list);
    posts.set(tid, seated.posts);
    replaced.push(...seated.replaced);
  }
  const source = opts.source ?? (plainReportSource(game, { lists: opts.lists }) as unknown as ReportSource<P>);
  const accelerated: Record<number, boolean> = typeof opts.accelerated === 'boolean' ? { [day]: opts.accelerated } : { ...opts.accelerated };
  const isAccelerated = accelerated[day] === true;
  const waived = isAccelerated && game.rules.acceleration.waivesLurking;
  const notes: string[] = [];
  const publicNotes: string[] = [];
  // Notes are the director's: in the director's language (the terminal, as the tally's), and in Chinese for the Chinese reports.
  const note = (write: () => string): void => {
    notes.push(write());
    publicNotes.push(withLanguage('zh', write));
  };

  const today = countDayPosts(game, d, posts);
  const postsByDay = new Map<number, DayPosts<CountedPost>>();
  for (const g of game.days) if (g.day <= day) postsByDay.set(g.day, g.day === day ? today : source.dayPosts(g, posts));
  if (today.tids.length === 0) note(() => t('dayNote.noThreads', day, game.rules.lurking.countedThreads.join(t('list.sep'))));
  if (today.missing.length) note(() => t('dayNote.missing', today.missing.join(', ')));
  // Posts of the day's threads no longer on the forum: counted without (a floor never seen) or as last stored.
  for (const tid of new Set([...today.tids, ...d.votes.map((v) => v.tid)])) {
    const list = posts.has(tid) ? vanishedPosts(game.forum, tid, postsAsStored.get(tid) ?? [], opts.threadRecord?.(tid)) : [];
    for (let i = 0; i < list.length; i++) note(() => vanishedNotes(list, game.timezone)[i]);
  }

  let ballots: ReadonlySet<string> | null = null;
  let unreadBallots = new Map<string, UnreadBallotPost[]>();
  if (game.rules.publicVote && d.vote) {
    const unread = d.votes.filter((v) => !posts.has(v.tid)).map((v) => v.tid);
    if (opts.ballots) ballots = opts.ballots;
    else if (unread.length === 0) ({ ballots, unreadable: unreadBallots } = ballotPresence(game, d, d.votes.flatMap((v) => source.full(posts.get(v.tid)!))));
    else note(() => t('dayNote.voteUnread', unread.join(', ')));
  }
  if (isAccelerated) note(() => t('dayNote.accelerated', day, waived));
  if (!game.rules.lurking.enabled) note(() => t('dayNote.noLurking', game.rules.name));

  const activity: ActivityRow[] = today.players.map((r) => ({
    player: r.player,
    posts: r.posts,
    ...(unreadBallots.has(r.player)
      ? { voted: 'unreadable' as const, unreadable: unreadBallots.get(r.player) }
      : { voted: ballots ? ballots.has(r.player) : null }),
    exempt: r.exempt,
    pids: r.pids,
  }));

  const found: Flag[] = [
    ...lurkingFlags({ game, day, postsByDay, accelerated, ballots }),
    ...violationFlags({ game, day: d, posts, source }),
  ];
  for (const r of today.players) {
    for (const p of r.late) {
      if (isOut(game, r.player, p.at)) continue; // already a 诈尸 flag
      found.push(postFlag(p, p.text, { kind: 'late-post' }));
    }
  }
  found.push(...seatFlags(game, d, replaced, posts, source));
  // The director's rulings on flagged posts (src/rulings): a rejected flag proposes no card.
  const { flags, ruled } = applyFlagRulings(found, game.rulings, day);
  for (const r of ruled) note(() => flagRulingNote(r));

  const ledger = opts.ledger ?? null;
  const cards: ReportCard[] = proposeCards(game, day, flags, ledger).map((p) => {
    const known = ledger ? cardFor(ledger.cards, p) : undefined;
    const card: ReportCard = {
      id: known?.id ?? null,
      player: p.player,
      color: known && known.status !== 'proposed' ? known.color : p.color,
      reason: known && known.status !== 'proposed' ? known.reason : p.reason,
      evidence: known && known.status !== 'proposed' ? known.evidence : p.evidence,
      status: known?.status ?? 'proposed',
      kind: p.kind,
      kinds: p.kinds,
    };
    if (p.category) card.category = p.category;
    if (p.directorNote) card.directorNote = p.directorNote;
    return card;
  });

  return {
    day,
    ruleset: game.rules.name,
    timezone: game.timezone,
    opens: d.opens,
    closes: d.closes,
    accelerated: isAccelerated,
    waived,
    activity,
    flags,
    cards,
    table: activityTableOf(game, [...postsByDay.values()]),
    standings: ledger ? standings(game, ledger, day) : [],
    notes,
    publicNotes,
  };
}

/**
 * Flags no card follows (src/cards/severity.ts): posts the day's business got from accounts a substitute
 * had replaced (not the seat's, not 诈尸: the account left the game; 120b l.631 替补玩家一旦上场，前任玩家
 * 彻底离开游戏), and players' ballots posted in the discussion or process thread (not counted).
 */
function seatFlags<P extends ReportPost>(game: Game, d: GameDay, replaced: readonly ReplacedPost<P>[], posts: ReadonlyMap<number, readonly P[]>, source: ReportSource<P>): Flag[] {
  const flags: Flag[] = [];
  const mine = new Set([...dayTids(d), ...(game.process ? [game.process.tid] : [])]);
  const end = dayEnd(game, d);
  for (const r of replaced) {
    const p = r.post;
    if (!mine.has(p.tid) || p.at < d.opens || p.at >= end) continue;
    flags.push({
      ...postFlag(p, p.text, { kind: 'replaced-account', account: p.author, since: r.since, by: r.by, seat: r.seat }),
      player: r.seat,
    });
  }
  if (game.rules.publicVote) {
    for (const { ballot: m, post } of source.ballotsOutOfPlace(d, posts)) {
      flags.push(postFlag(post, post.text, { kind: 'misplaced-ballot', thread: m.thread, tid: m.tid, target: m.target }));
    }
  }
  return flags;
}
