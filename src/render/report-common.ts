/**
 * Words the day-report renderers share: card colours and statuses — Chinese in what is posted or
 * shown to players (BBCode, HTML, Markdown notices), the director's language in the terminal (flag
 * kinds are named in src/violations/flag.ts).
 */
import type { CardColor, CardStatus } from '../cards/types.js';
import { t } from '../i18n/index.js';

/** A card colour's name. */
export const COLOR_NAME: Record<CardColor, string> = { reminder: '提醒（不判牌）', blue: '蓝牌', yellow: '黄牌', red: '红牌（罚下）' };
/** A card status's name. */
export const STATUS_NAME: Record<CardStatus, string> = { proposed: '待定', confirmed: '已确认', dismissed: '已驳回' };

/** A card colour as the terminal names it: in the director's language (COLOR_NAME in Chinese). */
export function colorLabel(c: CardColor): string {
  return t('card.color', c, COLOR_NAME[c]);
}

/** A card status as the terminal names it: in the director's language (STATUS_NAME in Chinese). */
export function statusLabel(s: CardStatus): string {
  return t('card.status', s, STATUS_NAME[s]);
}
