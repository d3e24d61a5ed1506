/**
 * The ballot reader (rules-spec §2): one post's own text → a Ballot, or why it is not one. Pure.
 *
 * The parser has already removed what the player did not write (quote blocks, 回复 headers, jammer,
 * the 本帖最后由…编辑 marker, signatures), so a quoted ballot of someone else can never be read here.
 * Format: `投票对象：X` + `投票理由：Y` (a vote) or `改票对象：X` + `改票理由：Y` (a change); full- and
 * half-width punctuation are the same (NFKC), spaces around the colon and X are ignored, X and the
 * reason may share a line (062 l.255: 投票对象与投票理由之间可以不换行), trailing 。，,.!！ after X is not
 * part of X, and a missing or empty reason makes the ballot malformed (m107 l.205: 明确说明投票对象和
 * 投票理由). X is a player's name after normalisation, or 弃权 (m107 l.205, 062 l.256), or — wuhui's
 * duel-rule vote — a rule: 对战规则3, 规则3 and 3号规则 all mean 规则3.
 *
 * What the forum shows is what counts: zero-width characters are invisible and dropped, but a bidi
 * embedding, override or isolate (U+202A–202E, U+2066–2069) reorders what is displayed ("\u202e狸阿" is
 * shown as 阿狸), so a target carrying one — or standing on a line that carries one before it — is
 * rejected (target-bidi-control), unless it is exactly a player's name with the same characters. Bidi
 * controls after X, with nothing of X behind them, change nothing shown and are dropped like trailing
 * punctuation. A leading "@" (a mention) is ignored on both sides: "@饺子" names 饺子, and a player whose
 * forum name starts with "@" is named by it.
 */
import { bidiControlsIn, foldWidth, hasBidiControl, normalizeName } from '../text/normalize.js';
import { nearestName } from '../text/nearest.js';
import { noCites } from './citations.js';
import { ballotReasonText, type BallotReason } from './reasons.js';
import type { BallotFailure, BallotHead, BallotReading, Target } from './types.js';

/** What X may name. */
export interface BallotContext {
  /** 'players': a player or 弃权; 'rules': wuhui's duel rule 1..ruleCount or 弃权. */
  kind: 'players' | 'rules';
  /** The game's players (every one: whether one may be voted is decided later, by time). */
  players: readonly string[];
  /**
   * Other names of the seats (aliases, a renamed account's new name, substitutes) → the seat's name:
   * a ballot may name a seat by any of them (src/game/roster.ts seatNames).
   */
  otherNames?: ReadonlyMap<string, string>;
  /** wuhui: how many duel rules there are (对战规则1–6). */
  ruleCount?: number;
}

/** The abstain word (m107 l.215 投票对象：弃权; 062 l.256 须在投票对象中填写“弃权”). */
export const ABSTAIN = '弃权';

/** A head is 投票/改票 + 对象/理由 followed by a colon (any width: NFKC folds ：to :). */
const HEAD = /(投票|改票)\s*(对象|理由)\s*:/g;
const HEAD_NO_COLON = /(投票|改票)\s*(对象|理由)/;
/** Trailing punctuation after X that is not part of X (rules-spec §2), after NFKC; bidi controls there change nothing shown. */
const TRAILING = /[\s。｡,，.!！、;；\u202A-\u202E\u2066-\u2069]+$/u;
/** Bidi controls, removed from the reason (data, never matched). */
const BIDI = /[\u202A-\u202E\u2066-\u2069]/g;
/** A reason that is only punctuation or space says nothing. */
const EMPTY_REASON = /^[\s\p{P}\p{S}]*$/u;

interface HeadHit {
  head: BallotHead;
  part: 'target' | 'reason';
  start: number;
  end: number;
}

/**
 * Whether `text` can hold a ballot head at all: every head (with or without its colon) has 票, and no
 * other character folds to it (NFKC maps only 票 itself there; test/votes/ballot.test.ts holds every code
 * point to that), so a text without 票 reads as no ballot without folding it — most posts of a day.
 */
export function mayHoldBallot(text: string): boolean {
  return text.includes('票');
}

/** Reads one post's own text as a ballot. */
export function readBallot(text: string, ctx: BallotContext): BallotReading {
  if (!mayHoldBallot(text)) return fail('no-ballot', null, null, { code: 'malformed-no-heads' });
  // Bidi controls are kept (they change what the forum shows): a head they split is no head.
  const folded = foldWidth(text, { keepBidi: true });
  const hits: HeadHit[] = [];
  for (const m of folded.matchAll(HEAD)) {
    hits.push({
      head: m[1] === '投票' ? 'vote' : 'change',
      part: m[2] === '对象' ? 'target' : 'reason',
      start: m.index ?? 0,
      end: (m.index ?? 0) + m[0].length,
    });
  }
  if (hits.length === 0) {
    const bare = HEAD_NO_COLON.exec(folded);
    if (bare) return fail('malformed', null, null, { code: 'malformed-no-colon', found: bare[0] });
    return fail('no-ballot', null, null, { code: 'malformed-no-heads' });
  }
  const value = (i: number): string => folded.slice(hits[i].end, i + 1 < hits.length ? hits[i + 1].start : folded.length);
  const targets = hits.map((h, i) => ({ h, i })).filter((x) => x.h.part === 'target');
  const reasons = hits.map((h, i) => ({ h, i })).filter((x) => x.h.part === 'reason');
  const head = (targets[0] ?? reasons[0]).h.head;

  if (targets.length === 0) return fail('malformed', head, null, { code: 'malformed-no-target', head });
  if (targets.length > 1) return fail('malformed', head, null, { code: 'malformed-two-targets', head, count: targets.length });
  // X stands on its head's line: anything after a line break is not part of it.
  const written = value(targets[0].i).split('\n')[0].replace(TRAILING, '').trim();
  if (reasons.length === 0) return fail('malformed', head, written || null, { code: 'malformed-no-reason', head });
  if (reasons.length > 1) return fail('malformed', head, written || null, { code: 'malformed-two-reasons', head, count: reasons.length });
  if (reasons[0].h.head !== head) {
    return fail('malformed', head, written || null, { code: 'malformed-mixed-heads', head, other: reasons[0].h.head });
  }
  if (!written) return fail('malformed', head, null, { code: 'empty-target', head });
  const reason = value(reasons[0].i).replace(BIDI, '').trim();
  if (EMPTY_REASON.test(reason)) return fail('malformed', head, written, { code: 'empty-reason', head });

  // A bidi control earlier on X's line reorders X as shown (an isolate closed before the head is
  // just as suspicious: rejected too, for the director to judge).
  const lineStart = folded.lastIndexOf('\n', targets[0].h.start) + 1;
  const before = folded.slice(lineStart, targets[0].h.start);
  if (hasBidiControl(before)) {
    const detail: BallotReason = { code: 'target-bidi-control', written, controls: codePoints(bidiControlsIn(before)), where: 'line' };
    return { ...miss('unknown-target', detail, null), head, written };
  }
  const target = matchTarget(written, ctx);
  if ('problem' in target) return { ...target, head, written };
  return { ok: true, head, written, target, reason };
}

/** Display form of a target: the player's name, 弃权, or 规则N. */
export function targetLabel(t: Target): string {
  return t.kind === 'player' ? t.name : t.kind === 'abstain' ? ABSTAIN : ruleName(t.rule);
}

/** wuhui's name for duel rule n (对战规则n). */
export function ruleName(n: number): string {
  return `规则${n}`;
}

type TargetMiss = Omit<BallotFailure, 'head' | 'written'>;

/**
 * Matches X against the candidates: exact after normalisation (a leading "@" ignored on both sides,
 * bidi controls compared as written), else unknown/ambiguous with a hint. X carrying a bidi control
 * that is not exactly a player's name is rejected (target-bidi-control): the forum shows it reordered.
 */
export function matchTarget(written: string, ctx: BallotContext): Target | TargetMiss {
  const shown = (s: string) => normalizeName(s, { keepBidi: true });
  const names = shownNames(ctx);
  const shownName = (n: string) => names.get(n) ?? shown(n);
  const unmentioned = (n: string) => shownName(n).replace(/^@+/, '');
  const w = shown(written);
  if (hasBidiControl(w)) {
    const same = ctx.kind === 'players' ? ctx.players.filter((p) => shownName(p) === w) : [];
    if (same.length === 1) return { kind: 'player', name: same[0] };
    return miss('unknown-target', { code: 'target-bidi-control', written, controls: codePoints(bidiControlsIn(w)), where: 'target' }, null);
  }
  const x = w.replace(/^@+/, '');
  if (x === ABSTAIN) return { kind: 'abstain' };
  if (ctx.kind === 'rules') return matchRule(x, written, ctx.ruleCount ?? 6);

  // The name as written (with its "@") first, so "@饺子" and a player called "@饺子" still meet exactly.
  const candidates = ctx.otherNames?.size ? [...ctx.players, ...ctx.otherNames.keys()] : ctx.players;
  const seatOf = (n: string) => ctx.otherNames?.get(n) ?? n;
  const one = (found: string[]): string[] => [...new Set(found.map(seatOf))];
  const literal = one(candidates.filter((p) => shownName(p) === w));
  if (literal.length === 1) return { kind: 'player', name: literal[0] };
  const exact = literal.length > 1 ? literal : one(candidates.filter((p) => unmentioned(p) === x));
  if (exact.length === 1) return { kind: 'player', name: exact[0] };
  if (exact.length > 1) return miss('ambiguous-target', { code: 'ambiguous-target', written, names: exact }, null);
  const named = one(namesIn(x, candidates));
  if (named.length > 1) return miss('ambiguous-target', { code: 'ambiguous-target', written, names: named }, null);
  const near = named.length ? null : nearestName(written, candidates);
  const hint = named[0] ?? (near === null ? null : seatOf(near));
  return miss('unknown-target', { code: 'unknown-target', written, hint }, hint);
}

const shownByContext = new WeakMap<BallotContext, ReadonlyMap<string, string>>();

/**
 * The names a target may be (the players and the seats' other names) → each as shown (normalised, bidi
 * kept), made once per context: a tally matches every ballot against every name.
 */
function shownNames(ctx: BallotContext): ReadonlyMap<string, string> {
  let names = shownByContext.get(ctx);
  if (!names) {
    const all = [...ctx.players, ...(ctx.otherNames?.keys() ?? [])];
    shownByContext.set(ctx, (names = new Map(all.map((n) => [n, normalizeName(n, { keepBidi: true })]))));
  }
  return names;
}

const CN_DIGITS: Record<string, number> = { 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9, 十: 10 };
const RULE_FORMS = [/^(?:对战)?规则(?:第)?([0-9]+|[一二三四五六七八九十])号?$/u, /^(?:第)?([0-9]+|[一二三四五六七八九十])号?(?:对战)?规则$/u];

function matchRule(x: string, written: string, ruleCount: number): Target | TargetMiss {
  for (const re of RULE_FORMS) {
    const m = re.exec(x);
    if (!m) continue;
    const n = /^[0-9]+$/.test(m[1]) ? Number(m[1]) : CN_DIGITS[m[1]];
    if (n >= 1 && n <= ruleCount) return { kind: 'rule', rule: n };
    return miss('unknown-target', { code: 'rule-out-of-range', written, rule: n, ruleCount }, null);
  }
  const digit = /[0-9]+/.exec(x)?.[0];
  const hint = digit && Number(digit) >= 1 && Number(digit) <= ruleCount ? ruleName(Number(digit)) : null;
  return miss('unknown-target', { code: 'not-a-rule', written, hint }, hint);
}

/** The players whose (normalised) names occur in a normalised string, longest names first. */
export function namesIn(normalized: string, players: readonly string[]): string[] {
  let rest = normalized;
  const found: string[] = [];
  for (const p of [...players].sort((a, b) => normalizeName(b).length - normalizeName(a).length)) {
    const n = normalizeName(p);
    if (n && rest.includes(n)) {
      found.push(p);
      rest = rest.split(n).join('\u0000');
    }
  }
  return found;
}

/** A director's 代投 (proxy) post: which player it is for, read from the line carrying the marker. */
export type ProxyReading = { ok: true; player: string } | { ok: false; detail: BallotReason; reason: string };

/**
 * Reads the player a director's proxy post is for (rules-spec §2): the first line holding a marker
 * (代投…) must name exactly one player outside the ballot heads ("代投：饺子", "饺子 代投", "代饺子投票").
 * Returns null when the post carries no marker (a director's announcement, not a ballot).
 */
export function readProxy(text: string, players: readonly string[], markers: readonly string[], otherNames?: ReadonlyMap<string, string>): ProxyReading | null {
  const folded = foldWidth(text);
  const line = folded.split('\n').find((l) => markers.some((m) => l.includes(m)));
  if (line === undefined) return null;
  const head = line.search(HEAD);
  let part = head >= 0 ? line.slice(0, head) : line;
  for (const m of markers) part = part.split(m).join(' ');
  // A seat may be named by any of its names (BallotContext.otherNames), and counts once.
  const names = otherNames?.size ? [...players, ...otherNames.keys()] : players;
  const named = [...new Set(namesIn(normalizeName(part), names).map((n) => otherNames?.get(n) ?? n))];
  if (named.length === 1) return { ok: true, player: named[0] };
  const detail: BallotReason = named.length === 0 ? { code: 'proxy-no-player', line: line.trim() } : { code: 'proxy-many-players', names: named };
  return { ok: false, detail, reason: ballotReasonText(detail, NO_GAME) };
}

/** Ballot-format reasons carry no time: their wording does not depend on the zone. */
const NO_GAME = { zone: 'UTC', cite: noCites };

function fail(problem: BallotFailure['problem'], head: BallotHead | null, written: string | null, detail: BallotReason, hint: string | null = null): BallotFailure {
  return { ok: false, problem, head, written, detail, reason: ballotReasonText(detail, NO_GAME), hint };
}

function miss(problem: BallotFailure['problem'], detail: BallotReason, hint: string | null): TargetMiss {
  return { ok: false, problem, detail, reason: ballotReasonText(detail, NO_GAME), hint };
}

/** Characters as "U+202E" labels, each once, in order. */
function codePoints(chars: readonly string[]): string[] {
  return [...new Set(chars.map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`))];
}
