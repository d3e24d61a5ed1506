/**
 * The day's self-contained HTML report, drawn from the assembled closing day (closing-day.ts): a module
 * of its own so that only the commands that write HTML load the HTML renderers.
 */
import path from 'node:path';
import type { Game } from '../game/types.js';
import { gameTitle, htmlDayInput, htmlSource, reportTitle } from '../render/html-day.js';
import { renderHtmlReport } from '../render/html-report.js';
import type { StoreData } from '../store/types.js';
import type { LookBack } from '../store/thread-digest.js';
import { VERSION } from '../version.js';
import { storedPostLinks, threadsForReport, type ClosingDay } from './closing-day.js';

/** The self-contained HTML report of the day as text: titled by the game's threads, the store's age and completeness in its footer. */
export function dayHtml(game: Game, store: StoreData, day: ClosingDay, now = Date.now(), lookBack?: LookBack): string {
  // (a thread of the report's read through its digest is day 1's vote thread, vouched for complete: closing-inputs.ts)
  const source = htmlSource(store, threadsForReport(game, day.report.day).filter((tid) => store.threads[String(tid)] || !lookBack?.has(tid)), VERSION);
  const title = gameTitle(game, (tid) => store.threads[String(tid)]?.title ?? lookBack?.get(tid)?.title);
  return renderHtmlReport(htmlDayInput(day.report, day.tally, { title, now, postUrl: storedPostLinks(game, store, lookBack), source }));
}

/** Where `--html` writes by default: beside the game file, `<game>-day<N>.html`. */
export function defaultHtmlPath(game: Game, day: number): string {
  return path.join(path.dirname(path.resolve(game.file)), `${reportTitle(game)}-day${day}.html`);
}
