/**
 * `bansha init`'s reading of a board listing (forum.php?mod=forumdisplay&fid=F or forum-F-1.html): the
 * threads it lists (tbody#normalthread_TID / stickthread_TID, a.s.xst title link), what each title says
 * it is (第N日讨论帖 / 投票帖 / 警长竞选投票帖 / 对战规则投票帖 / 拍卖贴, 进程帖, 规则帖), grouped by the game tag
 * in front ("[M901]"), and the game file drafted from them. Pure: HTML text in, plain values out.
 */
import * as cheerio from 'cheerio';
import { classifyTitle } from './thread-title.js';

export { classifyTitle, type ThreadKind, type ThreadRole } from './thread-title.js';

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
  /** Where the players came from. */
  playersFrom: string;
  /** Day-1 opening time guess (forum-local "YYYY-MM-DD HH:mm"), from the discussion thread's first post. */
  opens: Map<number, string>;
}

const q = (s: string) => JSON.stringify(s);

/** The game.yaml text, with TODO comments on everything the director must check. */
export function renderGameDraft(d: GameDraft): string {
  const lines = [
    `# Drafted by \`bansha init\` from ${d.board}`,
    `# Game ${d.game.tag || '(no tag)'}${d.game.rulebook ? `; rules post: thread ${d.game.rulebook.tid} ${d.game.rulebook.title}` : ''}.`,
    ...(d.others.length ? [`# Other games on the board: ${d.others.join(', ')} (bansha init --tag TAG to draft one of them).`] : []),
    '# Check every TODO before counting anything: times are guesses, the player order must be the elevator order.',
    `forum: ${d.forum}`,
    'timezone: Asia/Shanghai',
    `ruleset: ${d.ruleset}  # TODO: m107, 062, wuhui or 120b — the preset of this game's rule post`,
    `directors: [${d.directors.map(q).join(', ')}]  # TODO: add the second director, if any`,
    `# TODO: players ${d.playersFrom}; put them in the elevator order of the rules post`,
    `players: [${d.players.map((p) => (d.uids?.[p] !== undefined ? `{name: ${q(p)}, uid: ${d.uids[p]}}` : q(p))).join(', ')}]`,
  ];
  if (d.game.process) lines.push(`process: ${d.game.process.tid}  # ${d.game.process.title}`);
  lines.push('days:');
  for (const n of [...d.game.days.keys()].sort((a, b) => a - b)) {
    const day = d.game.days.get(n)!;
    const opens = d.opens.get(n);
    lines.push(`  - day: ${n}`);
    for (const role of ['discussion', 'vote', 'rules', 'auction'] as const) {
      const t = day[role];
      if (t) lines.push(`    ${role}: ${t.tid}  # ${t.title}`);
    }
    lines.push(`    opens: ${q(opens ?? 'TODO')}  # TODO: check the opening time${opens ? ' (first post of the discussion thread)' : ''}`);
    lines.push(`    closes: ${q(opens ? `${opens.slice(0, 10)} 21:00` : 'TODO')}  # TODO: check the closing time (关门)`);
  }
  lines.push('events: []  # TODO: who left the game and when: {player: NAME, out: "YYYY-MM-DD HH:mm", how: night|vote|card|other}');
  return `${lines.join('\n')}\n`;
}
