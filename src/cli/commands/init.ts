/**
 * `bansha init --board URL [--out game.yaml]`: draft a game file from a board listing. It reads the
 * board page (forum.php?mod=forumdisplay&fid=F or forum-F-1.html), finds the game's threads by their
 * titles (第N日讨论帖/投票帖/警长竞选投票帖/对战规则投票帖/拍卖贴, 进程帖, 规则帖), takes the players from
 * the posters of day 1's discussion thread, each day's closing time from the words of its thread's first
 * post (closing-words.ts), and writes a game.yaml with TODO comments, in the director's language, on
 * everything the director must check (times, order, ruleset). It never overwrites an existing file.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { DateTime } from 'luxon';
import { decodeBody, parsePage, type Page } from '../../discuz/index.js';
import { CookieJar, readSession, type StoredCookie } from '../../crawl/session.js';
import { HostScope, httpGet } from '../../crawl/http.js';
import { login } from '../../crawl/login.js';
import { threadPageUrl } from '../../crawl/crawler.js';
import { gamesOnBoard, parseBoardListing, renderGameDraft, type BoardGame } from '../../init/board.js';
import { closingFromText, type ClosingWords } from '../../init/closing-words.js';
import { UserError } from '../../errors.js';
import { atFile } from '../../file-fault.js';
import { t } from '../../i18n/index.js';

export interface InitOptions {
  board: string;
  out: string;
  /** A saved session to read the board with (boards often refuse guests). */
  session?: string;
  /** Pick the game with this tag ("[M901]") when the board holds several. */
  tag?: string;
  ruleset?: string;
  /** Log in first (Chromium; BANSHA_USERNAME/BANSHA_PASSWORD for headless), saving the session beside --out. */
  login?: boolean;
  timezone?: string;
  fetchImpl?: typeof fetch;
}

/** The forum root of a board URL: everything before forum.php / forum-F-1.html. */
export function forumRoot(board: string): string {
  const u = new URL(board);
  u.search = '';
  u.hash = '';
  u.pathname = u.pathname.replace(/[^/]*$/, '');
  return u.toString();
}

/** Drafts the game file and writes it; returns its path. Throws when the file exists. */
export async function runInit(o: InitOptions): Promise<{ file: string; game: BoardGame; players: string[] }> {
  const out = path.resolve(o.out);
  if (fs.existsSync(out)) throw new UserError(t('init.exists', out));
  let board: URL;
  try {
    board = new URL(o.board);
  } catch {
    throw new UserError(t('init.notUrl', o.board));
  }
  if (!/mod=forumdisplay|forum-\d+-\d+\.html/.test(board.toString())) {
    throw new UserError(t('init.notBoard', board.toString()));
  }
  const forum = forumRoot(board.toString());
  const sessionPath = o.session ? path.resolve(o.session) : out.replace(/\.ya?ml$/i, '') + '.session.json';
  if (o.login) {
    await login({ forum, sessionPath, username: process.env.BANSHA_USERNAME, password: process.env.BANSHA_PASSWORD });
  }
  let cookies: StoredCookie[] = [];
  if (fs.existsSync(sessionPath)) cookies = (await readSession(sessionPath)).cookies;
  const jar = new CookieJar(cookies);
  const scope = new HostScope(forum);
  const get = (url: string) => httpGet(url, { jar, scope, timeoutMs: 30_000, fetchImpl: o.fetchImpl });

  const listing = await get(board.toString());
  const html = decodeBody(listing.bytes, listing.contentType, listing.url).text;
  const threads = parseBoardListing(html);
  if (threads.length === 0) {
    const refused = /messagelogin|alert_error|尚未登录|没有权限/.test(html);
    throw new UserError(
      refused
        ? t('init.boardRefused', o.board)
        : t('init.noThreads', board.toString()),
      refused ? 4 : 2,
    );
  }
  const games = gamesOnBoard(threads);
  const game = o.tag ? games.find((g) => g.tag === o.tag || g.tag === `[${o.tag}]`) : games[0];
  if (!game) {
    throw new UserError(o.tag ? t('init.noTag', o.tag, games.map((g) => g.tag).join(', ')) : t('init.noGames'));
  }

  // Players: the posters of day 1's discussion thread, then of its vote thread, in order of their first
  // post; the discussion thread's author directs. Every day's discussion thread gives that day's opening guess.
  const players: string[] = [];
  const uids: Record<string, number> = {};
  const directors: string[] = [];
  const opens = new Map<number, string>();
  const zone = o.timezone ?? 'Asia/Shanghai';
  // Page 1 of each thread, fetched once: day 1's discussion thread is read for its opening time and its posters.
  const firstPages = new Map<number, Page>();
  const readThread = async (tid: number): Promise<Page> => {
    const known = firstPages.get(tid);
    if (known) return known;
    const first = parsePage(await get(threadPageUrl(forum, tid, 1)));
    if (first.page.kind !== 'thread') {
      const login = first.page.kind === 'login' || first.page.kind === 'no-permission';
      throw new UserError(t('err.threadAnswered', tid, first.page.kind, first.page.message ?? null), login ? 4 : 3);
    }
    firstPages.set(tid, first);
    return first;
  };
  // Each day's closing time, as the first post of its vote thread (else its discussion thread) states it.
  const closes = new Map<number, ClosingWords & { tid: number }>();
  const local = (iso: string) => DateTime.fromISO(iso, { setZone: true }).setZone(zone);
  for (const [n, day] of game.days) {
    if (day.discussion) {
      const op = (await readThread(day.discussion.tid)).posts[0];
      if (op) opens.set(n, local(op.postedAt).toFormat('yyyy-MM-dd HH:mm'));
    }
    for (const thread of [day.vote, day.rules, day.discussion]) {
      if (!thread || closes.has(n)) continue;
      const op = (await readThread(thread.tid)).posts[0];
      const read = op ? closingFromText(op.text, local(op.postedAt).toFormat('yyyy-MM-dd')) : null;
      if (read) closes.set(n, { ...read, tid: thread.tid });
    }
  }
  const day1 = game.days.get(1);
  const sources = [day1?.discussion, day1?.vote].filter((t) => t !== undefined);
  for (const [i, thread] of sources.entries()) {
    const first = await readThread(thread.tid);
    if (i === 0 && first.posts[0]) directors.push(first.posts[0].author);
    const pages = [first];
    for (let p = 2; p <= (first.page.pageCount ?? 1); p++) pages.push(parsePage(await get(threadPageUrl(forum, thread.tid, p))));
    for (const page of pages) {
      for (const post of page.posts) {
        if (directors.includes(post.author) || players.includes(post.author)) continue;
        players.push(post.author);
        if (post.authorId !== null && post.authorId > 0) uids[post.author] = post.authorId;
      }
    }
  }
  const text = renderGameDraft({
    board: board.toString(),
    forum,
    game,
    others: games.filter((g) => g !== game).map((g) => g.tag),
    ruleset: o.ruleset ?? 'm107',
    directors,
    players,
    uids,
    playersFrom: sources.length ? 'day1' : 'unknown',
    opens,
    closes,
  });
  fs.mkdirSync(path.dirname(out), { recursive: true });
  try {
    fs.writeFileSync(out, text, { flag: 'wx' });
  } catch (e) {
    // (a file this call created and could not finish, not one it found: a rerun would refuse a half-written one)
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') fs.rmSync(out, { force: true });
    throw atFile(e, out);
  }
  return { file: out, game, players };
}

export function register(program: Command): void {
  program
    .command('init')
    .description(t('init.description'))
    .requiredOption('--board <url>', t('init.board') + t('cli.required'))
    .option('--out <file>', t('init.out'), 'game.yaml')
    .option('--session <file>', t('init.session'))
    .option('--login', t('init.login'))
    .option('--tag <tag>', t('init.tag'))
    .option('--ruleset <name>', t('init.ruleset'), 'm107')
    .action(async (o: { board: string; out: string; session?: string; login?: boolean; tag?: string; ruleset: string }) => {
      const r = await runInit(o);
      const days = [...r.game.days.keys()].sort((a, b) => a - b);
      process.stdout.write(
        `${t('init.wrote', r.file, r.game.tag, days.join(', '), r.players.length, r.game.process?.tid ?? null)}\n${t('init.check')}\n`,
      );
    });
}
