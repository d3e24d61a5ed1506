/**
 * Reads a game file (YAML) into a validated Game. Every error names the file, the line and the field,
 * and unknown player names come back with the nearest known name as a hint. Times in the file are
 * forum-local ("2026-11-22 21:00") in the game's timezone, whatever the machine's own zone is.
 */
import path from 'node:path';
import { DateTime } from 'luxon';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { z } from 'zod';
import { UserError } from '../errors.js';
import { t } from '../i18n/index.js';
import { yamlProblem, zodProblem } from '../i18n/parser-problems.js';
import { useZodLanguage } from '../i18n/zod-language.js';
import { loadRuleset } from './ruleset.js';
import { readGameSource } from './game-source.js';
import { FORUM_TIME, formatForumTime as fmt, parseForumTime } from './forum-time.js';
import type { Game, GameDay, GameEvent, PresetName, Seat, ThreadRef } from './types.js';
import { checkDays, checkThreads, fieldName, NameIndex, type LineOf } from './game-checks.js';
import { nearestName } from '../text/nearest.js';
import { activeRulings } from './rulings/active.js';
import { readRulings, rulingsPath } from './rulings/file.js';

// The message is read when the schema fails, so it follows the language of that moment.
const timeString = z.string().regex(FORUM_TIME, { error: () => t('game.timeFormat') });
const threadRef = z.union([z.number().int().positive(), z.string().min(1)]);
const uid = z.number().int().positive();

const gameFileSchema = z
  .object({
    forum: z.string().url(),
    timezone: z.string().default('Asia/Shanghai'),
    // `ruleset: 062` unquoted is the number 62 in YAML: read it as the preset it names.
    ruleset: z.preprocess((v) => (v === 62 ? '062' : v), z.enum(['m107', '062', 'wuhui', '120b'])),
    rules: z.record(z.string(), z.unknown()).optional(),
    directors: z.array(z.string().min(1)).default([]),
    // A seat: a forum name, or {name, uid, aliases} (aliases: other names ballots may use for it).
    players: z
      .array(
        z.union([
          z.string().min(1),
          z.object({ name: z.string().min(1), uid: uid.optional(), aliases: z.array(z.string().min(1)).optional() }).strict(),
        ]),
      )
      .min(1),
    process: threadRef.optional(),
    days: z
      .array(
        z
          .object({
            day: z.number().int().positive(),
            discussion: threadRef.optional(),
            vote: z.union([threadRef, z.array(threadRef).min(1)]).optional(),
            rules: threadRef.optional(),
            auction: threadRef.optional(),
            opens: timeString,
            closes: timeString,
            sheriff: z.string().optional(),
            accelerated: z.boolean().optional(),
          })
          .strict(),
      )
      .min(1),
    events: z
      .array(
        z
          .object({
            player: z.string(),
            out: timeString.optional(),
            how: z.enum(['night', 'vote', 'card', 'other']).optional(),
            idiot: timeString.optional(),
            // A substitute (替补) takes the seat over at `at`: {player, substitute: NEWNAME, uid?, at}.
            substitute: z.string().min(1).optional(),
            uid: uid.optional(),
            at: timeString.optional(),
          })
          .strict(),
      )
      .default([]),
    store: z.string().optional(),
    session: z.string().optional(),
    browser: z.string().optional(),
    // The forum's own template: selector files tried before the bundled ones (README: adapting selectors/).
    selectors: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    holdings: z.record(z.string(), z.number()).optional(),
  })
  .strict();

type GameFile = z.infer<typeof gameFileSchema>;

export interface LoadGameOptions {
  /** Store path override (--store); default: <game file name>.store.json beside the game file. */
  store?: string;
}

/**
 * Reads and validates a game file; throws a UserError (exit 2) that says what and where. (The CLI's
 * closing commands read it through game-cache.ts: the same Game, kept checked between commands.)
 */
export function loadGame(file: string, opts: LoadGameOptions = {}): Game {
  return gameFromSource(readGameSource(file), file, opts);
}

/** The game of the file `file` whose text is `source`, with the director's rulings beside it. */
export function gameFromSource(source: string, file: string, opts: LoadGameOptions = {}): Game {
  const game = parseGame(source, file, opts);
  // The director's rulings beside the game apply to every count made from it.
  game.rulings = activeRulings(readRulings(rulingsPath(file)));
  return game;
}

/** Parses game-file text (exported for tests and `bansha init`). */
export function parseGame(source: string, file: string, opts: LoadGameOptions = {}): Game {
  const { raw, doc, lineCounter } = readGameFile(source, file);
  const at: LineOf = (p) => where(file, doc, lineCounter, p);
  const forum = raw.forum.endsWith('/') ? raw.forum : `${raw.forum}/`;
  if (!DateTime.now().setZone(raw.timezone).isValid) throw new UserError(t('game.badZone', at(['timezone']), raw.timezone));
  const time = (s: string, p: Array<string | number>): number => {
    const ms = parseForumTime(s, raw.timezone);
    if (ms === null) throw new UserError(t('game.badTime', at(p), fieldName(p), s));
    return ms;
  };
  const ref = (v: number | string, p: Array<string | number>): ThreadRef => threadRefOf(v, forum, `${at(p)}: ${fieldName(p)}`);

  const roster = readSeats(raw, at);
  const days = readDays(raw, { at, time, ref }, roster);
  checkDays(days, at);
  checkThreads(days, raw.process === undefined ? undefined : ref(raw.process, ['process']), at);
  const { events, substitutes } = readEvents(raw, { at, time }, roster, days);
  const rules = loadRuleset(raw.ruleset as PresetName, raw.rules ?? {}, (p, msg) => `${where(file, doc, lineCounter, ["rules", ...p])}: rules.${p.join('.')}: ${msg}`);
  checkSubstituteLimit(rules.maxSubstitutesPerSeat, substitutes, roster.players, at);

  const { seats, players } = roster;
  const dir = path.dirname(path.resolve(file));
  const base = path.basename(file).replace(/\.ya?ml$/i, '');
  const game: Game = {
    forum,
    timezone: raw.timezone,
    preset: raw.ruleset as PresetName,
    rules,
    directors: raw.directors,
    players,
    seats,
    days: days.sort((a, b) => a.day - b.day),
    events,
    storePath: path.resolve(opts.store ?? (raw.store ? path.resolve(dir, raw.store) : path.join(dir, `${base}.store.json`))),
    sessionPath: raw.session ? path.resolve(dir, raw.session) : path.join(dir, `${base}.session.json`),
    file,
  };
  if (raw.process !== undefined) game.process = ref(raw.process, ['process']);
  if (raw.browser !== undefined) game.browser = raw.browser;
  if (raw.selectors !== undefined) game.selectorFiles = [raw.selectors].flat().map((f) => path.resolve(dir, f));
  if (raw.holdings !== undefined) {
    game.holdings = Object.fromEntries(Object.entries(raw.holdings).map(([name, g]) => [players[roster.seatOf(name, ['holdings', name])], g]));
  }
  return game;
}

/** The file as YAML, then as the schema has it: a UserError naming the line of the first problem. */
function readGameFile(source: string, file: string): { raw: GameFile; doc: Document; lineCounter: LineCounter } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, prettyErrors: true });
  if (doc.errors.length > 0) {
    throw new UserError(t('game.notYaml', file, yamlProblem(doc.errors[0], source)));
  }
  useZodLanguage();
  const js: unknown = doc.toJS();
  const parsed = gameFileSchema.safeParse(js);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(`${where(file, doc, lineCounter, issue.path)}: ${zodProblem(parsed.error, js)}`);
  }
  return { raw: parsed.data, doc, lineCounter };
}

/** The seats, every name of which (seat, alias, substitute) is indexed once: `seatOf` the seat a name in the file means. */
interface Roster {
  seats: Seat[];
  players: string[];
  names: NameIndex;
  /** The seat a name in the file means (any of its names), or an error with the nearest name. */
  seatOf(name: string, p: Array<string | number>): number;
}

/**
 * Seats first: every name (seat, alias, substitute) is checked once against one index, so loading
 * stays linear in players (issue 18) and a clash names both lines.
 */
function readSeats(raw: GameFile, at: LineOf): Roster {
  const names = new NameIndex(at);
  const seats: Seat[] = raw.players.map((entry, i) => {
    const e = typeof entry === 'string' ? { name: entry } : entry;
    const p = typeof entry === 'string' ? ['players', i] : ['players', i, 'name'];
    names.add(e.name, i, p);
    const seat: Seat = { name: e.name, aliases: [], accounts: [{ name: e.name, from: null, until: null, ...(e.uid !== undefined ? { uid: e.uid } : {}) }] };
    (e.aliases ?? []).forEach((a, j) => {
      names.add(a, i, ['players', i, 'aliases', j]);
      seat.aliases.push(a);
    });
    if (e.uid !== undefined) names.addUid(e.uid, e.name, p);
    return seat;
  });
  const players = seats.map((x) => x.name);
  const seatOf = (name: string, p: Array<string | number>): number => {
    const i = names.seatOf(name);
    if (i !== undefined) return i;
    const hint = nearestName(name, players);
    throw new UserError(t('game.notPlayer', at(p), fieldName(p), name, hint ?? null));
  };
  return { seats, players, names, seatOf };
}

/** How a step reads the file's values: where a path is, a forum time, a thread reference. */
interface FileValues {
  at: LineOf;
  time(s: string, p: Array<string | number>): number;
  ref(v: number | string, p: Array<string | number>): ThreadRef;
}

/** The days as the file gives them (in its order), each checked on its own and no day twice. */
function readDays(raw: GameFile, { at, time, ref }: FileValues, roster: Roster): GameDay[] {
  const days: GameDay[] = raw.days.map((d, i) => {
    const day: GameDay = {
      day: d.day,
      opens: time(d.opens, ['days', i, 'opens']),
      closes: time(d.closes, ['days', i, 'closes']),
      votes: [],
    };
    for (const key of ['discussion', 'rules', 'auction'] as const) {
      const v = d[key];
      if (v !== undefined) day[key] = ref(v, ['days', i, key]);
    }
    if (d.vote !== undefined) {
      day.votes = Array.isArray(d.vote) ? d.vote.map((v, j) => ref(v, ['days', i, 'vote', j])) : [ref(d.vote, ['days', i, 'vote'])];
      day.vote = day.votes[0];
    }
    if (d.sheriff !== undefined) day.sheriff = roster.players[roster.seatOf(d.sheriff, ['days', i, 'sheriff'])];
    if (d.accelerated !== undefined) day.accelerated = d.accelerated;
    if (day.closes <= day.opens) throw new UserError(t('game.closesBeforeOpens', at(['days', i, 'closes']), i));
    return day;
  });
  const seenDays = new Set<number>();
  days.forEach((d, i) => {
    if (seenDays.has(d.day)) throw new UserError(t('game.dayTwice', at(['days', i, 'day']), i, d.day));
    seenDays.add(d.day);
  });
  return days;
}

/** A substitute taking a seat at a time (events[i]). */
interface Substitute {
  seat: number;
  name: string;
  uid?: number;
  at: number;
  i: number;
}

/**
 * The events: exits and 装傻 as game events, substitutes as the seats' later accounts (each seat's
 * accounts in time order: a substitute holds the seat from its `at` until the next one).
 */
function readEvents(raw: GameFile, { at, time }: Pick<FileValues, 'at' | 'time'>, roster: Roster, days: readonly GameDay[]): { events: GameEvent[]; substitutes: Substitute[] } {
  const { seats, players, names, seatOf } = roster;
  const gameStart = Math.min(...days.map((d) => d.opens));
  const gameEnd = Math.max(...days.map((d) => d.closes));
  const events: GameEvent[] = [];
  const exits = new Map<number, number>(); // seat → the event index of its exit
  const substitutes: Substitute[] = [];
  raw.events.forEach((e, i) => {
    const seat = seatOf(e.player, ['events', i, 'player']);
    const player = players[seat];
    if (e.substitute !== undefined) {
      if (e.out !== undefined || e.idiot !== undefined || e.how !== undefined) {
        throw new UserError(t('game.substituteOnly', at(['events', i]), i));
      }
      if (e.at === undefined) throw new UserError(t('game.substituteNoAt', at(['events', i]), i));
      const when = time(e.at, ['events', i, 'at']);
      if (when <= gameStart || when >= gameEnd) {
        throw new UserError(t('game.substituteOutside', at(['events', i, 'at']), i, e.at, fmt(gameStart, raw.timezone), fmt(gameEnd, raw.timezone)));
      }
      names.add(e.substitute, seat, ['events', i, 'substitute']);
      if (e.uid !== undefined) names.addUid(e.uid, e.substitute, ['events', i, 'uid']);
      substitutes.push({ seat, name: e.substitute, at: when, i, ...(e.uid !== undefined ? { uid: e.uid } : {}) });
      return;
    }
    if (e.uid !== undefined || e.at !== undefined) {
      throw new UserError(t('game.uidAtSubstituteOnly', at(['events', i]), i));
    }
    if (e.out === undefined && e.idiot === undefined) {
      throw new UserError(t('game.needsOutOrIdiot', at(['events', i]), i));
    }
    const ev: GameEvent = { player };
    if (e.out !== undefined) {
      const first = exits.get(seat);
      if (first !== undefined) {
        throw new UserError(t('game.outTwice', at(['events', i, 'out']), i, player, at(['events', first, 'out']), first));
      }
      exits.set(seat, i);
      ev.out = time(e.out, ['events', i, 'out']);
    }
    if (e.how !== undefined) ev.how = e.how;
    if (e.idiot !== undefined) ev.idiot = time(e.idiot, ['events', i, 'idiot']);
    events.push(ev);
  });
  // Each seat's accounts in time order: a substitute holds the seat from its `at` until the next one.
  substitutes.sort((a, b) => a.at - b.at);
  for (const sub of substitutes) {
    const seat = seats[sub.seat];
    const exit = exits.get(sub.seat);
    const out = exit === undefined ? undefined : events.find((e) => e.player === seat.name && e.out !== undefined)?.out;
    if (out !== undefined && sub.at >= out) {
      throw new UserError(t('game.substituteAfterOut', at(['events', sub.i, 'at']), sub.i, seat.name, fmt(out, raw.timezone), at(['events', exit!, 'out'])));
    }
    const last = seat.accounts[seat.accounts.length - 1];
    if (last.from === sub.at) throw new UserError(t('game.twoSubstitutes', at(['events', sub.i, 'at']), sub.i, seat.name, last.name, sub.name));
    last.until = sub.at;
    seat.accounts.push({ name: sub.name, from: sub.at, until: null, ...(sub.uid !== undefined ? { uid: sub.uid } : {}) });
  }
  return { events, substitutes };
}

/** 062 l.268 每名角色仅限更换一次替补: the first substitute over the limit, in time order, is named. */
function checkSubstituteLimit(max: number | null, substitutes: readonly Substitute[], players: readonly string[], at: LineOf): void {
  if (max === null) return;
  const taken = new Map<number, number>();
  for (const sub of substitutes) {
    taken.set(sub.seat, (taken.get(sub.seat) ?? 0) + 1);
    if (taken.get(sub.seat)! > max) throw new UserError(t('game.tooManySubstitutes', at(['events', sub.i, 'substitute']), sub.i, players[sub.seat], max));
  }
}

/** A tid from a number or a thread URL on the game's forum (query form or thread-T-P-1.html). */
export function threadRefOf(v: number | string, forum: string, label: string): ThreadRef {
  if (typeof v === 'number') return { tid: v };
  if (/^\d+$/.test(v)) return { tid: Number(v) };
  let url: URL;
  try {
    url = new URL(v, forum);
  } catch {
    throw new UserError(t('game.notThreadRef', label, String(v)));
  }
  if (url.host !== new URL(forum).host) {
    throw new UserError(t('game.otherForum', label, url.host, new URL(forum).host));
  }
  const tid = url.searchParams.get('tid') ?? /thread-(\d+)-\d+-\d+\.html/.exec(url.pathname)?.[1];
  if (!tid || !/^\d+$/.test(tid)) throw new UserError(t('game.noTid', label, String(v)));
  return { tid: Number(tid), url: url.toString() };
}

function where(file: string, doc: Document, lc: LineCounter, p: PropertyKey[]): string {
  // Walk up the path until a node with a source range exists (a missing field points at its parent).
  for (let n = p.length; n >= 0; n--) {
    const node = doc.getIn(p.slice(0, n) as Array<string | number>, true) as { range?: [number, number, number] } | undefined;
    if (node && node.range) return `${file}:${lc.linePos(node.range[0]).line}`;
  }
  return file;
}

export type { GameFile };
