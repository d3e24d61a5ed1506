/**
 * A synthetic long game for the benchmark: N players over D days, each day a discussion thread and a
 * vote thread (UTF-8 pages on odd days, GBK pages with jammer on even days), plus one process thread,
 * with a given total number of posts. Every page is built from the real captured Discuz markup by
 * src/replay/synth.ts, lazily, one page at a time, so a 50,000-post game never sits in memory as HTML.
 * The posts are written the way players write: lines from the captured scenarios, red and enlarged
 * fonts, quotes, ballots in the 投票对象/投票理由 format and changed votes quoting the first ballot.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { packagePath } from '../paths.js';
import { buildThreadPage, familyPpp, forumTimeMs, pageCountOf, rng, type SynthFamily, type SynthPage, type SynthPost, type SynthThread } from '../replay/synth.js';

/** How big a game to make. */
export interface SynthGameOptions {
  /** Total posts over all threads (opening posts included). */
  posts: number;
  /** Default 20. */
  players?: number;
  /** Default 10. */
  days?: number;
  /** Forum root the game file and the pages claim; default the captured UTF-8 site's. */
  forum?: string;
  /** Seed of the deterministic choices (who posts what); default 1. */
  seed?: number;
}

/** One thread of the synthetic game, with the role it plays. */
export interface SynthGameThread extends SynthThread {
  role: 'discussion' | 'vote' | 'process';
  day: number | null;
}

/** The game: its game-file YAML and its threads (posts in thread order). */
export interface SynthGame {
  gameYaml: string;
  forum: string;
  players: string[];
  director: string;
  /** Players killed at night, and when (epoch ms): they post no more from then. */
  out: ReadonlyMap<string, number>;
  threads: SynthGameThread[];
  posts: number;
  /** Every (thread, page) in crawl order. */
  pages: Array<{ thread: SynthGameThread; page: number }>;
}

const NAMES = [
  '饺子', '包子', '馒头', '烧卖', '汤圆', '春卷', '油条', '豆浆', '花卷', '粽子',
  '月饼', '麻花', '烧饼', '锅贴', '煎饼', '凉皮', '米线', '年糕', '酥饼', '麻团',
  '卤蛋', '豆花', '肠粉', '糍粑', '米糕', '凉面', '锅盔', '烤麸', '藕盒', '蛋挞',
];
const DIRECTOR = '导演B';
const DIRECTOR_UID = 2;
const FIRST_DAY = '2026-12-01';
const HOUR = 3600_000;

let linePool: string[] | null = null;

/** Plain discussion lines players wrote in the captured scenarios (no ballots, no BBCode). */
function discussionLines(): string[] {
  if (linePool) return linePool;
  const lines = new Set<string>();
  for (const f of ['public.yaml', 'public-gbk.yaml']) {
    const s = parseYaml(readFileSync(packagePath('fixtures', 'scenarios', f), 'utf8')) as { threads: Array<{ posts: Array<{ body: string }> }> };
    for (const t of s.threads) {
      for (const p of t.posts) {
        for (const l of String(p.body).split('\n')) {
          const line = l.trim();
          if (line && !/[[\]@]|投票|改票|https?:/.test(line)) lines.add(line);
        }
      }
    }
  }
  linePool = [...lines];
  if (linePool.length < 5) throw new Error('bench: too few scenario lines to write posts from');
  return linePool;
}

const uidOf = (playerIndex: number): number => 100 + playerIndex;
type Rand = () => number;
const pickOf = <T>(rand: Rand, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];

/** A discussion post's body: one to three lines, some red or enlarged. */
function discussionBody(rand: Rand, lines: readonly string[]): string {
  const n = 1 + Math.floor(rand() * 3);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let l = pickOf(rand, lines);
    const r = rand();
    if (r < 0.05) l = `[color=Red]${l}[/color]`;
    else if (r < 0.08) l = `[size=5]${l}[/size]`;
    out.push(l);
  }
  return out.join('\n');
}

/** A discussion post's quote, for one in ten: one of the last three posts. */
function recentQuote(rand: Rand, posts: readonly SynthPost[]): number | undefined {
  return rand() < 0.1 ? posts[posts.length - 1 - Math.floor(rand() * 3)].pid : undefined;
}

/**
 * A vote-thread post by one of `alive`: their ballot, or (once they have one, pid in `first`) a changed
 * vote quoting it, or chatter.
 */
function votePost(rand: Rand, lines: readonly string[], alive: readonly string[], first: Map<string, number>, make: (author: string, body: string, quote?: number) => SynthPost): SynthPost {
  const voter = pickOf(rand, alive);
  const target = pickOf(rand, alive.filter((p) => p !== voter));
  const had = first.get(voter);
  if (had === undefined) {
    const p = make(voter, `投票对象：${target}\n投票理由：${pickOf(rand, lines)}`);
    first.set(voter, p.pid);
    return p;
  }
  if (rand() < 0.5) return make(voter, `改票对象：${target}\n改票理由：${pickOf(rand, lines)}`, had);
  return make(voter, pickOf(rand, lines));
}

const dayStart = (day: number): number => forumTimeMs(`${FIRST_DAY} 00:00:00`) + (day - 1) * 24 * HOUR;

/** Make the game. Deterministic for given options. */
export function synthGame(opts: SynthGameOptions): SynthGame {
  const nPlayers = opts.players ?? 20;
  const nDays = opts.days ?? 10;
  const forum = opts.forum ?? 'http://127.0.0.1:8081/';
  const rand = rng(opts.seed ?? 1);
  const pick = <T>(xs: readonly T[]): T => pickOf(rand, xs);
  if (nPlayers > NAMES.length) throw new Error(`bench: at most ${NAMES.length} players`);
  const players = NAMES.slice(0, nPlayers);
  const uid = new Map(players.map((p, i) => [p, uidOf(i)]));
  const lines = discussionLines();

  // Posts per thread: 2% process, 10% votes, the rest discussion; every thread has its opening post.
  const total = Math.max(opts.posts, 2 * nDays + 1);
  const processN = Math.max(1, Math.round(total * 0.02));
  const perDay = (total - processN) / nDays;
  const voteN = Math.max(1, Math.round(perDay * 0.1));
  const threads: SynthGameThread[] = [];
  let pid = 1000;
  let assigned = processN;

  // Night deaths: one player from day 2 on, at the day's opening (they stop posting then).
  const outAt = new Map<string, number>();
  for (let d = 2; d <= nDays && d - 2 < nPlayers - 3; d++) outAt.set(players[d - 2], dayStart(d) + 10 * HOUR);
  const aliveAt = (t: number): string[] => players.filter((p) => (outAt.get(p) ?? Infinity) > t);

  const post = (author: string, at: number, body: string, quote?: number): SynthPost => ({
    pid: pid++, author, uid: author === DIRECTOR ? DIRECTOR_UID : uid.get(author)!, at, body, quote,
  });


  for (let d = 1; d <= nDays; d++) {
    const family: SynthFamily = d % 2 === 1 ? 'utf8' : 'gbk';
    const opens = dayStart(d) + 10 * HOUR;
    const closes = dayStart(d) + 21 * HOUR;
    const discN = d === nDays ? total - assigned - voteN : Math.round(perDay) - voteN;
    assigned += discN + voteN;
    const span = closes - opens;

    // discussion
    const disc: SynthPost[] = [post(DIRECTOR, opens, `第${d}日讨论帖开门。关门时间：21:00。`)];
    for (let i = 1; i < discN; i++) {
      const at = opens + Math.floor((span * i) / discN) + 1000;
      const alive = aliveAt(at);
      const quote = i > 3 ? recentQuote(rand, disc) : undefined;
      disc.push(post(pick(alive), at, discussionBody(rand, lines), quote));
    }
    threads.push({ role: 'discussion', day: d, family, tid: 100 + 2 * d - 1, title: `[B01]第${d}日讨论帖`, posts: disc, base: forum });

    // votes: each alive player's ballot, then changes quoting the first ballot and some chatter
    const vote: SynthPost[] = [post(DIRECTOR, opens, `第${d}日投票帖。投票格式：\n投票对象：某某\n投票理由：某某`)];
    const first = new Map<string, number>();
    for (let i = 1; i < voteN; i++) {
      const at = opens + Math.floor((span * i) / voteN) + 1000;
      vote.push(votePost(rand, lines, aliveAt(at), first, (author, body, quote) => post(author, at, body, quote)));
    }
    threads.push({ role: 'vote', day: d, family, tid: 100 + 2 * d, title: `[B01]第${d}日投票帖`, posts: vote, base: forum });
  }

  // process thread: the director's announcements and players' requests, over the whole game
  const start = dayStart(1) + 9 * HOUR;
  const end = dayStart(nDays) + 22 * HOUR;
  const proc: SynthPost[] = [post(DIRECTOR, start, '进程帖：加速、延时申请请在本帖回复。')];
  for (let i = 1; i < processN; i++) {
    const at = start + Math.floor(((end - start) * i) / processN);
    const alive = aliveAt(at);
    proc.push(rand() < 0.2 ? post(DIRECTOR, at, `第${1 + Math.floor((at - dayStart(1)) / (24 * HOUR))}日进程更新。`) : post(pick(alive), at, rand() < 0.5 ? '申请加速' : pick(lines)));
  }
  // pids must grow with time within a thread only; keep the process thread's pids after the days'
  threads.push({ role: 'process', day: null, family: 'utf8', tid: 100, title: '[B01]进程帖', posts: proc, base: forum });

  const fmtDay = (day: number, h: string): string => {
    const t = new Date(dayStart(day) + 8 * HOUR);
    return `${t.getUTCFullYear()}-${String(t.getUTCMonth() + 1).padStart(2, '0')}-${String(t.getUTCDate()).padStart(2, '0')} ${h}`;
  };
  const yamlLines = [
    '# synthetic benchmark game (src/bench/synth-game.ts)',
    `forum: ${forum}`,
    'timezone: Asia/Shanghai',
    'ruleset: m107',
    `directors: [${DIRECTOR}]`,
    `players: [${players.join(', ')}]`,
    'process: 100',
    'days:',
    ...Array.from({ length: nDays }, (_, i) => i + 1).map(
      (d) => `  - {day: ${d}, discussion: ${100 + 2 * d - 1}, vote: ${100 + 2 * d}, opens: "${fmtDay(d, '10:00')}", closes: "${fmtDay(d, '21:00')}"}`,
    ),
    'events:',
    ...[...outAt].map(([p, t]) => `  - {player: ${p}, out: "${fmtDay(1 + Math.round((t - dayStart(1) - 10 * HOUR) / (24 * HOUR)), '10:00')}", how: night}`),
  ];
  if (outAt.size === 0) yamlLines[yamlLines.length - 1] = 'events: []';

  const pages: SynthGame['pages'] = [];
  for (const thread of threads) {
    const n = pageCountOf(thread.posts.length, thread.ppp ?? familyPpp(thread.family));
    for (let p = 1; p <= n; p++) pages.push({ thread, page: p });
  }
  return {
    gameYaml: yamlLines.join('\n') + '\n',
    forum,
    players,
    director: DIRECTOR,
    out: outAt,
    threads,
    posts: threads.reduce((s, t) => s + t.posts.length, 0),
    pages,
  };
}

/** Build one page of the game (bytes as a Discuz server sends them). */
export function gamePage(ref: { thread: SynthGameThread; page: number }): SynthPage {
  return buildThreadPage(ref.thread, ref.page);
}

/**
 * Posts that keep arriving in a day's thread while the director reruns at closing time, made as
 * synthGame makes that thread's own (discussion lines, some quoting a recent post; or ballots, changed
 * votes quoting the voter's first ballot, chatter), by players alive then, pids after every post of
 * the game. The returned function appends `n` posts to `thread` (a copy of one of `game`'s), `stepMs`
 * apart after its last post.
 */
export function latePosts(game: SynthGame, seed = 2): (thread: SynthGameThread, n: number, stepMs: number) => SynthPost[] {
  const rand = rng(seed);
  const lines = discussionLines();
  let pid = 1 + game.threads.reduce((m, t) => t.posts.reduce((mm, p) => Math.max(mm, p.pid), m), 0);
  const alive = (at: number): string[] => game.players.filter((p) => (game.out.get(p) ?? Infinity) > at);
  return (thread, n, stepMs) => {
    if (thread.role === 'process') throw new Error('bench: late posts go to a day\'s discussion or vote thread');
    // the voters' first ballots, as the thread holds them
    const first = new Map<string, number>();
    for (const p of thread.posts) if (!first.has(p.author) && p.body.startsWith('投票对象：')) first.set(p.author, p.pid);
    const added: SynthPost[] = [];
    for (let i = 0; i < n; i++) {
      const prev = thread.posts[thread.posts.length - 1];
      const at = forumTimeMs(prev.at) + stepMs;
      const make = (author: string, body: string, quote?: number): SynthPost => ({ pid: pid++, author, uid: uidOf(game.players.indexOf(author)), at, body, quote });
      const p = thread.role === 'vote'
        ? votePost(rand, lines, alive(at), first, make)
        : make(pickOf(rand, alive(at)), discussionBody(rand, lines), recentQuote(rand, thread.posts));
      thread.posts.push(p);
      added.push(p);
    }
    return added;
  };
}
