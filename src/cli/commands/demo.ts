/**
 * `bansha demo [--preset public|wuhui|120b] [--out DIR]`: the whole closing-time job on a bundled game,
 * with no network. It serves the game's pages from a local replay of the forum (the captured public game,
 * or the wuhui / 120b demo sites rendered from the same captured markup), writes a game file pointing at
 * that server, logs in through its login form (in Chromium when /usr/bin/chromium exists, else a plain
 * HTTP form post), crawls (with a small delay between requests: the server is local), then closes every
 * day exactly as `bansha close` does (closeDay, src/close: count, duel-rule vote and auction for wuhui,
 * report with its proposed cards into a ledger in the output directory, the next day's elevator floor,
 * HTML, summary — into `game-day<N>/`), and prints the days' summaries and the paths of everything it
 * wrote. Everything goes into the output directory (default ./bansha-demo/, git-ignored in this
 * repository); nothing else is written.
 *
 * `--serve` keeps the replay server running afterwards (port 8081, or another free one when that is
 * taken: printed), with the demo's game file and session pointing at it, so every command a director runs
 * — login, crawl, watch, close, `--post --yes` — can be tried on the bundled forum, and the HTML reports'
 * links open; Ctrl-C (or SIGTERM/SIGHUP) stops it and the command ends with exit 0.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import pc from 'picocolors';
import { ledgerPath } from '../../cards/ledger.js';
import { crawlGame } from '../../crawl/crawler.js';
import { now as clockNow } from '../../clock.js';
import { hasBrowser } from '../../browser/discover.js';
import { login } from '../../crawl/login.js';
import { formLogin } from '../../demo/form-login.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';
import { loadGame } from '../../game/game-file.js';
import type { Game } from '../../game/types.js';
import type { TallyResult } from '../../votes/types.js';
import type { DayReport } from '../../report/day-report.js';
import { arbiterRange, duelPairs, elevatorRing } from '../../elevator/index.js';
import { packagePath } from '../../paths.js';
import { UserError } from '../../errors.js';
import { t } from '../../i18n/index.js';
import { displayWidth, padDisplay } from '../../text/width.js';
import { stdoutColor, wholeNumber } from '../options.js';
import { closeDay, type CloseResult } from '../../close/index.js';

/** The bundled demo games: the game file and the replayable site it is played on. */
export const DEMO_GAMES = {
  public: { game: packagePath('fixtures', 'games', 'public.yaml'), site: packagePath('fixtures', 'discuz', 'public') },
  wuhui: { game: packagePath('fixtures', 'games', 'wuhui.yaml'), site: packagePath('fixtures', 'discuz', 'demo-wuhui') },
  '120b': { game: packagePath('fixtures', 'games', '120b.yaml'), site: packagePath('fixtures', 'discuz', 'demo-120b') },
} as const;
export type DemoName = keyof typeof DEMO_GAMES;

/** The demo director's account on the replay server (the captured site's director). */
export const DEMO_USER = { username: '导演A', password: 'lab123456' };

/**
 * The port `bansha demo --serve` keeps the bundled forum on: the same from one run to the next, so a game
 * file or an HTML report of an earlier run points at it again (another free port when it is taken).
 */
export const DEMO_SERVE_PORT = 8081;

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
  /**
   * Keep the replay server running after the demo (`bansha demo --serve`), on `port` (default
   * DEMO_SERVE_PORT; when it is taken, another free one, and `portTaken` says so; 0: any free port).
   * The caller closes `result.server`.
   */
  serve?: { port?: number };
}

/** What the demo found on one day (for the summary and for tests): what `bansha close` gives for it. */
export interface DemoDay {
  day: number;
  tally: TallyResult | null;
  report: DayReport;
  close: CloseResult;
}

export interface DemoResult {
  out: string;
  gameFile: string;
  storePath: string;
  ledgerPath: string;
  login: 'browser' | 'http';
  /** The forum URL the replay server listened at (closed by now, unless `serve`). */
  forum: string;
  /** The replay server, still running: only with `serve`. */
  server?: ReplayServer;
  /** With `serve`: the port asked for, when it was taken and another was used. */
  portTaken?: number;
  days: DemoDay[];
  /** Every file written, by what it is. */
  files: Array<{ what: string; path: string }>;
  /** One line per result worth printing. */
  summary: string[];
  /** Wall time of the whole run, ms. */
  elapsedMs: number;
}

/** Files a previous demo run left in the output directory that must not leak into this one. */
const STALE = ['game.store.json', 'game.store.json.bak', 'game.store.threads', 'game.session.json', 'game.cards.json', 'game.rulings.json'];
/** The day folders a previous run's closes wrote (`bansha close`'s default `<game>-day<N>/`). */
const STALE_DAY = /^game-day\d+$/;

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

  const { server, portTaken } = await startDemoServer(demo.site, opts.serve);
  let keep = false;
  try {
    log(`replay server for the ${preset} demo at ${server.url}`);
    const gameFile = path.join(out, 'game.yaml');
    const template = fs.readFileSync(demo.game, 'utf8');
    if (!/^forum: .*$/m.test(template)) throw new Error(`${demo.game} has no forum: line`);
    for (const stale of STALE) fs.rmSync(path.join(out, stale), { force: true, recursive: true });
    for (const e of fs.readdirSync(out)) if (STALE_DAY.test(e)) fs.rmSync(path.join(out, e), { force: true, recursive: true });
    fs.writeFileSync(gameFile, template.replace(/^forum: .*$/m, `forum: ${server.url}   # ${t('demo.forumComment')}`));
    files.push({ what: t('demo.file.game'), path: gameFile });
    const game = loadGame(gameFile);

    const how = await demoLogin(game, opts.browser !== false, log);
    summary.push(t('demo.login', DEMO_USER.username, how));
    // The demo replays a finished game: it runs after its last close, whatever the date (issue 31: before a
    // close a count is a running one), its pages stamped then.
    const moment = Math.max(clockNow(), ...game.days.map((d) => d.closes + 60_000));
    const crawl = await crawlGame(game, { delayMs: DEMO_CRAWL_DELAY_MS, concurrency: 4, progress: false, log, now: () => moment });
    files.push({ what: t('demo.file.store'), path: crawl.storePath });
    if (crawl.incomplete) throw new UserError(t('demo.crawlIncomplete'), 5);
    const pages = crawl.threads.reduce((n, t) => n + t.fetchedPages.length, 0);
    summary.push(t('demo.crawl', crawl.threads.length, pages, crawl.requests, DEMO_CRAWL_DELAY_MS));

    const days = await runJob(game, preset, files, summary, moment);
    const ledger = ledgerPath(game.file);
    keep = opts.serve !== undefined;
    const served = keep ? { server, portTaken } : {};
    return { out, gameFile, storePath: game.storePath, ledgerPath: ledger, login: how, forum: server.url, days, files, summary, elapsedMs: Date.now() - started, ...served };
  } finally {
    if (!keep) await server.close();
  }
}

/** The demo's replay server: on any free port, or for `serve` on the port asked for (another when it is taken). */
async function startDemoServer(site: string, serve: DemoOptions['serve']): Promise<{ server: ReplayServer; portTaken?: number }> {
  const base = { root: site, users: { [DEMO_USER.username]: DEMO_USER.password } };
  const port = serve ? (serve.port ?? DEMO_SERVE_PORT) : 0;
  try {
    return { server: await startReplayServer({ ...base, port }) };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port === 0) throw e;
    return { server: await startReplayServer(base), portTaken: port };
  }
}

/** Runs until SIGINT (Ctrl-C), SIGTERM or SIGHUP, then closes the server. */
function serveUntilStopped(server: ReplayServer): Promise<NodeJS.Signals> {
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      for (const s of signals) process.off(s, stop);
      void server.close().then(() => resolve(signal));
    };
    for (const s of signals) process.on(s, stop);
  });
}

/** A path as a director would type it: `./bansha-demo/game.yaml` under the current folder, else absolute; quoted when it holds a space. */
function typed(p: string): string {
  const rel = path.relative(process.cwd(), p);
  const shown = rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? `.${path.sep}${rel}` : p;
  return /\s/.test(shown) ? `"${shown}"` : shown;
}

/**
 * The closing-time job, day by day, as a director runs it: `closeDay` (src/close) on each day of the
 * crawled game — count, rule vote and auction (wuhui), report with its proposals into the ledger, the
 * next day's elevator floor, HTML — each into `<game>-day<N>/` like `bansha close`; then the game-level
 * extras of the two other presets (wuhui's day-1 duels, 120b's 仲裁者 range).
 */
async function runJob(game: Game, preset: DemoName, files: DemoResult['files'], summary: string[], now: number): Promise<DemoDay[]> {
  const days: DemoDay[] = [];
  for (const d of game.days) {
    const closed = await closeDay({ gameFile: game.file, day: d.day, crawl: false, now });
    days.push({ day: d.day, tally: closed.tally, report: closed.closing.report, close: closed });
    summary.push(...closed.summary);
    for (const f of closed.files) if (!files.some((x) => x.path === f.path)) files.push(f);
  }
  if (preset === 'wuhui') {
    const pairs = duelPairs(game, 1);
    const p = path.join(path.dirname(game.file), 'pairs-day1.txt');
    fs.writeFileSync(p, pairs.map((x) => x.join(' — ')).join('\n') + '\n');
    files.push({ what: t('demo.file.pairs'), path: p });
    summary.push(t('demo.line.duels', pairs.map((x) => x.join('–')).join(', ')));
  }
  if (game.rules.arbiterDivisor) {
    const last = game.days[game.days.length - 1].day;
    const from = elevatorRing(game, last).at(-1)!;
    const range = arbiterRange(game, last, from);
    summary.push(t('demo.line.arbiter', last, from, range.join('、')));
  }
  return days;
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
    .option('--serve', t('demo.serve', DEMO_SERVE_PORT))
    .option('--port <n>', t('demo.port', DEMO_SERVE_PORT), wholeNumber('port', 0))
    .option('--live', t('demo.live'))
    .option('--open', t('watch.open'))
    .option('--minutes <n>', t('demo.minutes'), Number)
    .action(async (o: { preset: string; out?: string; browser: boolean; serve?: boolean; port?: number; live?: boolean; open?: boolean; minutes?: number }) => {
      if (o.live) return (await import('../../demo/live-command.js')).demoLive({ out: o.out, open: o.open, minutes: o.minutes });
      if (o.open) throw new UserError(t('watch.serveOnly', '--open'));
      if (!(o.preset in DEMO_GAMES)) throw new UserError(t('demo.unknown', o.preset, Object.keys(DEMO_GAMES).join(', ')));
      if (o.port !== undefined && !o.serve) throw new UserError(t('demo.portWithoutServe'), 2);
      const c = pc.createColors(stdoutColor());
      const verbose = process.stderr.isTTY;
      const serve = o.serve ? { port: o.port } : undefined;
      const r = await runDemo({ preset: o.preset as DemoName, out: o.out, browser: o.browser, serve, log: verbose ? (l) => process.stderr.write(pc.dim(`${l}\n`)) : undefined });
      const lines = [
        c.bold(t('demo.heading', o.preset)),
        ...r.summary.map((s) => `  ${s}`),
        '',
        c.bold(t('demo.writtenTo', r.out)),
      ];
      // A day's close writes a folder as `bansha close` does: shown as the folder, not its every file.
      const folders = new Set(r.days.map((d) => d.close.out));
      for (const f of r.files) if (!folders.has(path.dirname(f.path))) lines.push(`  ${padDisplay(f.what, 24)} ${f.path}`);
      for (const d of r.days) lines.push(`  ${padDisplay(t('demo.file.day', d.day, d.close.files.filter((f) => path.dirname(f.path) === d.close.out).length), 24)} ${d.close.out}${path.sep}`);
      lines.push('', t('demo.done', (r.elapsedMs / 1000).toFixed(1), typed(r.gameFile)));
      if (!r.server) {
        lines.push(t('demo.serveHint'));
        process.stdout.write(`${lines.join('\n')}\n`);
        return;
      }
      const g = typed(r.gameFile);
      if (r.portTaken !== undefined) lines.push('', t('demo.serve.portTaken', r.portTaken));
      lines.push('', c.bold(t('demo.serve.running', r.forum, DEMO_USER.username, DEMO_USER.password)), t('demo.serve.try'));
      const tries: Array<[string, string]> = [
        [`bansha crawl -g ${g}`, t('demo.serve.crawl')],
        [`bansha watch -g ${g} --day 2`, t('demo.serve.watch')],
        [`bansha close --day 2 -g ${g} --post`, t('demo.serve.post')],
        [`bansha close --day 2 -g ${g} --post --yes`, t('demo.serve.postYes')],
        [`bansha login -g ${g}`, t('demo.serve.login')],
      ];
      const width = Math.max(...tries.map(([cmd]) => displayWidth(cmd)));
      for (const [cmd, what] of tries) lines.push(`  ${padDisplay(cmd, width)}  ${c.dim(what)}`);
      lines.push(t('demo.serve.stop'));
      process.stdout.write(`${lines.join('\n')}\n`);
      await serveUntilStopped(r.server);
      process.stdout.write(`${t('demo.serve.stopped')}\n`);
    });
}
