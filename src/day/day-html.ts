/**
 * The day's self-contained HTML report, drawn from the assembled closing day (closing-day.ts) and its
 * page facts (day-page.ts, which draws it from a store): a module of its own so that only the commands
 * that write HTML load the HTML renderers, and one that loads no analysis, so that a report read from its
 * kept result (src/derived/kept-closing.ts) draws the page without them.
 */
import fs from 'node:fs';
import { replaceFile } from '../replace-file.js';
import { htmlDayInput } from '../render/html-day.js';
import { htmlReportLines, renderHtmlReport, type HtmlReportInput } from '../render/html-report.js';
import { madeAtHtml } from '../render/html-made.js';
import type { ClosingDay } from './closing-day.js';
import type { DayPage } from './day-page.js';

/** The page of the day from the day, its page facts and the links to the cards' evidence; `now`: when it was made. */
export function dayHtmlOf(day: ClosingDay, page: DayPage, postUrl: (pid: number) => string | null, now = Date.now()): string {
  return renderHtmlReport(dayInput(day, page, postUrl, now));
}

/**
 * dayHtmlOf's page written to `file` as it is drawn, a few rows at a time (htmlReportLines): never held
 * whole; the page replaced whole (replaceFile): one that fails half-way leaves the earlier page as it was,
 * and a browser reloading it at closing never reads half a page.
 */
export function writeDayHtml(file: string, day: ClosingDay, page: DayPage, postUrl: (pid: number) => string | null, now = Date.now()): void {
  const input = dayInput(day, page, postUrl, now);
  replaceFile(file, (fd) => writeLines(fd, input));
}

function dayInput(day: ClosingDay, page: DayPage, postUrl: (pid: number) => string | null, now: number): HtmlReportInput {
  return htmlDayInput(day.report, day.tally, { title: page.title, now, postUrl, source: page.source });
}

/**
 * dayHtmlOf's page as kept (src/derived/kept-view.ts): its text before and after the words for when it
 * was made (html-made.ts), which each writing of the page puts in anew.
 */
export function dayHtmlAround(day: ClosingDay, page: DayPage, postUrl: (pid: number) => string | null, now = Date.now()): [string, string] {
  const text = dayHtmlOf(day, page, postUrl, now);
  const made = madeAtHtml(now, day.report.timezone);
  // (the footer's, the page's last: player text before it may hold the same words)
  const at = text.lastIndexOf(made);
  if (at < 0) throw new Error('the HTML page does not say when it was made');
  return [text.slice(0, at), text.slice(at + made.length)];
}

/** Characters gathered into one write: a few dozen rows, which then die young. */
const WRITE_CHARS = 32 * 1024;

/** The page's lines joined by "\n" (renderHtmlReport's text) written to `fd` a batch at a time. */
function writeLines(fd: number, input: HtmlReportInput): void {
  let batch: string[] = [];
  let chars = 0;
  let first = true;
  for (const line of htmlReportLines(input)) {
    if (!first) batch.push('\n');
    first = false;
    batch.push(line);
    chars += line.length;
    if (chars >= WRITE_CHARS) {
      fs.writeFileSync(fd, batch.join(''));
      batch = [];
      chars = 0;
    }
  }
  if (batch.length) fs.writeFileSync(fd, batch.join(''));
}
