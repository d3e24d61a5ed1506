/**
 * The day report's proposed cards recorded in the card ledger (src/cards/ledger.ts), each given its
 * ledger id: a module of its own, so that a report read from its kept result (src/derived/kept-closing.ts)
 * records them without loading the analyses.
 */
import { mergeProposals, updateLedger } from '../cards/ledger.js';
import type { CardProposal, LedgerCard } from '../cards/types.js';
import type { Game } from '../game/types.js';
import type { DayReport } from '../report/day-report.js';

/** Records the report's new proposals in the ledger file and gives each card its ledger id. */
export async function recordProposals(game: Game, report: DayReport, ledgerFile: string, now = new Date()): Promise<void> {
  const proposals: CardProposal[] = report.cards
    .filter((c) => c.status === 'proposed')
    .map((c) => ({
      day: report.day, player: c.player, color: c.color, kind: c.kind, kinds: c.kinds, reason: c.reason, evidence: c.evidence,
      ...(c.category ? { category: c.category } : {}), ...(c.directorNote ? { directorNote: c.directorNote } : {}),
    }));
  let entries: LedgerCard[] = [];
  await updateLedger(game, ledgerFile, (before) => {
    if (!proposals.length) return before;
    const merged = mergeProposals(before, proposals, now);
    entries = merged.entries;
    // A rerun that proposes what the ledger holds leaves the file as it is (no write each minute).
    return JSON.stringify(merged.ledger) === JSON.stringify(before) ? before : merged.ledger;
  });
  for (const card of report.cards) {
    const e = entries.find((x) => x.player === card.player && x.kind === card.kind && (x.category ?? '') === (card.category ?? ''));
    if (e) card.id = e.id;
  }
}
