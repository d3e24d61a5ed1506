/**
 * The day's self-contained HTML report, drawn from the assembled closing day (closing-day.ts) and its
 * page facts (day-page.ts, which draws it from a store): a module of its own so that only the commands
 * that write HTML load the HTML renderers, and one that loads no analysis, so that a report read from its
 * kept result (src/derived/kept-closing.ts) draws the page without them.
 */
import path from 'node:path';
import type { Game } from '../game/types.js';
import { htmlDayInput, reportTitle } from '../render/html-day.js';
import { renderHtmlReport } from '../render/html-report.js';
import type { ClosingDay } from './closing-day.js';
import type { DayPage } from './day-page.js';

/** The page of the day from the day, its page facts and the links to the cards' evidence; `now`: when it was made. */
export function dayHtmlOf(day: ClosingDay, page: DayPage, postUrl: (pid: number) => string | null, now = Date.now()): string {
  return renderHtmlReport(htmlDayInput(day.report, day.tally, { title: page.title, now, postUrl, source: page.source }));
}

/** Where `--html` writes by default: beside the game file, `<game>-day<N>.html`. */
export function defaultHtmlPath(game: Game, day: number): string {
  return path.join(path.dirname(path.resolve(game.file)), `${reportTitle(game)}-day${day}.html`);
}
