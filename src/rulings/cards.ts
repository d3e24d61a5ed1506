/**
 * A ruling on a proposed card is the card ledger's decision (src/cards/ledger.ts: one place decides
 * what a card is): accept confirms it, reject dismisses it, and undoing the ruling puts the card back
 * to proposed. Pure: ledger in, ledger out.
 */
import { decide } from '../cards/ledger.js';
import type { Ledger } from '../cards/types.js';
import type { Ruling } from '../game/rulings/types.js';

/** The ledger with the card ruling applied (a UserError for an unknown card id). */
export function applyCardRuling(ledger: Ledger, r: Ruling, now: Date): Ledger {
  return decide(ledger, r.card ?? '', r.verb === 'accept' ? 'confirmed' : 'dismissed', now, `导演裁定 #${r.id}：${r.why}`);
}

/** The ledger with the card of an undone ruling back to proposed. */
export function reopenCard(ledger: Ledger, card: string): Ledger {
  const want = card.toUpperCase();
  return {
    ...ledger,
    cards: ledger.cards.map((c) => {
      if (c.id.toUpperCase() !== want) return c;
      const { decidedAt: _decided, note: _note, ...rest } = c;
      return { ...rest, status: 'proposed' as const };
    }),
  };
}

/** The ledger card a ruling names, or undefined. */
export function ledgerCard(ledger: Ledger, card: string) {
  const want = card.trim().toUpperCase().replace(/^(\d)/, 'C$1');
  return ledger.cards.find((c) => c.id.toUpperCase() === want);
}
