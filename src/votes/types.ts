/**
 * The values the vote tally passes between its steps (read → select → count) and hands to the
 * renderers. Plain data: a TallyResult is everything a terminal, BBCode or JSON view draws.
 */
import type { SlicePost } from '../store/slice.js';
import type { Completeness } from '../store/types.js';
import type { MisplacedBallot } from './misplaced.js';
import type { AccelerationIgnore, BallotReason, BallotReasonCode, OutcomeDetail, SheriffSource } from './reasons.js';

/** What a ballot names: a player, an abstention (弃权), or (wuhui's morning vote) a duel rule. */
export type Target =
  | { kind: 'player'; name: string }
  | { kind: 'abstain' }
  | { kind: 'rule'; rule: number };

/** 投票对象/投票理由 (a vote) or 改票对象/改票理由 (a change). */
export type BallotHead = 'vote' | 'change';

/** A well-formed ballot whose target names exactly one candidate (or 弃权). */
export interface Ballot {
  ok: true;
  head: BallotHead;
  /** The target as the player wrote it (trailing punctuation dropped). */
  written: string;
  target: Target;
  reason: string;
}

/** Why a post is not a usable ballot (rules-spec §2). */
export type BallotProblem =
  | 'no-ballot' // no 投票对象/改票对象 head at all
  | 'malformed' // heads present but the format is wrong (missing reason, mixed heads, two targets...)
  | 'unknown-target' // X names nobody
  | 'ambiguous-target'; // X names two or more candidates

export interface BallotFailure {
  ok: false;
  problem: BallotProblem;
  /** The heads that were found, when any. */
  head: BallotHead | null;
  /** X as written, when there was one. */
  written: string | null;
  /** Why, as a value (its `code` is stable). */
  detail: BallotReason;
  /** The same in the report's words (Chinese: reasons.ts). */
  reason: string;
  /** The nearest real name (or rule) to what was written: a hint, never counted. */
  hint: string | null;
}

export type BallotReading = Ballot | BallotFailure;

/** What happened to one ballot post in the count. */
export type BallotStatus = 'counted' | 'rejected' | 'superseded';

/** One edit the store saw: the version that counts and the current one. */
export interface BallotEdit {
  /** The earliest text the store holds (what counts). */
  before: string;
  /** The current text. */
  after: string;
  /** Edit time from the marker (ISO), when the page showed one. */
  at: string | null;
}

/** Where a post the count cites is: its pid, floor, time (epoch ms: the earliest the page allows) and link. */
export type PostPlace = Pick<SlicePost, 'pid' | 'floor' | 'at' | 'url'>;

/** One ballot post (or a player's post in the vote thread) and what the count made of it. */
export interface BallotRecord extends PostPlace {
  /** The player the ballot is for (for a 代投 post: the player named, not the director). */
  voter: string;
  /** Display target: a player's name, 弃权, 规则N — or X as written when it names nobody. */
  target: string | null;
  /** Weight in the totals (0 for rejected, superseded and abstentions). */
  weight: number;
  status: BallotStatus;
  /**
   * Why it was rejected or superseded, or a remark on a counted one: the public sentence (the rule and
   * the fact, what the announcement shows), in Chinese; null otherwise.
   */
  reason: string | null;
  /** What the director should check or may accept about it (never in BBCode or a post); null when nothing. */
  note?: string | null;
  /**
   * The same as values, in order (the first is the main one): `reason` is their wording. Always set by
   * the tally; optional only so hand-built records stay valid.
   */
  details?: BallotReason[];
  head: BallotHead | null;
  /** The director who posted a 代投 (proxy) ballot, when it is one. */
  proxyBy: string | null;
  /** Set when the store holds versions with different content (rules-spec §3, edits). */
  edit: BallotEdit | null;
  /** Points the director must check (edited without an earlier version, deleted since...), in Chinese. */
  flags: string[];
  /** The counted ballot's target as a value (null when rejected or unreadable). */
  parsed: Target | null;
}

/** A player's line in the report: what counts and every attempt that did not. */
export interface VoterSummary {
  player: string;
  /** The counted ballot (after changes), or null when the player has none. */
  counted: BallotRecord | null;
  /** Every other ballot post of theirs, oldest first (rejected or superseded). */
  others: BallotRecord[];
  /**
   * 'voted' | 'abstained' | 'none' (cast nothing valid) | 'out' (not in the game when counted) | 'idiot' |
   * 'unreadable' (nothing counted, but a post in the vote thread this account cannot read: never "no ballot").
   */
  state: 'voted' | 'abstained' | 'none' | 'out' | 'idiot' | 'unreadable';
}

export interface TotalLine {
  name: string;
  votes: number;
  /** Who voted for this candidate (counted ballots), in time order. */
  voters: string[];
}

export type TallyKind = 'election' | 'elimination' | 'rule' | 'none';

export interface TallyOutcome {
  /** The sheriff elected, the player out, the rule chosen — or null (tie with nobody out, no votes). */
  name: string | null;
  /** Candidates tied on the top total (empty when there is a single top). */
  tie: string[];
  /** The rule that decided, in words (Chinese), citing the rule post. */
  rule: string;
  /** The same as a value (its `code` is stable). Always set by the tally; optional for hand-built values. */
  detail?: OutcomeDetail;
  /** What the director must decide or check about the result (never posted); null when nothing. */
  note?: string | null;
}

/** One acceleration request post and whether it counted (the audit a director checks). */
export interface AccelerationRequest extends PostPlace {
  player: string;
  counted: boolean;
  /** Why it did not count (late, out, not a player, asked twice, withdrawn…), in Chinese; null when counted. */
  reason: string | null;
  code: AccelerationIgnore['code'] | null;
}

/** Acceleration (rules-spec §5) as the process thread shows it. */
export interface AccelerationResult {
  accelerated: boolean;
  /** Why, in Chinese: "11-22 21:00 前，11 名存活玩家中 6 人申请加速（须过半：6 人）：已加速". */
  explanation: string;
  /** The director's declaration in the game file overrides the count. */
  declared: boolean | null;
  requests: Array<PostPlace & { player: string }>;
  delays: Array<PostPlace & { player: string }>;
  /** Posts that did not count, with why (out, director, after the cut-off, withdrawn...). */
  ignored: Array<{ author: string; pid: number; floor: number | null; at: number; reason: string; code: AccelerationIgnore['code'] }>;
  /** Every request post of the day (not delays), in time order, counted or with why not. */
  audit: AccelerationRequest[];
  alive: number;
  /** Requests needed to accelerate. */
  needed: number;
  /** Requests count only strictly before this time (epoch ms). */
  cutoff: number;
  /** The moment counted: the cut-off, or an earlier --at. */
  asOf: number;
  /**
   * Posts of alive players in the day's window before the cut-off whose text this account cannot read
   * (banned, shielded, pending, hidden…), by pid: each may be a request or a withdrawal. Absent when none.
   */
  unreadable?: number[];
}

export interface TallyResult {
  day: number;
  kind: TallyKind;
  /** For kind 'none': why there is no count (Chinese). */
  reason: string | null;
  /** The thread counted. */
  tid: number | null;
  /** The day's closing time and the moment counted (closing, or --at when earlier). */
  closes: number;
  countedAt: number;
  /** True when counted at a moment before closing (a running count). */
  running: boolean;
  timezone: string;
  sheriff: string | null;
  /** How the sheriff was known (游戏文件指定, 第 1 日竞选当选…), or why there is none, in Chinese (the HTML report): sheriffFrom written by reasons.ts sheriffSourceFields. */
  sheriffSource: string;
  /** The same as values (reasons.ts SheriffSource): the terminal says it in the director's language. */
  sheriffFrom: SheriffSource;
  sheriffWeight: number;
  accelerated: boolean;
  acceleration: AccelerationResult | null;
  totals: TotalLine[];
  abstentions: string[];
  result: TallyOutcome;
  /** Every ballot post in time order. */
  ballots: BallotRecord[];
  /** One line per player of the game, in elevator order. */
  players: VoterSummary[];
  /**
   * Players' ballots posted in the discussion or process thread: not counted, listed for the director.
   * Always set by the tally; optional only so hand-built results stay valid.
   */
  misplaced?: MisplacedBallot[];
  /** Things the director must check that are not tied to one ballot (Chinese). */
  notes: string[];
  /**
   * Posts in the vote thread this account cannot read (banned, shielded, pending, hidden…) that no ruling
   * settled, and whether they could change the result: then `--confirm` and `--post` refuse until the
   * director rules on each (bansha rule reject PID). Absent when there are none.
   */
  unreadable?: { pids: number[]; couldChange: boolean };
  /**
   * Posts of the process thread this account cannot read and no ruling settled (AccelerationResult.unreadable),
   * each maybe an acceleration request or a withdrawal, and whether they could change whether the day is
   * accelerated (then the result says so, and --confirm/--post refuse until the director rules: close/announcement.ts).
   * Absent when none, or when the game file declares the day's acceleration.
   */
  unreadableProcess?: { pids: number[]; couldChange: boolean };
  /**
   * Posts a sheriff's handover on the count's badge path waits on (succession.ts SheriffHandover.unreadable:
   * the outgoing sheriff's or a director's, after the departure, unreadable, unruled), each maybe naming the
   * successor, and whether a different sheriff (anyone, or nobody) could change the result: then the result
   * says so and --confirm/--post refuse until the director rules (bansha rule reject PID). Absent when none.
   */
  unreadableSuccession?: { pids: number[]; couldChange: boolean };
  /**
   * Threads the count read while incompletely crawled (--allow-incomplete): every view starts with
   * them and nothing is posted. Set by whoever opened the store; absent or empty when complete.
   */
  incomplete?: Completeness[];
  /**
   * Threads the count read that were not fetched whole after the close they decide (src/crawl/freshness.ts):
   * the count is only as of then. Set by the command that checked; every view starts with them, nothing is posted.
   */
  stale?: StaleThread[];
  /**
   * Threads the forum said after the close no longer exist, counted from the versions read before by the
   * director's ruling (`ruling`; src/crawl/freshness.ts): every view says so first; posting goes ahead.
   */
  gone?: StaleThread[];
}

/** A thread a closing count read that was not fetched whole after the close it decides. */
export interface StaleThread {
  tid: number;
  /** What it is to the game (the day of a day's thread). */
  role: 'process' | 'vote' | 'discussion' | 'rules' | null;
  roleDay: number | null;
  /** Read for a sheriff's handover (its due is the counted day's close): present only then. */
  handover?: boolean;
  /** Since when (epoch ms: the crawl that saw it) the forum says the thread does not exist: present only then. */
  gone?: number;
  /** The director's ruling accepting the count from its versions read before (a thread gone): present only then. */
  ruling?: number;
  /** As of when it is (epoch ms), null: never fetched whole. */
  asOf: number | null;
  /** The close it must be fetched after. */
  due: number;
  /** Its last crawl's failure, when it had one. */
  failure: string | null;
}

/** The code of a ballot's main reason (its first), or null when it has none. */
export function reasonCode(b: Pick<BallotRecord, 'details'>): BallotReasonCode | null {
  return b.details?.[0]?.code ?? null;
}
