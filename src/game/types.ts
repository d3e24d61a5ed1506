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
  vote?: ThreadRef;
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

import type { Ruleset } from './ruleset-schema.js';

export interface Game {
  /** Forum root, always ending in "/". */
  forum: string;
  timezone: string;
  preset: PresetName;
  rules: Ruleset;
  directors: string[];
  /** Forum names in elevator order. */
  players: string[];
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
  /** Browser executable for login/post; default /usr/bin/chromium or BANSHA_CHROMIUM. */
  browser?: string;
}

/** Every *(setting)* of rules-spec.md as a typed field: the schema and its doc comments live in ruleset-schema.ts. */
export type { Ruleset } from './ruleset-schema.js';
