/**
 * Which card a flag proposes (rules-spec §8). The rule posts give the colour only for lurking (m107
 * l.310 将直接判作黄牌; 062 l.326 固定判罚一张黄牌); for the rest they describe the colours:
 * blue for a first offence out of unfamiliarity that harms the atmosphere, not the balance (m107 l.231:
 * 消极情绪发言、侮辱性语言、诅咒发誓…可以判作蓝牌), yellow once it harms the balance, or for the same kind
 * of offence after a blue (l.233 因同一类行为已经吃过蓝牌后仍然明知故犯，可判黄牌).
 *
 * Decisions (the director confirms or dismisses every one):
 * - blue: red/enlarged fonts, insults, oaths and curses, stakes and threats, filler;
 * - yellow: lurking, no ballot, 诈尸, 贴证, 马甲/场外, talking about the director, avatar/signature;
 * - a second offence of the same kind (a confirmed card of that kind on an earlier day) → yellow;
 * - a ruleset without blue cards (120b: only 【黄牌】【红牌】, l.495–503) reminds first: its yellow is for
 *   提醒一次或两次…后仍然明知故犯 (l.497), so a first offence proposes a reminder (提醒, no card) and a
 *   repeat after a confirmed reminder proposes yellow. Lurking keeps its fixed yellow.
 * - late posts, posts by a replaced account and ballots in the wrong thread are not violations: no card.
 */
import type { Ruleset } from '../game/ruleset-schema.js';
import { LURKING_KINDS, type Flag, type FlagKind } from '../violations/flag.js';
import type { CardColor } from './types.js';

const YELLOW_WORDING = new Set(['马甲与场外', '提及导演', '贴证']);

const BASE: Record<FlagKind, CardColor | null> = {
  'few-posts': 'yellow',
  'low-streak': 'yellow',
  'no-ballot': 'yellow',
  'red-font': 'blue',
  'enlarged-font': 'blue',
  'banned-wording': 'blue',
  'zombie-post': 'yellow',
  'pasted-evidence': 'yellow',
  'avatar-changed': 'yellow',
  'signature-changed': 'yellow',
  filler: 'blue',
  'late-post': null,
  'replaced-account': null,
  'misplaced-ballot': null,
};

/** The card a flag calls for before repeats and the ruleset are considered, or null for none. */
export function baseColor(flag: Pick<Flag, 'kind' | 'category'>): CardColor | null {
  if (flag.kind === 'banned-wording' && flag.category && YELLOW_WORDING.has(flag.category)) return 'yellow';
  return BASE[flag.kind];
}

/** The colour to propose, with the note that explains any change from the base colour. */
export function proposedColor(
  flag: Pick<Flag, 'kind' | 'category'>,
  rules: Ruleset,
  repeatOfConfirmed: boolean,
): { color: CardColor; note: string | null } | null {
  const base = baseColor(flag);
  if (!base) return null;
  if (!rules.cards.blue && !LURKING_KINDS.has(flag.kind)) {
    return repeatOfConfirmed
      ? { color: 'yellow', note: `${rules.name} 提醒后再犯：按黄牌提议（提醒一次或两次…后仍然明知故犯，可判黄牌）` }
      : { color: 'reminder', note: `${rules.name} 无蓝牌、先提醒：首次违规提议提醒，不判牌` };
  }
  if (base === 'blue' && repeatOfConfirmed) return { color: 'yellow', note: '同类违规已被判过牌，再犯按黄牌提议' };
  return { color: base, note: null };
}
