/**
 * The director's rulings (导演裁定): decisions that override what the rules would make of one ballot,
 * flag or card. Plain data, kept append-only in the rulings file beside the game (file.ts) and applied
 * by the analyses (the tally's ballot selection, the report's flags and cards), never by a renderer.
 */

/**
 * What a ruling is about: a ballot post, a flagged post, an auction post's bids, a process-thread post this
 * account cannot read that may be an acceleration request or withdrawal (reject: it is neither), a post this
 * account cannot read that may name a sheriff's successor (reject: it names no one; succession.ts) — by pid —
 * a proposed card (by ledger id), or a thread the forum says no longer exists (by tid: accept = the day's
 * count goes by the versions read before; src/crawl/freshness.ts).
 */
export type RulingSubject = 'ballot' | 'flag' | 'bid' | 'request' | 'successor' | 'card' | 'thread';

/** accept: the ballot counts / the flag stands / the bids count / the card is given; reject: the opposite. */
export type RulingVerb = 'accept' | 'reject';

export interface Ruling {
  id: number;
  verb: RulingVerb;
  subject: RulingSubject;
  /** The post (ballots and flags). */
  pid?: number;
  /** The ledger card id, e.g. "C3" (cards). */
  card?: string;
  /** The thread (a thread gone from the forum). */
  tid?: number;
  /** The game day the ballot, flag or card belongs to (a thread: the day whose count it is accepted for). */
  day: number;
  /** Why, in the director's words: shown in public as 导演裁定（why）. */
  why: string;
  /** Who ruled (a director's forum name, or the local user). */
  by: string;
  /** When (ISO 8601). */
  at: string;
}

/** Takes back an earlier ruling (the entry stays in the file: append-only). */
export interface RulingUndo {
  id: number;
  verb: 'undo';
  undoes: number;
  by: string;
  at: string;
}

export type RulingEntry = Ruling | RulingUndo;

export interface RulingsFile {
  version: 1;
  entries: RulingEntry[];
}
