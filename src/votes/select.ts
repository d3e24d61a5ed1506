/**
 * Which ballot counts (rules-spec §3), for one day's vote thread. Pure: posts + game → one BallotRecord
 * per ballot post, each counted, superseded or rejected with its reasons as values (reasons.ts) and in words.
 *
 * - A player's vote is their first well-formed ballot with a valid target, posted on time by a player
 *   who may vote. A malformed or invalid ballot is not a vote; a new post corrects it (062 l.254:
 *   无效票须通过重新发帖来更正) — that is not a change.
 * - After the vote, a ballot is a change attempt, valid only when it uses the 改票 heads, quotes (引用)
 *   or replies to (回复 header) the player's own vote post (m107 l.205 改票时必须引用原投票帖; 062 l.261
 *   改票需回复原投票楼层), is within the number of changes allowed (m107 l.205, 062 l.253: once), is
 *   posted at least the set time before closing (m107 l.205 白天结束前一个小时不得改票; 062 l.253) and the
 *   day is not accelerated (m107 l.202 进程加速后不允许改票，所有改票作废; 062 l.247).
 * - On time means strictly before closing; a minute-precision time in the closing minute is late.
 * - Edits are not changes (m107 l.206 修改错别字不算做改票): when the store holds an earlier version with a
 *   different reading, the earlier one counts and the edit is shown; with none, the post counts as
 *   seen and is flagged.
 *
 * Decisions where the spec is silent (flagged in the reasons so the director can overrule):
 * - Discuz X3.5's "reply to floor" (回复) leaves no trace in the message, so a change that neither quotes
 *   the vote post nor carries a `回复 N#` header is rejected as not quoting it, with a note saying so.
 * - A ballot with 改票 heads and no vote before it is not a vote (a correction is a new 投票 post).
 * - A player who leaves the game after voting but before closing (red card) has no vote at the count;
 *   a ballot naming a player who leaves before closing is an invalid target.
 * - A time that only straddles a deadline (relative "N 小时前", or a minute-precision stamp in the
 *   deadline's minute) fails that deadline, and the reason says the precision was the cause.
 * - Proxy (代投) posts follow the same change rules; their time limits are the proxy settings.
 */
import type { Post, PostState } from '../discuz/types.js';
import type { Game, GameDay } from '../game/types.js';
import { exitTime, idiotTime, isDirector, isIdiot } from '../game/roster.js';
import type { SlicePost } from '../store/slice.js';
import { readBallot, readProxy, ruleName, targetLabel, type BallotContext } from './ballot.js';
import { rulingsByPid } from '../game/rulings/active.js';
import { isOwnPost } from './own-posts.js';
import type { Ruling } from '../game/rulings/types.js';
import { ballotReasonsNote, ballotReasonsText, flagText, reasonContext, type BallotFlag, type ReasonContext, type BallotReason, type TimePrecision } from './reasons.js';
import { atOrBefore, forumTime, strictlyBefore, timeSpan, type Certainty, type TimeSpan } from '../game/forum-time.js';
import type { BallotEdit, BallotReading, BallotRecord, Target } from './types.js';

export interface SelectInput {
  game: Game;
  day: GameDay;
  /** The day's vote thread (or wuhui rules thread), in any order. */
  posts: readonly SlicePost[];
  context: BallotContext;
  /** The moment counted: the closing time, or an earlier --at for a running count. */
  countAt: number;
  /** Changes are void on an accelerated day (when the ruleset says so). */
  accelerated: boolean;
  /** wuhui: rules already chosen on earlier days (rule → day), invalid as targets. */
  usedRules?: ReadonlyMap<number, number>;
}

interface Content {
  text: string;
  quotes: readonly number[];
  replyTo: number | null;
  edit: BallotEdit | null;
  /** A note on an edit, on a counted or rejected ballot alike. */
  editNote: BallotReason | null;
  flags: BallotFlag[];
  /** Set when the body is hidden and no readable version was stored. */
  unreadable: BallotReason | null;
}

interface VoterState {
  /** The ballot currently counted for the player (their vote, or the last valid change). */
  current: BallotRecord | null;
  /** pid of the vote post a change must quote. */
  votePid: number | null;
  voteFloor: number | null;
  changes: number;
}

/** Every ballot post of the day with its status; weights are set by the counter. */
export function selectBallots(input: SelectInput): BallotRecord[] {
  const { game, day, context, countAt } = input;
  const rules = game.rules;
  const words = reasonContext(game);
  const rulings = rulingsByPid(game.rulings, 'ballot', day.day);
  const out: BallotRecord[] = [];
  const states = new Map<string, VoterState>();
  const state = (v: string): VoterState => {
    let s = states.get(v);
    if (!s) states.set(v, (s = { current: null, votePid: null, voteFloor: null, changes: 0 }));
    return s;
  };

  for (const post of postsCounted(input)) {
    const content = contentOf(post, context);
    const span = timeSpan(post);
    const byDirector = isDirector(game, post.author);
    let voter = post.author;
    let proxyBy: string | null = null;
    const base = (): BallotRecord => blankRecord(post, content, words, voter, proxyBy);
    const { reject, fails, counts } = settling(game, rulings.get(post.pid), content, words, out);

    // The tool's own announcements quote names, heads and 代投: never a ballot (own-posts.ts).
    if (isOwnPost(game, post)) continue;
    if (byDirector) {
      // A director's post this account cannot read may be a 代投 for any player (§2): listed (tally.ts
      // unreadablePosts weighs it), never skipped as no proxy — unless its time alone rules a proxy out.
      if (content.unreadable) {
        const proxyBy = day.closes - rules.proxyVoteMinutesBeforeClose * 60_000;
        if (strictlyBefore(span, day.opens) !== 'yes' && atOrBefore(span, proxyBy) !== 'no') reject(base(), { ...content.unreadable, proxy: true } as BallotReason);
        continue;
      }
      // Directors' posts never count as a player's (spec §1) — except a 代投 naming the player (§2).
      const proxy = readProxy(content.text, game.players, rules.proxyMarkers, context.otherNames);
      if (proxy === null) continue;
      if (!proxy.ok) {
        reject(base(), proxy.detail);
        continue;
      }
      voter = proxy.player;
      proxyBy = post.author;
    }
    const reading: BallotReading = content.unreadable
      ? { ok: false, problem: 'malformed', head: null, written: null, detail: content.unreadable, reason: ballotReasonsText([content.unreadable], words) ?? '', hint: null }
      : readBallot(content.text, context);
    if (!byDirector && !game.players.includes(post.author)) {
      if (!reading.ok && reading.problem === 'no-ballot') continue;
      reject({ ...base(), head: reading.head, target: reading.written }, { code: 'not-a-player', author: post.author });
      continue;
    }

    const rec = base();
    rec.head = reading.head;
    rec.target = reading.ok ? targetLabel(reading.target) : reading.written;
    const problems = timeProblems(input, post, span, voter, proxyBy);
    // Without a readable target there is nothing a ruling could count.
    if (!reading.ok) {
      reject(rec, ...problems, reading.detail);
      continue;
    }
    if (problems.length && fails(rec, problems)) continue;
    const invalid = targetProblem(game, reading.target, span.lo, countAt, input.usedRules);
    if (invalid && fails(rec, [invalid])) continue;
    rec.parsed = reading.target;

    const s = state(voter);
    if (s.current === null) {
      if (reading.head === 'change' && fails(rec, [{ code: 'change-without-vote', voter }])) continue;
      if (!counts(rec)) continue;
      s.current = rec;
      s.votePid = post.pid;
      s.voteFloor = post.floor;
      out.push(rec);
      continue;
    }

    // A change attempt (spec §3).
    const why = changeProblems(input, s, { post, content, span, head: reading.head, voter, proxyBy }, out);
    if (why.length && fails(rec, why)) continue;
    if (!counts(rec)) continue;
    const prev = s.current;
    prev.status = 'superseded';
    noteOn(prev, [{ code: 'superseded-by-change', target: rec.target, floor: post.floor, at: post.at }, ...(prev.details ?? [])], words);
    s.current = rec;
    s.changes++;
    out.push(rec);
  }
  return out;
}

/** The posts a count at `countAt` reads, oldest first: a running count leaves out what may be posted after it. */
function postsCounted(input: SelectInput): SlicePost[] {
  const running = input.countAt < input.day.closes;
  return [...input.posts]
    .filter((p) => !running || timeSpan(p).lo <= input.countAt)
    .sort((a, b) => a.at - b.at || a.pid - b.pid);
}

/** A post's record before it is judged: rejected, no target yet, its flags worded. */
function blankRecord(post: SlicePost, content: Content, words: ReasonContext, voter: string, proxyBy: string | null): BallotRecord {
  return {
    voter, target: null, weight: 0, status: 'rejected', reason: null, note: null, details: [], pid: post.pid, floor: post.floor,
    at: post.at, url: post.url, head: null, proxyBy, edit: content.edit, flags: content.flags.map((f) => flagText(f, words)), parsed: null,
  };
}

/** A record's reasons: the details, in words, and what the director should note. */
function noteOn(rec: BallotRecord, details: BallotReason[], words: ReasonContext): void {
  rec.details = details;
  rec.reason = ballotReasonsText(details, words);
  rec.note = ballotReasonsNote(details);
}

/**
 * How one post's ballot is settled, with the director's ruling on it (src/rulings): accept overrides
 * the rules' objections, reject voids it. A rejected record goes to `out` at once.
 */
function settling(game: Game, ruling: Ruling | undefined, content: Content, words: ReasonContext, out: BallotRecord[]) {
  const edits = content.editNote ? [content.editNote] : [];
  const overruled: BallotReason[] = [];
  const reject = (rec: BallotRecord, ...why: BallotReason[]) => {
    rec.status = 'rejected';
    noteOn(rec, [...(ruling?.verb === 'reject' ? [rejectedBy(ruling, game.timezone)] : []), ...why, ...edits], words);
    out.push(rec);
  };
  /** Rejects the ballot for `why` and says so (true) — unless the director accepted it: then the objections are kept as overruled (false). */
  const fails = (rec: BallotRecord, why: BallotReason[]): boolean => {
    if (ruling?.verb === 'accept') {
      overruled.push(...why);
      return false;
    }
    reject(rec, ...why);
    return true;
  };
  /** Counts the ballot (true), or rejects it when the director ruled it out (false). */
  const counts = (rec: BallotRecord): boolean => {
    if (ruling?.verb === 'reject') {
      reject(rec);
      return false;
    }
    rec.status = 'counted';
    noteOn(rec, [...(ruling?.verb === 'accept' ? [acceptedBy(ruling, overruled, game.timezone)] : []), ...edits], words);
    return true;
  };
  return { reject, fails, counts };
}

/** Time (spec §3: strictly before closing) and the day's window; the voter may vote (§1, §3); a 代投's own deadline (§2). */
function timeProblems(input: SelectInput, post: SlicePost, span: TimeSpan, voter: string, proxyBy: string | null): BallotReason[] {
  const { game, day, countAt } = input;
  const rules = game.rules;
  const problems: BallotReason[] = [];
  if (strictlyBefore(span, day.opens) === 'yes') problems.push({ code: 'before-open', at: post.at, opens: day.opens });
  const onTime = strictlyBefore(span, day.closes);
  if (onTime !== 'yes') {
    problems.push({ code: 'late', at: post.at, closes: day.closes, precision: onTime === 'uncertain' || span.precision === 'minute' ? precisionOf(span) : null });
  }
  // The voter may vote (spec §1, §3): in the game, not an idiot who used 装傻.
  problems.push(...voterProblems(game, voter, span.lo, countAt));
  if (proxyBy) {
    const limit = day.closes - rules.proxyVoteMinutesBeforeClose * 60_000;
    const ok = atOrBefore(span, limit);
    if (ok !== 'yes' && !problems.some((p) => p.code === 'late')) {
      problems.push({
        code: 'proxy-too-late', at: post.at, by: limit, closes: day.closes, minutes: rules.proxyVoteMinutesBeforeClose, precision: uncertainty(ok, span),
      });
    }
  }
  return problems;
}

/** What stands against a change of the voter's ballot (spec §3): its heads, acceleration, how many, how late, what it quotes. */
function changeProblems(
  input: SelectInput,
  s: VoterState,
  c: { post: SlicePost; content: Content; span: TimeSpan; head: BallotReading['head']; voter: string; proxyBy: string | null },
  out: readonly BallotRecord[],
): BallotReason[] {
  const { game, day } = input;
  const rules = game.rules;
  const { post, content, span, voter, proxyBy } = c;
  const why: BallotReason[] = [];
  if (c.head !== 'change') why.push({ code: 'change-wrong-heads', voter, voteFloor: s.voteFloor });
  if (input.accelerated && rules.acceleration.voidsChanges) why.push({ code: 'accelerated-change-void' });
  if (s.changes >= rules.maxChanges) {
    why.push(rules.maxChanges === 0 ? { code: 'changes-not-allowed' } : { code: 'second-change', nth: s.changes + 1, allowed: rules.maxChanges });
  }
  const changeMinutes = proxyBy ? Math.max(rules.changeMinutesBeforeClose, rules.proxyChangeMinutesBeforeClose) : rules.changeMinutesBeforeClose;
  if (changeMinutes > 0) {
    const limit = day.closes - changeMinutes * 60_000;
    const ok = atOrBefore(span, limit);
    if (ok !== 'yes') {
      why.push({
        code: 'change-too-late', at: post.at, by: limit, closes: day.closes, minutes: changeMinutes, proxy: proxyBy !== null, precision: uncertainty(ok, span),
      });
    }
  }
  if (rules.changeMustQuoteVote && s.votePid !== null) {
    const quoted = content.quotes.includes(s.votePid) || content.replyTo === s.votePid;
    if (!quoted) {
      if (content.replyTo !== null || content.quotes.length > 0) {
        const other = [...content.quotes, ...(content.replyTo !== null ? [content.replyTo] : [])];
        const own = out.filter((r) => other.includes(r.pid)).map((r) => `${r.floor ?? '?'}#`);
        why.push({ code: 'change-quotes-other-post', voter, voteFloor: s.voteFloor, quoted: own.length ? own : other.map((pid) => `pid ${pid}`) });
      } else {
        why.push({ code: 'change-not-quoting-vote', voter, voteFloor: s.voteFloor });
      }
    }
  }
  return why;
}

/** The reason a ballot the director accepted carries (with the rules' objections it overrules). */
function acceptedBy(r: Ruling, overruled: BallotReason[], zone: string): BallotReason {
  return { code: 'ruling-accepted', id: r.id, why: r.why, by: r.by, at: r.at, when: rulingTime(r.at, zone), overruled: [...overruled] };
}

function rejectedBy(r: Ruling, zone: string): BallotReason {
  return { code: 'ruling-rejected', id: r.id, why: r.why, by: r.by, at: r.at, when: rulingTime(r.at, zone) };
}

/** When a ruling was made, as a director reads times: forum time in the game's zone (the file keeps ISO). */
export function rulingTime(at: string, zone: string): string {
  const ms = Date.parse(at);
  return Number.isFinite(ms) ? forumTime(ms, zone) : at;
}

/** The precision that made a deadline test uncertain (null when it was certain). */
function uncertainty(ok: Certainty, span: TimeSpan): TimePrecision {
  return ok === 'uncertain' ? precisionOf(span) : null;
}

function precisionOf(span: TimeSpan): TimePrecision {
  return span.precision === 'second' ? null : span.precision;
}

/** Why the voter may not vote at `at` (or has no vote at `countAt`); empty when they may. */
function voterProblems(game: Game, voter: string, at: number, countAt: number): BallotReason[] {
  const out = exitTime(game, voter);
  if (out !== null && out <= at) return [{ code: 'voter-out', voter, since: out, beforeClose: false }];
  if (out !== null && out < countAt) return [{ code: 'voter-out', voter, since: out, beforeClose: true }];
  const idiot = idiotTime(game, voter);
  if (idiot !== null && isIdiot(game, voter, at)) return [{ code: 'voter-idiot', voter, since: idiot, beforeClose: false }];
  if (idiot !== null && idiot < countAt) return [{ code: 'voter-idiot', voter, since: idiot, beforeClose: true }];
  return [];
}

/** Why a target may not be voted at `at` (or at the count); null when it may. */
function targetProblem(
  game: Game,
  target: Target,
  at: number,
  countAt: number,
  usedRules: ReadonlyMap<number, number> | undefined,
): BallotReason | null {
  if (target.kind === 'rule') {
    const used = usedRules?.get(target.rule);
    return used !== undefined ? { code: 'rule-used', rule: ruleName(target.rule), day: used } : null;
  }
  if (target.kind !== 'player') return null;
  const name = target.name;
  const out = exitTime(game, name);
  if (out !== null && out <= at) return { code: 'target-out', target: name, since: out, beforeClose: false };
  if (out !== null && out < countAt) return { code: 'target-out', target: name, since: out, beforeClose: true };
  const idiot = idiotTime(game, name);
  if (idiot !== null && idiot < countAt) return { code: 'target-idiot', target: name, since: idiot };
  return null;
}

/** The text that counts for a post, and what the store says about its versions (spec §3, edits). */
function contentOf(post: SlicePost, ctx: BallotContext): Content {
  const flags: BallotFlag[] = [];
  const versions = post.versions?.length ? post.versions.map((v) => v.post) : [post];
  const readable = versions.filter(isReadable);
  const current = versions[versions.length - 1];
  if (post.missing) flags.push({ code: 'post-missing' });
  if (readable.length === 0) {
    return {
      text: '', quotes: [], replyTo: null, edit: null, editNote: null, flags,
      unreadable: { code: 'unreadable', hidden: current.locked ?? 'deleted', ...stateOf(current) },
    };
  }
  const earliest = readable[0];
  const latest = readable[readable.length - 1];
  if (latest !== current) flags.push({ code: 'current-version-hidden', hidden: current.locked ?? 'deleted', ...stateOf(current) });
  // A state shown with the text (a moderator's or the author's own view): read, and marked.
  else if (latest.state && latest.state !== 'normal') flags.push({ code: 'post-state', state: latest.state });
  const parsedAt = latest.edited?.at ? Date.parse(latest.edited.at) : NaN;
  const editAt = Number.isFinite(parsedAt) ? parsedAt : null;
  if (earliest !== latest) {
    const a = readBallot(earliest.text, ctx);
    const b = readBallot(latest.text, ctx);
    const sig = (r: BallotReading) => (r.ok ? `${r.head}:${targetLabel(r.target)}` : `x:${r.problem}:${r.written ?? ''}`);
    if (sig(a) !== sig(b)) {
      const show = (r: BallotReading) => (r.ok ? targetLabel(r.target) : r.written);
      return {
        text: earliest.text, quotes: earliest.quotes, replyTo: earliest.replyTo, flags,
        edit: { before: earliest.text, after: latest.text, at: latest.edited?.at ?? null },
        editNote: { code: 'edited-earlier-version-counts', at: editAt, from: show(a), to: show(b) },
        unreadable: null,
      };
    }
    return {
      text: latest.text, quotes: latest.quotes, replyTo: latest.replyTo, flags,
      edit: { before: earliest.text, after: latest.text, at: latest.edited?.at ?? null },
      editNote: { code: 'edited-same-ballot', at: editAt },
      unreadable: null,
    };
  }
  let editNote: BallotReason | null = null;
  if (latest.edited && readBallot(latest.text, ctx).head !== null) {
    editNote = { code: 'edited-no-earlier-version', at: editAt };
    flags.push({ code: 'edited-no-earlier-version', at: editAt });
  }
  return { text: latest.text, quotes: latest.quotes, replyTo: latest.replyTo, edit: null, editNote, flags, unreadable: null };
}

/**
 * Whether a post version holds the author's words: not a deleted or locked body, and not a notice in
 * their place (Post.readable false: banned, shielded, pending as others see it, hidden, paid…).
 */
export function isReadable(v: Pick<Post, 'deleted' | 'locked' | 'readable'>): boolean {
  return !v.deleted && v.locked === null && v.readable !== false;
}

/**
 * The author's words a post holds as far as the store knows: its current text when readable, else the
 * last version read before it became unreadable; null when this account never read it (banned,
 * shielded, pending, hidden…: it may hold anything, so it is never read as holding nothing).
 */
export function readText(p: Pick<Post, 'text' | 'deleted' | 'locked' | 'readable'> & { versions?: ReadonlyArray<{ post: Post }> }): string | null {
  if (isReadable(p)) return p.text;
  const read = (p.versions ?? []).map((v) => v.post).filter(isReadable).at(-1);
  return read ? read.text : null;
}

/** A version's Discuz state, as a reason's optional field (none when normal). */
function stateOf(v: Pick<Post, 'state'>): { state?: PostState } {
  return v.state && v.state !== 'normal' ? { state: v.state } : {};
}

export type { TimeSpan };
