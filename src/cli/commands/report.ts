/**
 * `bansha report --game G --day N`: what the director reads before handing out cards (issue 5;
 * rules-spec §6–§8) — posts per player (and the whole game's table), ballots, every flag with its
 * evidence, and the cards the tool proposes. Proposals go into the card ledger beside the game file
 * (`<game>.cards.json`) so `bansha cards confirm|dismiss ID` can decide them (--no-ledger: leave it
 * alone). `--markdown`, `--bbcode` (the public notice: confirmed cards only) and `--json` (the scripted
 * interface). Refuses (exit 3) when the day's threads are incompletely crawled, unless
 * --allow-incomplete. A director's extra word lists: `words/<category>.txt` beside the game file.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { dayTids, gameTids } from '../../activity/threads.js';
import { readLedger, ledgerPath, mergeProposals, writeLedger } from '../../cards/ledger.js';
import type { CardProposal } from '../../cards/types.js';
import { loadGame } from '../../game/game-file.js';
import { findDay } from '../../game/roster.js';
import type { Game } from '../../game/types.js';
import { renderDayReportBBCode } from '../../render/report-bbcode.js';
import { renderDayReportJson } from '../../render/report-json.js';
import { renderDayReportMarkdown } from '../../render/report-markdown.js';
import { renderDayReportTerminal } from '../../render/report-terminal.js';
import { buildDayReport, type DayReport } from '../../report/day-report.js';
import { assertComplete, openStore } from '../../store/index.js';
import { postUrl, threadPosts, type SlicePost } from '../../store/slice.js';
import type { StoreData } from '../../store/types.js';
import { loadWordLists } from '../../violations/word-lists.js';
import { accelerationFor } from '../../votes/acceleration.js';
import { UserError } from '../errors.js';

interface ReportCliOptions {
  game: string;
  day: number;
  json?: boolean;
  bbcode?: boolean;
  markdown?: boolean;
  store?: string;
  allowIncomplete?: boolean;
  ledger: boolean;
}

function dayNumber(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UserError(`--day must be a whole number ≥ 1 (got "${v}")`);
  return n;
}

/** Whether each day up to `day` was accelerated: the game file's declaration, else the process thread. */
export function acceleratedDays(game: Game, store: StoreData, day: number): Record<number, boolean> {
  const out: Record<number, boolean> = {};
  const process = game.process && store.threads[String(game.process.tid)] ? threadPosts(store, game.process.tid) : null;
  for (const d of game.days) {
    if (d.day > day) continue;
    if (d.accelerated !== undefined) out[d.day] = d.accelerated;
    else out[d.day] = process ? accelerationFor(game, d, process).accelerated : false;
  }
  return out;
}

/** The report of day `day` from a store (what the command prints), plus the proposals it makes. */
export function reportFromStore(game: Game, store: StoreData, day: number, ledgerFile: string): DayReport {
  const posts = new Map<number, SlicePost[]>();
  for (const tid of gameTids(game)) if (store.threads[String(tid)]) posts.set(tid, threadPosts(store, tid));
  const extra = path.join(path.dirname(path.resolve(game.file)), 'words');
  const lists = loadWordLists(game.rules.bannedCategories, fs.existsSync(extra) ? [extra] : []);
  return buildDayReport(game, posts, day, {
    accelerated: acceleratedDays(game, store, day),
    lists,
    ledger: readLedger(game, ledgerFile),
  });
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
    .option('--store <path>', 'the store file (default: beside the game file)')
    .option('--allow-incomplete', 'report even when a thread\'s crawl has gaps')
    .option('--no-ledger', 'do not record the proposals in the card ledger')
    .action(async (o: ReportCliOptions) => {
      if ([o.json, o.bbcode, o.markdown].filter(Boolean).length > 1) throw new UserError('choose one of --json, --bbcode and --markdown');
      const game = loadGame(o.game, { store: o.store });
      const d = findDay(game, o.day);
      const store = await openStore(game.storePath, { lock: false, forum: game.forum });
      let report: DayReport;
      const file = ledgerPath(game.file);
      try {
        const needed = [...dayTids(d), ...(game.process && d.accelerated === undefined ? [game.process.tid] : [])];
        const missing = needed.filter((tid) => !store.data.threads[String(tid)]);
        if (missing.length && !o.allowIncomplete) {
          throw new UserError(`thread${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not in the store ${game.storePath} yet: run \`bansha crawl --game ${game.file}\``, 3);
        }
        assertComplete(store.data, needed.filter((tid) => store.data.threads[String(tid)]), { allowIncomplete: o.allowIncomplete });
        report = reportFromStore(game, store.data, o.day, file);
      } finally {
        await store.close();
      }
      if (o.ledger) {
        const proposals: CardProposal[] = report.cards
          .filter((c) => c.status === 'proposed')
          .map((c) => ({ day: o.day, player: c.player, color: c.color, kind: c.kind, reason: c.reason, evidence: c.evidence, ...(c.category ? { category: c.category } : {}) }));
        const { ledger, entries } = mergeProposals(readLedger(game, file), proposals, new Date());
        if (proposals.length) writeLedger(ledger, file);
        for (const card of report.cards) {
          const e = entries.find((x) => x.player === card.player && x.kind === card.kind && (x.category ?? '') === (card.category ?? ''));
          if (e) card.id = e.id;
        }
      }
      const out = o.json
        ? renderDayReportJson(report)
        : o.bbcode
          ? renderDayReportBBCode(report, (pid) => {
              const f = report.flags.find((x) => x.pid === pid);
              return f?.tid ? postUrl(game.forum, f.tid, pid) : null;
            })
          : o.markdown
            ? renderDayReportMarkdown(report)
            : renderDayReportTerminal(report, { color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR });
      process.stdout.write(out);
    });
}
