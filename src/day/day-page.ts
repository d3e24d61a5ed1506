/**
 * What the day's HTML report takes from the store besides the closing day (closing-day.ts): the game's
 * title from its threads' titles and the footer's facts (the latest fetch, what is missing) — made apart
 * from the page, so that every view's run keeps them with the day (src/derived/kept-closing.ts) and an
 * HTML report can later be drawn from what was kept, without the store (day-html.ts dayHtmlOf).
 */
import type { Game } from '../game/types.js';
import { gameTitle, htmlSource } from '../render/html-day.js';
import type { HtmlSource } from '../render/html-report.js';
import { completenessOf } from '../store/completeness.js';
import type { StoreData, StoredThread } from '../store/types.js';
import type { LookBack } from '../store/thread-digest.js';
import type { ThreadRead } from '../store/with-store.js';
import { VERSION } from '../version.js';
import { storedPostLinks, threadsForReport, type ClosingDay } from './closing-day.js';
import { dayHtmlOf } from './day-html.js';

/** The day's page facts: its title and the footer's source. */
export interface DayPage {
  title: string;
  source: HtmlSource;
}

/**
 * Day `day`'s page facts from the store the report read (and `lookBack`, the earlier threads' digests or their titles;
 * `apart`, the threads read apart from the store: their records and how they read).
 */
export function dayPage(
  game: Game, store: StoreData, day: number, lookBack?: ReadonlyMap<number, { title: string }>, apart?: ReadonlyMap<number, { thread: StoredThread | null; read: ThreadRead }>,
): DayPage {
  // (a thread of the report's read through its digest is day 1's vote thread, vouched for complete: closing-inputs.ts)
  const tids = threadsForReport(game, day).filter((tid) => store.threads[String(tid)] || !lookBack?.has(tid));
  const inStore = new Map(completenessOf(store, tids.filter((tid) => !apart?.has(tid))).map((c) => [c.tid, c]));
  const source = htmlSource(tids.map((tid) => {
    const a = apart?.get(tid);
    return a ? { record: a.thread ?? undefined, completeness: a.read.completeness } : { record: store.threads[String(tid)], completeness: inStore.get(tid)! };
  }), VERSION);
  return { title: gameTitle(game, (tid) => store.threads[String(tid)]?.title ?? apart?.get(tid)?.thread?.title ?? lookBack?.get(tid)?.title), source };
}

/** The self-contained HTML report of the day as text, from the store: titled by the game's threads, the store's age and completeness in its footer. */
export function dayHtml(game: Game, store: StoreData, day: ClosingDay, now = Date.now(), lookBack?: LookBack): string {
  return dayHtmlOf(day, dayPage(game, store, day.report.day, lookBack), storedPostLinks(game, store, lookBack?.values()), now);
}
