/**
 * `bansha close --day N --confirm`: the closed day's results written into the game file's `events`, so
 * the next days count without the director re-typing them. The file is edited through the `yaml`
 * package's Document API: comments, order and layout stay as the director wrote them; each new event
 * is one flow-style line like the file's own. Written atomically. An event already recorded is left
 * alone; one that disagrees is never overwritten (it is shown: carry-forward.ts).
 */
import fs from 'node:fs';
import { formatForumTime } from '../game/forum-time.js';
import { isMap, isSeq, parseDocument, YAMLMap, YAMLSeq } from 'yaml';
import { UserError } from '../errors.js';
import { parseGame } from '../game/game-file.js';
import { replaceFile } from '../replace-file.js';
import { t } from '../i18n/index.js';
import type { Game } from '../game/types.js';
import type { DerivedExit } from '../votes/carry-forward.js';

/** A player's name as the game file writes it: plain as the file's own are; anything YAML could misread double-quoted (JSON is valid YAML). */
function yamlName(name: string): string {
  return /^[\p{L}\p{N}_][\p{L}\p{N}_.-]*$/u.test(name) ? name : JSON.stringify(name);
}

/**
 * One exit per player (a player goes out once: game-file.ts refuses a second `out`): a player both voted
 * out and sent off (罚下) at the same close is written once, as sent off — the red card's consequence (no
 * last words, rules-spec §8) is the one the next days need; the earliest exit wins otherwise.
 */
export function onePerPlayer(exits: readonly DerivedExit[]): DerivedExit[] {
  const by = new Map<string, DerivedExit>();
  for (const x of exits) {
    const seen = by.get(x.player);
    if (!seen || x.out < seen.out || (x.out === seen.out && x.how === 'card' && seen.how !== 'card')) by.set(x.player, x);
  }
  return exits.filter((x) => by.get(x.player) === x);
}

/**
 * The game file as `--confirm` would write it, loaded before it replaces the file: a refusal names the
 * problem in the text to be written (its lines are that text's, not the file's on disk) and says that
 * nothing was written.
 */
export function loadEdited(text: string, file: string, opts: { store?: string }): Game {
  try {
    return parseGame(text, file, opts);
  } catch (e) {
    if (e instanceof UserError) throw new UserError(t('close.editedWontLoad', file, e.message), e.exitCode);
    throw e;
  }
}

/** One event as the game file writes it: `{player: 月饼, out: "2026-11-22 21:00", how: vote}`. */
function eventLine(x: DerivedExit, zone: string): string {
  return `{player: ${yamlName(x.player)}, out: "${formatForumTime(x.out, zone)}", how: ${x.how}}`;
}

/**
 * The game-file text with `exits` appended to `events` (those the file already has, by player,
 * skipped). The new lines are spliced into the text after the last event (with its indentation), so
 * every byte the director wrote stays; the `yaml` Document only says where. A file whose events are
 * not a block list gets them through the Document API instead (still keeping comments).
 */
export function withExitEvents(source: string, game: Pick<Game, 'timezone' | 'events'>, exits: readonly DerivedExit[]): { text: string; added: DerivedExit[] } {
  const added = onePerPlayer(exits).filter((x) => !game.events.some((e) => e.player === x.player && e.out !== undefined));
  if (!added.length) return { text: source, added };
  const doc = parseDocument(source);
  const events = doc.get('events', true);
  const lines = added.map((x) => eventLine(x, game.timezone));
  if (events === undefined || events === null) {
    return { text: `${source}${source.endsWith('\n') || !source ? '' : '\n'}events:\n${lines.map((l) => `  - ${l}\n`).join('')}`, added };
  }
  if (!isSeq(events)) throw new UserError(t('close.eventsNotList'));
  const seq = events as YAMLSeq;
  const last = seq.items.at(-1) as { range?: [number, number, number] } | undefined;
  if (!seq.flow && last?.range && seq.range) {
    const first = (seq.items[0] as { range: [number, number, number] }).range[0];
    const lineStart = source.lastIndexOf('\n', first) + 1;
    const indent = /^\s*/.exec(source.slice(lineStart, first))![0];
    const eol = source.indexOf('\n', last.range[1]);
    const at = eol === -1 ? source.length : eol + 1;
    const text = `${source.slice(0, at)}${eol === -1 ? '\n' : ''}${lines.map((l) => `${indent}- ${l}\n`).join('')}${source.slice(at)}`;
    return { text, added };
  }
  for (const x of added) {
    const node = doc.createNode({ player: x.player, out: formatForumTime(x.out, game.timezone), how: x.how }) as YAMLMap;
    node.flow = true;
    seq.items.push(node);
  }
  return { text: doc.toString({ flowCollectionPadding: false, lineWidth: 0 }), added };
}

/**
 * The game-file text with `sheriff: NAME` added to day `day`'s entry (the badge passed on at the close
 * before it), spliced into the text like the events: into a flow map before its `}`, or as a line of a
 * block map with its keys' indentation. Null when the file has no such day, or it names a sheriff already.
 */
export function withDaySheriff(source: string, day: number, name: string): string | null {
  const doc = parseDocument(source);
  const days = doc.get('days', true);
  if (!isSeq(days)) return null;
  const entry = (days as YAMLSeq).items.find((x): x is YAMLMap => isMap(x) && Number(x.get('day')) === day);
  if (!entry?.range || entry.has('sheriff')) return null;
  const value = yamlName(name);
  if (entry.flow) {
    let at = source.lastIndexOf('}', entry.range[1] - 1);
    while (at > 0 && /\s/.test(source[at - 1])) at--;
    return `${source.slice(0, at)}, sheriff: ${value}${source.slice(at)}`;
  }
  const first = (entry.items[0]?.key as { range?: [number, number, number] } | undefined)?.range?.[0];
  if (first === undefined) return null;
  const indent = ' '.repeat(first - (source.lastIndexOf('\n', first) + 1));
  const last = source.slice(0, entry.range[1]).replace(/\s*$/, '').length;
  const eol = source.indexOf('\n', last);
  const at = eol === -1 ? source.length : eol + 1;
  return `${source.slice(0, at)}${eol === -1 ? '\n' : ''}${indent}sheriff: ${value}\n${source.slice(at)}`;
}

/** Writes the game file atomically (a crash leaves the old file or the new one). */
export function writeGameFile(file: string, text: string): void {
  replaceFile(file, (fd) => fs.writeFileSync(fd, text), fs.statSync(file).mode & 0o777);
}
