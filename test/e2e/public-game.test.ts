/**
 * The public captured game end to end, as a director runs it at closing time: the replay server serves
 * the captured pages (fixtures/discuz/public), the director logs in through its login form, the crawler
 * fetches every thread of fixtures/games/public.yaml (its forum URL replaced by the server's) into a
 * store, and days 1 and 2 are tallied and reported from that store — the tally and report commands'
 * own assembly (src/cli/commands/report.ts closingDay; `bansha tally|report` run in-process).
 *
 * The expected outcomes are derived here from the scenario the capture was played from
 * (fixtures/scenarios/public.yaml), ids.json and the m107 rules as stated below — a few lines of this
 * test, not the tally's code. A refusal test makes the server fail one page permanently and checks that
 * tally and report refuse (exit 3) naming the missing page, and that --allow-incomplete overrides.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { closingDay, type ClosingDay } from '../../src/day/closing-day.js';
import { crawlGame } from '../../src/crawl/crawler.js';
import { formLogin } from '../../src/demo/form-login.js';
import { loadGame } from '../../src/game/game-file.js';
import type { Game } from '../../src/game/types.js';
import { startReplayServer, type ReplayServer } from '../../src/replay/server.js';
import { openStore } from '../../src/store/index.js';
import type { StoreData } from '../../src/store/types.js';
import { reasonCode, type TallyResult } from '../../src/votes/types.js';
import { FIXTURES, ids as readIds, scenario as readScenario } from '../helpers/captured.js';
import { bansha } from '../helpers/cli.js';

const DIRECTOR = { username: '导演A', password: 'lab123456' };

// ——— the inputs: scenario, ids.json, the game file's text ———

const scenario = readScenario('public');
const ids = readIds('public');
const GAME_TEXT = fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8');
const posts = (key: string) => scenario.threads.find((t) => t.key === key)!.posts;
const players = scenario.users.filter((u) => u.role === 'player').map((u) => u.name);
/** Scenario times are forum time (Asia/Shanghai, UTC+8). */
const ms = (local: string) => Date.parse(`${local.trim().replace(' ', 'T')}${local.trim().length === 16 ? ':00' : ''}+08:00`);
const pidOf = (id: string) => ids.posts[id].pid;

// ——— the m107 rules, as this test states them (rules-spec §2–§6; m107 l.202, l.205, l.310) ———

const M107 = {
  /** A change is valid only this long before closing (m107 l.205 白天结束前一个小时不得改票). */
  changeMinutesBeforeClose: 60,
  /** One change per day (m107 l.205). */
  changes: 1,
  /** The sheriff's vote weighs 1.5 (m107 警长). */
  sheriffWeight: 1.5,
  /** Fewer posts than this in the day's discussion thread: a lurker (rules-spec §6). */
  minPosts: 5,
};

/** Exits from the game file's events (night deaths at opening, vote-outs at closing). */
const gameYaml = parse(GAME_TEXT) as {
  days: Array<{ day: number; discussion: number; vote: number; opens: string; closes: string }>;
  events: Array<{ player: string; out: string }>;
};
const exitOf = (player: string) => {
  const e = gameYaml.events.find((x) => x.player === player);
  return e ? ms(e.out) : null;
};
const window = (day: number) => {
  const d = gameYaml.days.find((x) => x.day === day)!;
  return { opens: ms(d.opens), closes: ms(d.closes), discussion: d.discussion, vote: d.vote };
};
/** In the game at `at` (out from the exit time on). */
const inGame = (player: string, at: number) => players.includes(player) && (exitOf(player) === null || at < exitOf(player)!);

/** What the test expects of one vote-thread post: counted, or the code of why not. */
interface Judged { id: string; voter: string; target: string | null; status: 'counted' | 'rejected' | 'superseded'; code: string | null; at: number }

/**
 * The day's ballots judged by the rules above, post by post in time order:
 * - late (not strictly before closing) → `late`; a voter out of the game → `voter-out`;
 * - a ballot is `投票对象：X` + `投票理由：Y` (or the 改票 heads; either colon, one line or two), else
 *   `malformed-no-heads`; the first such ballot with X a player or 弃权 is the vote (a correction of a
 *   malformed post is a vote, not a change);
 * - a later 改票 counts only if it is the first change (`second-change`), quotes the voter's vote post
 *   (`change-not-quoting-vote`: a Discuz X3.5 reply leaves no trace), is at least an hour before closing
 *   (`change-too-late`) and the day is not accelerated (`accelerated-change-void`); the vote it replaces
 *   is `superseded-by-change`.
 */
function judgeDay(key: string, day: number, accelerated: boolean): Judged[] {
  const { closes } = window(day);
  const out: Judged[] = [];
  const vote = new Map<string, Judged>();
  const changes = new Map<string, number>();
  for (const p of [...posts(key)].sort((a, b) => ms(a.at) - ms(b.at))) {
    const at = ms(p.at);
    const j: Judged = { id: p.id, voter: p.author, target: null, status: 'rejected', code: null, at };
    out.push(j);
    if (at >= closes) { j.code = 'late'; continue; }
    if (!inGame(p.author, at)) { j.code = 'voter-out'; continue; }
    const head = /(投票|改票)对象\s*[:：]\s*(\S+?)[\s。，,.!！]*(?=(?:投票|改票)理由|\n|$)/.exec(p.body);
    const reason = /(投票|改票)理由\s*[:：]\s*\S/.exec(p.body);
    if (!head || !reason) { j.code = 'malformed-no-heads'; continue; }
    const target = head[2];
    if (!players.includes(target) && target !== '弃权') throw new Error(`${p.id}: a target the test's rules do not cover`);
    j.target = target;
    const current = vote.get(p.author);
    if (head[1] === '投票') {
      if (current) throw new Error(`${p.id}: a second 投票 — a case the test's rules do not cover`);
      j.status = 'counted';
      vote.set(p.author, j);
      continue;
    }
    if (!current) throw new Error(`${p.id}: a change without a vote — a case the test's rules do not cover`);
    const firstVote = out.find((x) => x.voter === p.author && x.status !== 'rejected' && x !== j)!;
    if ((changes.get(p.author) ?? 0) >= M107.changes) j.code = 'second-change';
    else if (p.quote !== firstVote.id) j.code = 'change-not-quoting-vote';
    else if (at > closes - M107.changeMinutesBeforeClose * 60_000) j.code = 'change-too-late';
    else if (accelerated) j.code = 'accelerated-change-void';
    else {
      j.status = 'counted';
      current.status = 'superseded';
      current.code = 'superseded-by-change';
      vote.set(p.author, j);
      changes.set(p.author, (changes.get(p.author) ?? 0) + 1);
    }
  }
  return out;
}

/** Totals of the counted ballots (弃权 weighs nothing), the sheriff's weighing 1.5. */
function totalsOf(judged: Judged[], sheriff: string | null): Map<string, number> {
  const totals = new Map<string, number>();
  for (const j of judged) {
    if (j.status !== 'counted' || j.target === '弃权') continue;
    totals.set(j.target!, (totals.get(j.target!) ?? 0) + (j.voter === sheriff ? M107.sheriffWeight : 1));
  }
  return totals;
}

/** The top of the totals; a tie goes to the candidate whose running total reached it first (§4). */
function winnerOf(judged: Judged[], totals: Map<string, number>): { name: string; votes: number; tie: string[] } {
  const votes = Math.max(...totals.values());
  const tie = [...totals].filter(([, v]) => v === votes).map(([k]) => k);
  if (tie.length === 1) return { name: tie[0], votes, tie: [] };
  const running = new Map<string, number>();
  for (const j of [...judged].filter((x) => x.status === 'counted' && x.target !== '弃权').sort((a, b) => a.at - b.at)) {
    running.set(j.target!, (running.get(j.target!) ?? 0) + 1);
    if (tie.includes(j.target!) && running.get(j.target!) === votes) return { name: j.target!, votes, tie };
  }
  throw new Error('no tied candidate reached the top');
}

/** Acceleration (§5, m107 l.202): distinct players in the game who asked in the window before closing, more than half of the alive. */
function accelerationOf(day: number) {
  const { opens, closes } = window(day);
  const alive = players.filter((p) => inGame(p, closes - 1));
  const asked = new Set(posts('process').filter((p) => p.body.includes('申请加速') && ms(p.at) >= opens && ms(p.at) < closes && inGame(p.author, ms(p.at)) && alive.includes(p.author)).map((p) => p.author));
  return { asked: asked.size, alive: alive.length, accelerated: asked.size * 2 > alive.length };
}

// ——— the run: serve, log in, crawl ———

let server: ReplayServer;
let dir: string;
let game: Game;
let store: StoreData;
const days: Record<number, ClosingDay> = {};

/** The game file for the server at `forum`, in `folder`. */
function writeGame(folder: string, forum: string): string {
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, 'public.yaml');
  if (!/^forum: .*$/m.test(GAME_TEXT)) throw new Error('fixtures/games/public.yaml has no forum: line');
  fs.writeFileSync(file, GAME_TEXT.replace(/^forum: .*$/m, `forum: ${forum}`));
  return file;
}

beforeAll(async () => {
  server = await startReplayServer({ users: { [DIRECTOR.username]: DIRECTOR.password } });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-e2e-'));
  game = loadGame(writeGame(path.join(dir, 'full'), server.url));
  await formLogin(game.forum, game.sessionPath, DIRECTOR);
  const crawl = await crawlGame(game, { delayMs: 0, concurrency: 4, progress: false });
  expect(crawl.incomplete).toBe(false);
  const s = await openStore(game.storePath, { lock: false });
  store = s.data;
  await s.close();
  for (const day of [1, 2]) days[day] = closingDay(game, store, day, { ledgerFile: null });
}, 60_000);

afterAll(async () => {
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the crawl', () => {
  test('stored every post of the game\'s threads that ids.json lists, with its floor and time', () => {
    const tids = new Set([...gameYaml.days.flatMap((d) => [d.discussion, d.vote]), 6]);
    const listed = Object.values(ids.posts).filter((p) => tids.has(p.tid));
    expect(listed.length).toBeGreaterThan(100);
    for (const p of listed) {
      const stored = store.posts[String(p.pid)];
      expect(stored, `pid ${p.pid}`).toBeDefined();
      const post = stored.versions.at(-1)!.post;
      expect([stored.tid, post.floor, post.author]).toEqual([p.tid, p.floor, p.author]);
    }
  });
});

/** Checks every vote-thread post's fate in the tally against the judged one. */
function expectBallots(t: TallyResult, judged: Judged[]) {
  expect(t.ballots.map((b) => b.pid).sort((a, b) => a - b)).toEqual(judged.map((j) => pidOf(j.id)).sort((a, b) => a - b));
  for (const j of judged) {
    const b = t.ballots.find((x) => x.pid === pidOf(j.id))!;
    expect({ id: j.id, voter: b.voter, status: b.status }).toEqual({ id: j.id, voter: j.voter, status: j.status });
    if (j.status !== 'counted') expect({ id: j.id, code: reasonCode(b) }).toEqual({ id: j.id, code: j.code });
    else expect(b.target, j.id).toBe(j.target);
  }
}

describe('day 1: the sheriff election (thread 3)', () => {
  const acc = accelerationOf(1);
  const judged = judgeDay('d1vote', 1, acc.accelerated);
  const totals = totalsOf(judged, null);
  const winner = winnerOf(judged, totals);

  test('the test\'s own count: 包子 and 花卷 tie at 4, 包子 reached 4 first', () => {
    expect(winner).toEqual({ name: '包子', votes: 4, tie: expect.arrayContaining(['包子', '花卷']) });
    expect(winner.tie).toHaveLength(2);
    expect(scenario.threads.find((t) => t.key === 'd2talk')!.body).toContain(`警长：${winner.name}`);
  });

  test('the tally elects the same sheriff by first-to-reach, with the same totals', () => {
    const t = days[1].tally!;
    expect(t.kind).toBe('election');
    expect(t.result.name).toBe(winner.name);
    expect([...t.result.tie].sort()).toEqual([...winner.tie].sort());
    expect(t.result.detail?.code).toBe('tie-first-reach');
    expect(Object.fromEntries(t.totals.filter((l) => l.votes > 0).map((l) => [l.name, l.votes]))).toEqual(Object.fromEntries(totals));
  });

  test('every ballot\'s fate: 月饼 late, 油条\'s malformed ballot and its counted correction, 豆浆\'s change too close to closing', () => {
    expectBallots(days[1].tally!, judged);
    const by = (id: string) => judged.find((j) => j.id === id)!;
    expect(by('d1vote-14')).toMatchObject({ voter: '月饼', code: 'late' });
    expect(by('d1vote-5')).toMatchObject({ voter: '油条', code: 'malformed-no-heads' });
    expect(by('d1vote-12')).toMatchObject({ voter: '油条', status: 'counted' });
    expect(by('d1vote-13')).toMatchObject({ voter: '豆浆', code: 'change-too-late' });
  });
});

describe('day 2: the elimination (thread 5)', () => {
  const acc = accelerationOf(2);
  const judged = judgeDay('d2vote', 2, acc.accelerated);
  const sheriff = winnerOf(judgeDay('d1vote', 1, false), totalsOf(judgeDay('d1vote', 1, false), null)).name;
  const totals = totalsOf(judged, sheriff);
  const winner = winnerOf(judged, totals);

  test('the test\'s own count: not accelerated (5 of 11 asked; more than half needed), 月饼 out with 7.5', () => {
    expect(acc).toEqual({ asked: 5, alive: 11, accelerated: false });
    expect(winner).toEqual({ name: '月饼', votes: 7.5, tie: [] });
    expect(scenario.threads.find((t) => t.key === 'd3talk')!.body).toContain(`放逐出局：${winner.name}`);
  });

  test('the tally: not accelerated, the day-1 sheriff weighs 1.5, the same totals and result', () => {
    const t = days[2].tally!;
    expect(t.kind).toBe('elimination');
    expect(t.accelerated).toBe(acc.accelerated);
    expect(t.acceleration).toMatchObject({ alive: acc.alive, needed: Math.floor(acc.alive / 2) + 1 });
    expect(t.acceleration!.requests).toHaveLength(acc.asked);
    expect(t.sheriff).toBe(sheriff);
    expect(t.sheriffWeight).toBe(M107.sheriffWeight);
    expect(t.result).toMatchObject({ name: winner.name, tie: [] });
    expect(Object.fromEntries(t.totals.filter((l) => l.votes > 0).map((l) => [l.name, l.votes]))).toEqual(Object.fromEntries(totals));
  });

  test('every ballot\'s fate: 饺子\'s second change, 春卷\'s reply-change not visible, 馒头 out', () => {
    expectBallots(days[2].tally!, judged);
    const by = (id: string) => judged.find((j) => j.id === id)!;
    expect(by('d2vote-jiaozi')).toMatchObject({ status: 'superseded', code: 'superseded-by-change' });
    expect(by('d2vote-jiaozi-2')).toMatchObject({ status: 'counted', target: '月饼' });
    expect(by('d2vote-14')).toMatchObject({ voter: '饺子', code: 'second-change' });
    expect(by('d2vote-13')).toMatchObject({ voter: '春卷', code: 'change-not-quoting-vote' });
    expect(by('d2vote-15')).toMatchObject({ voter: '馒头', code: 'voter-out' });
  });
});

describe.each([1, 2])('day %i report', (day) => {
  const { opens, closes, discussion, vote } = window(day);
  /** Posts per player in the day's discussion thread within [opens, closes), from ids.json datelines. */
  const expectedPosts = (player: string) =>
    Object.values(ids.posts).filter((p) => p.tid === discussion && p.author === player && p.dateline * 1000 >= opens && p.dateline * 1000 < closes).length;
  const exempt = (player: string) => !inGame(player, opens);
  const balloted = (player: string) => posts(`d${day}vote`).some((p) => p.author === player && /(投票|改票)对象/.test(p.body) && ms(p.at) < closes && inGame(player, ms(p.at)));

  test('per-player post counts are the ids.json counts in the day\'s window', () => {
    const r = days[day].report;
    expect(r.activity.map((a) => a.player)).toEqual(players);
    for (const a of r.activity) expect({ player: a.player, posts: a.posts, exempt: a.exempt }).toEqual({ player: a.player, posts: expectedPosts(a.player), exempt: exempt(a.player) });
    expect(vote).toBe(days[day].tally!.tid);
  });

  test('acceleration comes from the tally, and lurkers and missing ballots are flagged by the rules', () => {
    const r = days[day].report;
    expect(r.accelerated).toBe(days[day].tally!.accelerated);
    expect(r.accelerated).toBe(accelerationOf(day).accelerated);
    const lurkers = players.filter((p) => !exempt(p) && expectedPosts(p) < M107.minPosts);
    expect(lurkers.length).toBeGreaterThan(0);
    expect(r.flags.filter((f) => f.kind === 'few-posts').map((f) => f.player).sort()).toEqual([...lurkers].sort());
    const noBallot = players.filter((p) => !exempt(p) && !balloted(p));
    expect(r.flags.filter((f) => f.kind === 'no-ballot').map((f) => f.player).sort()).toEqual([...noBallot].sort());
    // each lurker gets a proposed yellow card with the counted posts as evidence
    for (const p of lurkers) {
      const card = r.cards.find((c) => c.player === p && c.kind === 'few-posts')!;
      expect(card).toMatchObject({ color: 'yellow', status: 'proposed' });
      expect(card.evidence).toEqual(r.activity.find((a) => a.player === p)!.pids);
    }
  });

  test('`bansha report --html` writes the day\'s file and prints its path; --json agrees with the report', async () => {
    const file = path.join(dir, 'html', `day${day}.html`);
    const html = await bansha(['report', '--game', game.file, '--day', String(day), '--html', '--out', file, '--no-ledger']);
    expect(html).toMatchObject({ code: 0, stdout: `${file}\n` });
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain('<svg');
    expect(text).toContain(`${days[day].tally!.kind === 'election' ? '当选警长' : '出局'}：${days[day].tally!.result.name}`);
    expect(text.match(/<tr[^>]*>/g)!.length).toBeGreaterThan(days[day].tally!.ballots.length + players.length);
    const json = JSON.parse((await bansha(['report', '--game', game.file, '--day', String(day), '--json', '--no-ledger'])).stdout);
    expect(json.activity.map((a: { player: string; posts: number }) => [a.player, a.posts])).toEqual(players.map((p) => [p, expectedPosts(p)]));
  });
});

describe('an incomplete crawl', () => {
  let gameFile: string;
  const FAILED = { tid: ids.threads.d2vote.tid, page: 2 };

  beforeAll(async () => {
    // The replay server fails one page of the day-2 vote thread every time.
    server.setFault({ fault: { kind: 'status', status: 500 }, path: `tid=${FAILED.tid}&page=${FAILED.page}` });
    gameFile = writeGame(path.join(dir, 'gap'), server.url);
    const g = loadGame(gameFile);
    await formLogin(g.forum, g.sessionPath, DIRECTOR);
    const crawl = await crawlGame(g, { delayMs: 0, concurrency: 4, progress: false, retries: 1, backoffMs: 5, maxBackoffMs: 5 });
    server.setFault();
    expect(crawl.incomplete).toBe(true);
    expect(crawl.threads.find((t) => t.tid === FAILED.tid)!.failures.map((f) => f.page)).toEqual([FAILED.page]);
  }, 60_000);

  test.each(['tally', 'report'])('`bansha %s` refuses with exit code 3, naming the missing page', async (cmd) => {
    const r = await bansha([cmd, '--game', gameFile, '--day', '2', '--json']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`帖子 ${FAILED.tid}：共 ${FAILED.page} 页，第 ${FAILED.page} 页未抓取`);
    expect(r.stderr).toContain('--allow-incomplete');
  });

  test('--allow-incomplete overrides: the count and the report come from what was fetched', async () => {
    const t = await bansha(['tally', '--game', gameFile, '--day', '2', '--json', '--allow-incomplete']);
    expect(t.code).toBe(0);
    const missing = new Set(Object.values(ids.posts).filter((p) => p.tid === FAILED.tid && p.floor > 10).map((p) => p.pid));
    const ballots = (JSON.parse(t.stdout) as { ballots: Array<{ pid: number }> }).ballots;
    expect(ballots.length).toBeGreaterThan(0);
    expect(ballots.some((b) => missing.has(b.pid))).toBe(false);
    const r = await bansha(['report', '--game', gameFile, '--day', '2', '--json', '--allow-incomplete', '--no-ledger']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).day).toBe(2);
  });
});
