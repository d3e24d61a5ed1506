/**
 * `bansha close --day N --confirm`: the closed day's results written into the game file's `events`, so
 * the next days count without the director re-typing them. The file is edited through the `yaml`
 * package's Document API: comments, order and layout stay as the director wrote them; each new event
 * is one flow-style line like the file's own. Written atomically. An event already recorded is left
 * alone; one that disagrees is never overwritten (it is shown: carry-forward.ts).
 */
import fs from 'node:fs';
import { DateTime } from 'luxon';
import { isSeq, parseDocument, YAMLMap, YAMLSeq } from 'yaml';
import { UserError } from '../cli/errors.js';
import type { Game } from '../game/types.js';
import type { DerivedExit } from '../votes/carry-forward.js';

/** The game-file text with `exits` appended to `events` (those the file already has, by player, skipped). */
export function withExitEvents(source: string, game: Pick<Game, 'timezone' | 'events'>, exits: readonly DerivedExit[]): { text: string; added: DerivedExit[] } {
  const added = exits.filter((x) => !game.events.some((e) => e.player === x.player && e.out !== undefined));
  if (!added.length) return { text: source, added };
  const doc = parseDocument(source);
  let events = doc.get('events', true);
  if (events === undefined || events === null) {
    events = new YAMLSeq();
    doc.set('events', events);
  }
  if (!isSeq(events)) throw new UserError('the game file\'s events: is not a list: cannot add the day\'s results');
  for (const x of added) {
    const node = doc.createNode({ player: x.player, out: DateTime.fromMillis(x.out, { zone: game.timezone }).toFormat('yyyy-MM-dd HH:mm'), how: x.how }) as YAMLMap;
    node.flow = true;
    (events as YAMLSeq).items.push(node);
  }
  // The yaml package quotes what needs it; a time is a plain scalar there: quote it as the file's own are.
  for (const item of (events as YAMLSeq).items.slice(-added.length)) {
    const out = (item as YAMLMap).get('out', true) as { type?: string } | undefined;
    if (out) out.type = 'QUOTE_DOUBLE';
  }
  return { text: doc.toString(), added };
}

/** Writes the game file atomically (a crash leaves the old file or the new one). */
export function writeGameFile(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const mode = fs.statSync(file).mode & 0o777;
  fs.writeFileSync(tmp, text, { mode });
  fs.renameSync(tmp, file);
}
