/**
 * `bansha demo [--preset public|wuhui|120b] [--out DIR]`: the whole closing-time job on a bundled game,
 * with no network. It serves the game's pages from a local replay of the forum (the captured public game,
 * or the wuhui / 120b demo sites rendered from the same captured markup), writes a game file pointing at
 * that server, logs in through its login form (in Chromium when /usr/bin/chromium exists, else a plain
 * HTTP form post), crawls, tallies every day, resolves the auction (wuhui), builds the elevator floor and
 * the HTML report of each day, then prints a short summary and the paths of everything it wrote.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import pc from 'picocolors';
import { crawlGame } from '../../crawl/crawler.js';
import { chromiumPath, login } from '../../crawl/login.js';
import { saveSession, type StorageState } from '../../crawl/session.js';
import { USER_AGENT } from '../../crawl/http.js';
import { startReplayServer } from '../../replay/server.js';
import { loadGame } from '../../game/game-file.js';
import type { Game } from '../../game/types.js';
import { openStore } from '../../store/index.js';
import { threadPosts } from '../../store/slice.js';
import type { StoreData } from '../../store/types.js';
import { postsFromStore, tallyDay } from '../../votes/tally.js';
import { renderTallyTerminal } from '../../render/tally-terminal.js';
import { renderHtmlReport } from '../../render/html-report.js';
import { htmlDayInput } from '../../render/html-day.js';
import { renderAuctionText } from '../../render/auction-text.js';
import { resolveAuction, voteOutShare } from '../../auction/index.js';
import { arbiterRange, duelPairs, elevatorFloor, elevatorRing } from '../../elevator/index.js';
import { packagePath } from '../../paths.js';
import { UserError } from '../errors.js';

/** The bundled demo games: the game file and the replayable site it is played on. */
export const DEMO_GAMES = {
  public: { game: packagePath('fixtures', 'games', 'public.yaml'), site: packagePath('fixtures', 'discuz', 'public') },
  wuhui: { game: packagePath('fixtures', 'games', 'wuhui.yaml'), site: packagePath('fixtures', 'discuz', 'demo-wuhui') },
  '120b': { game: packagePath('fixtures', 'games', '120b.yaml'), site: packagePath('fixtures', 'discuz', 'demo-120b') },
} as const;
export type DemoName = keyof typeof DEMO_GAMES;

/** The demo director's account on the replay server (the captured site's director). */
const DEMO_USER = { username: '导演A', password: 'lab123456' };

export interface DemoOptions {
  preset?: DemoName;
  /** Output directory (created); default a fresh temporary directory. */
  out?: string;
  /** Use the browser login when Chromium is there (default true). */
  browser?: boolean;
  /** Progress and notes go here (default: nothing). */
  log?: (line: string) => void;
}

export interface DemoResult {
  out: string;
  gameFile: string;
  storePath: string;
  login: 'browser' | 'http';
  /** Every file written, by what it is. */
  files: Array<{ what: string; path: string }>;
  /** One line per result worth printing. */
  summary: string[];
}

/** Runs the demo end to end; the server is closed before it returns. */
export async function runDemo(opts: DemoOptions = {}): Promise<DemoResult> {
  const preset = opts.preset ?? 'public';
  const demo = DEMO_GAMES[preset];
  if (!demo) throw new UserError(`unknown demo "${preset}" (choose ${Object.keys(DEMO_GAMES).join(', ')})`);
  const log = opts.log ?? (() => undefined);
  const out = path.resolve(opts.out ?? fs.mkdtempSync(path.join(os.tmpdir(), `bansha-demo-${preset}-`)));
  fs.mkdirSync(out, { recursive: true });
  const files: DemoResult['files'] = [];
  const summary: string[] = [];
  const write = (what: string, name: string, text: string) => {
    const p = path.join(out, name);
    fs.writeFileSync(p, text);
    files.push({ what, path: p });
  };

  const server = await startReplayServer({ root: demo.site });
  try {
    log(`replay server for the ${preset} demo at ${server.url}`);
    const gameFile = path.join(out, 'game.yaml');
    const template = fs.readFileSync(demo.game, 'utf8');
    if (!/^forum: .*$/m.test(template)) throw new Error(`${demo.game} has no forum: line`);
    fs.writeFileSync(gameFile, template.replace(/^forum: .*$/m, `forum: ${server.url}`));
    files.push({ what: 'game file', path: gameFile });
    for (const stale of ['game.store.json', 'game.store.json.bak', 'game.session.json']) fs.rmSync(path.join(out, stale), { force: true });
    const game = loadGame(gameFile);

    const how = await demoLogin(game, opts.browser !== false, log);
    log(`logged in (${how})`);
    const crawl = await crawlGame(game, { delayMs: 20, concurrency: 4, progress: false });
    files.push({ what: 'evidence store', path: crawl.storePath });
    if (crawl.incomplete) throw new UserError('the demo crawl could not fetch every page', 5);
    summary.push(`crawled ${crawl.threads.length} threads, ${crawl.requests} requests`);

    const store = await openStore(game.storePath, { lock: false });
    try {
      runJob(store.data, game, preset, write, summary);
    } finally {
      await store.close();
    }
    return { out, gameFile, storePath: game.storePath, login: how, files, summary };
  } finally {
    await server.close();
  }
}

/** The closing-time job on the crawled store: tallies, auction, elevator, HTML reports. */
function runJob(store: StoreData, game: Game, preset: DemoName, write: (what: string, name: string, text: string) => void, summary: string[]): void {
  const posts = postsFromStore(store);
  for (const d of game.days) {
    const tally = tallyDay(game, posts, d.day);
    write(`day ${d.day} tally`, `tally-day${d.day}.txt`, renderTallyTerminal(tally));
    summary.push(
      tally.kind === 'none'
        ? `day ${d.day}: no public vote (${game.rules.name})`
        : `day ${d.day}: ${tally.kind === 'election' ? 'sheriff' : 'out'} ${tally.result.name ?? 'nobody'}` +
            `${tally.result.tie.length ? ` (tie ${tally.result.tie.join('/')}: ${tally.result.rule})` : ''} — ` +
            tally.totals.filter((t) => t.votes > 0).map((t) => `${t.name} ${t.votes}`).join(', '),
    );
    if (d.rules) {
      const rules = tallyDay(game, posts, d.day, { rules: true });
      write(`day ${d.day} duel-rule tally`, `rules-day${d.day}.txt`, renderTallyTerminal(rules));
      summary.push(`day ${d.day}: duel rule ${rules.result.name ?? 'none'}`);
    }
    if (d.auction && game.rules.wuhui) {
      const auction = resolveAuction(threadPosts(store, d.auction.tid), game, d.day);
      write(`day ${d.day} auction`, `auction-day${d.day}.txt`, renderAuctionText(auction, voteOutShare(game, d)));
      summary.push(`day ${d.day}: auction ${auction.items.map((i) => `${i.item}号 ${i.winner ? `${i.winner} ${i.price}G` : '—'}`).join(', ')}`);
    }
    if (d.discussion) write(`day ${d.day} elevator floor`, `elevator-day${d.day}.txt`, elevatorFloor(store, game, d.day).bbcode);
    write(`day ${d.day} HTML report`, `report-day${d.day}.html`, renderHtmlReport(htmlDayInput(store, game, d.day, { tally })));
  }
  if (preset === 'wuhui') {
    const pairs = duelPairs(game, 1);
    write('day 1 duel pairs', 'pairs-day1.txt', pairs.map((p) => p.join(' — ')).join('\n') + '\n');
    summary.push(`day 1 duels: ${pairs.map((p) => p.join('–')).join(', ')}`);
  }
  if (game.rules.arbiterDivisor) {
    const last = game.days[game.days.length - 1].day;
    const from = elevatorRing(game, last).at(-1)!;
    const range = arbiterRange(game, last, from);
    summary.push(`day ${last}: 仲裁者 range from ${from}: ${range.join('、')}`);
  }
}

/** Logs in through the replay server's form: in Chromium when available, else a plain HTTP form post. */
async function demoLogin(game: Game, useBrowser: boolean, log: (l: string) => void): Promise<'browser' | 'http'> {
  if (useBrowser && fs.existsSync(chromiumPath(game.browser))) {
    await login({ forum: game.forum, sessionPath: game.sessionPath, browserPath: game.browser, ...DEMO_USER, headless: true, log });
    return 'browser';
  }
  const url = new URL('member.php?mod=logging&action=login&loginsubmit=yes', game.forum);
  const res = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': USER_AGENT },
    body: new URLSearchParams({ ...DEMO_USER, loginfield: 'username', questionid: '0', answer: '' }).toString(),
  });
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]).filter((c) => c.includes('='));
  if (res.status !== 302 || cookies.length === 0) throw new UserError(`the demo login was refused (HTTP ${res.status})`, 4);
  const state: StorageState = {
    cookies: cookies.map((c) => {
      const i = c.indexOf('=');
      return { name: c.slice(0, i), value: c.slice(i + 1), domain: url.hostname, path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' as const };
    }),
    origins: [],
  };
  await saveSession(game.sessionPath, state);
  return 'http';
}

export function register(program: Command): void {
  program
    .command('demo')
    .description('run the whole closing-time job on a bundled game served locally (no network): crawl, tally, report, elevator, HTML')
    .option('--preset <name>', `which bundled game: ${Object.keys(DEMO_GAMES).join(', ')}`, 'public')
    .option('--out <dir>', 'where to write the results (default: a new temporary directory)')
    .option('--no-browser', 'log in with a plain HTTP form post even when Chromium is there')
    .action(async (o: { preset: string; out?: string; browser: boolean }) => {
      if (!(o.preset in DEMO_GAMES)) throw new UserError(`unknown --preset "${o.preset}" (choose ${Object.keys(DEMO_GAMES).join(', ')})`);
      const verbose = process.stderr.isTTY;
      const r = await runDemo({ preset: o.preset as DemoName, out: o.out, browser: o.browser, log: verbose ? (l) => process.stderr.write(pc.dim(`${l}\n`)) : undefined });
      const lines = [pc.bold(`bansha demo (${o.preset}) — logged in via ${r.login}`), ...r.summary.map((s) => `  ${s}`), '', pc.bold('written:')];
      for (const f of r.files) lines.push(`  ${f.what.padEnd(24)} ${f.path}`);
      process.stdout.write(`${lines.join('\n')}\n`);
    });
}
