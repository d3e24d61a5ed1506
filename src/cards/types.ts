/**
 * The card ledger's shape (rules-spec §8): every card the tool proposed, with its evidence, and what
 * the director decided. Kept as `<game>.cards.json` beside the game file.
 */
import type { FlagKind } from '../violations/flag.js';

/** reminder: 提醒, no card (120b l.497 提醒一次或两次…后仍然明知故犯，可判黄牌); it counts toward no standing. */
export type CardColor = 'reminder' | 'blue' | 'yellow' | 'red';
export type CardStatus = 'proposed' | 'confirmed' | 'dismissed';

/** A card the tool proposes for a day (before it meets the ledger). */
export interface CardProposal {
  day: number;
  player: string;
  color: CardColor;
  kind: FlagKind;
  /** The flag kinds the card stands for (so a script tells a 潜水 yellow from a 诈尸 one). */
  kinds: FlagKind[];
  /** Banned-wording category, when the card is for wording. */
  category?: string;
  /** The public sentence: the offence and the fact (what the notice shows once the card is confirmed). */
  reason: string;
  /** For the director only: why this colour was proposed (a repeat, no blue cards…); never posted. */
  directorNote?: string;
  /** pids of the posts that are the evidence (empty for counts with no post, e.g. no ballot). */
  evidence: number[];
}

/** A ledger entry: a proposal with an id and the director's decision. */
export interface LedgerCard extends CardProposal {
  /** Short id for `bansha cards confirm|dismiss ID`: C1, C2… */
  id: string;
  status: CardStatus;
  /** ISO times. */
  proposedAt: string;
  decidedAt?: string;
  /** The director's note (why dismissed, reminder given…). */
  note?: string;
}

export interface Ledger {
  version: 1;
  /** The game file the ledger belongs to (for messages). */
  game: string;
  cards: LedgerCard[];
}

/** A player's confirmed cards with the ruleset's upgrades applied (3 blue → yellow, 3 yellow → red). */
export interface Standing {
  player: string;
  blue: number;
  yellow: number;
  red: number;
  /** Confirmed cards as given, before upgrades. */
  given: { blue: number; yellow: number; red: number };
  /** 罚下: a red card (given or by upgrade) means out, no last words (§8). */
  sentOff: boolean;
  /** The upgrades that happened, as values (standing.ts upgradesText says them: "3 张蓝牌升级为 1 张黄牌"). */
  upgrades: Array<{ from: 'blue' | 'yellow'; cards: number; into: number }>;
}
