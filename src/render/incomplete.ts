/**
 * What an incomplete crawl is missing, in the words every output starts with when a count was made
 * with --allow-incomplete (issue 13: never publish a partial count unmarked): one Chinese line per
 * thread naming the pages and floors missing.
 */
import { formatRanges } from '../store/completeness.js';
import type { Completeness } from '../store/types.js';

/** One line per incomplete thread ("帖 5：第 2 页（共 3 页）未抓取；楼层 12–14 未见"). */
export function incompleteLines(gaps: readonly Completeness[]): string[] {
  return gaps.filter((c) => !c.complete).map((c) => {
    if (c.pageCount === 0) return `帖 ${c.tid}：从未抓取`;
    const bits: string[] = [];
    if (c.missingPages.length) bits.push(`第 ${formatRanges(c.missingPages)} 页（共 ${c.pageCount} 页）未抓取`);
    if (c.missingFloors.length) bits.push(`楼层 ${formatRanges(c.missingFloors)} 未见`);
    return `帖 ${c.tid}：${bits.join('；') || '没有存档的帖子'}`;
  });
}

/** The heading line: the count is 不完整 and may change. */
export const INCOMPLETE_HEAD = '不完整：以下页面或楼层缺失，本统计可能不准确';

/** The BBCode lines an announcement starts with when incomplete (empty when complete). */
export function incompleteBBCode(gaps: readonly Completeness[] | undefined): string[] {
  const lines = incompleteLines(gaps ?? []);
  return lines.length ? [`[b]${INCOMPLETE_HEAD}[/b]`, ...lines, ''] : [];
}

/** The plain-text lines a terminal or Markdown view starts with when incomplete (empty when complete). */
export function incompleteText(gaps: readonly Completeness[] | undefined): string[] {
  const lines = incompleteLines(gaps ?? []);
  return lines.length ? [`!! ${INCOMPLETE_HEAD}`, ...lines.map((l) => `!!   ${l}`), ''] : [];
}

/** What JSON's `incomplete: [...]` holds for one thread. */
export interface IncompleteJson {
  tid: number;
  missingPages: number[];
  missingFloors: number[];
  pageCount: number;
  /** The same in words. */
  text: string;
}

export function incompleteJson(gaps: readonly Completeness[]): IncompleteJson[] {
  const incomplete = gaps.filter((c) => !c.complete);
  const text = incompleteLines(incomplete);
  return incomplete.map((c, i) => ({ tid: c.tid, missingPages: c.missingPages, missingFloors: c.missingFloors, pageCount: c.pageCount, text: text[i] }));
}
