/**
 * What an incomplete crawl is missing, in the words every output starts with when a count was made
 * with --allow-incomplete (issue 13: never publish a partial count unmarked): one line per thread
 * naming the pages and floors missing — the store's own words (describeGaps), in the director's
 * language for the terminal, errors and JSON, in Chinese for what the forum and players read.
 */
import { t, withLanguage } from '../i18n/index.js';
import { describeGaps } from '../store/completeness.js';
import type { Completeness } from '../store/types.js';

/** One line per incomplete thread ("帖子 5：共 3 页，第 2 页未抓取"), in the current language. */
export function incompleteLines(gaps: readonly Completeness[]): string[] {
  return gaps.filter((c) => !c.complete).map(describeGaps);
}

/** The heading line: the count is 不完整 and may change. */
export function incompleteHead(): string {
  return t('incomplete.head');
}

/** The BBCode lines an announcement starts with when incomplete (empty when complete), in Chinese. */
export function incompleteBBCode(gaps: readonly Completeness[] | undefined): string[] {
  return withLanguage('zh', () => {
    const lines = incompleteLines(gaps ?? []);
    return lines.length ? [`[b]${incompleteHead()}[/b]`, ...lines, ''] : [];
  });
}

/** The plain-text lines a terminal or Markdown view starts with when incomplete (empty when complete). */
export function incompleteText(gaps: readonly Completeness[] | undefined): string[] {
  const lines = incompleteLines(gaps ?? []);
  return lines.length ? [`!! ${incompleteHead()}`, ...lines.map((l) => `!!   ${l}`), ''] : [];
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
