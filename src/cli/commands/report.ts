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
 * A rerun over threads that did not change renders them as kept (src/derived/kept-closing.ts).
 *
 * Before the day's close (now: src/clock.ts) the report is as of now (issue 31): every view starts with
 * that line (JSON: running, asOf, closes), the count in it is a running one, and no card is proposed into
 * the ledger — an open day's lurkers and flags are not the day's. After it, a thread deciding the day's
 * count that was not fetched whole after the close (src/crawl/freshness.ts) is named first, as of when;
 * so is one gone from the forum whose kept versions the director's ruling accepted (`bansha rule accept
 * T<tid>`), as tally and close name it (JSON `gone`).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ledgerPath } from '../../cards/ledger.js';
import { recordProposals } from '../../close/proposals.js';
import { evidenceLinks, reportDay, reportKey } from '../../derived/kept-closing.js';
import { keepView, readKeptView, type ViewSpec } from '../../derived/kept-view.js';
import { dayHtmlBeside } from '../../game/beside.js';
import { replaceFile } from '../../replace-file.js';
import { madeAtHtml } from '../../render/html-made.js';
import { inputText } from '../../store/memo.js';
import { UserError } from '../../errors.js';
import { t } from '../../i18n/index.js';
import { gameOptions, loadGameDay, oneOf, stdoutColor } from '../options.js';
import type { DayReport } from '../../report/day-report.js';
import { now as clockNow } from '../../clock.js';
import { withLanguage } from '../../i18n/index.js';
import { forumIso, forumTime } from '../../game/forum-time.js';
import { countFreshness, goneThreads, staleThreads } from '../../crawl/freshness.js';
import { goneBBCode, goneJson, goneText, incompleteHead, staleBBCode, staleJson, staleText } from '../../render/incomplete.js';
import type { StaleThread } from '../../votes/types.js';

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
  gameOptions(program.command('report').description(t('report.description')), { day: true, store: true })
    .option('--json', t('report.json'))
    .option('--bbcode', t('report.bbcode'))
    .option('--markdown', t('report.markdown'))
    .option('--html', t('report.html'))
    .option('--out <path>', t('report.out'))
    .option('--allow-incomplete', t('opt.allowIncomplete'))
    .option('--no-ledger', t('report.noLedger'))
    .action(async (o: ReportCliOptions) => {
      oneOf({ '--json': o.json, '--bbcode': o.bbcode, '--markdown': o.markdown, '--html': o.html });
      if (o.out !== undefined && !o.html) throw new UserError(t('opt.goesWith', '--out', '--html'));
      const { game, day } = await loadGameDay(o);
      const file = ledgerPath(game.file);
      const now = clockNow();
      const open = now < day.closes;
      const dayOpts = { ledgerFile: file, allowIncomplete: o.allowIncomplete, ...(open ? { at: now } : {}) };
      const ledgerOn = o.ledger && !open;
      const freshness = open ? [] : await countFreshness(game, o.day);
      const stale = staleThreads(game, freshness);
      // (threads gone from the forum whose kept versions a ruling accepted: named first, as the count names them)
      const gone = goneThreads(game, freshness);
      const { key, ledger } = reportKey(game, o.day, dayOpts);
      const spec = viewSpec(o);
      const out = o.html ? path.resolve(o.out ?? dayHtmlBeside(game.file, o.day)) : null;
      // The HTML page written by `write` (replaced whole) and its path printed; any other view printed.
      const writePage = (write: (file: string) => void): void => {
        fs.mkdirSync(path.dirname(out!), { recursive: true });
        write(out!);
        process.stdout.write(`${out}\n`);
      };
      const print = (texts: readonly string[]): void =>
        out === null ? void process.stdout.write(asOfView(o, texts.join(''), { open, now, closes: day.closes, zone: game.timezone, stale, gone })) : writePage((f) => writeHtmlAround(f, texts, game.timezone));
      // The HTML page names stale and gone threads in its count's section (html-report.ts), as close's page
      // does: the crawl's records are not in the kept view's key, so such a page is drawn anew, never kept.
      const marked = out !== null && (stale.length > 0 || gone.length > 0);
      // A rerun over what did not change prints what the run before printed (src/derived/kept-view.ts).
      const shown = key === null || open || marked ? undefined : readKeptView(game.storePath, o.day, spec, key);
      if (shown) return print(shown);
      // The day as kept when nothing it is made from changed (src/derived/kept-closing.ts), else computed.
      const kept = await reportDay(game, o.day, dayOpts, undefined, { key });
      const { page } = kept;
      const closing = marked && kept.closing.tally ? { ...kept.closing, tally: { ...kept.closing.tally, stale, gone } } : kept.closing;
      // The ledger ids go into the report (and so into the HTML) before it is drawn.
      if (ledgerOn) await recordProposals(game, closing.report, file);
      const links = evidenceLinks(game, kept);
      // (kept by a rerun whose ledger step left the ledger as the key read it: a run that finds the view skips that step)
      const keeps = key !== null && !open && !marked && kept.kept && (!o.ledger || inputText(file) === ledger);
      // Only the view asked for is loaded (the HTML renderers are the largest).
      const html = o.html ? await import('../../day/day-html.js') : null;
      // (a page not kept is written as it is drawn, never held whole: day-html.ts writeDayHtml)
      if (html && !keeps) return writePage((f) => html.writeDayHtml(f, closing, page, links));
      const texts = html ? html.dayHtmlAround(closing, page, links) : [await view(o, closing.report, links)];
      if (keeps) keepView(game.storePath, o.day, spec, key, texts);
      print(texts);
    });
}

/**
 * A view marked as of when it is: a day not closed yet as of now — the line first (the BBCode's in
 * Chinese, in bold), for JSON the keys running, asOf and closes first; a closed day whose deciding
 * threads are stale, those threads first (JSON: `stale`), and those gone from the forum that a ruling
 * accepted, as the count says them (JSON: `gone`). Unchanged otherwise.
 */
function asOfView(o: ReportCliOptions, text: string, at: { open: boolean; now: number; closes: number; zone: string; stale: StaleThread[]; gone: StaleThread[] }): string {
  const { open, now, closes, zone, stale, gone } = at;
  if (!open && !stale.length && !gone.length) return text;
  if (o.json) {
    const { incomplete, ...rest } = JSON.parse(text) as { incomplete?: unknown };
    const head = open
      ? { running: true, asOf: forumIso(now, zone), closes: forumIso(closes, zone) }
      : { ...(stale.length ? { stale: staleJson(stale, zone) } : {}), ...(gone.length ? { gone: goneJson(gone, zone) } : {}) };
    return `${JSON.stringify({ ...(incomplete ? { incomplete } : {}), ...head, ...rest }, null, 2)}\n`;
  }
  if (!open) {
    // after what is missing, when the view starts with it (render/incomplete.ts)
    const lines = text.split('\n');
    const plain = (l: string) => l.replace(/\x1b\[[0-9;]*m/g, '').replace(/^>\s?/, '').trim();
    const heads = [incompleteHead(), withLanguage('zh', incompleteHead)];
    const at = heads.some((h) => plain(lines[0] ?? '').includes(h)) ? lines.findIndex((l) => plain(l) === '') + 1 : 0;
    const block = o.bbcode
      ? [...staleBBCode(stale, zone), ...goneBBCode(gone, zone)]
      : o.markdown
        ? withLanguage('zh', () => [...staleText(stale, zone), ...goneText(gone, zone)]).map((l) => `> ${l.replace(/^!! ?/, '')}`)
        : [...staleText(stale, zone), ...goneText(gone, zone)];
    lines.splice(at, 0, ...block);
    return lines.join('\n');
  }
  if (o.bbcode) return `[b]${withLanguage('zh', () => t('fresh.asOfLine', forumTime(now, zone), forumTime(closes, zone)))}[/b]\n\n${text}`;
  return `${t('fresh.asOfLine', forumTime(now, zone), forumTime(closes, zone))}\n\n${text}`;
}

/** The view asked for, as its kept text is named (kept-view.ts). */
function viewSpec(o: ReportCliOptions): ViewSpec {
  const view = o.json ? 'json' : o.bbcode ? 'bbcode' : o.markdown ? 'markdown' : o.html ? 'html' : 'terminal';
  return { view, color: view === 'terminal' && stdoutColor(), ledger: o.ledger };
}

/** A page kept as day-html.ts dayHtmlAround gives it, written to `file` (replaced whole) with the time it is made now. */
function writeHtmlAround(file: string, [before, after]: readonly string[], zone: string): void {
  replaceFile(file, (fd) => {
    for (const part of [before, madeAtHtml(Date.now(), zone), after]) fs.writeSync(fd, part);
  });
}

/** The report as text in the view asked for, its renderer loaded only then. */
async function view(o: ReportCliOptions, report: DayReport, links: (pid: number) => string | null): Promise<string> {
  if (o.json) return (await import('../../render/report-json.js')).renderDayReportJson(report);
  if (o.bbcode) return (await import('../../render/report-bbcode.js')).renderDayReportBBCode(report, links);
  if (o.markdown) return (await import('../../render/report-markdown.js')).renderDayReportMarkdown(report);
  return (await import('../../render/report-terminal.js')).renderDayReportTerminal(report, { color: stdoutColor() });
}
