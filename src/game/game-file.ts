/**
 * Reads a game file (YAML) into a validated Game. Every error names the file, the line and the field,
 * and unknown player names come back with the nearest known name as a hint. Times in the file are
 * forum-local ("2026-11-22 21:00") in the game's timezone, whatever the machine's own zone is.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DateTime } from 'luxon';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { z } from 'zod';
import { UserError } from '../cli/errors.js';
import { loadRuleset } from './ruleset.js';
import { FORUM_TIME, parseForumTime } from './forum-time.js';
import type { Game, GameDay, GameEvent, PresetName, ThreadRef } from './types.js';
import { nearestName } from '../text/nearest.js';

const timeString = z.string().regex(FORUM_TIME, 'a forum-local time like "2026-11-22 21:00"');
const threadRef = z.union([z.number().int().positive(), z.string().min(1)]);

const gameFileSchema = z
  .object({
    forum: z.string().url(),
    timezone: z.string().default('Asia/Shanghai'),
    // `ruleset: 062` unquoted is the number 62 in YAML: read it as the preset it names.
    ruleset: z.preprocess((v) => (v === 62 ? '062' : v), z.enum(['m107', '062', 'wuhui', '120b'])),
    rules: z.record(z.string(), z.unknown()).optional(),
    directors: z.array(z.string().min(1)).default([]),
    players: z.array(z.string().min(1)).min(1),
    process: threadRef.optional(),
    days: z
      .array(
        z
          .object({
            day: z.number().int().positive(),
            discussion: threadRef.optional(),
            vote: threadRef.optional(),
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
          })
          .strict(),
      )
      .default([]),
    store: z.string().optional(),
    session: z.string().optional(),
    browser: z.string().optional(),
    holdings: z.record(z.string(), z.number()).optional(),
  })
  .strict();

type GameFile = z.infer<typeof gameFileSchema>;

export interface LoadGameOptions {
  /** Store path override (--store); default: <game file name>.store.json beside the game file. */
  store?: string;
}

/** Reads and validates a game file; throws a UserError (exit 2) that says what and where. */
export function loadGame(file: string, opts: LoadGameOptions = {}): Game {
  let source: string;
  try {
    source = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new UserError(`cannot read the game file ${file}: ${(err as Error).message}`);
  }
  return parseGame(source, file, opts);
}

/** Parses game-file text (exported for tests and `bansha init`). */
export function parseGame(source: string, file: string, opts: LoadGameOptions = {}): Game {
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, prettyErrors: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const line = e.linePos?.[0]?.line;
    throw new UserError(`${file}${line ? `:${line}` : ''}: not valid YAML: ${e.message.split('\n')[0]}`);
  }
  const parsed = gameFileSchema.safeParse(doc.toJS());
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(`${where(file, doc, lineCounter, issue.path)}: ${fieldName(issue.path)}: ${issue.message}`);
  }
  const raw = parsed.data;
  const at = (p: Array<string | number>) => where(file, doc, lineCounter, p);
  const forum = raw.forum.endsWith('/') ? raw.forum : `${raw.forum}/`;
  if (!DateTime.now().setZone(raw.timezone).isValid) throw new UserError(`${at(['timezone'])}: timezone: unknown zone "${raw.timezone}"`);

  const time = (s: string, p: Array<string | number>): number => {
    const ms = parseForumTime(s, raw.timezone);
    if (ms === null) throw new UserError(`${at(p)}: ${fieldName(p)}: "${s}" is not a valid time`);
    return ms;
  };
  const ref = (v: number | string, p: Array<string | number>): ThreadRef => threadRefOf(v, forum, `${at(p)}: ${fieldName(p)}`);

  const checkPlayer = (name: string, p: Array<string | number>) => {
    if (!raw.players.includes(name)) {
      const hint = nearestName(name, raw.players);
      throw new UserError(`${at(p)}: ${fieldName(p)}: "${name}" is not one of the players${hint ? ` (did you mean ${hint}?)` : ''}`);
    }
  };
  const dupes = raw.players.filter((p, i) => raw.players.indexOf(p) !== i);
  if (dupes.length) throw new UserError(`${at(['players'])}: players: listed twice: ${dupes.join(', ')}`);

  const days: GameDay[] = raw.days.map((d, i) => {
    const day: GameDay = {
      day: d.day,
      opens: time(d.opens, ['days', i, 'opens']),
      closes: time(d.closes, ['days', i, 'closes']),
    };
    for (const key of ['discussion', 'vote', 'rules', 'auction'] as const) {
      const v = d[key];
      if (v !== undefined) day[key] = ref(v, ['days', i, key]);
    }
    if (d.sheriff !== undefined) {
      checkPlayer(d.sheriff, ['days', i, 'sheriff']);
      day.sheriff = d.sheriff;
    }
    if (d.accelerated !== undefined) day.accelerated = d.accelerated;
    if (day.closes <= day.opens) throw new UserError(`${at(['days', i, 'closes'])}: days[${i}].closes: must be after opens`);
    return day;
  });
  const seenDays = new Set<number>();
  days.forEach((d, i) => {
    if (seenDays.has(d.day)) throw new UserError(`${at(['days', i, 'day'])}: days[${i}].day: day ${d.day} is listed twice`);
    seenDays.add(d.day);
  });

  const events: GameEvent[] = raw.events.map((e, i) => {
    checkPlayer(e.player, ['events', i, 'player']);
    if (e.out === undefined && e.idiot === undefined) {
      throw new UserError(`${at(['events', i])}: events[${i}]: needs "out" (exit time) or "idiot" (装傻 time)`);
    }
    const ev: GameEvent = { player: e.player };
    if (e.out !== undefined) ev.out = time(e.out, ['events', i, 'out']);
    if (e.how !== undefined) ev.how = e.how;
    if (e.idiot !== undefined) ev.idiot = time(e.idiot, ['events', i, 'idiot']);
    return ev;
  });

  const dir = path.dirname(path.resolve(file));
  const base = path.basename(file).replace(/\.ya?ml$/i, '');
  const rules = loadRuleset(raw.ruleset as PresetName, raw.rules ?? {}, (p, msg) => `${where(file, doc, lineCounter, ["rules", ...p])}: rules.${p.join('.')}: ${msg}`);

  const game: Game = {
    forum,
    timezone: raw.timezone,
    preset: raw.ruleset as PresetName,
    rules,
    directors: raw.directors,
    players: raw.players,
    days: days.sort((a, b) => a.day - b.day),
    events,
    storePath: path.resolve(opts.store ?? (raw.store ? path.resolve(dir, raw.store) : path.join(dir, `${base}.store.json`))),
    sessionPath: raw.session ? path.resolve(dir, raw.session) : path.join(dir, `${base}.session.json`),
    file,
  };
  if (raw.process !== undefined) game.process = ref(raw.process, ['process']);
  if (raw.browser !== undefined) game.browser = raw.browser;
  if (raw.holdings !== undefined) {
    Object.keys(raw.holdings).forEach((name) => checkPlayer(name, ['holdings', name]));
    game.holdings = raw.holdings;
  }
  return game;
}

/** A tid from a number or a thread URL on the game's forum (query form or thread-T-P-1.html). */
export function threadRefOf(v: number | string, forum: string, label: string): ThreadRef {
  if (typeof v === 'number') return { tid: v };
  if (/^\d+$/.test(v)) return { tid: Number(v) };
  let url: URL;
  try {
    url = new URL(v, forum);
  } catch {
    throw new UserError(`${label}: "${v}" is neither a thread id nor a URL`);
  }
  if (url.host !== new URL(forum).host) {
    throw new UserError(`${label}: ${url.host} is not the game's forum (${new URL(forum).host}); bansha only reads the configured forum`);
  }
  const tid = url.searchParams.get('tid') ?? /thread-(\d+)-\d+-\d+\.html/.exec(url.pathname)?.[1];
  if (!tid || !/^\d+$/.test(tid)) throw new UserError(`${label}: no thread id (tid) in "${v}"`);
  return { tid: Number(tid), url: url.toString() };
}

function fieldName(p: PropertyKey[]): string {
  return p.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i ? '.' : ''}${String(k)}`)).join('') || '(top level)';
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
