/**
 * The card ledger file `<game>.cards.json` beside the game file: read, merged with a report's
 * proposals, decided by the director; a lowdb document (src/store/json-document.ts), written
 * atomically. The merge and the decisions are pure functions of the ledger; only
 * readLedger/writeLedger/updateLedger touch the disk.
 * A change (read, decide, write) runs under the ledger's lock (`<ledger>.lock`, src/store/lock.ts), so
 * two commands deciding at once cannot lose each other's decision; the file is owner-only.
 */
import { besideGame } from '../game/beside.js';
import { UserError } from '../errors.js';
import { takeFileLock } from '../store/lock.js';
import { JsonDocument, openDocument } from '../store/json-document.js';
import type { Game } from '../game/types.js';
import type { CardProposal, CardStatus, Ledger, LedgerCard } from './types.js';
import { t } from '../i18n/index.js';

/** Where a game's ledger lives: game.yaml → game.cards.json in the same folder. */
export function ledgerPath(gameFile: string): string {
  return besideGame(gameFile, 'cards.json');
}

/** An empty ledger for a game. */
export function emptyLedger(game: Pick<Game, 'file'>): Ledger {
  return { version: 1, game: game.file, cards: [] };
}

/** The ledger file as a lowdb document (validated on reading, written atomically and owner-only). */
function ledgerDocument(file: string): JsonDocument<Ledger> {
  return new JsonDocument(file, t('cards.ledgerLabel'), (data) => {
    const l = data as Ledger;
    if (!l || l.version !== 1 || !Array.isArray(l.cards)) throw new UserError(t('err.notLedger', file));
    return l;
  });
}

/** Reads the ledger (an empty one when the file does not exist yet). */
export function readLedger(game: Pick<Game, 'file'>, file = ledgerPath(game.file)): Ledger {
  return ledgerDocument(file).readNow() ?? emptyLedger(game);
}

/** Writes the ledger atomically: a crash leaves the old file or the new one, never half of one. */
export async function writeLedger(ledger: Ledger, file: string): Promise<void> {
  await ledgerDocument(file).write(ledger);
}

/**
 * Read the ledger, change it and write it back under the ledger's lock (nothing is written when
 * `change` returns the ledger it was given). Returns the ledger as written.
 */
export async function updateLedger(game: Pick<Game, 'file'>, file: string, change: (ledger: Ledger) => Ledger): Promise<Ledger> {
  const release = takeFileLock(`${file}.lock`, `the card ledger ${file}`);
  try {
    const db = await openDocument(ledgerDocument(file), emptyLedger(game));
    const before = db.data;
    db.data = change(before);
    if (db.data !== before) await db.write();
    return db.data;
  } finally {
    release();
  }
}

type Offence = Pick<CardProposal, 'player' | 'kind' | 'category'>;

/** One offence: the same player, flag kind and wording category (on any day). */
export function sameOffence(a: Offence, b: Offence): boolean {
  return a.player === b.player && a.kind === b.kind && (a.category ?? '') === (b.category ?? '');
}

/** The ledger's card for a proposal: the same offence on the same day (one card per day and offence). */
export function cardFor<C extends CardProposal>(cards: readonly C[], p: Offence & Pick<CardProposal, 'day'>): C | undefined {
  return cards.find((c) => c.day === p.day && sameOffence(c, p));
}

/**
 * Adds a day's proposals to the ledger. A proposal already there and still undecided is refreshed
 * (evidence, reason, colour); a decided one is left as the director decided it; new ones get the next
 * id. Returns the new ledger and the entry for each proposal, in the proposals' order.
 */
export function mergeProposals(ledger: Ledger, proposals: readonly CardProposal[], now: Date): { ledger: Ledger; entries: LedgerCard[] } {
  const cards = ledger.cards.map((c) => ({ ...c }));
  let next = cards.reduce((m, c) => Math.max(m, Number(c.id.replace(/^C/, '')) || 0), 0) + 1;
  const entries: LedgerCard[] = [];
  for (const p of proposals) {
    const existing = cardFor(cards, p);
    if (existing) {
      if (existing.status === 'proposed') Object.assign(existing, { color: p.color, kinds: p.kinds, reason: p.reason, evidence: p.evidence, directorNote: p.directorNote });
      entries.push(existing);
      continue;
    }
    const card: LedgerCard = { ...p, id: `C${next++}`, status: 'proposed', proposedAt: now.toISOString() };
    cards.push(card);
    entries.push(card);
  }
  return { ledger: { ...ledger, cards }, entries };
}

/** The ledger with one card confirmed or dismissed (an unknown id is a UserError listing the ids). */
export function decide(ledger: Ledger, id: string, status: Exclude<CardStatus, 'proposed'>, now: Date, note?: string): Ledger {
  const want = id.trim().toUpperCase().replace(/^(\d)/, 'C$1');
  const card = ledger.cards.find((c) => c.id.toUpperCase() === want);
  if (!card) {
    const known = ledger.cards.map((c) => c.id).join(', ') || t('err.noCardsYet');
    throw new UserError(t('err.noCard', id, known));
  }
  const cards = ledger.cards.map((c) => (c === card ? { ...c, status, decidedAt: now.toISOString(), ...(note ? { note } : {}) } : c));
  return { ...ledger, cards };
}

/**
 * Confirms or dismisses card `id` under the ledger's lock, what `bansha cards confirm|dismiss` and the
 * closing cockpit (src/cockpit) both run; returns the ledger as written and the card decided.
 */
export async function decideCard(game: Pick<Game, 'file'>, id: string, status: Exclude<CardStatus, 'proposed'>, note?: string): Promise<{ ledger: Ledger; card: LedgerCard }> {
  const ledger = await updateLedger(game, ledgerPath(game.file), (l) => decide(l, id, status, new Date(), note));
  const card = ledger.cards.find((k) => k.id.toUpperCase() === id.trim().toUpperCase().replace(/^(\d)/, 'C$1'))!;
  return { ledger, card };
}
