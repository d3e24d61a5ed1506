/**
 * The elevator floor (电梯楼, rules-spec §9): for day N, one link per player in the game's player
 * order to the only-this-author view of that day's discussion thread, as BBCode ready to paste into
 * floor 2. Players out when the day opens are struck through (`[s]name[/s] (出局)`) or left out, as the
 * ruleset's `elevator.outPlayers` says. A pure function of (store, game).
 */
import { UserError } from '../cli/errors.js';
import { findDay, isOut } from '../game/roster.js';
import type { Game } from '../game/types.js';
import type { StoreData } from '../store/types.js';
import { neutraliseBBCode } from './bbcode.js';
import { authorOnlyUrl, forumLinkStyle, type LinkStyle } from './links.js';

/** One player's line on the floor. */
export interface ElevatorEntry {
  /** 1-based seat in the game's player order (the elevator order). */
  seat: number;
  player: string;
  /** Out when the day opened. */
  out: boolean;
  /** The player's forum uid (null only for an out player, whose line carries no link). */
  uid: number | null;
  /** The only-author link (null for an out player). */
  url: string | null;
}

/** The whole floor: its entries and the BBCode to paste. */
export interface ElevatorFloor {
  day: number;
  /** The day's discussion thread. */
  tid: number;
  linkStyle: LinkStyle;
  outPlayers: 'mark' | 'omit';
  /** Every listed line, in elevator order (omitted players are absent). */
  entries: ElevatorEntry[];
  bbcode: string;
}

/**
 * Builds day `day`'s elevator floor. Throws a UserError when the day has no discussion thread, or
 * (exit 3) when a listed player's uid is not in the store yet: the uids come from crawled posts.
 */
export function elevatorFloor(store: StoreData, game: Game, day: number): ElevatorFloor {
  const gameDay = findDay(game, day);
  if (!gameDay.discussion) throw new UserError(`day ${day} has no discussion thread in ${game.file}: add "discussion: TID" to the day`);
  const tid = gameDay.discussion.tid;
  const mode = game.rules.elevator.outPlayers;
  const entries: ElevatorEntry[] = [];
  const unknown: string[] = [];
  game.players.forEach((player, i) => {
    const out = isOut(game, player, gameDay.opens);
    if (out && mode === 'omit') return;
    if (out) {
      entries.push({ seat: i + 1, player, out, uid: store.users[player] ?? null, url: null });
      return;
    }
    const uid = store.users[player];
    if (uid === undefined) {
      unknown.push(player);
      return;
    }
    entries.push({ seat: i + 1, player, out, uid, url: authorOnlyUrl(game.forum, tid, uid) });
  });
  if (unknown.length > 0) {
    throw new UserError(
      `no forum uid known yet for ${unknown.join(', ')}: the uids come from crawled posts — run ` +
        `\`bansha crawl --game ${game.file}\` (a player who never posted anywhere in the game's threads has no uid to learn)`,
      3,
    );
  }
  return { day, tid, linkStyle: forumLinkStyle(store), outPlayers: mode, entries, bbcode: renderElevatorBBCode(day, entries) };
}

/** The BBCode of the floor: a heading, then one line per entry. Names are neutralised (see bbcode.ts). */
export function renderElevatorBBCode(day: number, entries: readonly ElevatorEntry[]): string {
  const lines = [`[b]第${day}日电梯[/b]`];
  for (const e of entries) {
    const name = neutraliseBBCode(e.player);
    lines.push(e.url === null ? `${e.seat}. [s]${name}[/s] (出局)` : `${e.seat}. [url=${e.url}]${name}[/url]`);
  }
  return lines.join('\n') + '\n';
}
