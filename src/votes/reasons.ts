/**
 * Why the tally decided what it did, as structured values with a stable machine-readable `code`
 * (what scripts and tests match on), and their Chinese wording (what a director pastes into the forum
 * thread and reads in the terminal). This module is the one place the tally's words live: ballot.ts,
 * select.ts, count.ts, tally.ts and acceleration.ts build values; the functions here say them. Every
 * rule a reason rests on is cited (the rule post's line, as rules-spec.md gives it).
 *
 * Times are epoch ms and are shown in the forum's zone: a time on the same forum-local day as the
 * deadline it is compared with is shown as 21:10, otherwise as 11-21 21:10.
 */
import type { PostState } from '../discuz/types.js';
import type { PresetName } from '../game/types.js';
import { t as tr, withLanguage } from '../i18n/index.js';
import { citer, type Cite, type CiteKey } from './citations.js';
import { clockText, forumClock, forumTime } from '../game/forum-time.js';
import type { SheriffHandover } from './succession.js';
import type { BallotHead, TallyKind } from './types.js';

/** Set when a deadline test was decided by how precisely the forum shows the post's time. */
export type TimePrecision = 'minute' | 'relative' | null;

/** Why one ballot post did not count, or a note on one that did (rules-spec §1–§3). */
export type BallotReason =
  // The format (rules-spec §2; ballot.ts).
  | { code: 'malformed-no-heads' }
  | { code: 'malformed-no-colon'; found: string }
  | { code: 'malformed-no-target'; head: BallotHead }
  | { code: 'malformed-two-targets'; head: BallotHead; count: number }
  | { code: 'malformed-no-reason'; head: BallotHead }
  | { code: 'malformed-two-reasons'; head: BallotHead; count: number }
  | { code: 'malformed-mixed-heads'; head: BallotHead; other: BallotHead }
  | { code: 'empty-target'; head: BallotHead }
  | { code: 'empty-reason'; head: BallotHead }
  | { code: 'unknown-target'; written: string; hint: string | null }
  /** X (or its line before X) carries a bidi embedding/override/isolate: the forum shows it reordered. */
  | { code: 'target-bidi-control'; written: string; controls: string[]; where: 'target' | 'line' }
  | { code: 'ambiguous-target'; written: string; names: string[] }
  | { code: 'rule-out-of-range'; written: string; rule: number; ruleCount: number }
  | { code: 'not-a-rule'; written: string; hint: string | null }
  /** The post's text is not the author's (a notice: banned, shielded, pending, hidden…) and no readable version was stored. */
  /** `proxy`: a director's post, which may be a 代投 for any player (§2). */
  | { code: 'unreadable'; hidden: string; state?: PostState; proxy?: true }
  | { code: 'proxy-no-player'; line: string }
  | { code: 'proxy-many-players'; names: string[] }
  // Who and when (§1, §3; select.ts).
  | { code: 'not-a-player'; author: string }
  | { code: 'before-open'; at: number; opens: number }
  | { code: 'late'; at: number; closes: number; precision: TimePrecision }
  | { code: 'voter-out'; voter: string; since: number; beforeClose: boolean }
  | { code: 'voter-idiot'; voter: string; since: number; beforeClose: boolean }
  | { code: 'proxy-too-late'; at: number; by: number; closes: number; minutes: number; precision: TimePrecision }
  // The target (§2, §3).
  | { code: 'target-out'; target: string; since: number; beforeClose: boolean }
  | { code: 'target-idiot'; target: string; since: number }
  | { code: 'rule-used'; rule: string; day: number }
  // Changes (§3).
  | { code: 'change-without-vote'; voter: string }
  | { code: 'change-wrong-heads'; voter: string; voteFloor: number | null }
  | { code: 'accelerated-change-void' }
  | { code: 'changes-not-allowed' }
  | { code: 'second-change'; nth: number; allowed: number }
  | { code: 'change-too-late'; at: number; by: number; closes: number; minutes: number; proxy: boolean; precision: TimePrecision }
  | { code: 'change-quotes-other-post'; voter: string; voteFloor: number | null; quoted: string[] }
  | { code: 'change-not-quoting-vote'; voter: string; voteFloor: number | null }
  | { code: 'superseded-by-change'; target: string | null; floor: number | null; at: number }
  // Edits (§3: an edit is not a change).
  | { code: 'edited-earlier-version-counts'; at: number | null; from: string | null; to: string | null }
  | { code: 'edited-same-ballot'; at: number | null }
  | { code: 'edited-no-earlier-version'; at: number | null }
  // The director's rulings (src/rulings): they override the rules above and say so in public.
  // (`at` as written in the rulings file, ISO; `when` the same in forum time, what a director reads)
  | { code: 'ruling-accepted'; id: number; why: string; by: string; at: string; when?: string; overruled: BallotReason[] }
  | { code: 'ruling-rejected'; id: number; why: string; by: string; at: string; when?: string };

/** Every ballot reason code. */
export type BallotReasonCode = BallotReason['code'];

/** Points the director must check on one post (BallotRecord.flags), as values. */
export type BallotFlag =
  | { code: 'post-missing' }
  /** The current version is unreadable (`state`: why): the last version read before it became so counts. */
  | { code: 'current-version-hidden'; hidden: string; state?: PostState }
  /** The text is read in a view that shows it although Discuz marks the post (a moderator's or the author's own view). */
  | { code: 'post-state'; state: PostState }
  | { code: 'edited-no-earlier-version'; at: number | null };

/** How the count's result was decided (rules-spec §4; count.ts). */
export type OutcomeDetail =
  | { code: 'no-votes' }
  | { code: 'most-votes'; kind: TallyKind; name: string; votes: number }
  | {
      code: 'tie-first-reach';
      kind: TallyKind;
      tied: string[];
      votes: number;
      name: string;
      at: number;
      floor: number | null;
      /** Reached at the same second as another: floor order decided. */
      sameSecond: boolean;
      cite: string;
      /** wuhui's rule vote: the sheriff (or none yet) did not pick one of the tied. */
      sheriffPassed?: { sheriff: string | null };
    }
  | { code: 'tie-unresolved'; tied: string[]; votes: number; sheriffPassed?: { sheriff: string | null } }
  | { code: 'tie-nobody-out'; tied: string[]; votes: number; cite: string }
  | { code: 'tie-sheriff-choice'; kind: TallyKind; tied: string[]; votes: number; sheriff: string; name: string; cite: string }
  | { code: 'tie-sheriff-none'; tied: string[]; votes: number; sheriff: string; cite: string }
  | { code: 'tie-no-sheriff'; tied: string[]; votes: number; cite: string }
  | { code: 'no-public-vote'; ruleset: string; cite: string };

export type OutcomeCode = OutcomeDetail['code'];

/** Where the day's sheriff comes from (rules-spec §4; tally.ts sheriffFor). */
export type SheriffSource =
  | { code: 'election-day' }
  | { code: 'election-open' }
  | { code: 'named'; day: number }
  | { code: 'elected'; rule: string }
  | { code: 'elected-nobody'; rule: string }
  | { code: 'no-sheriff-ruleset'; ruleset: string }
  | { code: 'no-day1-thread' }
  /** The badge passed on (succession.ts): `source` is how the outgoing sheriff held it. */
  | { code: 'passed'; handover: SheriffHandover; source: SheriffSource }
  /** The sheriff left and the posts name no successor (handover.missing), or there is none to read. */
  | { code: 'sheriff-out'; name: string; source: SheriffSource; at: number; handover: SheriffHandover }
  | { code: 'none' };

/** Notes for the director that are not tied to one ballot (TallyResult.notes). */
export type TallyNote =
  | { code: 'running'; at: number; closes: number }
  | { code: 'no-rule-chosen'; day: number }
  | { code: 'no-process-thread' }
  /** The sheriff left: what the director should check about the successor (never a guess). */
  | { code: 'succession'; handover: SheriffHandover; noContact: string | null };

/** Why a process-thread post did not count toward acceleration (rules-spec §5). */
export type AccelerationIgnore =
  | { code: 'after-cutoff'; at: number; cutoff: number; atMoment: boolean }
  | { code: 'director' }
  | { code: 'not-a-player'; author: string }
  | { code: 'out'; author: string; since: number }
  | { code: 'left-before-cutoff'; author: string; since: number }
  | { code: 'withdrew' }
  | { code: 'repeat'; first: number | null; at: number }
  | { code: 'replaced'; author: string; seat: string; by: string }
  /** A post this account cannot read that the director ruled is no request (bansha rule reject PID). */
  | { code: 'ruled'; id: number; why: string };

/** The acceleration count in words (AccelerationResult.explanation). */
export interface AccelerationSummary {
  asked: number;
  alive: number;
  needed: number;
  cutoff: number;
  threshold: 'more-than-half' | 'at-least-half';
  /** 'declared' (the game file), 'disabled', 'cancelled' (a delay met the threshold), 'counted'. */
  how: 'declared' | 'disabled' | 'cancelled' | 'counted';
  accelerated: boolean;
  delays: number;
}

// ——— wording ———

/** 1.5 → "1.5", 4 → "4". */
export function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100);
}

/** `ms` as "21:10" when on the same forum-local day as `ref`, else "11-21 21:10". */
export function timeNear(ms: number, ref: number, zone: string): string {
  const at = forumClock(ms, zone);
  const near = forumClock(ref, zone);
  if (!at || !near || at.year !== near.year || at.month !== near.month || at.day !== near.day) return forumTime(ms, zone);
  return clockText(at);
}

/** 60 → "1 小时", 90 → "90 分钟". */
export function minutesText(m: number): string {
  return m % 60 === 0 && m >= 60 ? `${m / 60} 小时` : `${m} 分钟`;
}

/** Why a deadline test was not certain (public: the fact, not what the director should do about it). */
export function precisionText(p: Exclude<TimePrecision, null>): string {
  return p === 'minute'
    ? '论坛只显示到分钟，而这一分钟已到截止时间'
    : '论坛只显示相对时间（“N 小时前”），跨越了截止时间';
}

/**
 * What wording a reason needs: the forum's zone for times, and the game's own rule post for
 * citations (citations.ts) — never another preset's.
 */
export interface ReasonContext {
  zone: string;
  cite: Cite;
}

/** The context for a game: its zone and its preset's citations. */
export function reasonContext(game: { timezone: string; preset: PresetName }): ReasonContext {
  return { zone: game.timezone, cite: citer(game.preset) };
}

const headWord = (h: BallotHead) => (h === 'vote' ? '投票' : '改票');
const floorText = (f: number | null) => `${f ?? '?'}#`;
const hiddenText = (h: string, state?: PostState) => (state && state !== 'normal' ? POST_STATE_TEXT[state] : h === 'deleted' ? '已删除' : h);

/** A post's state (Post.state) as the forum's readers know it, in Chinese (Discuz's own words where it has them). */
export const POST_STATE_TEXT: Record<PostState, string> = {
  normal: '正常',
  banned: '作者被禁止或删除，内容自动屏蔽',
  shielded: '该帖被管理员或版主屏蔽',
  pending: '待审核',
  hidden: '隐藏内容（需回复或积分才可见）',
  'author-only': '仅作者可见',
  paid: '付费内容',
  password: '加密内容（需密码）',
  warned: '受到警告',
};
const precise = (p: TimePrecision) => (p ? `（${precisionText(p)}）` : '');
const list = (names: readonly string[]) => names.join('、');
const FORMAT = '格式：投票对象：名字 / 投票理由：理由';
/**
 * One ballot reason's public sentence, in Chinese: the rule and the fact, fit for the announcement
 * players read (no advice to the director: that is ballotReasonNote).
 */
export function ballotReasonText(r: BallotReason, ctx: ReasonContext): string {
  const t = (ms: number) => forumTime(ms, ctx.zone);
  const near = (ms: number, ref: number) => timeNear(ms, ref, ctx.zone);
  /** "（m107 l.205 …）" from the game's own rule post, or nothing. */
  const by = (...keys: CiteKey[]) => {
    const cites = keys.map(ctx.cite).filter((c): c is string => c !== null);
    return cites.length ? `（${cites.join('；')}）` : '';
  };
  switch (r.code) {
    case 'malformed-no-heads':
      return `不是规定格式的投票：没有“投票对象”或“改票对象”（${FORMAT}）`;
    case 'malformed-no-colon':
      return `格式错误：“${r.found}”后缺少冒号（${FORMAT}）`;
    case 'malformed-no-target':
      return `格式错误：缺少“${headWord(r.head)}对象”${by('format')}`;
    case 'malformed-two-targets':
      return `格式错误：一帖中有 ${r.count} 个“${headWord(r.head)}对象”，一帖只能投一票`;
    case 'malformed-no-reason':
      return `格式错误：缺少“${headWord(r.head)}理由”${by('format')}`;
    case 'malformed-two-reasons':
      return `格式错误：一帖中有 ${r.count} 个“${headWord(r.head)}理由”`;
    case 'malformed-mixed-heads':
      return `格式错误：“${headWord(r.head)}对象”配了“${headWord(r.other)}理由”${by('format')}`;
    case 'empty-target':
      return `格式错误：“${headWord(r.head)}对象”为空${by('format')}`;
    case 'empty-reason':
      return `格式错误：“${headWord(r.head)}理由”为空${by('format')}`;
    case 'unknown-target':
      return `投票对象有误：${r.written}（不是本局玩家）`;
    case 'target-bidi-control':
      return r.where === 'target'
        ? `投票对象含有改变文字方向的不可见字符（${r.controls.join('、')}），论坛显示的与所写的不同，无法确定所投之人`
        : `投票对象所在行含有改变文字方向的不可见字符（${r.controls.join('、')}），论坛显示的与所写的不同，无法确定所投之人`;
    case 'ambiguous-target':
      return `投票对象有误：“${r.written}”同时指向 ${r.names.length} 名玩家（${list(r.names)}）`;
    case 'rule-out-of-range':
      return `投票对象有误：${r.written}——没有对战规则${r.rule}（规则为 1–${r.ruleCount}）`;
    case 'not-a-rule':
      return `投票对象有误：“${r.written}”不是对战规则（请写 规则N、对战规则N 或 N号规则）`;
    case 'unreadable':
      return `帖子内容看不到（${hiddenText(r.hidden, r.state)}），存档中也没有其文字：无法读出其投票${r.proxy ? '（导演的帖子：可能是为任一玩家的代投）' : ''}`;
    case 'proxy-no-player':
      return `代投帖的代投行没有写明为哪位玩家代投（“${r.line}”）`;
    case 'proxy-many-players':
      return `代投帖的代投行写了 ${r.names.length} 名玩家（${list(r.names)}），无法确定为谁代投`;
    case 'not-a-player':
      return `${r.author} 不是本局玩家`;
    case 'before-open':
      return `${near(r.at, r.opens)} 发帖，早于本日投票开始（${t(r.opens)}）`;
    case 'late':
      return `迟到：${near(r.at, r.closes)} 发帖，关门时间 ${near(r.closes, r.at)}${precise(r.precision)}`;
    case 'voter-out':
      return r.beforeClose
        ? `${r.voter} 于 ${t(r.since)} 出局（关门前），出局玩家没有投票权`
        : `${r.voter} 已出局（${t(r.since)} 起），不能投票`;
    case 'voter-idiot':
      return r.beforeClose
        ? `${r.voter} 于 ${t(r.since)} 翻牌装傻（关门前），不能投票${by('idiot')}`
        : `${r.voter} 已翻牌装傻（${t(r.since)}），不能投票${by('idiot')}`;
    case 'proxy-too-late':
      return `代投过晚：${near(r.at, r.closes)} 发帖，代投须在关门前至少 ${minutesText(r.minutes)}（${near(r.by, r.at)} 前）${precise(r.precision)}`;
    case 'target-out':
      return r.beforeClose
        ? `投票对象有误：${r.target} 于 ${t(r.since)} 出局（关门前）${by('invalid-target')}`
        : `投票对象有误：${r.target} 已出局（${t(r.since)} 起）${by('invalid-target')}`;
    case 'target-idiot':
      return `投票对象有误：${r.target} 已翻牌装傻（${t(r.since)}），不能被投票${by('idiot')}`;
    case 'rule-used':
      return `${r.rule} 已在第 ${r.day} 日选出，每条规则只能使用一次${by('rule-once')}`;
    case 'change-without-vote':
      return `用了改票格式，但 ${r.voter} 此前没有有效投票：首次投票（或更正）须以 投票对象/投票理由 重新发帖${by('correction')}`;
    case 'change-wrong-heads':
      return `${r.voter} 已在 ${floorText(r.voteFloor)} 投票，改票须使用 改票对象/改票理由 格式`;
    case 'accelerated-change-void':
      return `进程已加速，所有改票作废${by('accelerated-changes')}`;
    case 'changes-not-allowed':
      return '本局规则不允许改票';
    case 'second-change':
      return `第 ${r.nth} 次改票：只允许改票 ${r.allowed} 次${by('change-once')}`;
    case 'change-too-late':
      return `${r.proxy ? '代投改票' : '改票'}距关门不足 ${minutesText(r.minutes)}：${near(r.at, r.closes)} 发帖，须在 ${near(r.by, r.at)} 前改票${by('change-deadline')}${precise(r.precision)}`;
    case 'change-quotes-other-post':
      return `改票引用/回复的是 ${list(r.quoted)}，不是 ${r.voter} 的原投票帖 ${floorText(r.voteFloor)}${by('change-quote')}`;
    case 'change-not-quoting-vote':
      return `改票未引用原投票帖 ${floorText(r.voteFloor)}${by('change-quote')}`;
    case 'superseded-by-change':
      return `已改票为 ${r.target ?? '?'}（${floorText(r.floor)}，${t(r.at)}）`;
    case 'edited-earlier-version-counts':
      return `${r.at !== null ? `${t(r.at)} ` : ''}编辑，由 ${r.from ?? '（无投票）'} 改为 ${r.to ?? '（无投票）'}：编辑不算改票${by('edit-not-change')}，以原版本为准`;
    case 'edited-same-ballot':
      return `${r.at !== null ? `${t(r.at)} ` : ''}编辑过，投票内容未变`;
    case 'edited-no-earlier-version':
      return `${r.at !== null ? `${t(r.at)} ` : ''}编辑过，存档中没有更早的版本：按当前内容计票`;
    case 'ruling-accepted':
      return `导演裁定：认可此票（${r.why}）${r.overruled.length ? `；原判：${r.overruled.map((o) => ballotReasonText(o, ctx)).join('；')}` : ''}`;
    case 'ruling-rejected':
      return `导演裁定：此票不计（${r.why}）`;
  }
}

/**
 * What the director should check or may decide about a reason (never posted), or null when the
 * public sentence says it all.
 */
export function ballotReasonNote(r: BallotReason): string | null {
  // For the director alone, so in the director's language (the public sentence stays the forum's Chinese).
  const relative = 'precision' in r && r.precision === 'relative' ? tr('note.relativeTime') : null;
  switch (r.code) {
    case 'unknown-target':
    case 'not-a-rule':
      return r.hint ? tr('note.didYouMean', r.hint) : null;
    case 'change-not-quoting-vote':
      return tr('note.replyInvisible', floorText(r.voteFloor));
    case 'change-without-vote':
      return tr('note.mayAccept');
    case 'edited-no-earlier-version':
      return tr('note.checkEdit');
    case 'ruling-accepted':
    case 'ruling-rejected':
      return tr('note.ruling', r.id, r.by, r.when ?? r.at);
    case 'unreadable':
      return tr('note.unreadable');
    default:
      return relative;
  }
}

/** Several reasons' public sentences as one (null when there are none). */
export function ballotReasonsText(rs: readonly BallotReason[], ctx: ReasonContext): string | null {
  return rs.length ? rs.map((r) => ballotReasonText(r, ctx)).join('；') : null;
}

/** Several reasons' director notes as one (null when none has a note). */
export function ballotReasonsNote(rs: readonly BallotReason[]): string | null {
  const notes = [...new Set(rs.map(ballotReasonNote).filter((n): n is string => n !== null))];
  return notes.length ? notes.join('；') : null;
}

/** A point for the director on one post, in Chinese (flags are the director's alone). */
export function flagText(f: BallotFlag, ctx: ReasonContext): string {
  switch (f.code) {
    case 'post-missing':
      return '帖子已不在论坛上（之后被删除或隐藏）：按存档内容读取';
    case 'current-version-hidden':
      return `当前版本看不到（${hiddenText(f.hidden, f.state)}）：按其变为看不到之前读到的文字计`;
    case 'post-state':
      return `帖子状态：${POST_STATE_TEXT[f.state]}（本账号看得到其文字，其他人${f.state === 'warned' ? '也看得到' : '可能看不到'}）：按其文字计`;
    case 'edited-no-earlier-version':
      return `${ballotReasonText(f, ctx)}——${ballotReasonNote(f)}`;
  }
}

/** What the winner of a count becomes. */
function becomes(kind: TallyKind): string {
  return kind === 'election' ? '当选警长' : kind === 'rule' ? '为今日对战规则' : '出局';
}

/** The result and the rule that decided it, in Chinese. */
export function outcomeText(o: OutcomeDetail, zone: string): string {
  const tie = (tied: readonly string[], votes: number) => `${list(tied)} 平票 ${fmt(votes)} 票`;
  const passed = (p?: { sheriff: string | null }) =>
    p ? (p.sheriff === null ? '，尚无警长' : `，警长 ${p.sheriff} 未投其中任何一项`) : '';
  switch (o.code) {
    case 'no-votes':
      return '无人获得有效票';
    case 'most-votes':
      return `${o.name} 得票最多（${fmt(o.votes)} 票），${becomes(o.kind)}`;
    case 'tie-first-reach':
      return `${tie(o.tied, o.votes)}${passed(o.sheriffPassed)}，${o.name} 最先达到 ${fmt(o.votes)} 票（${forumTime(o.at, zone)}，${floorText(o.floor)}）` +
        `${o.sameSecond ? '，与另一候选同一秒达到，按楼层先后' : ''}，${becomes(o.kind)}（${o.cite}）`;
    case 'tie-unresolved':
      return `${tie(o.tied, o.votes)}${passed(o.sheriffPassed)}，回放无法确定谁最先达到`;
    case 'tie-nobody-out':
      return `${tie(o.tied, o.votes)}，无人出局（${o.cite}）`;
    case 'tie-sheriff-choice':
      return `${tie(o.tied, o.votes)}，警长 ${o.sheriff} 投给 ${o.name}，${o.name} ${becomes(o.kind)}（${o.cite}）`;
    case 'tie-sheriff-none':
      return `${tie(o.tied, o.votes)}，警长 ${o.sheriff} 未投其中任何一人，无人出局（${o.cite}）`;
    case 'tie-no-sheriff':
      return `${tie(o.tied, o.votes)}，没有已知的警长来决定，按无人出局处理（${o.cite}）`;
    case 'no-public-vote':
      return `${o.ruleset} 规则没有公开投票帖，投票均私聊导演（${o.cite}）`;
  }
}

/** What the director must decide or check about a result (never posted), or null. */
export function outcomeNote(o: OutcomeDetail): string | null {
  switch (o.code) {
    case 'tie-unresolved':
      return '请导演决定结果，并在公告中说明';
    case 'tie-no-sheriff':
      return '请导演核对：游戏文件中没有本日的警长（days[].sheriff）';
    default:
      return null;
  }
}

/**
 * TallyResult's sheriff source as it holds it: the values, and their text in Chinese (what the HTML report
 * shows, which players read); every other reader writes the values in its own language.
 */
export function sheriffSourceFields(from: SheriffSource, zone: string): { sheriffSource: string; sheriffFrom: SheriffSource } {
  return { sheriffSource: withLanguage('zh', () => sheriffSourceText(from, zone)), sheriffFrom: from };
}

/**
 * Where the sheriff comes from, in the director's language (the terminal; TallyResult.sheriffSource holds
 * it in Chinese for the HTML report: sheriffSourceFields). A day-1 result and a rule-post line are quoted as the forum has them.
 */
export function sheriffSourceText(s: SheriffSource, zone: string): string {
  switch (s.code) {
    case 'election-day':
      return tr('sheriff.electionDay');
    case 'election-open':
      return tr('sheriff.electionOpen');
    case 'named':
      return tr('sheriff.named', s.day);
    case 'elected':
      return tr('sheriff.elected', s.rule);
    case 'elected-nobody':
      return tr('sheriff.electedNobody', s.rule);
    case 'no-sheriff-ruleset':
      return tr('sheriff.noSheriffRuleset', s.ruleset);
    case 'no-day1-thread':
      return tr('sheriff.noDay1Thread');
    case 'passed': {
      const h = s.handover;
      const by = h.claims.find((c) => c.problem === null && c.name === h.successor)!;
      const where = by.by === 'director' ? tr('sheriff.byDirector', floorText(by.floor)) : tr('sheriff.byHolder', h.from, floorText(by.floor));
      return tr('sheriff.passed', h.from, sheriffSourceText(s.source, zone), forumTime(h.at, zone), departureWord(h.how), h.successor!, where, h.cite ?? '');
    }
    case 'sheriff-out': {
      const h = s.handover;
      const missing = h.missing === 'conflict' ? tr('sheriff.missing.conflict') : h.missing === 'unread' ? tr('sheriff.missing.unread', h.unread.join(tr('list.sep'))) : tr('sheriff.missing.none');
      const passes = h.rule === 'random' ? tr('sheriff.passesRandom', h.cite ?? '') : tr('sheriff.passesBy', s.name, h.cite ?? '');
      return tr('sheriff.out', s.name, sheriffSourceText(s.source, zone), forumTime(s.at, zone), departureWord(h.how), passes, missing);
    }
    case 'none':
      return tr('sheriff.none');
  }
}

/** A note for the director, in the director's language. */
export function noteText(n: TallyNote, zone: string): string {
  switch (n.code) {
    case 'running':
      return tr('note.running', forumTime(n.at, zone), forumTime(n.closes, zone));
    case 'no-rule-chosen':
      return tr('note.noRuleChosen', n.day);
    case 'no-process-thread':
      return tr('note.noProcessThread');
    case 'succession':
      return successionNote(n.handover, n.noContact, zone);
  }
}

/** How the sheriff left, in the director's language. */
function departureWord(how: SheriffHandover['how']): string {
  return tr(`departure.${how}`);
}

/**
 * What the director checks when the badge passes: every post naming a successor (and what is wrong with
 * it), and what the rules say happens when nobody is named. `noContact` cites the rule that makes an
 * unanswered vote-out a random handover (m107 l.194, 062 l.237), when the game's post has it.
 */
export function successionNote(h: SheriffHandover, noContact: string | null, zone: string): string {
  const claims = h.claims.map((c) =>
    tr('succession.claim', c.name, c.by === 'director' ? tr('succession.director') : h.from, floorText(c.floor), forumTime(c.at, zone), c.problem ? tr(`succession.problem.${c.problem}`) : ''));
  const seen = (claims.length ? tr('succession.claims', claims.join(tr('list.sep'))) : tr('succession.noClaims')) +
    (h.unread.length ? tr('succession.unread', h.unread.join(tr('list.sep'))) : '');
  if (h.successor) return tr('succession.read', h.from, departureWord(h.how), h.successor, seen);
  const random = h.rule === 'chosen' && h.how === 'vote' && noContact ? tr('succession.noContact', h.from, noContact) : '';
  return tr('succession.unknown', h.from, departureWord(h.how), `${seen}${random}`);
}

/** Why a process-thread post did not count toward acceleration, in Chinese. */
export function accelerationIgnoreText(i: AccelerationIgnore, zone: string): string {
  switch (i.code) {
    case 'after-cutoff':
      return `${forumTime(i.at, zone)} 发帖，不早于截止时间 ${forumTime(i.cutoff, zone)}${i.atMoment ? '（或 --at 时刻）' : ''}`;
    case 'director':
      return '导演的帖子';
    case 'not-a-player':
      return `${i.author} 不是本局玩家`;
    case 'out':
      return `${i.author} 已出局（${forumTime(i.since, zone)} 起）`;
    case 'left-before-cutoff':
      return `${i.author} 于 ${forumTime(i.since, zone)} 出局（截止前）`;
    case 'withdrew':
      return '已撤回加速申请';
    case 'repeat':
      return `重复申请：已于 ${forumTime(i.at, zone)}${i.first === null ? '' : `（${i.first}#）`}申请过，只计一次`;
    case 'replaced':
      return `${i.author} 已被替补 ${i.by} 替换（${i.seat} 的座位），不再是本局玩家`;
    case 'ruled':
      return `看不到文字的帖子：导演裁定 #${i.id} 不计（${i.why}）`;
  }
}

/** The acceleration count and what it decided, in Chinese. */
export function accelerationText(a: AccelerationSummary, zone: string): string {
  const rule = a.threshold === 'more-than-half' ? '须过半' : '须达半数';
  const count = `${forumTime(a.cutoff, zone)} 前，${a.alive} 名存活玩家中 ${a.asked} 人申请加速（${rule}：${a.needed} 人）`;
  switch (a.how) {
    case 'declared':
      return `游戏文件声明本日${a.accelerated ? '已' : '未'}加速（统计：${count}）`;
    case 'disabled':
      return '本规则没有进程加速';
    case 'cancelled':
      return `${count}；但 ${a.delays} 人申请延时，加速取消（062 l.248 延迟成功时，不再视为“执行加速”）`;
    case 'counted':
      return `${count}：${a.accelerated ? '已加速' : '未加速'}`;
  }
}
