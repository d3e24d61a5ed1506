/**
 * What an incomplete crawl is missing, in the words every output starts with when a count was made
 * with --allow-incomplete (issue 13: never publish a partial count unmarked): one line per thread
 * naming the pages and floors missing — the store's own words (describeGaps), in the director's
 * language for the terminal, errors and JSON, in Chinese for what the forum and players read.
 */
import { t, withLanguage } from '../i18n/index.js';
import { describeGaps } from '../store/completeness.js';
import type { Completeness } from '../store/types.js';
import type { StaleThread } from '../votes/types.js';
import { forumIso, forumTime } from '../game/forum-time.js';

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

/** One line per stale thread (src/crawl/freshness.ts): which, what it is, as of when, why its last crawl failed. */
export function staleLines(stale: readonly StaleThread[], zone: string): string[] {
  return stale.map((f) => {
    const role = f.role === null ? '' : f.role === 'process' ? t('fresh.role.process') : t(`fresh.role.${f.role}`, f.roleDay ?? 0);
    const shown = f.handover ? t('fresh.role.handover', role) : role;
    if (f.gone !== undefined) return t('fresh.goneThread', f.tid, shown, f.asOf === null ? null : forumTime(f.asOf, zone), forumTime(f.gone, zone));
    return t('fresh.staleThread', f.tid, shown, f.asOf === null ? null : forumTime(f.asOf, zone), forumTime(f.due, zone), f.failure);
  });
}

/** The plain-text lines a view starts with when the count is stale (empty when not). */
export function staleText(stale: readonly StaleThread[] | undefined, zone: string): string[] {
  return stale?.length ? [`!! ${t('fresh.staleHead')}`, ...staleLines(stale, zone).map((l) => `!!   ${l}`), ''] : [];
}

/** The BBCode lines an announcement starts with when stale (empty when not), in Chinese. */
export function staleBBCode(stale: readonly StaleThread[] | undefined, zone: string): string[] {
  return withLanguage('zh', () => (stale?.length ? [`[b]${t('fresh.staleHead')}[/b]`, ...staleLines(stale, zone), ''] : []));
}

/** One line per thread gone from the forum whose kept versions a ruling accepted (TallyResult.gone), in the current language. */
export function goneLines(gone: readonly StaleThread[] | undefined, zone: string): string[] {
  return (gone ?? []).map((f) => t('fresh.goneNote', staleLines([f], zone)[0], f.ruling ?? 0));
}

/** The plain-text lines a view starts with when the count goes by a gone thread's kept versions (empty when not). */
export function goneText(gone: readonly StaleThread[] | undefined, zone: string): string[] {
  return gone?.length ? [...goneLines(gone, zone).map((l) => `!! ${l}`), ''] : [];
}

/** The BBCode lines an announcement starts with when the count goes by a gone thread's kept versions, in Chinese. */
export function goneBBCode(gone: readonly StaleThread[] | undefined, zone: string): string[] {
  return withLanguage('zh', () => (gone?.length ? [...goneLines(gone, zone), ''] : []));
}

/** What JSON's `stale: [...]` holds for one thread (times ISO with the forum's offset). */
export interface StaleJson {
  tid: number;
  role: StaleThread['role'];
  roleDay: number | null;
  handover?: boolean;
  /** Since when the forum says the thread does not exist (ISO with the forum's offset): present only then. */
  gone?: string;
  /** The ruling accepting its kept versions (a count's `gone` list). */
  ruling?: number;
  asOf: string | null;
  due: string;
  failure: string | null;
  text: string;
}

export function staleJson(stale: readonly StaleThread[], zone: string): StaleJson[] {
  const text = staleLines(stale, zone);
  return stale.map(({ gone, ...f }, i) => ({
    ...f, asOf: f.asOf === null ? null : forumIso(f.asOf, zone), due: forumIso(f.due, zone), ...(gone !== undefined ? { gone: forumIso(gone, zone) } : {}), text: text[i],
  }));
}

/** What JSON's `gone: [...]` holds (a count's TallyResult.gone; the report's too): as `stale`, each with its line saying the ruling. */
export function goneJson(gone: readonly StaleThread[], zone: string): StaleJson[] {
  const text = goneLines(gone, zone);
  return staleJson(gone, zone).map((g, i) => ({ ...g, text: text[i] }));
}
