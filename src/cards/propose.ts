/**
 * Turns a day's flags into card proposals (rules-spec §8: the tool proposes with evidence, the
 * director confirms). One proposal per player, kind and wording category a day, carrying every
 * evidence pid, so three red-font posts on one day are one proposal, not three blue cards. Pure.
 */
import type { Game } from '../game/types.js';
import type { Flag } from '../violations/flag.js';
import { proposedColor } from './severity.js';
import type { CardProposal, Ledger } from './types.js';

const KIND_NAMES: Record<Flag['kind'], string> = {
  'few-posts': '潜水（发言不足）',
  'low-streak': '潜水（连续多日发言不足）',
  'no-ballot': '潜水（未投票）',
  'red-font': '红色字体',
  'enlarged-font': '放大字体',
  'banned-wording': '违禁言论',
  'zombie-post': '诈尸',
  'pasted-evidence': '贴证',
  'avatar-changed': '更换头像',
  'signature-changed': '更换签名档',
  filler: '无谓的水帖',
  'late-post': '关门后发帖',
};

/** A short name for a flag kind (with the wording category). */
export function kindName(kind: Flag['kind'], category?: string): string {
  return kind === 'banned-wording' && category ? `${KIND_NAMES[kind]}：${category}` : KIND_NAMES[kind];
}

/** The card proposals of a day's flags, given what the ledger already holds (for repeat offences). */
export function proposeCards(game: Game, day: number, flags: readonly Flag[], ledger: Ledger | null): CardProposal[] {
  const groups = new Map<string, Flag[]>();
  for (const f of flags) {
    const key = `${f.player}|${f.kind}|${f.category ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const out: CardProposal[] = [];
  for (const group of groups.values()) {
    const f = group[0];
    const repeat = (ledger?.cards ?? []).some(
      (c) => c.status === 'confirmed' && c.player === f.player && c.kind === f.kind && (c.category ?? '') === (f.category ?? '') && c.day < day,
    );
    const color = proposedColor(f, game.rules, repeat);
    if (!color) continue;
    const evidence = [...new Set(group.flatMap((g) => (g.pid !== null ? [g.pid] : g.related ?? [])))].sort((a, b) => a - b);
    const what = group.length > 1 ? `${kindName(f.kind, f.category)}（${group.length} 处）` : kindName(f.kind, f.category);
    const reason = [what, f.detail, color.note].filter(Boolean).join('；');
    const p: CardProposal = { day, player: f.player, color: color.color, kind: f.kind, reason, evidence };
    if (f.category) p.category = f.category;
    out.push(p);
  }
  return out;
}
