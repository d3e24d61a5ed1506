/**
 * Words the day-report renderers share: card colours, flag kinds, statuses (Chinese, as the
 * director writes notices). terminalSafe is re-exported from safe-text.ts, where it lives.
 */
import type { CardColor, CardStatus } from '../cards/types.js';
import type { FlagKind } from '../violations/flag.js';

export const COLOR_NAME: Record<CardColor, string> = { blue: '蓝牌', yellow: '黄牌', red: '红牌（罚下）' };
export const STATUS_NAME: Record<CardStatus, string> = { proposed: '待定', confirmed: '已确认', dismissed: '已驳回' };
export const FLAG_NAME: Record<FlagKind, string> = {
  'few-posts': '发言不足',
  'low-streak': '连续发言不足',
  'no-ballot': '未投票',
  'red-font': '红色字体',
  'enlarged-font': '放大字体',
  'banned-wording': '违禁言论',
  'zombie-post': '诈尸',
  'pasted-evidence': '贴证',
  'avatar-changed': '更换头像',
  'signature-changed': '更换签名档',
  filler: '水帖',
  'late-post': '关门后发帖',
};

/** Re-exported for the callers that import it from here: the one definition is in safe-text.ts. */
export { terminalSafe } from './safe-text.js';
