/**
 * `bansha init`'s reading of a board listing (forum.php?mod=forumdisplay&fid=F or forum-F-1.html): the
 * threads it lists (tbody#normalthread_TID / stickthread_TID, a.s.xst title link), what each title says
 * it is (第N日讨论帖 / 投票帖 / 警长竞选投票帖 / 对战规则投票帖 / 拍卖贴, 进程帖, 规则帖), grouped by the game tag
 * in front ("[M901]"), and the game file drafted from them, its comments in the director's language.
 * Pure: HTML text in, plain values out.
 */
import * as cheerio from 'cheerio';
import { t } from '../i18n/index.js';
import type { ClosingWords } from './closing-words.js';
import { classifyTitle } from '../text/thread-title.js';

export { classifyTitle, type ThreadKind, type ThreadRole } from '../text/thread-title.js';

/** One thread as the board lists it. */
export interface BoardThread {
  tid: number;
  title: string;
  author: string | null;
}

/** The threads listed on a board page, in listing order. */
export function parseBoardListing(html: string): BoardThread[] {
  const $ = cheerio.load(html);
  const out: BoardThread[] = [];
  const seen = new Set<number>();
  $('tbody[id^="normalthread_"], tbody[id^="stickthread_"]').each((_, el) => {
    const tid = Number(/_(\d+)$/.exec($(el).attr('id') ?? '')?.[1]);
    const a = $(el).find('a.s.xst').first();
    if (!tid || !a.length || seen.has(tid)) return;
    seen.add(tid);
    const author = $(el).find('td.by cite a').first().text().trim() || null;
    out.push({ tid, title: a.text().trim(), author });
  });
  return out;
}

/** The game threads of one tag. */
export interface BoardGame {
  tag: string;
  days: Map<number, Partial<Record<'discussion' | 'vote' | 'rules' | 'auction', BoardThread>>>;
  process: BoardThread | null;
  rulebook: BoardThread | null;
}

/** Threads grouped by game tag, the game with the newest thread first. */
export function gamesOnBoard(threads: BoardThread[]): BoardGame[] {
  const games = new Map<string, BoardGame & { newest: number }>();
  const key = (tag: string) => /^\[[^\]]+\]/.exec(tag)?.[0] ?? tag;
  for (const t of threads) {
    const k = classifyTitle(t.title);
    if (!k) continue;
    const id = key(k.tag);
    const g = games.get(id) ?? { tag: id, days: new Map(), process: null, rulebook: null, newest: 0 };
    games.set(id, g);
    g.newest = Math.max(g.newest, t.tid);
    if (k.role === 'process') g.process ??= t;
    else if (k.role === 'rulebook') g.rulebook ??= t;
    else {
      const day = g.days.get(k.day!) ?? {};
      g.days.set(k.day!, day);
      day[k.role] ??= t;
    }
  }
  return [...games.values()].sort((a, b) => b.newest - a.newest).map(({ newest: _n, ...g }) => g);
}

/** What the drafted game file says. */
export interface GameDraft {
  board: string;
  forum: string;
  game: BoardGame;
  /** Other games seen on the board (tags), for the comment. */
  others: string[];
  ruleset: string;
  directors: string[];
  /** Players in order of their first post in day 1's discussion thread. */
  players: string[];
  /** Each player's forum uid, as their posts show it (written into the draft: the elevator needs them). */
  uids?: Readonly<Record<string, number>>;
  /** Where the players came from: day 1's discussion and vote threads, or nowhere (none was found). */
  playersFrom: 'day1' | 'unknown';
  /** Each day's opening time guess (forum-local "YYYY-MM-DD HH:mm"), from its discussion thread's first post. */
  opens: Map<number, string>;
  /** Each day's closing time as the first post of its vote or discussion thread states it (closing-words.ts). */
  closes?: Map<number, ClosingWords & { tid: number }>;
}

const q = (s: string) => JSON.stringify(s);

/** The forum's words quoted in a comment: one line, no control characters. */
const inComment = (s: string) => s.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, ' ');

/**
 * The game.yaml text, with TODO comments — in the director's language — on everything the director
 * must check. A day's closing time is the one its thread's first post states (关门时间：11月21日21:00),
 * else a guess (the opening day's 21:00) marked as such.
 */
export function renderGameDraft(d: GameDraft): string {
  const rulebook = d.game.rulebook ? `${d.game.rulebook.tid} ${inComment(d.game.rulebook.title)}` : null;
  const lines = [
    `# ${t('init.draft.header', d.board)}`,
    `# ${t('init.draft.game', inComment(d.game.tag) || t('init.draft.noTag'), rulebook)}`,
    ...(d.others.length ? [`# ${t('init.draft.others', d.others.map(inComment).join(', '))}`] : []),
    `# ${t('init.draft.checkAll')}`,
    `forum: ${d.forum}`,
    'timezone: Asia/Shanghai',
    `ruleset: ${d.ruleset}  # ${t('init.draft.ruleset')}`,
    `directors: [${d.directors.map(q).join(', ')}]  # ${t('init.draft.directors')}`,
    `# ${t(d.playersFrom === 'day1' ? 'init.draft.playersFromDay1' : 'init.draft.playersUnknown')}`,
    `players: [${d.players.map((p) => (d.uids?.[p] !== undefined ? `{name: ${q(p)}, uid: ${d.uids[p]}}` : q(p))).join(', ')}]`,
  ];
  if (d.game.process) lines.push(`process: ${d.game.process.tid}  # ${inComment(d.game.process.title)}`);
  lines.push('days:');
  for (const n of [...d.game.days.keys()].sort((a, b) => a - b)) {
    const day = d.game.days.get(n)!;
    const opens = d.opens.get(n);
    const read = d.closes?.get(n);
    lines.push(`  - day: ${n}`);
    for (const role of ['discussion', 'vote', 'rules', 'auction'] as const) {
      const th = day[role];
      if (th) lines.push(`    ${role}: ${th.tid}  # ${inComment(th.title)}`);
    }
    lines.push(`    opens: ${q(opens ?? 'TODO')}  # ${t(opens ? 'init.draft.opens' : 'init.draft.opensUnknown')}`);
    const closes = read?.at ?? (opens ? `${opens.slice(0, 10)} 21:00` : 'TODO');
    const why = read ? t('init.draft.closesRead', read.tid, inComment(read.words)) : t(opens ? 'init.draft.closesGuess' : 'init.draft.closesUnknown');
    lines.push(`    closes: ${q(closes)}  # ${why}`);
  }
  lines.push(`events: []  # ${t('init.draft.events')}`);
  return `${lines.join('\n')}\n`;
}
