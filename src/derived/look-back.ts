/**
 * What a day's report reads of the earlier threads it does not open, summed up and kept: each earlier
 * day's counts there and their part of the avatar/signature check (violations/profile.ts profileBase).
 * Read from their digests (src/store/thread-digest.ts) that is 44,000 posts at 50k, seated and walked
 * on every run; at closing time a crawl grows the day's own threads, not the earlier days', so the sum
 * is kept in the store's derived files under those threads' logs and the game as seated, and a rerun
 * after new posts reads columns of numbers instead. The same report as from the digests
 * (test/derived/kept-closing.test.ts compares every view).
 */
import { countDayPosts } from '../activity/count.js';
import { holdsPid } from '../day/closing-day.js';
import { countedTids, gameTids } from '../game/threads.js';
import { seatPosts } from '../game/roster.js';
import type { Game } from '../game/types.js';
import type { PrecountedRows, SummedUp } from './report-source.js';
import { memo, threadLogKey } from '../store/memo.js';
import { threadDigests } from '../store/thread-digest.js';
import { ProfileSum, type ProfileBase } from '../violations/profile.js';

/** Earlier threads summed up, as kept. */
export interface LookBackSummary {
  threads: Array<{ tid: number; title: string }>;
  /** By earlier day, each of these threads counted that day: each player's counted pids (countDayPosts). */
  counts: Array<{ day: number; tid: number; rows: Array<[player: string, pids: number[]]> }>;
  profile: ProfileBase;
}

/** What the report reads of a summary: its titles, the thread of a post of it by pid (null: none), and what the report's source sums (report-source.ts). */
export interface LookBackRead {
  titles: ReadonlyMap<number, { title: string }>;
  threadOf: (pid: number) => number | null;
  summedUp: SummedUp;
}

/**
 * Threads `tids` (earlier days' threads the report of `day` does not open; one without a log is left
 * out, as threadDigests leaves it) summed up for `game` as seated (withKnownUids: who posted which post),
 * kept under the code `code` (as kept-closing.ts keeps under it).
 */
export async function lookBackSummary(game: Game, day: number, tids: readonly number[], code: string): Promise<LookBackRead> {
  const inputs = { lookBack: day, code, game, logs: tids.map((tid) => [tid, threadLogKey(game.storePath, tid)]) };
  return readOf(unpack(await memo(game.storePath, `look-back-day${day}`, inputs, async () => pack(await sumUp(game, day, tids)))));
}

/*
 * The saved layout: pids and times as differences from the one before (a time has 13 digits, a step
 * between posts in posted order a few), an account's threads as runs of [tid, count].
 */

const deltas = (xs: readonly number[]): number[] => xs.map((x, i) => (i ? x - xs[i - 1] : x));
function sums(xs: readonly number[]): number[] {
  const out = new Array<number>(xs.length);
  for (let i = 0, t = 0; i < xs.length; i++) out[i] = t += xs[i];
  return out;
}
function runs(xs: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < xs.length; i++) {
    if (i && xs[i] === xs[i - 1]) out[out.length - 1]++;
    else out.push(xs[i], 1);
  }
  return out;
}
function unruns(rs: readonly number[]): number[] {
  const out: number[] = [];
  for (let r = 0; r < rs.length; r += 2) for (let n = 0; n < rs[r + 1]; n++) out.push(rs[r]);
  return out;
}

const pack = (s: LookBackSummary): LookBackSummary => recode(s, deltas, runs);
const unpack = (s: LookBackSummary): LookBackSummary => recode(s, sums, unruns);

/** The summary with its pids and times stepped (pack) or summed back (unpack), and each account's tids as runs or back. */
function recode(s: LookBackSummary, step: (xs: readonly number[]) => number[], tids: (xs: readonly number[]) => number[]): LookBackSummary {
  return {
    threads: s.threads,
    counts: s.counts.map((c) => ({ ...c, rows: c.rows.map(([player, pids]): [string, number[]] => [player, step(pids)]) })),
    profile: { accounts: s.profile.accounts.map((a) => ({ ...a, pid: step(a.pid), tid: tids(a.tid), at: step(a.at) })) },
  };
}

/**
 * The threads' digests summed up, one thread at a time (a thread's posts held, not the game's): seated as
 * buildDayReport seats them, counted for each earlier day that counts the thread, their profile part.
 */
async function sumUp(game: Game, day: number, tids: readonly number[]): Promise<LookBackSummary> {
  const threads: LookBackSummary['threads'] = [];
  const counts: LookBackSummary['counts'] = [];
  const profile = new ProfileSum(game.players);
  const checked = new Set(gameTids(game)); // (the threads the avatar/signature check reads: violations/scan.ts)
  for (const tid of tids) {
    const digest = (await threadDigests(game.storePath, game.forum, [tid])).get(tid);
    if (!digest) continue; // (no log: not stored)
    const posts = seatPosts(game, digest.posts).posts;
    threads.push({ tid, title: digest.title });
    // (the day's own counts read its own threads alone)
    for (const g of game.days) {
      if (g.day >= day || !countedTids(game, g).includes(tid)) continue;
      const rows = countDayPosts(game, g, new Map([[tid, posts]])).players.filter((r) => r.pids.length).map((r): [string, number[]] => [r.player, r.pids]);
      counts.push({ day: g.day, tid, rows });
    }
    if (checked.has(tid)) profile.add(posts);
  }
  return { threads, counts, profile: profile.done() };
}

function readOf(s: LookBackSummary): LookBackRead {
  const counts = new Map<number, Map<number, PrecountedRows>>();
  for (const c of s.counts) {
    let byTid = counts.get(c.day);
    if (!byTid) counts.set(c.day, (byTid = new Map()));
    byTid.set(c.tid, c.rows);
  }
  // A report links a few hundred posts, those of the summed-up threads among them in a count or a change
  // (lurking evidence, profile.ts's posts): searched there, not a map of every pid made.
  const threadOf = (pid: number): number | null => {
    for (const c of s.counts) for (const [, pids] of c.rows) if (holdsPid(pids.length, (i) => pids[i], pid)) return c.tid;
    for (const a of s.profile.accounts) {
      const i = a.pid.indexOf(pid);
      if (i >= 0) return a.tid[i];
    }
    return null;
  };
  return { titles: new Map(s.threads.map((t) => [t.tid, { title: t.title }])), threadOf, summedUp: { counts, profile: s.profile } };
}
