/**
 * Words the day-report renderers share: card colours and statuses (Chinese, as the director writes
 * notices; flag kinds are named in src/violations/flag.ts).
 */
import type { CardColor, CardStatus } from '../cards/types.js';

/** A card colour's name. */
export const COLOR_NAME: Record<CardColor, string> = { reminder: '提醒（不判牌）', blue: '蓝牌', yellow: '黄牌', red: '红牌（罚下）' };
/** A card status's name. */
export const STATUS_NAME: Record<CardStatus, string> = { proposed: '待定', confirmed: '已确认', dismissed: '已驳回' };
