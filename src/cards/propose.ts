/**
 * Turns a day's flags into card proposals (rules-spec §8: the tool proposes with evidence, the
 * director confirms). One proposal per player, kind and wording category a day, carrying every
 * evidence pid, so three red-font posts on one day are one proposal, not three blue cards. Pure.
 */
import type { Game } from '../game/types.js';
import { FLAG_KIND_NAMES, type Flag, type FlagKind } from '../violations/flag.js';
import { publicFlagDetail } from '../violations/details.js';
import { sameOffence } from './ledger.js';
import { proposedColor } from './severity.js';
import type { CardProposal, Ledger } from './types.js';

/** A short name for a flag kind in a card's reason (with the wording category). */
function kindName(kind: FlagKind, category?: string): string {
  const name = FLAG_KIND_NAMES[kind].offence;
  return kind === 'banned-wording' && category ? `${name}：${category}` : name;
}

/** The card proposals of a day's flags, given what the ledger already holds (for repeat offences). */
export function proposeCards(game: Game, day: number, flags: readonly Flag[], ledger: Ledger | null): CardProposal[] {
  const groups = new Map<string, Flag[]>();
  for (const f of flags) {
    const key = `${f.player}|${f.kind}|${f.category ?? ''}`;
    const group = groups.get(key);
    if (group) group.push(f);
    else groups.set(key, [f]);
  }
  const out: CardProposal[] = [];
  for (const group of groups.values()) {
    const f = group[0];
    const repeat = (ledger?.cards ?? []).some((c) => c.status === 'confirmed' && c.day < day && sameOffence(c, f));
    const color = proposedColor(f, game.rules, repeat);
    if (!color) continue;
    const evidence = [...new Set(group.flatMap((g) => (g.pid !== null ? [g.pid] : g.related ?? [])))].sort((a, b) => a - b);
    const what = group.length > 1 ? `${kindName(f.kind, f.category)}（${group.length} 处）` : kindName(f.kind, f.category);
    // The reason is public (the notice posts it once confirmed); why this colour was proposed is the director's.
    const reason = [what, publicFlagDetail(f, game.timezone)].filter(Boolean).join('；');
    const p: CardProposal = { day, player: f.player, color: color.color, kind: f.kind, kinds: [f.kind], reason, evidence };
    if (color.note) p.directorNote = color.note;
    if (f.category) p.category = f.category;
    out.push(p);
  }
  return out;
}
