/**
 * `bansha demo [--preset public|wuhui|120b] [--out DIR]`: the whole closing-time job on a bundled game,
 * with no network. It serves the game's pages from a local replay of the forum (the captured public game,
 * or the wuhui / 120b demo sites rendered from the same captured markup), writes a game file pointing at
 * that server, logs in through its login form (in Chromium when /usr/bin/chromium exists, else a plain
 * HTTP form post), crawls (with a small delay between requests: the server is local), then for every
 * day tallies, resolves the auction (wuhui), builds the day report (lurkers, flags, proposed cards into a
 * ledger in the output directory), the elevator floor and the HTML report, and prints a short summary and
 * the paths of everything it wrote. Everything goes into the output directory (default ./bansha-demo/,
 * git-ignored in this repository); nothing else is written.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import pc from 'picocolors';
import { ledgerPath } from '../../cards/ledger.js';
import { crawlGame } from '../../crawl/crawler.js';
import { hasBrowser } from '../../browser/discover.js';
import { login } from '../../crawl/login.js';
import { formLogin } from '../../demo/form-login.js';
import { startReplayServer } from '../../replay/server.js';
import { loadGame } from '../../game/game-file.js';
import type { Game } from '../../game/types.js';
import { threadPosts } from '../../store/slice.js';
import type { StoreData } from '../../store/types.js';
import { postsFromStore, tallyDay } from '../../votes/tally.js';
import { withKnownUids } from '../../game/roster.js';
import type { TallyResult } from '../../votes/types.js';
import { renderTallyTerminal } from '../../render/tally-terminal.js';
import { renderDayReportTerminal } from '../../render/report-terminal.js';
import { COLOR_NAME } from '../../render/report-common.js';
import { FLAG_KIND_NAMES } from '../../violations/flag.js';
import { renderAuctionText } from '../../render/auction-text.js';
import type { DayReport } from '../../report/day-report.js';
import { resolveAuction, voteOutShare } from '../../auction/index.js';
import { arbiterRange, duelPairs, elevatorFloor, elevatorRing } from '../../elevator/index.js';
import { renderElevatorBBCode } from '../../render/elevator-bbcode.js';
import { packagePath } from '../../paths.js';
import { UserError } from '../../errors.js';
import { t } from '../../i18n/index.js';
import { padDisplay } from '../../text/width.js';
import { stdoutColor } from '../options.js';
import { withStore } from '../../store/with-store.js';
import { closingDay, dayHtml, recordProposals } from '../../close/closing-day.js';

/** The bundled demo games: the game file and the replayable site it is played on. */
export const DEMO_GAMES = {
  public: { game: packagePath('fixtures', 'games', 'public.yaml'), site: packagePath('fixtures', 'discuz', 'public') },
  wuhui: { game: packagePath('fixtures', 'games', 'wuhui.yaml'), site: packagePath('fixtures', 'discuz', 'demo-wuhui') },
  '120b': { game: packagePath('fixtures', 'games', '120b.yaml'), site: packagePath('fixtures', 'discuz', 'demo-120b') },
} as const;
export type DemoName = keyof typeof DEMO_GAMES;

/** The demo director's account on the replay server (the captured site's director). */
const DEMO_USER = { username: '导演A', password: 'lab123456' };

/** The crawl's minimum time between two requests to the local replay server (a real forum gets 1000 ms). */
export const DEMO_CRAWL_DELAY_MS = 20;

/** Where the demo writes by default: ./bansha-demo/ under the current directory (git-ignored here). */
export const DEFAULT_DEMO_OUT = 'bansha-demo';

export interface DemoOptions {
  preset?: DemoName;
  /** Output directory (created); default ./bansha-demo (DEFAULT_DEMO_OUT) under the current directory. */
  out?: string;
  /** Use the browser login when Chromium is there (default true). */
  browser?: boolean;
  /** Progress and notes go here (default: nothing). */
  log?: (line: string) => void;
}

/** What the demo found on one day (for the summary and for tests). */
export interface DemoDay {
  day: number;
  tally: TallyResult | null;
  report: DayReport;
}

export interface DemoResult {
  out: string;
  gameFile: string;
  storePath: string;
  ledgerPath: string;
  login: 'browser' | 'http';
  /** The forum URL the replay server listened at (closed by now). */
  forum: string;
  days: DemoDay[];
  /** Every file written, by what it is. */
  files: Array<{ what: string; path: string }>;
  /** One line per result worth printing. */
  summary: string[];
  /** Wall time of the whole run, ms. */
  elapsedMs: number;
}

/** Files a previous demo run left in the output directory that must not leak into this one. */
const STALE = ['game.store.json', 'game.store.json.bak', 'game.store.threads', 'game.session.json', 'game.cards.json'];

/** Runs the demo end to end; the server is closed before it returns. */
export async function runDemo(opts: DemoOptions = {}): Promise<DemoResult> {
  const started = Date.now();
  const preset = opts.preset ?? 'public';
  const demo = DEMO_GAMES[preset];
  if (!demo) throw new UserError(t('demo.unknown', preset, Object.keys(DEMO_GAMES).join(', ')));
  const log = opts.log ?? (() => undefined);
  const out = path.resolve(opts.out ?? DEFAULT_DEMO_OUT);
  fs.mkdirSync(out, { recursive: true });
  const files: DemoResult['files'] = [];
  const summary: string[] = [];
  const write = (what: string, name: string, text: string) => {
    const p = path.join(out, name);
    fs.writeFileSync(p, text);
    files.push({ what, path: p });
  };

  const server = await startReplayServer({ root: demo.site, users: { [DEMO_USER.username]: DEMO_USER.password } });
  try {
    log(`replay server for the ${preset} demo at ${server.url}`);
    const gameFile = path.join(out, 'game.yaml');
    const template = fs.readFileSync(demo.game, 'utf8');
    if (!/^forum: .*$/m.test(template)) throw new Error(`${demo.game} has no forum: line`);
    for (const stale of STALE) fs.rmSync(path.join(out, stale), { force: true, recursive: true });
    fs.writeFileSync(gameFile, template.replace(/^forum: .*$/m, `forum: ${server.url}`));
    files.push({ what: t('demo.file.game'), path: gameFile });
    const game = loadGame(gameFile);

    const how = await demoLogin(game, opts.browser !== false, log);
    summary.push(t('demo.login', DEMO_USER.username, how));
    const crawl = await crawlGame(game, { delayMs: DEMO_CRAWL_DELAY_MS, concurrency: 4, progress: false, log });
    files.push({ what: t('demo.file.store'), path: crawl.storePath });
    if (crawl.incomplete) throw new UserError(t('demo.crawlIncomplete'), 5);
    const pages = crawl.threads.reduce((n, t) => n + t.fetchedPages.length, 0);
    summary.push(t('demo.crawl', crawl.threads.length, pages, crawl.requests, DEMO_CRAWL_DELAY_MS));

    const days = await withStore(game, (store) => runJob(store, game, preset, write, summary));
    const ledger = ledgerPath(game.file);
    if (fs.existsSync(ledger)) files.push({ what: t('demo.file.ledger'), path: ledger });
    return { out, gameFile, storePath: game.storePath, ledgerPath: ledger, login: how, forum: server.url, days, files, summary, elapsedMs: Date.now() - started };
  } finally {
    await server.close();
  }
}

/** The closing-time job on the crawled store, day by day: tallies, auction, reports, elevator, HTML. */
async function runJob(store: StoreData, game: Game, preset: DemoName, write: (what: string, name: string, text: string) => void, summary: string[]): Promise<DemoDay[]> {
  const posts = postsFromStore(store);
  const ledgerFile = ledgerPath(game.file);
  const days: DemoDay[] = [];
  for (const d of game.days) {
    // One assembly of the day: its tally and its report (acceleration from that tally).
    const closing = closingDay(game, store, d.day, { ledgerFile });
    await recordProposals(game, closing.report, ledgerFile);
    const { tally, report } = closing;
    days.push({ day: d.day, tally, report });
    if (tally) {
      write(t('demo.file.tally', d.day), `tally-day${d.day}.txt`, renderTallyTerminal(tally));
      summary.push(tallyLine(tally, game));
    }
    if (d.rules) {
      const rules = tallyDay(withKnownUids(game, store.users), posts, d.day, { rules: true });
      write(t('demo.file.rules', d.day), `rules-day${d.day}.txt`, renderTallyTerminal(rules));
      summary.push(t('demo.line.rules', d.day, rules.result.name));
    }
    if (d.auction && game.rules.wuhui) {
      const auction = resolveAuction(threadPosts(store, d.auction.tid), game, d.day);
      write(t('demo.file.auction', d.day), `auction-day${d.day}.txt`, renderAuctionText(auction, voteOutShare(game, d)));
      summary.push(t('demo.line.auction', d.day, auction.items.map((i) => `${i.item}号 ${i.winner ? `${i.winner} ${i.price}G` : '—'}`).join(', ')));
    }
    write(t('demo.file.report', d.day), `report-day${d.day}.txt`, renderDayReportTerminal(report));
    summary.push(...reportLines(report, game));
    if (d.discussion) {
      const floor = elevatorFloor(store, game, d.day);
      write(t('demo.file.elevator', d.day), `elevator-day${d.day}.txt`, renderElevatorBBCode(floor));
      const marked = floor.entries.filter((e) => e.out).map((e) => e.player);
      summary.push(t('demo.line.elevator', d.day, floor.entries.filter((e) => e.url).length, marked.join('、')));
    }
    write(t('demo.file.html', d.day), `report-day${d.day}.html`, dayHtml(game, store, closing));
  }
  if (preset === 'wuhui') {
    const pairs = duelPairs(game, 1);
    write(t('demo.file.pairs'), 'pairs-day1.txt', pairs.map((p) => p.join(' — ')).join('\n') + '\n');
    summary.push(t('demo.line.duels', pairs.map((p) => p.join('–')).join(', ')));
  }
  if (game.rules.arbiterDivisor) {
    const last = game.days[game.days.length - 1].day;
    const from = elevatorRing(game, last).at(-1)!;
    const range = arbiterRange(game, last, from);
    summary.push(t('demo.line.arbiter', last, from, range.join('、')));
  }
  return days;
}

/** "day 2: out 月饼 — 月饼 7.5, 花卷 4; sheriff 包子 (×1.5); not accelerated (5 of 11 asked, 6 needed)". */
function tallyLine(tl: TallyResult, game: Game): string {
  if (tl.kind === 'none') return t('demo.line.noVote', tl.day, game.rules.name);
  const totals = tl.totals.filter((l) => l.votes > 0).map((l) => `${l.name} ${l.votes}`).join(', ');
  const bits = [t('demo.line.tally', tl.day, tl.kind, tl.result.name, totals)];
  if (tl.result.tie.length) bits.push(t('demo.line.tie', tl.result.tie.join('/'), tl.result.rule));
  if (tl.sheriff) bits.push(t('demo.line.sheriff', tl.sheriff, tl.sheriffWeight));
  const a = tl.acceleration;
  if (a) bits.push(t('demo.line.acceleration', tl.accelerated, a.requests.length, a.alive, a.needed));
  const rejected = tl.ballots.filter((b) => b.status === 'rejected').length;
  if (rejected) bits.push(t('demo.line.rejected', rejected));
  return bits.join(t('demo.line.sep'));
}

/** The report of a day in two or three lines: lurkers, flags by kind, cards proposed. */
function reportLines(r: DayReport, game: Game): string[] {
  const few = r.flags.filter((f) => f.kind === 'few-posts').map((f) => f.player);
  const noBallot = r.flags.filter((f) => f.kind === 'no-ballot').map((f) => f.player);
  const kinds = new Map<string, number>();
  for (const f of r.flags) {
    if (f.kind === 'few-posts' || f.kind === 'no-ballot') continue;
    const name = FLAG_KIND_NAMES[f.kind].short;
    kinds.set(name, (kinds.get(name) ?? 0) + 1);
  }
  const colours = new Map<string, number>();
  for (const c of r.cards) colours.set(COLOR_NAME[c.color], (colours.get(COLOR_NAME[c.color]) ?? 0) + 1);
  const lines = [
    t('demo.line.lurkers', r.day, game.rules.lurking.enabled ? t('demo.line.fewPosts', game.rules.lurking.minPostsPerDay, few.join('、')) : null, noBallot.join('、'), r.waived),
    t('demo.line.flags', r.day, [...kinds].map(([k, n]) => `${k} ${n}`).join(', '), r.cards.length, [...colours].map(([k, n]) => `${k} ${n}`).join(', ')),
  ];
  return lines;
}

/** Logs in through the replay server's form: in Chromium when available, else a plain HTTP form post. */
async function demoLogin(game: Game, useBrowser: boolean, log: (l: string) => void): Promise<'browser' | 'http'> {
  if (useBrowser && hasBrowser(game.browser)) {
    await login({ forum: game.forum, sessionPath: game.sessionPath, browserPath: game.browser, ...DEMO_USER, headless: true, log });
    return 'browser';
  }
  await formLogin(game.forum, game.sessionPath, DEMO_USER);
  return 'http';
}

export function register(program: Command): void {
  program
    .command('demo')
    .description(t('demo.description'))
    .option('--preset <name>', t('demo.preset', Object.keys(DEMO_GAMES).join(', ')), 'public')
    .option('--out <dir>', t('demo.out', DEFAULT_DEMO_OUT))
    .option('--no-browser', t('demo.noBrowser'))
    .action(async (o: { preset: string; out?: string; browser: boolean }) => {
      if (!(o.preset in DEMO_GAMES)) throw new UserError(t('demo.unknown', o.preset, Object.keys(DEMO_GAMES).join(', ')));
      const c = pc.createColors(stdoutColor());
      const verbose = process.stderr.isTTY;
      const r = await runDemo({ preset: o.preset as DemoName, out: o.out, browser: o.browser, log: verbose ? (l) => process.stderr.write(pc.dim(`${l}\n`)) : undefined });
      const lines = [
        c.bold(t('demo.heading', o.preset)),
        ...r.summary.map((s) => `  ${s}`),
        '',
        c.bold(t('demo.writtenTo', r.out)),
      ];
      for (const f of r.files) lines.push(`  ${padDisplay(f.what, 24)} ${f.path}`);
      lines.push('', t('demo.done', (r.elapsedMs / 1000).toFixed(1), r.gameFile));
      process.stdout.write(`${lines.join('\n')}\n`);
    });
}
