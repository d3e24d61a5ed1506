/**
 * `bansha report --game G --day N`: what the director reads before handing out cards (issue 5;
 * rules-spec §6–§8) — posts per player (and the whole game's table), ballots, every flag with its
 * evidence, and the cards the tool proposes. Proposals go into the card ledger beside the game file
 * (`<game>.cards.json`) so `bansha cards confirm|dismiss ID` can decide them (--no-ledger: leave it
 * alone). `--markdown`, `--bbcode` (the public notice: confirmed cards only) and `--json` (the scripted
 * interface); `--html [--out PATH]` writes the day's self-contained HTML report (tally, vote timeline,
 * activity, flags, cards) and prints its path. Refuses (exit 3) when a thread the report or the day's
 * tally reads is incompletely crawled, unless --allow-incomplete. A director's extra word lists:
 * `words/<category>.txt` beside the game file.
 *
 * The day is assembled once: the tally (src/votes/tally.ts) and the day report
 * (src/report/day-report.ts), whose acceleration comes from that tally; every view renders those two.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ledgerPath } from '../../cards/ledger.js';
import { closingDay, dayHtml, defaultHtmlPath, markIncomplete, recordProposals, storedPostLinks, threadsForReport, threadsThroughDay } from '../../close/closing-day.js';
import { renderDayReportBBCode } from '../../render/report-bbcode.js';
import { renderDayReportJson } from '../../render/report-json.js';
import { renderDayReportMarkdown } from '../../render/report-markdown.js';
import { renderDayReportTerminal } from '../../render/report-terminal.js';
import { UserError } from '../errors.js';
import { dayNumber, loadGameDay, stdoutColor, withCountingStore } from '../options.js';

/** Re-exported for the callers that import them from here: the definitions are in src/close/closing-day.ts. */
export {
  acceleratedOn, closingDay, dayHtml, defaultHtmlPath, markIncomplete, recordProposals, storedPostLinks, tallyForReport, threadsForReport, threadsThroughDay,
  type ClosingDay,
} from '../../close/closing-day.js';

interface ReportCliOptions {
  game: string;
  day: number;
  json?: boolean;
  bbcode?: boolean;
  markdown?: boolean;
  html?: boolean;
  out?: string;
  store?: string;
  allowIncomplete?: boolean;
  ledger: boolean;
}

export function register(program: Command): void {
  program
    .command('report')
    .description('day N for the director: posts per player, ballots, violations with evidence, proposed cards')
    .requiredOption('--game <file>', 'the game file (YAML)')
    .requiredOption('--day <n>', 'the game day', dayNumber)
    .option('--json', 'print JSON: {day, activity, flags, cards}')
    .option('--bbcode', 'print the public notice (Discuz BBCode): counts, confirmed cards, standings')
    .option('--markdown', 'print Markdown')
    .option('--html', 'write the self-contained HTML report (tally, vote chart, activity, flags, cards) and print its path')
    .option('--out <path>', 'with --html: the file to write (default: <game>-day<N>.html beside the game file)')
    .option('--store <path>', 'the store file (default: beside the game file)')
    .option('--allow-incomplete', 'report even when a thread\'s crawl has gaps')
    .option('--no-ledger', 'do not record the proposals in the card ledger')
    .action(async (o: ReportCliOptions) => {
      if ([o.json, o.bbcode, o.markdown, o.html].filter(Boolean).length > 1) throw new UserError('choose one of --json, --bbcode, --markdown and --html');
      if (o.out !== undefined && !o.html) throw new UserError('--out goes with --html');
      const { game } = loadGameDay(o);
      const file = ledgerPath(game.file);
      const { day, links } = await withCountingStore(game, { tids: threadsForReport(game, o.day), load: threadsThroughDay(game, o.day), allowIncomplete: o.allowIncomplete }, (store, incomplete) => ({
        day: markIncomplete(closingDay(game, store, o.day, { ledgerFile: file }), incomplete),
        links: storedPostLinks(game, store),
      }));
      const report = day.report;
      if (o.ledger) await recordProposals(game, report, file);
      if (o.html) {
        const out = path.resolve(o.out ?? defaultHtmlPath(game, o.day));
        fs.mkdirSync(path.dirname(out), { recursive: true });
        fs.writeFileSync(out, dayHtml(game, day, links));
        process.stdout.write(`${out}\n`);
        return;
      }
      const text = o.json
        ? renderDayReportJson(report)
        : o.bbcode
          ? renderDayReportBBCode(report, links)
          : o.markdown
            ? renderDayReportMarkdown(report)
            : renderDayReportTerminal(report, { color: stdoutColor() });
      process.stdout.write(text);
    });
}
