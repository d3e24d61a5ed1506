/** Chinese numerals as the forum's players write them (auction bids, day numbers in board titles). */

const CN_DIGITS: Record<string, number> = { 零: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** "十五" → 15, "二十" → 20, "三" → 3, "一百二十" → 120; null when it is not a plain numeral. */
export function chineseNumeral(s: string): number | null {
  if (!/^[零一二两三四五六七八九十百]+$/.test(s)) return null;
  let total = 0;
  let digit = 0;
  for (const ch of s) {
    if (ch === '百') {
      total += (digit || 1) * 100;
      digit = 0;
    } else if (ch === '十') {
      total += (digit || 1) * 10;
      digit = 0;
    } else {
      digit = CN_DIGITS[ch];
    }
  }
  return total + digit;
}
