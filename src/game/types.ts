/**
 * The game as the analyses see it: the validated game file (src/game/game-file.ts) with its ruleset
 * resolved from a preset plus overrides (src/game/ruleset.ts). Times are epoch milliseconds here;
 * the game file writes them as forum-local "YYYY-MM-DD HH:mm" in `timezone`.
 */

export type PresetName = 'm107' | '062' | 'wuhui' | '120b';

/** A thread named in the game file, by tid (a URL in the file is resolved to its tid). */
export interface ThreadRef {
  tid: number;
  /** The URL as written, when the file gave one. */
  url?: string;
}

export interface GameDay {
  day: number;
  discussion?: ThreadRef;
  /** The day's (first) vote thread: `votes[0]`. */
  vote?: ThreadRef;
  /** Every vote thread of the day (`vote: [T1, T2]`), counted as one thread; empty when the day has none. */
  votes: ThreadRef[];
  /** wuhui: the morning duel-rule vote thread (对战规则投票帖). */
  rules?: ThreadRef;
  /** wuhui: the auction thread (拍卖贴). */
  auction?: ThreadRef;
  /** Window [opens, closes) in epoch ms. */
  opens: number;
  closes: number;
  /** Sheriff named by the director for this day; else derived from the day-1 election. */
  sheriff?: string;
  /**
   * The director's declaration that the day was (or was not) accelerated (062 l.245: 导演将自动执行加速);
   * absent: counted from the process thread (rules-spec §5).
   */
  accelerated?: boolean;
}

export type ExitHow = 'night' | 'vote' | 'card' | 'other';

export interface GameEvent {
  player: string;
  /** When the player left the game (epoch ms). */
  out?: number;
  how?: ExitHow;
  /** m107 白痴 装傻: from this time the player stays but may neither vote nor be voted. */
  idiot?: number;
}

/**
 * One forum account that played a seat, and when: the seat's first account from the start, each
 * substitute (替补) from the moment it took over until the next one did.
 */
export interface SeatAccount {
  /** The account's forum name. */
  name: string;
  /** Its forum uid, when the game file gives it (or the store learned it: src/game/seat-uids.ts). */
  uid?: number;
  /** Took the seat at (epoch ms); null for the seat's first account. */
  from: number | null;
  /** Replaced by the next substitute at (epoch ms); null while it holds the seat. */
  until: number | null;
}

/**
 * A seat (a player of the game): the analyses name it by `name`, its first account's name as listed
 * in `players:`. Ballots, post counts, cards and the elevator follow the seat through substitutes.
 */
export interface Seat {
  name: string;
  /** Other names that mean this seat (a nickname, the new name of a renamed account). */
  aliases: string[];
  /** Its accounts in the order they held it (the first is `name`). */
  accounts: SeatAccount[];
}

import type { Ruleset } from './ruleset-schema.js';
import type { Ruling } from './rulings/types.js';

export interface Game {
  /** Forum root, always ending in "/". */
  forum: string;
  timezone: string;
  preset: PresetName;
  rules: Ruleset;
  directors: string[];
  /** Seat names (each seat's first forum name) in elevator order. */
  players: string[];
  /** The seats, in the same order as `players` (src/game/roster.ts answers who is which seat when). */
  seats: Seat[];
  process?: ThreadRef;
  days: GameDay[];
  events: GameEvent[];
  /** Where the store file lives (absolute path). */
  storePath: string;
  /** Where the login session lives (absolute path). */
  sessionPath: string;
  /** Path of the game file itself, for messages. */
  file: string;
  /** wuhui: G held per player, when the director supplies them. */
  holdings?: Record<string, number>;
  /** The forum template's own selector files (absolute paths), tried before the bundled ones. */
  selectorFiles?: string[];
  /** Browser executable for login/post; default /usr/bin/chromium or BANSHA_CHROMIUM. */
  browser?: string;
  /** The director's rulings in force (src/rulings, `<game>.rulings.json`): every count applies them. */
  rulings?: Ruling[];
}

/** Every *(setting)* of rules-spec.md as a typed field: the schema and its doc comments live in ruleset-schema.ts. */
export type { Ruleset } from './ruleset-schema.js';
