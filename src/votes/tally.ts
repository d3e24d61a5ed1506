/**
 * A day's vote tally (rules-spec §2–§5) as one plain value: `tallyDay(game, posts, day)` reads the day's
 * vote thread (or wuhui's duel-rule thread with `rules: true`), decides which ballot of each player
 * counts, weighs and counts them, and says who won and by which rule. A pure function of the game and
 * the posts, so tests feed posts directly and the CLI feeds them from the store (`postsFromStore`).
 */
import { dayTids } from '../game/threads.js';
import { UserError } from '../errors.js';
import { exitTime, findDay, idiotTime, otherSeatNames, seatPosts } from '../game/roster.js';
import type { Game, GameDay } from '../game/types.js';
import { threadPosts, type SlicePost } from '../store/slice.js';
import type { Completeness, StoreData, StoredThread } from '../store/types.js';
import { floorUrl, vanishedPosts, type VanishedPost } from '../store/completeness.js';
import { forumTime } from '../game/forum-time.js';
import { accelerationFor } from './acceleration.js';
import { ABSTAIN, ruleName, type BallotContext } from './ballot.js';
import { exitDisagreements, exitsFromTally } from './carry-forward.js';
import { applyWeights, decide, totalsOf, type DecideInput } from './count.js';
import { citer } from './citations.js';
import { misplacedBallots } from './misplaced.js';
import { departureOf, sheriffHandover, successionThreads, type Departure, type SheriffHandover, type UnreadableHandoverPost } from './succession.js';
import { selectBallots } from './select.js';
import { noteText, outcomeText, sheriffSourceFields, type SheriffSource } from './reasons.js';
import { privateVoteResult } from './private-vote.js';
import type { AccelerationResult, BallotRecord, TallyKind, TallyResult, TotalLine, VoterSummary } from './types.js';
import { t } from '../i18n/index.js';

/** Where the tally gets a thread's posts from: a function of the thread id. */
export type PostsOf = (tid: number) => readonly SlicePost[];

/** Posts from the evidence store (each thread read once). */
export function postsFromStore(store: StoreData): PostsOf {
  const cache = new Map<number, SlicePost[]>();
  return (tid) => {
    let posts = cache.get(tid);
    if (!posts) cache.set(tid, (posts = threadPosts(store, tid)));
    return posts;
  };
}

/** Posts from a plain list (tests, or posts parsed straight from pages), grouped by their tid. */
export function postsFromList(posts: readonly SlicePost[]): PostsOf {
  return (tid) => posts.filter((p) => p.tid === tid);
}

export interface TallyOptions {
  /** Count as it stood at this moment (epoch ms): a running count when before closing. */
  at?: number;
  /** wuhui: tally the morning duel-rule vote (the day's `rules:` thread) instead of the vote thread. */
  rules?: boolean;
  /**
   * Check the earlier closed days' results against the game file's events (carry-forward.ts) and note
   * every disagreement (default true; the tallies of those earlier days are made without it).
   */
  carryForward?: boolean;
  /**
   * The store's record of a thread (its page records), when the caller holds it: what the pages say of a
   * post no longer on the forum (a slot's notice; a floor judged deleted without a reply count to confirm
   * it) goes into the count's notes (completeness.ts vanishedPosts). Default: the posts alone.
   */
  threadRecord?: (tid: number) => StoredThread | undefined;
}

/** What a closed day's count decided, all that later days read of it: the sheriff elected, the player voted out. */
export interface ClosedOutcome {
  day: number;
  kind: TallyKind;
  running: boolean;
  closes: number;
  result: Pick<TallyResult['result'], 'name' | 'rule'>;
  /** Threads its count read that are not completely stored (then its result is not carried forward); absent: not known. */
  unread?: number[];
}

/** What a count reads of the days before it, as the caller has it. */
export interface ClosedOutcomes {
  /** A closed day's outcome; null when its vote thread is not stored. */
  outcome(day: number): ClosedOutcome | null;
  /**
   * The posts of thread `tid`, as stored, that a sheriff's handover is read from: the thread's posts, or
   * only those naming someone as a successor would be named (succession.ts successionCandidates).
   */
  successionPosts(tid: number): readonly SlicePost[];
}

/**
 * What a count reads, asked as questions about posts: a thread's posts, what a closed day's count
 * decided, the posts a sheriff's handover is read from. The plain source is a function of the thread
 * id (PostsOf: every post as stored; a closed day is then tallied again from them); src/derived answers
 * the same questions from what it keeps between runs (closed-days.ts). The count does not know which.
 */
export interface TallySource extends ClosedOutcomes {
  /**
   * The posts of thread `tid` as stored, oldest first: all of them, or at least all the count reads of
   * it — of the day's discussion the posts that may hold a ballot (ballot.ts mayHoldBallot), of the
   * process thread those of the day's window.
   */
  posts(tid: number): readonly SlicePost[];
}

/** The source of the posts `posts` gives (as stored) and of what the closed days decided as `closed` has it (kept elsewhere: src/derived). */
export function postsWithClosed(posts: PostsOf, closed: ClosedOutcomes): TallySource {
  return { posts, outcome: (day) => closed.outcome(day), successionPosts: (tid) => closed.successionPosts(tid) };
}

/** Closed days' outcomes tallied again from the posts (null when the day's vote thread holds no posts). */
export function closedFromPosts(game: Game, posts: PostsOf): ClosedOutcomes {
  return {
    outcome: (day) => {
      const d = findDay(game, day);
      if (!d.vote || posts(d.vote.tid).length === 0) return null;
      return outcomeOf(tallyDay(game, posts, day, { carryForward: false }));
    },
    successionPosts: posts,
  };
}

/** The part of a tally later days read. */
export function outcomeOf(t: TallyResult): ClosedOutcome {
  return { day: t.day, kind: t.kind, running: t.running, closes: t.closes, result: { name: t.result.name, rule: t.result.rule } };
}

// Which threads a count reads (threadsForTally…) live apart (tally-threads.ts): what a kept count's
// caller needs without loading the count's code.
export { electionThreads, postThreadsForTally, threadsForTally } from './tally-threads.js';

/**
 * Tallies day `day` of the game from the posts `source` gives (a function of the thread id: the posts as
 * stored; or a TallySource). Throws a UserError when the game file lacks the thread.
 */
export function tallyDay(game: Game, source: PostsOf | TallySource, day: number, opts: TallyOptions = {}): TallyResult {
  const d = findDay(game, day);
  const postsAsStored: PostsOf = typeof source === 'function' ? source : (tid) => source.posts(tid);
  // Posts as the seats see them: a substitute's or renamed account's posts are its seat's (roster.ts).
  const posts: PostsOf = (tid) => seatPosts(game, postsAsStored(tid)).posts;
  const rules = game.rules;
  const countAt = Math.min(opts.at ?? d.closes, d.closes);
  const zone = game.timezone;

  let kind: TallyKind;
  let tid: number;
  if (opts.rules) {
    if (!rules.wuhui) throw new UserError(t('err.rulesNotWuhui', rules.name));
    if (!d.rules) throw new UserError(t('err.noRulesThread', day, game.file));
    kind = 'rule';
    tid = d.rules.tid;
  } else {
    const none = privateVoteResult(game, day, opts.at);
    if (none) return none;
    if (!d.vote) throw new UserError(t('err.noVoteThread', day, game.file));
    kind = day === 1 && rules.day1Election ? 'election' : 'elimination';
    tid = d.vote.tid;
  }

  const notes: string[] = [];
  const closed: ClosedOutcomes = typeof source === 'function' ? closedFromPosts(game, posts) : source;
  const { sheriff, source: sheriffFrom, notes: sheriffNotes, unreadable: handoverUnreadable } = kind === 'election'
    ? { sheriff: null, source: { code: 'election-day' } as const, notes: [], unreadable: [] }
    : sheriffFor(game, d, countAt, closed);
  notes.push(...sheriffNotes);

  const acceleration = accelerationOf(game, d, posts, countAt, notes);
  const accelerated = acceleratedBy(d, acceleration);
  // Posts of the process thread this account cannot read: each may be a request (or a withdrawal).
  const unreadableProcess = acceleration && unreadableRequests(acceleration, game.rules.acceleration.delayWords.length > 0);
  if (unreadableProcess) notes.push(t('tally.unreadableProcess', unreadableProcess.pids.join(', '), unreadableProcess.couldChange));

  const usedRules = new Map<number, number>();
  if (kind === 'rule') {
    for (const e of game.days) {
      if (e.day >= day || !e.rules) continue;
      const chosen = tallyDay(game, posts, e.day, { rules: true }).result.name;
      const m = chosen ? /^规则(\d+)$/.exec(chosen) : null;
      if (m) usedRules.set(Number(m[1]), e.day);
      else notes.push(noteText({ code: 'no-rule-chosen', day: e.day }, zone));
    }
  }
  const context: BallotContext = kind === 'rule'
    ? { kind: 'rules', players: game.players, ruleCount: rules.wuhui?.ruleCount ?? 6 }
    : { kind: 'players', players: game.players, otherNames: otherSeatNames(game) };

  // A day with two vote threads (vote: [T1, T2]) is counted as one thread.
  const votePosts = kind === 'rule' ? posts(tid) : d.votes.flatMap((v) => posts(v.tid));
  const ballots = selectBallots({ game, day: d, posts: votePosts, context, countAt, accelerated, usedRules });
  const misplaced = kind === 'rule' ? [] : misplacedBallots(game, d, [
    ...(d.discussion ? [{ thread: 'discussion' as const, posts: posts(d.discussion.tid) }] : []),
    ...(game.process ? [{ thread: 'process' as const, posts: posts(game.process.tid) }] : []),
  ].map((t) => ({ ...t, posts: t.posts.filter((p) => p.at <= countAt) })), context);
  applyWeights(ballots, sheriff, rules.sheriffWeight);
  const order = kind === 'rule' ? Array.from({ length: context.ruleCount ?? 6 }, (_, i) => ruleName(i + 1)) : game.players;
  const totals = totalsOf(ballots, order);
  const decideWith: Omit<DecideInput, 'totals' | 'ballots' | 'sheriff'> = { kind, preset: game.preset, sheriffWeight: rules.sheriffWeight, eliminationTie: rules.eliminationTie, zone };
  const result = decide({ ...decideWith, totals, ballots, sheriff });
  if (countAt < d.closes) notes.push(noteText({ code: 'running', at: countAt, closes: d.closes }, zone));
  // Floors of the vote thread no longer on the forum: the count goes on without them, and says so.
  if (kind !== 'rule') for (const v of d.votes) notes.push(...vanishedNotes(vanishedPosts(game.forum, v.tid, postsAsStored(v.tid), opts.threadRecord?.(v.tid)), zone));
  if (opts.carryForward !== false && kind !== 'rule') notes.push(...earlierResults(game, closed, day, countAt));
  // A result the game file already records (--confirm) that this count no longer gives (a ballot approved
  // late, a ruling, a recrawl): said on every count of the day, never resolved here (issue 31).
  if (opts.carryForward !== false && kind === 'elimination' && countAt >= d.closes) {
    notes.push(...exitDisagreements(game, day, d.closes, exitsFromTally({ day, kind, running: false, closes: d.closes, result }), { unrecorded: false }));
  }

  // Posts in the vote thread whose text this account cannot read and no ruling settled (select.ts): each may be a ballot.
  const unreadable = unreadablePosts(ballots, totals, sheriff, rules.sheriffWeight, accelerated && rules.acceleration.voidsChanges);
  if (unreadable) {
    const text = t('tally.unreadable', unreadable.posts.map((b) => t('tally.unreadableItem', b.voter, String(b.floor ?? '?'), b.pid)).join(t('list.sep')), unreadable.couldChange);
    notes.push(text);
    if (unreadable.couldChange) addToNote(result, text);
  }
  // Likewise the process thread's (acceleration requests and withdrawals): said on the result when they could change it.
  if (unreadableProcess?.couldChange) addToNote(result, t('tally.unreadableProcess', unreadableProcess.pids.join(', '), true));

  // Posts a handover on the badge's path waits on that this account cannot read: each may name another successor.
  const unreadableSuccession = handoverUnreadable.length
    ? { pids: handoverUnreadable.map((u) => u.pid), couldChange: sheriffCouldMatter(game, ballots, order, decideWith, sheriff, result, countAt) }
    : null;
  if (unreadableSuccession) {
    const text = t('tally.unreadableSuccession', handoverUnreadable.map((u) => t('tally.unreadableSuccessionItem', u.from, u.by === 'director', u.author, u.pid, u.url)).join(t('list.sep')), unreadableSuccession.couldChange);
    notes.push(text);
    if (unreadableSuccession.couldChange) addToNote(result, text);
  }

  const players: VoterSummary[] = game.players.map((p) => {
    const mine = ballots.filter((b) => b.voter === p);
    const counted = mine.find((b) => b.status === 'counted') ?? null;
    const out = exitTime(game, p);
    const idiot = idiotTime(game, p);
    const state: VoterSummary['state'] = out !== null && out < countAt
      ? 'out'
      : idiot !== null && idiot < countAt
        ? 'idiot'
        : counted
          ? counted.target === ABSTAIN ? 'abstained' : 'voted'
          : mine.some((b) => unreadable?.posts.includes(b)) ? 'unreadable' : 'none';
    return { player: p, counted, others: mine.filter((b) => b !== counted), state };
  });

  return {
    day, kind, reason: null, tid, closes: d.closes, countedAt: countAt, running: countAt < d.closes,
    timezone: game.timezone, sheriff, ...sheriffSourceFields(sheriffFrom, zone), sheriffWeight: rules.sheriffWeight, accelerated, acceleration,
    totals, abstentions: ballots.filter((b) => b.status === 'counted' && b.target === ABSTAIN).map((b) => b.voter),
    result, ballots, players, misplaced, notes,
    ...(unreadable ? { unreadable: { pids: unreadable.posts.map((b) => b.pid), couldChange: unreadable.couldChange } } : {}),
    ...(unreadableProcess ? { unreadableProcess } : {}),
    ...(unreadableSuccession ? { unreadableSuccession } : {}),
  };
}

/** Adds `text` to what the result says (its note), after what it says already. */
function addToNote(result: TallyResult['result'], text: string): void {
  result.note = result.note ? `${result.note}${t('close.line.sep')}${text}` : text;
}

/**
 * Whether another sheriff than `sheriff` — nobody, or any player still in the game at `countAt` — would
 * give another result (another name or tie) from the same ballots: what a handover post this account
 * cannot read could do, naming a successor (issue 31).
 */
function sheriffCouldMatter(
  game: Game, ballots: readonly BallotRecord[], order: readonly string[], input: Omit<DecideInput, 'totals' | 'ballots' | 'sheriff'>,
  sheriff: string | null, result: Pick<TallyResult['result'], 'name' | 'tie'>, countAt: number,
): boolean {
  const others = [null, ...game.players.filter((p) => { const out = exitTime(game, p); return out === null || out >= countAt; })].filter((s) => s !== sheriff);
  return others.some((other) => {
    const copy = ballots.map((b) => ({ ...b }));
    applyWeights(copy, other, input.sheriffWeight);
    const r = decide({ ...input, totals: totalsOf(copy, order), ballots: copy, sheriff: other });
    return r.name !== result.name || r.tie.join('\n') !== result.tie.join('\n');
  });
}

/**
 * The posts of the process thread this account cannot read and no ruling settled (acceleration.ts), when
 * the count decides the acceleration (the game file does not declare it), and whether they could change
 * it: each may be a request, or from a player whose request counts a withdrawal; on an accelerated day
 * with delay words (062 申请延时) each may be a delay that cancels it. Null when there are none.
 */
export function unreadableRequests(a: AccelerationResult, delays: boolean): { pids: number[]; couldChange: boolean } | null {
  const pids = a.unreadable ?? [];
  if (!pids.length || a.declared !== null) return null;
  const n = pids.length;
  const couldChange = a.accelerated
    ? a.requests.length - n < a.needed || (delays && a.delays.length + n >= a.needed)
    : a.requests.length + n >= a.needed;
  return { pids: [...pids], couldChange };
}

/**
 * The ballot posts whose text the account cannot read and no ruling settled — rejected only for that
 * (select.ts: on time, by a player who may vote) — and whether they could change the result: each may be
 * a vote for anyone (its voter's weight), or, from a player who has a counted vote, a change moving it
 * (twice the weight; none on a day whose changes are void). The result could change when the swing
 * reaches the margin between the top total and the next. Null when there are none.
 */
export function unreadablePosts(
  ballots: readonly BallotRecord[], totals: readonly TotalLine[], sheriff: string | null, sheriffWeight: number, changesVoid: boolean,
): { posts: BallotRecord[]; couldChange: boolean } | null {
  const posts = ballots.filter((b) => b.details?.[0]?.code === 'unreadable');
  if (!posts.length) return null;
  let swing = 0;
  // A director's post that may be a 代投 (select.ts): for any player — at most the heaviest vote, moved as a change.
  const proxies = posts.filter((b) => { const d = b.details?.[0]; return d?.code === 'unreadable' && d.proxy; });
  swing += proxies.length * (changesVoid ? 1 : 2) * Math.max(1, sheriffWeight);
  for (const voter of new Set(posts.filter((b) => !proxies.includes(b)).map((b) => b.voter))) {
    const w = voter === sheriff ? sheriffWeight : 1;
    const voted = ballots.some((b) => b.voter === voter && b.status === 'counted');
    swing += voted ? (changesVoid ? 0 : 2 * w) : w;
  }
  const votes = totals.map((x) => x.votes).sort((a, b) => b - a);
  const margin = (votes[0] ?? 0) - (votes[1] ?? 0);
  return { posts, couldChange: swing > 0 && swing >= margin };
}

/**
 * The notes without those that call a floor no longer on the forum that the completeness check lists as
 * missing (a count made with --allow-incomplete over a gap: it is a gap, said at the top, not a deletion).
 */
export function withoutGapNotes(notes: readonly string[], game: Pick<Game, 'forum' | 'timezone'>, incomplete: readonly Completeness[]): string[] {
  const gaps = incomplete.flatMap((c) => c.missingFloors.map((floor) => ({ tid: c.tid, floor, how: 'skipped' as const, url: floorUrl(game.forum, c.tid, floor), pid: null })));
  if (!gaps.length) return [...notes];
  const drop = new Set(vanishedNotes(gaps, game.timezone));
  return notes.filter((n) => !drop.has(n));
}

/** A note per post no longer on the forum (completeness.ts vanishedPosts), in the director's language. */
export function vanishedNotes(list: readonly VanishedPost[], zone: string): string[] {
  return list.map((v) => (v.how === 'gone'
    ? t('vanished.gone', v.tid, v.floor, v.author ?? '?', v.lastSeen !== undefined ? forumTime(v.lastSeen, zone) : '?', v.url)
    : v.how === 'slot'
      ? t('vanished.slot', v.tid, v.floor, v.notice ?? '', v.url)
      : v.unconfirmed ? t('vanished.skippedUnconfirmed', v.tid, v.floor, v.url) : t('vanished.skipped', v.tid, v.floor, v.url)));
}

/** Where day `d`'s sheriff starts from before any handover: the holder and why, or no sheriff at all (and why). */
export function sheriffStart(game: Game, d: GameDay, closed: Pick<ClosedOutcomes, 'outcome'>): { name: string | null; source: SheriffSource } {
  const named = [...game.days].filter((e) => e.day <= d.day && e.sheriff).sort((a, b) => b.day - a.day)[0];
  if (named?.sheriff) return { name: named.sheriff, source: { code: 'named', day: named.day } };
  if (d.day === 1) return { name: null, source: { code: 'election-open' } };
  if (!game.rules.day1Election || !game.rules.publicVote) return { name: null, source: { code: 'no-sheriff-ruleset', ruleset: game.rules.name } };
  if (!game.days.find((e) => e.day === 1)?.vote) return { name: null, source: { code: 'no-day1-thread' } };
  // Day 1's vote thread not stored: the election of nobody's ballots.
  const r = closed.outcome(1) ?? outcomeOf(tallyDay(game, () => [], 1, { carryForward: false }));
  if (!r.result.name) return { name: null, source: { code: 'elected-nobody', rule: r.result.rule } };
  return { name: r.result.name, source: { code: 'elected', rule: r.result.rule } };
}

/**
 * The badge from `name` on (succession.ts): each departure of its holder before `countAt` is yielded and
 * answered with its handover, until a holder stays (returned) or the badge is lost (null). A seat holds
 * it at most once in a chain, so this ends. One walk for the count (sheriffFor) and for what reads the
 * handovers' threads ahead of it (src/derived/closed-days.ts).
 */
export function* badgePath(game: Game, name: string, countAt: number): Generator<Departure, string | null, SheriffHandover> {
  const held = new Set<string>();
  for (let dep = departureOf(game, name, countAt); dep; dep = departureOf(game, name, countAt)) {
    held.add(name);
    const handover = yield dep;
    if (!handover.successor || held.has(handover.successor)) return null;
    name = handover.successor;
  }
  return name;
}

/**
 * The threads a count of `day` reads the handover at `dep` from: where the rules publish it, without the
 * days after `day` (a later day's thread may not exist yet: a departure during this day is read from
 * this day's threads).
 */
export function handoverThreads(game: Game, dep: Departure, day: number): number[] {
  const later = new Set(game.days.filter((d) => d.day > day).flatMap((d) => dayTids(d)));
  return successionThreads(game, dep.at).filter((t) => !later.has(t));
}

/** The handover at `dep` as the count of `day` reads it, from the posts `closed` gives (seated: roster.ts). */
export function handoverFor(game: Game, closed: Pick<ClosedOutcomes, 'successionPosts'>, dep: Departure, day: number): SheriffHandover {
  return sheriffHandover(game, (tid) => seatPosts(game, closed.successionPosts(tid)).posts, dep, { threads: handoverThreads(game, dep, day) });
}

/**
 * The sheriff on day `d` (rules-spec §4): the game file's `sheriff:` for the day or the nearest earlier
 * day naming one, else the day-1 election's result — then passed on (succession.ts) each time the
 * holder left before the count, to the successor the posts name. When they name none, there is no
 * sheriff and a note tells the director what to check (the successor is theirs to write, never guessed).
 */
export function sheriffFor(
  game: Game, d: GameDay, countAt: number, closed: ClosedOutcomes,
): { sheriff: string | null; source: SheriffSource; notes: string[]; unreadable: Array<UnreadableHandoverPost & { from: string }> } {
  const start = sheriffStart(game, d, closed);
  let source = start.source;
  if (start.name === null) return { sheriff: null, source, notes: [], unreadable: [] };
  const notes: string[] = [];
  // (the posts each handover on the path waits on that this account cannot read: succession.ts)
  const unreadable: Array<UnreadableHandoverPost & { from: string }> = [];
  const noContact = citer(game.preset)('succession-no-contact');
  const previousClose = Math.max(-Infinity, ...game.days.filter((e) => e.day < d.day).map((e) => e.closes));
  const walk = badgePath(game, start.name, countAt);
  for (let step = walk.next(); ; ) {
    if (step.done) return { sheriff: step.value, source, notes, unreadable };
    const dep = step.value;
    const handover = handoverFor(game, closed, dep, d.day);
    unreadable.push(...handover.unreadable.map((u) => ({ ...u, from: dep.player })));
    // A settled handover of an earlier day is not re-checked every day after it.
    if (!handover.successor || dep.at >= previousClose) notes.push(noteText({ code: 'succession', handover, noContact }, game.timezone));
    step = walk.next(handover);
    source = step.done && step.value === null
      ? { code: 'sheriff-out', name: dep.player, source, at: dep.at, handover }
      : { code: 'passed', handover, source };
  }
}

/** The days before `day` closed by `countAt` whose results carry forward (their vote threads are read for it). */
export function earlierClosedDays(game: Game, day: number, countAt: number = findDay(game, day).closes): number[] {
  if (!game.rules.publicVote) return [];
  return game.days.filter((e) => e.day < day && e.vote && e.closes <= countAt).map((e) => e.day);
}

/** The disagreements between the game file and the results of the closed days before `day` whose vote threads are stored. */
function earlierResults(game: Game, closed: ClosedOutcomes, day: number, countAt: number): string[] {
  return earlierClosedDays(game, day, countAt).flatMap((e) => {
    const outcome = closed.outcome(e);
    return outcome ? exitDisagreements(game, e, outcome.closes, exitsFromTally(outcome)) : [];
  });
}

/** Whether the count of day `d` treats it as accelerated, from the process thread's posts as seated (roster.ts). */
export function acceleratedIn(game: Game, d: GameDay, seated: PostsOf, countAt: number = d.closes): boolean {
  return acceleratedBy(d, accelerationOf(game, d, seated, countAt, []));
}

function acceleratedBy(d: GameDay, acceleration: AccelerationResult | null): boolean {
  return acceleration?.accelerated ?? d.accelerated ?? false;
}

function accelerationOf(game: Game, d: GameDay, posts: PostsOf, countAt: number, notes: string[]): AccelerationResult | null {
  if (!game.process) {
    if (game.rules.acceleration.enabled && d.accelerated === undefined) notes.push(noteText({ code: 'no-process-thread' }, game.timezone));
    return null;
  }
  if (!game.rules.acceleration.enabled && d.accelerated === undefined) return null;
  return accelerationFor(game, d, posts(game.process.tid), countAt);
}

