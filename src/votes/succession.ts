/**
 * The sheriff passed on (issue 13): when the sheriff leaves — voted out, sent off by a red card, out at
 * night, or (m107) a white idiot's 装傻 — the badge passes by the game's rules, and the successor is read
 * from the posts where the rules make it public. Who names the successor:
 * - the outgoing sheriff (m107 l.120 殉职, 062 l.171 后继有人, wuhui l.103 殉职), told to the director and
 *   published by them (m107 l.41/l.40, 062 l.43), or posted by the sheriff;
 * - nobody after a red card: the director picks at random (m107 l.124, 062 l.174, wuhui l.37) — only the
 *   director's announcement can name that successor;
 * - (m107 l.194, 062 l.237) the director at random, when the sheriff voted out does not answer within 30
 *   minutes: also only visible in the director's announcement.
 * A successor must still be in the game (and, m107 l.95, not an idiot). When no post names a valid
 * successor, or the posts name different players, there is no derived successor: the director is told
 * what to check, never given a guess. Pure functions of the game and the posts.
 */
import { exitTime, idiotTime, isDirector, isIdiot, isOut, otherSeatNames, seatOfPost } from '../game/roster.js';
import type { ExitHow, Game } from '../game/types.js';
import { packagePath } from '../paths.js';
import { packageYaml } from '../package-yaml.js';
import type { SlicePost } from '../store/slice.js';
import { normalizeName, normalizeText } from '../text/normalize.js';
import { citer, type CiteKey } from './citations.js';
import { isOwnPost } from './own-posts.js';
import { readText } from './select.js';
import { checkData, isMap } from '../text/check-data.js';

/** Where the tally gets a thread's posts from (the same shape as tally.ts PostsOf). */
type PostsOf = (tid: number) => readonly SlicePost[];

/** The sheriff leaving: who, when, and how (an exit of the game file or a derived one, or m107's 装傻). */
export interface Departure {
  player: string;
  at: number;
  how: ExitHow | 'idiot';
}

/** Why a post's named successor cannot take the badge. */
export type ClaimProblem =
  /** Out of the game when the badge passed. */
  | 'out'
  /** m107 l.95: an idiot who used 装傻 cannot succeed. */
  | 'idiot'
  /** Names the outgoing sheriff. */
  | 'self'
  /** The outgoing sheriff's own choice after a red card: the successor is random (the director's). */
  | 'random-rule';

/** A post naming a successor. */
export interface SuccessionClaim {
  name: string;
  /** A director's announcement, or the outgoing sheriff's own post. */
  by: 'director' | 'sheriff';
  author: string;
  pid: number;
  tid: number;
  floor: number | null;
  at: number;
  url: string;
  problem: ClaimProblem | null;
}

export interface SheriffHandover {
  from: string;
  at: number;
  how: Departure['how'];
  /** Who names the successor by the rules: the outgoing sheriff, or the director at random. */
  rule: 'chosen' | 'random';
  /** The game's own rule-post line for that rule (null when its post states none). */
  cite: string | null;
  /** The successor the posts name (valid, and every valid claim agreeing), else null. */
  successor: string | null;
  /** Every post naming a successor, in time order. */
  claims: SuccessionClaim[];
  /**
   * Why there is no successor: no post names a valid one, valid claims name different players, or a
   * thread it may be published in is not (completely) stored — then nothing is derived from the rest.
   */
  missing: null | 'none' | 'conflict' | 'unread';
  /** The threads of `successionThreads` not completely stored (missing 'unread'). */
  unread: number[];
  /**
   * Posts by whoever may name the successor (the outgoing sheriff, a director), after the departure, whose
   * text this account cannot read and the director has not ruled names no one (`bansha rule reject PID`,
   * subject 'successor'): each may name a successor (issue 31). Never read as naming no one.
   */
  unreadable: UnreadableHandoverPost[];
}

/** A post a handover waits on that this account cannot read (SheriffHandover.unreadable): where and by whom, no name read. */
export type UnreadableHandoverPost = Omit<SuccessionClaim, 'name' | 'problem'>;

/** succession-words.yaml: each preset's titles for the badge holder, and the patterns that name a successor. */
interface SuccessionWords {
  titles: Record<string, string[]>;
  patterns: string[];
}
let words: SuccessionWords | null = null;

/** The words as the data file gives them (a file of the package: checked by hand, zod stays unloaded). */
function successionWords(): SuccessionWords {
  const file = 'src/votes/succession-words.yaml';
  words ??= checkData<SuccessionWords>(packagePath(file), packageYaml(file), (raw, bad) => {
    const nonEmptyList = (v: unknown) => Array.isArray(v) && v.length > 0 && v.every((w) => typeof w === 'string' && w !== '');
    if (!isMap(raw) || Object.keys(raw).some((k) => k !== 'titles' && k !== 'patterns')) return bad('', '{titles, patterns}');
    if (!isMap(raw.titles) || !Object.values(raw.titles).every(nonEmptyList)) return bad('titles', "a list of titles for each preset");
    if (!nonEmptyList(raw.patterns) || !(raw.patterns as string[]).every((p) => p.includes('{name}'))) return bad('patterns', 'a list of patterns, each with {name}');
    return true;
  });
  return words;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The game's successor patterns, with `{title}` and `{name}` filled in (the name as a named group). */
function patternsFor(game: Game): { res: RegExp[]; seatOf: Map<string, string> } {
  const { titles, patterns } = successionWords();
  const seatOf = new Map<string, string>();
  for (const p of game.players) seatOf.set(normalizeName(p), p);
  for (const [other, seat] of otherSeatNames(game)) if (!seatOf.has(normalizeName(other))) seatOf.set(normalizeName(other), seat);
  const names = [...seatOf.keys()].filter(Boolean).sort((a, b) => b.length - a.length).map(escape).join('|');
  const title = (titles[game.preset] ?? []).map(escape).join('|');
  if (!names || !title) return { res: [], seatOf };
  const res = patterns.map((p) => new RegExp(p.replaceAll('{title}', `(?:${title})`).replace('{name}', `@?(?<name>${names})`), 'gu'));
  return { res, seatOf };
}

/** What a handover reads of a post: its text, or the last version read before it became unreadable (select.ts readText). */
type Readable = Parameters<typeof readText>[0];

/**
 * The posts that name some seat the way a successor is named, or whose text this account cannot read
 * (it may name one: issue 31), whoever wrote them and whenever: all that a handover reads of a thread
 * (sheriffHandover finds no claim and waits on no post among the others), so a thread's candidates can
 * stand for it (src/derived/closed-days.ts keeps them between runs).
 */
export function successionCandidates<P extends Readable>(game: Game, posts: readonly P[]): P[] {
  return posts.filter(namesSuccessor(game));
}

/** Whether a post is one successionCandidates keeps (the game's patterns compiled once). */
export function namesSuccessor(game: Game): (p: Readable) => boolean {
  const { res, seatOf } = patternsFor(game);
  return (p) => {
    const text = readText(p);
    return text === null || namedIn(text, res, seatOf).length > 0;
  };
}

/** What `successionCandidates` depends on of the game: its patterns with the seats' names filled in (the code's own identity is in every memo key). */
export function successionPatternsKey(game: Game): string[] {
  return patternsFor(game).res.map((re) => re.source);
}

/** The seats a post names as the successor (distinct, in order). */
function namedIn(text: string, res: readonly RegExp[], seatOf: ReadonlyMap<string, string>): string[] {
  const t = normalizeText(text);
  const found = new Set<string>();
  for (const re of res) for (const m of t.matchAll(re)) found.add(seatOf.get(m.groups!.name)!);
  return [...found];
}

/** The sheriff `name`'s departure before `before` (exit or, m107, 装傻), or null while they hold the badge. */
export function departureOf(game: Game, name: string, before: number): Departure | null {
  const out = exitTime(game, name);
  const idiot = game.preset === 'm107' ? idiotTime(game, name) : null;
  if (idiot !== null && idiot < before && (out === null || idiot <= out)) return { player: name, at: idiot, how: 'idiot' };
  if (out === null || out >= before) return null;
  return { player: name, at: out, how: game.events.find((e) => e.player === name && e.out === out)?.how ?? 'other' };
}

/**
 * The threads a sheriff's successor may be published in, for a departure at `at`: the process thread,
 * the vote threads of the day that closed at or ended around `at`, and the next day's discussion thread
 * (m107 l.40: each day opens with the day's sheriff).
 */
export function successionThreads(game: Game, at: number): number[] {
  const tids = new Set<number>();
  if (game.process) tids.add(game.process.tid);
  // The day the sheriff left in (or, at night, the last day closed before), and the day after it.
  const day = game.days.find((d) => d.opens <= at && at <= d.closes) ?? game.days.filter((d) => d.closes < at).at(-1);
  const next = day ? game.days.find((d) => d.day === day.day + 1) : game.days.find((d) => d.opens > at);
  for (const d of [day, next]) if (d?.discussion) tids.add(d.discussion.tid);
  if (day) for (const v of day.votes) tids.add(v.tid);
  return [...tids];
}

/**
 * How the badge passes at `dep`, and to whom the posts say. `alsoOut`: departures the game file does
 * not record yet (the closed day's derived results) — a successor out by then is not valid. `unread`:
 * threads of successionThreads the caller could not read completely (no successor is derived then).
 * `threads`: where to read (default successionThreads; a tally leaves out the days after its own).
 */
export function sheriffHandover(
  game: Game, posts: PostsOf, dep: Departure,
  opts: { alsoOut?: readonly { player: string; out: number }[]; unread?: readonly number[]; threads?: readonly number[] } = {},
): SheriffHandover {
  const alsoOut = opts.alsoOut ?? [];
  const unread = [...(opts.unread ?? [])];
  const cite = citer(game.preset);
  const rule: SheriffHandover['rule'] = dep.how === 'card' ? 'random' : 'chosen';
  const key: CiteKey = dep.how === 'card' ? 'succession-random' : dep.how === 'idiot' ? 'succession-idiot' : 'succession-chosen';
  const { res, seatOf } = patternsFor(game);
  const out = (p: string) => isOut(game, p, dep.at) || alsoOut.some((x) => x.player === p && x.out <= dep.at);
  const claims: SuccessionClaim[] = [];
  const unreadable: UnreadableHandoverPost[] = [];
  // (a ruling that such a post names no one holds whichever day's count it was made for: it is about the post)
  const ruledOut = new Set((game.rulings ?? []).filter((r) => r.subject === 'successor' && r.verb === 'reject').map((r) => r.pid));
  const seen = new Set<number>();
  for (const tid of opts.threads ?? successionThreads(game, dep.at)) {
    for (const p of posts(tid)) {
      if (p.missing || p.at < dep.at || seen.has(p.pid) || isOwnPost(game, p)) continue;
      const seat = seatOfPost(game, p);
      const by = isDirector(game, p.author) ? 'director' : seat.kind === 'seat' && seat.seat === dep.player ? 'sheriff' : null;
      if (!by) continue;
      seen.add(p.pid);
      // (the words read before a post became unreadable count; one never read may name anyone)
      const text = readText(p);
      if (text === null) {
        if (!ruledOut.has(p.pid)) unreadable.push({ by, author: p.author, pid: p.pid, tid: p.tid, floor: p.floor, at: p.at, url: p.url });
        continue;
      }
      for (const name of namedIn(text, res, seatOf)) {
        const problem: ClaimProblem | null = name === dep.player
          ? 'self'
          : out(name)
            ? 'out'
            : game.preset === 'm107' && isIdiot(game, name, dep.at)
              ? 'idiot'
              : by === 'sheriff' && rule === 'random' ? 'random-rule' : null;
        claims.push({ name, by, author: p.author, pid: p.pid, tid: p.tid, floor: p.floor, at: p.at, url: p.url, problem });
      }
    }
  }
  claims.sort((a, b) => a.at - b.at || a.pid - b.pid);
  // A claim naming the outgoing sheriff is the director restating who held the badge, not a successor.
  const valid = [...new Set(claims.filter((c) => c.problem === null).map((c) => c.name))];
  const missing = unread.length ? 'unread' : valid.length === 1 ? null : valid.length ? 'conflict' : 'none';
  unreadable.sort((a, b) => a.at - b.at || a.pid - b.pid);
  return { from: dep.player, at: dep.at, how: dep.how, rule, cite: cite(key), successor: missing ? null : valid[0], claims, missing, unread, unreadable };
}
