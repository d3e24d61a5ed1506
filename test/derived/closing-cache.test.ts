/**
 * The closing commands' derived files (issue #16): a report or tally of day N reads day N's threads in
 * full, the earlier days' threads through their digests and the closed days' outcomes from the store's
 * derived files — and says exactly what it says when it reads every thread in full: on the captured
 * games and a synthetic 10-day store, with the cache cold and warm, after a thread changed, after the
 * game file changed, and with the derived files damaged.
 */
import fs from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import os from 'node:os';
import path from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { synthGame, gamePage } from '../../src/bench/synth-game.js';
import { closingDay, storedPostLinks } from '../../src/day/closing-day.js';
import { dayHtml } from '../../src/day/day-page.js';
import { carriedForward } from '../../src/close/carried.js';
import { ballotShaped, inWindow, keptPosts } from '../../src/derived/kept-posts.js';
import { closedInStore, closedOutcomes, countFromStore, tallyFromStore, vouchedElection } from '../../src/derived/closed-days.js';
import { beforeReport, closingDayFromStore, reportInputs, reportSource, reportThreads } from '../../src/derived/closing-inputs.js';
import { wordingMemo } from '../../src/derived/wording-hits.js';
import { parseGame } from '../../src/game/game-file.js';
import { departureOf, successionThreads } from '../../src/votes/succession.js';
import { findDay, withKnownUids } from '../../src/game/roster.js';
import type { Game } from '../../src/game/types.js';
import { renderDayReportBBCode } from '../../src/render/report-bbcode.js';
import { renderDayReportJson } from '../../src/render/report-json.js';
import { renderTallyJson } from '../../src/render/tally-json.js';
import { derivedDir, memoKey, readDerived, threadLogKey, writeDerived, type MemoKey } from '../../src/store/memo.js';
import { emptyStore, openStore } from '../../src/store/index.js';
import { digestThread, threadDigests, type ThreadDigest } from '../../src/store/thread-digest.js';
import type { StoreData, StoredPost } from '../../src/store/types.js';
import { threadReads, withCountingStore } from '../../src/store/with-store.js';
import { fullEntry, logLine, readLog, writeFileAtomic } from '../../src/store/thread-log.js';
import { readThreadRecords, threadLogPath } from '../../src/store/store-file.js';
import { keptThreadRecords } from '../../src/derived/thread-records.js';
import { mayHoldBallot } from '../../src/votes/ballot.js';
import { handoverThreads, postsFromStore, postsWithClosed, tallyDay, threadsForTally, type ClosedOutcomes, type PostsOf } from '../../src/votes/tally.js';
import { demoStore, FIXTURES, recordFetched, storeFromFixture, threadPageFiles } from '../helpers/captured.js';
import { storeOnDisk } from '../helpers/store-on-disk.js';

let root: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-derived-'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** Everything a director reads of day `day`: the tally and report whole, their JSON, the BBCode notice with links, the HTML. */
interface Outputs {
  tally: string | null;
  report: string;
  values: string;
  bbcode: string;
  html: string;
}

/** Day `day` read as before the cache: every thread of days 1..N in full, earlier days tallied again. */
async function readInFull(game: Game, day: number): Promise<Outputs> {
  const store = await openStore(game.storePath, { lock: false });
  const closing = closingDay(game, store.data, day, { ledgerFile: null });
  return {
    tally: closing.tally && renderTallyJson(closing.tally),
    report: renderDayReportJson(closing.report),
    values: JSON.stringify(closing),
    bbcode: renderDayReportBBCode(closing.report, storedPostLinks(game, store.data)),
    html: dayHtml(game, store.data, closing, 0),
  };
}

/** Day `day` as `bansha report` reads it: its own threads in full, the rest through the derived files. */
async function readThroughCache(game: Game, day: number): Promise<Outputs & { opened: number[] }> {
  const threads = reportThreads(game, day);
  await beforeReport(game, day);
  return withCountingStore(game, threads, async (store) => {
    const { closing, ...inputs } = await closingDayFromStore(game, day, store, { ledgerFile: null, gone: [] });
    return {
      tally: closing.tally && renderTallyJson(closing.tally),
      report: renderDayReportJson(closing.report),
      values: JSON.stringify(closing),
      bbcode: renderDayReportBBCode(closing.report, storedPostLinks(game, store, inputs.lookBack?.values())),
      html: dayHtml(game, store, closing, 0, inputs.lookBack),
      opened: Object.keys(store.threads).map(Number),
    };
  });
}

async function expectSame(game: Game, day: number): Promise<void> {
  const full = await readInFull(game, day);
  const { opened: _, ...cached } = await readThroughCache(game, day);
  expect(cached).toEqual(full);
}

const openedOn = async (g: Game, tids: number[]) => (await openStore(g.storePath, { lock: false, threads: tids })).data;

const derivedFiles = (game: Game): Record<string, string> => {
  const dir = derivedDir(game.storePath);
  return Object.fromEntries(fs.readdirSync(dir).sort().map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
};

/** The director's post handing the badge to `successor` at `at`, stored as post `pid` after thread `tid`'s last. */
async function postHandover(g: Game, tid: number, pid: number, successor: string, at: number): Promise<void> {
  const store = await openStore(g.storePath, { threads: [tid] });
  const last = Object.values(store.data.posts).sort((a, b) => b.pid - a.pid)[0];
  const v = last.versions[last.versions.length - 1];
  store.data.posts[String(pid)] = { ...last, pid, versions: [{ ...v, post: { ...v.post, pid, floor: (v.post.floor ?? 0) + 1, author: g.directors[0], authorId: null, text: `警徽移交给 ${successor}`, postedAt: new Date(at).toISOString() } }] };
  await store.write();
  await store.close();
}

/**
 * A director's post at `at` as Discuz shows a shielded post to anyone else (该帖被管理员或版主屏蔽: the notice
 * in place of the text, Post.readable false), stored as post `pid` after thread `tid`'s last.
 */
async function postUnreadable(g: Game, tid: number, pid: number, at: number): Promise<void> {
  const store = await openStore(g.storePath, { threads: [tid] });
  const last = Object.values(store.data.posts).sort((a, b) => b.pid - a.pid)[0];
  const v = last.versions[last.versions.length - 1];
  const post = { ...v.post, pid, floor: (v.post.floor ?? 0) + 1, author: g.directors[0], authorId: null, text: '', locked: '提示: 该帖被管理员或版主屏蔽', state: 'shielded' as const, readable: false, postedAt: new Date(at).toISOString() };
  store.data.posts[String(pid)] = { ...last, pid, versions: [{ ...v, hash: `h${pid}`, post }] };
  await store.write();
  await store.close();
}

describe('the captured games: every day, cache cold and warm, as when every thread is read in full', () => {
  const games = {
    public: () => storeOnDisk(root, 'public', path.join(FIXTURES, 'games', 'public.yaml'), storeFromFixture('public', threadPageFiles('public'))),
    wuhui: () => storeOnDisk(root, 'wuhui', path.join(FIXTURES, 'games', 'wuhui.yaml'), demoStore('wuhui')),
    '120b': () => storeOnDisk(root, '120b', path.join(FIXTURES, 'games', '120b.yaml'), demoStore('120b')),
  };
  for (const [name, make] of Object.entries(games)) {
    test(name, async () => {
      const game = await make();
      for (const d of [...game.days].reverse()) await expectSame(game, d.day); // cold: the latest day first
      for (const d of game.days) await expectSame(game, d.day); // warm
      // the tally as `bansha tally` makes it (the discussion and process threads read as their kept posts), as when every thread is opened
      for (const rules of game.rules.wuhui ? [false, true] : [false]) {
        for (const d of game.days) {
          if (!game.rules.publicVote || (rules ? !d.rules : !d.vote)) continue;
          const opts = { rules, allowIncomplete: true };
          const want = await withCountingStore(game, { tids: threadsForTally(game, d.day, opts), ...opts }, async (store, checked) => renderTallyJson(await tallyFromStore(game, store, d.day, checked, opts)));
          for (const round of ['cold', 'warm']) expect(await countFromStore(game, d.day, { ...opts, gone: [] }, renderTallyJson), `day ${d.day} ${round}`).toBe(want);
        }
      }
    }, 60_000);
  }
});

describe('a synthetic 10-day store', () => {
  const synth = synthGame({ posts: 2500, players: 20, days: 10 });
  let game: Game;
  beforeAll(async () => {
    const data = emptyStore(synth.forum);
    for (const ref of synth.pages) {
      const page = gamePage(ref);
      recordFetched(data, { bytes: page.bytes, url: page.url, fetchedAt: new Date('2027-01-01T00:00:00Z'), status: 200, contentType: page.contentType });
    }
    game = await storeOnDisk(root, 'synth', '', data, synth.gameYaml);
  }, 60_000);

  test('day 10 opens only the threads its tally and report count, and says what reading every thread says', async () => {
    const full = await readInFull(game, 10);
    const cold = await readThroughCache(game, 10);
    // (its own threads, the process thread, day 1's election and the threads a sheriff's successor is read from)
    const { load } = reportThreads(game, 10);
    expect(cold.opened.sort()).toEqual([...new Set(load)].sort());
    // rerun: day 1's vote thread, vouched for by day 1's saved outcome, is not opened (read through its digest)
    const d1vote = game.days[0].vote!.tid;
    const warm = await readThroughCache(game, 10);
    expect(warm.opened.sort()).toEqual(load.filter((t) => t !== d1vote).sort());
    for (const r of [cold, warm]) expect({ ...r, opened: undefined }).toEqual({ ...full, opened: undefined });
    // the earlier results' disagreements with the game file are there: the carry-forward check ran
    expect(JSON.parse(full.tally!).notes.join('\n')).toMatch(/第 2 日结果[^]*第 8 日结果/);
    // one digest per earlier thread (day 1's vote thread's once vouched for), one outcome per closed day
    const files = Object.keys(derivedFiles(game));
    const through = game.days.filter((d) => d.day < 10).flatMap((d) => [d.discussion!.tid, d.vote!.tid]);
    expect(files.filter((f) => f.startsWith('thread-')).sort()).toEqual(through.filter((t) => !load.includes(t) || t === d1vote).map((t) => `thread-${t}.json`).sort());
    expect(files.filter((f) => f.startsWith('closed-day-'))).toHaveLength(9);
  }, 60_000);

  test("a first run's digests are made before the day's threads are opened, and read back without making any", async () => {
    fs.rmSync(derivedDir(game.storePath), { recursive: true, force: true });
    await beforeReport(game, 10);
    const made = derivedFiles(game);
    const digests = Object.keys(made).filter((f) => f.startsWith('thread-'));
    expect(digests.length).toBeGreaterThan(10);
    const stamps = () => digests.map((f) => fs.statSync(path.join(derivedDir(game.storePath), f)).mtimeMs);
    const before = stamps();
    await beforeReport(game, 10); // every key line right: nothing read, nothing made
    const { tids, load } = reportThreads(game, 10);
    const part = await openStore(game.storePath, { lock: false, threads: [...new Set([...tids, ...load])] });
    const { lookBack } = await reportInputs(game, 10, part.data);
    expect([...lookBack!.keys()].map((t) => `thread-${t}.json`).sort()).toEqual(digests.sort());
    expect(stamps()).toEqual(before);
    for (const f of digests) expect(derivedFiles(game)[f]).toBe(made[f]);
  }, 60_000);

  test('a digest read back from its file is the digest of the thread read in full (shared sightings and link stems included)', async () => {
    const all = await openStore(game.storePath, { lock: false });
    const tids = game.days.filter((d) => d.day < 10).flatMap((d) => [d.discussion!.tid, d.vote!.tid]);
    const made = await threadDigests(game.storePath, all.data.forum, tids); // made now or read back
    const read = await threadDigests(game.storePath, all.data.forum, tids); // read back
    // a post read back makes its link when asked (its class holds the thread's stem): compared as read
    const asRead = (d: ThreadDigest | undefined) => d && { ...d, posts: d.posts.map((p) => ({ ...p, url: p.url })) };
    for (const tid of tids) {
      const want = digestThread(all.data, tid);
      expect(asRead(made.get(tid))).toEqual(want);
      expect(asRead(read.get(tid))).toEqual(want);
      expect(Object.hasOwn(read.get(tid)!.posts[0], 'url')).toBe(false);
      // posts of one page share one sightings list: frozen, so no reader can change another post's
      expect(Object.isFrozen(read.get(tid)!.posts[0].sightings)).toBe(true);
    }
    // avatar changes are in the game (else the sightings would prove little)
    expect(new Set(tids.flatMap((t) => digestThread(all.data, t).posts.map((p) => p.sightings[0].avatar))).size).toBeGreaterThan(1);
  }, 60_000);

  test('post links through the digests are the links of the posts read in full', async () => {
    const all = await openStore(game.storePath, { lock: false });
    const { tids, load } = reportThreads(game, 10);
    const part = await openStore(game.storePath, { lock: false, threads: [...new Set([...tids, ...load])] });
    const { lookBack } = await reportInputs(game, 10, part.data);
    expect(lookBack!.size).toBeGreaterThan(0);
    const full = storedPostLinks(game, all.data);
    const through = storedPostLinks(game, part.data, lookBack?.values());
    const pids = Object.values(all.data.posts).map((p) => p.pid);
    for (const pid of pids) expect(through(pid), `pid ${pid}`).toBe(full(pid));
    expect(pids.every((pid) => full(pid) !== null)).toBe(true);
    expect(through(Math.max(...pids) + 1)).toBeNull();
    expect(through(Math.min(...pids) - 1)).toBeNull();
  }, 60_000);

  test('every day, as when read in full', async () => {
    for (const d of game.days) await expectSame(game, d.day);
  }, 120_000);

  test('tally: the closed days from the derived files give the tally read from every vote thread', async () => {
    const all = await openStore(game.storePath, { lock: false });
    const counted = withKnownUids(game, all.data.users);
    for (const d of game.days) {
      const { closed } = await closedOutcomes(counted, d.day, all.data);
      expect(renderTallyJson(tallyDay(counted, postsWithClosed(postsFromStore(all.data), closed), d.day))).toEqual(renderTallyJson(tallyDay(counted, postsFromStore(all.data), d.day)));
    }
  }, 60_000);

  test("the closed days' outcomes a caller keeps do not hold the count's own posts (a report keeps them through its HTML)", async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const part = await openStore(game.storePath, { lock: false, threads: threadsForTally(game, 10) });
    const counted = withKnownUids(game, part.data.users);
    const count = async (): Promise<{ closed: ClosedOutcomes; posts: WeakRef<PostsOf> }> => {
      const loadedPosts = postsFromStore(part.data);
      loadedPosts(findDay(game, 10).vote!.tid); // the count's view of its threads, made
      const { closed } = await closedOutcomes(counted, 10, part.data, { loadedPosts });
      return { closed, posts: new WeakRef(loadedPosts) };
    };
    const { closed, posts } = await count();
    await new Promise((r) => setTimeout(r, 0));
    gc();
    expect(posts.deref()).toBeUndefined();
    expect(closed.outcome(1)).not.toBeNull(); // (kept, and still answering)
  }, 60_000);

  test("elevator: the closed days' results carried forward from the derived files, as counted from every thread", async () => {
    const all = await openStore(game.storePath, { lock: false });
    const counted = withKnownUids(game, all.data.users);
    for (const d of game.days) {
      for (const round of ['cold', 'warm']) {
        if (round === 'cold') fs.rmSync(derivedDir(game.storePath), { recursive: true, force: true });
        const { closed } = await closedOutcomes(counted, d.day, await openedOn(game, []), { outcomesOnly: true });
        expect(carriedForward(game, closed, d.day), `day ${d.day} ${round}`).toEqual(carriedForward(game, closedInStore(counted, all.data), d.day));
      }
    }
  }, 60_000);

  /** A post added to thread `tid` at `at` saying `text`, after its last (as a recrawl would store it). */
  const addPost = async (g: Game, tid: number, at: number, text: string) => {
    const store = await openStore(g.storePath, { threads: [tid] });
    const last = Object.values(store.data.posts).sort((a, b) => b.pid - a.pid)[0];
    const v = last.versions[last.versions.length - 1];
    const pid = last.pid + 100_000;
    const floor = (v.post.floor ?? 0) + 1;
    store.data.posts[String(pid)] = { ...last, pid, versions: [{ ...v, hash: `h${pid}`, post: { ...v.post, pid, floor, floorLabel: `${floor}#`, text, postedAt: new Date(at).toISOString() } }] };
    const thread = store.data.threads[String(tid)];
    if (typeof thread.replies === 'number') thread.replies++;
    await store.write();
    await store.close();
  };

  test("tally: day 1's vote thread is not opened while day 1's saved outcome vouches for it; changed or incomplete, it is read and checked", async () => {
    const copy = await storeOnDisk(root, 'synth-vouch', '', (await openStore(game.storePath, { lock: false })).data, fs.readFileSync(game.file, 'utf8'));
    const d1vote = findDay(copy, 1).vote!.tid;
    const tids = threadsForTally(copy, 10);
    expect(tids).toContain(d1vote);
    const vouched = (users: Readonly<Record<string, number>>) => vouchedElection(copy, 10, users);
    const tally = () => withCountingStore(copy, { tids, vouched }, async (store, checked) => ({
      opened: Object.keys(store.threads).map(Number), json: renderTallyJson(await tallyFromStore(copy, store, 10, checked)),
    }));
    const all = await openStore(copy.storePath, { lock: false });
    const want = renderTallyJson(tallyDay(withKnownUids(copy, all.data.users), postsFromStore(all.data), 10));
    const cold = await tally(); // no derived files yet: read, and day 1's outcome saved
    expect(cold).toEqual({ opened: expect.arrayContaining([d1vote]), json: want });
    const warm = await tally();
    expect(warm.json).toBe(want);
    expect(warm.opened).not.toContain(d1vote);
    expect(warm.opened.sort()).toEqual(tids.filter((t) => t !== d1vote).sort());
    // the process thread grown (day 1's outcome read it too): still not opened, the same count
    await addPost(copy, copy.process!.tid, findDay(copy, 10).opens + 60_000, '申请加速');
    const grown = await tally();
    expect(grown.opened).not.toContain(d1vote);
    expect(grown.json).toBe(renderTallyJson(tallyDay(withKnownUids(copy, all.data.users), postsFromStore((await openStore(copy.storePath, { lock: false })).data), 10)));

    // its log changed (a post edited on a recrawl): read again, and the outcome counted again from it
    const store = await openStore(copy.storePath, { threads: [d1vote] });
    const first = Object.values(store.data.posts).sort((a, b) => a.pid - b.pid)[1];
    first.versions.push({ ...first.versions[0], hash: 'edited', post: { ...first.versions[0].post, text: `${first.versions[0].post.text} 。` } });
    await store.write();
    expect(vouchedElection(copy, 10, all.data.users)).toEqual(new Set());
    expect((await tally()).opened).toContain(d1vote);
    expect((await tally()).opened).not.toContain(d1vote);
    // a page of it lost (incompletely stored): read, and the tally refuses as it refuses its own threads
    delete store.data.threads[String(d1vote)].pages['2'];
    await store.write();
    await store.close();
    await expect(tally()).rejects.toMatchObject({ exitCode: 3, message: expect.stringContaining(String(d1vote)) });
    expect(vouchedElection(copy, 10, all.data.users)).toEqual(new Set());
  }, 60_000);

  test("tally: the day's discussion thread read as its ballot posts, kept as of where its log was replayed to — cold, warm, grown, edited, compacted, damaged — counts as read in full", async () => {
    const copy = await storeOnDisk(root, 'synth-ballots', '', (await openStore(game.storePath, { lock: false })).data, fs.readFileSync(game.file, 'utf8'));
    const d10 = findDay(copy, 10);
    const tid = d10.discussion!.tid;
    const processTid = copy.process!.tid;
    const log = threadLogPath(copy.storePath, tid);
    const kept = path.join(derivedDir(copy.storePath), `kept-ballots-${tid}.json`);
    const tally = (opts: { allowIncomplete?: boolean } = {}) => countFromStore(copy, 10, { ...opts, gone: [] }, (r, store) => ({ json: renderTallyJson(r), opened: Object.keys(store.threads).map(Number) }));
    /** The tally and the ballot posts as when every thread is opened (the discussion's posts all parsed). */
    const inFull = async (opts: { allowIncomplete?: boolean } = {}) => {
      const all = await openStore(copy.storePath, { lock: false });
      const ofThread = (t: number, keeps: (sp: StoredPost) => boolean) => Object.values(all.data.posts).filter((sp) => sp.tid === t && keeps(sp)).sort((a, b) => a.pid - b.pid);
      const json = await withCountingStore(copy, { tids: threadsForTally(copy, 10), ...opts }, async (store, checked) => renderTallyJson(await tallyFromStore(copy, store, 10, checked, opts)));
      const at = (sp: StoredPost) => Date.parse(sp.versions.at(-1)!.post.postedAt);
      return {
        json,
        ballots: { posts: ofThread(tid, (sp) => mayHoldBallot(sp.versions.at(-1)!.post.text)), read: threadReads(all.data, [tid])[0], thread: all.data.threads[String(tid)] },
        // (the posts stamped in the day's window: each must be kept, with any whose time only may fall in it)
        window: { posts: ofThread(processTid, (sp) => at(sp) >= d10.opens && at(sp) < d10.closes), read: threadReads(all.data, [processTid])[0] },
      };
    };
    const expectAsInFull = async () => {
      const want = await inFull();
      const got = await tally();
      expect(got.json).toBe(want.json);
      expect(got.opened).not.toContain(tid);
      expect(got.opened).not.toContain(processTid);
      expect(await keptPosts(copy.storePath, tid, ballotShaped)).toEqual(want.ballots);
      const window = await keptPosts(copy.storePath, processTid, inWindow(d10));
      expect(window.read).toEqual(want.window.read);
      expect(want.window.posts.length).toBeGreaterThan(0);
      for (const sp of want.window.posts) expect(window.posts).toContainEqual(sp);
      return JSON.parse(got.json);
    };
    /** Marks a kept post's text in the derived file (as saved), so a read that went on from it shows. */
    const mark = () => {
      const [head, json] = fs.readFileSync(kept, 'utf8').split('\n');
      const value = JSON.parse(json);
      value.posts[0].versions.at(-1).post.text += ' marked';
      writeDerived(copy.storePath, `kept-ballots-${tid}`, head.split(' ')[0] as MemoKey, value);
    };
    const markedRead = async () => (await keptPosts(copy.storePath, tid, ballotShaped)).posts[0].versions.at(-1)!.post.text.endsWith(' marked');

    await expectAsInFull(); // cold: replayed from the start, saved
    expect(fs.existsSync(kept)).toBe(true);
    const saved = fs.readFileSync(kept, 'utf8');
    await expectAsInFull(); // warm: nothing new in the log, nothing saved again
    expect(fs.readFileSync(kept, 'utf8')).toBe(saved);
    mark();
    expect(await markedRead()).toBe(true); // (the log's lines before the point are not parsed again)

    // a ballot posted in the discussion during the day (by the thread's last poster, a player): a misplaced ballot, read from the line appended
    await addPost(copy, tid, d10.opens + 7_200_000, `投票对象：${copy.players[5]}\n投票理由：发错帖了`);
    expect(await markedRead()).toBe(true);
    fs.rmSync(kept);
    const grown = await expectAsInFull();
    expect(grown.misplaced.map((m: { tid: number }) => m.tid)).toContain(tid);

    // an append cut short by a crash (a last line without its newline): not read, as openStore does not
    // read it; the next writer cuts it off and appends after the last whole line
    fs.appendFileSync(log, '{"p":[{"pid":1');
    await expectAsInFull();
    await addPost(copy, tid, d10.opens + 7_250_000, `投票对象：${copy.players[6]}\n投票理由：又发错了`);
    const again = await expectAsInFull();
    expect(again.misplaced.length).toBe(grown.misplaced.length + 1);

    // a kept post edited so that it holds no ballot (a new version), and a post added without 票
    const store = await openStore(copy.storePath, { threads: [tid] });
    const shaped = Object.values(store.data.posts).filter((sp) => mayHoldBallot(sp.versions.at(-1)!.post.text)).sort((a, b) => b.pid - a.pid)[0];
    const v = shaped.versions.at(-1)!;
    shaped.versions.push({ ...v, hash: 'edited', post: { ...v.post, text: '改了，没有了' } });
    await store.write();
    await store.close();
    await addPost(copy, tid, d10.opens + 7_300_000, '只是聊天');
    const edited = await expectAsInFull();
    expect(again.misplaced.map((m: { pid: number }) => m.pid)).toContain(shaped.pid);
    expect(edited.misplaced).toEqual(again.misplaced.filter((m: { pid: number }) => m.pid !== shaped.pid));

    // an acceleration request in the process thread during the day, and a post there of day 9: read from the lines appended
    await addPost(copy, processTid, d10.opens + 7_400_000, '申请加速');
    await addPost(copy, processTid, findDay(copy, 9).opens + 60_000, '申请加速');
    const asked = await expectAsInFull();
    expect(asked.acceleration.requests.length).toBe(edited.acceleration.requests.length + 1); // (the day-9 post is none of its business)

    // the log rewritten as one line (a compaction: another file renamed in): replayed from its start
    mark();
    const whole = (await readLog(log))!;
    await writeFileAtomic(log, logLine(fullEntry(whole)), { backup: true });
    expect(await markedRead()).toBe(false);
    await expectAsInFull();

    // a damaged derived file: only a replay from the start
    fs.writeFileSync(kept, fs.readFileSync(kept, 'utf8').slice(0, 200));
    await expectAsInFull();

    // a page of the discussion lost: refused as when it is opened, listed when allowed
    const lossy = await openStore(copy.storePath, { threads: [tid] });
    delete lossy.data.threads[String(tid)].pages['2'];
    await lossy.write();
    await lossy.close();
    const refusal = await withCountingStore(copy, { tids: threadsForTally(copy, 10) }, () => null).catch((e: Error) => e);
    await expect(tally()).rejects.toMatchObject({ exitCode: 3, message: (refusal as Error).message });
    const allowed = await tally({ allowIncomplete: true });
    expect(allowed.json).toBe((await inFull({ allowIncomplete: true })).json);
    expect(JSON.parse(allowed.json).incomplete).toEqual([expect.objectContaining({ tid })]);

    // a damaged line appended after the point: refused as openStore refuses the log, naming the line
    fs.appendFileSync(log, '{"p":[]} 0000000000000000\n');
    const damaged = await openStore(copy.storePath, { lock: false, threads: [tid] }).catch((e: Error) => e);
    expect(damaged).toMatchObject({ exitCode: 3 });
    await expect(tally({ allowIncomplete: true })).rejects.toMatchObject({ exitCode: 3, message: (damaged as Error).message });
  }, 60_000);

  test("elevator: the day's thread records kept as of where their logs were replayed to — cold, warm, grown, compacted, damaged — are the records read off the logs", async () => {
    const copy = await storeOnDisk(root, 'synth-records', '', (await openStore(game.storePath, { lock: false })).data, fs.readFileSync(game.file, 'utf8'));
    const d10 = findDay(copy, 10);
    const tids = [d10.discussion!.tid, d10.vote!.tid, 9_999]; // (one not stored)
    const tid = tids[0];
    const kept = path.join(derivedDir(copy.storePath), `record-${tid}.json`);
    const same = async () => expect(await keptThreadRecords(copy.storePath, tids)).toEqual(await readThreadRecords(copy.storePath, tids));
    await same(); // cold
    const saved = fs.readFileSync(kept, 'utf8');
    await same(); // warm: nothing saved again
    expect(fs.readFileSync(kept, 'utf8')).toBe(saved);
    // the record marked in the derived file: read from there while the log holds the point
    const [head, json] = saved.split('\n');
    writeDerived(copy.storePath, `record-${tid}`, head.split(' ')[0] as MemoKey, { ...JSON.parse(json), thread: { ...JSON.parse(json).thread, title: 'marked' } });
    expect((await keptThreadRecords(copy.storePath, tids)).threads[String(tid)].title).toBe('marked');
    // a page record changed by a recrawl (the thread's own record not): the line appended is read on top of the kept record
    const store = await openStore(copy.storePath, { threads: [tid] });
    const pages = store.data.threads[String(tid)].pages;
    pages['2'] = { ...pages['2'], comments: true };
    await store.write();
    await store.close();
    const grown = await keptThreadRecords(copy.storePath, tids);
    expect(grown.threads[String(tid)].title).toBe('marked');
    expect(grown.threads[String(tid)].pages['2'].comments).toBe(true);
    fs.rmSync(kept);
    await same();
    // a compaction (another file renamed in), then a damaged derived file: replayed from the start
    writeDerived(copy.storePath, `record-${tid}`, head.split(' ')[0] as MemoKey, { ...JSON.parse(json), thread: { ...JSON.parse(json).thread, title: 'marked' } });
    const log = threadLogPath(copy.storePath, tid);
    await writeFileAtomic(log, logLine(fullEntry((await readLog(log))!)), { backup: true });
    await same();
    fs.writeFileSync(kept, '{');
    await same();
    // a damaged line appended: refused as the store refuses it
    fs.appendFileSync(log, '{"p":[]} 0000000000000000\n');
    const damaged = await readThreadRecords(copy.storePath, tids).catch((e: Error) => e);
    expect(damaged).toMatchObject({ exitCode: 3 });
    await expect(keptThreadRecords(copy.storePath, tids)).rejects.toMatchObject({ exitCode: 3, message: (damaged as Error).message });
  }, 60_000);

  test('the process thread growing after the closed days leaves their outcomes standing; a post of their time, or one naming a successor, has them counted again', async () => {
    const copy = await storeOnDisk(root, 'synth-process', '', (await openStore(game.storePath, { lock: false })).data, fs.readFileSync(game.file, 'utf8'));
    const processTid = copy.process!.tid;
    const d3 = findDay(copy, 3);
    const tids = threadsForTally(copy, 10);
    const count = async () => {
      const part = await openStore(copy.storePath, { lock: false, threads: tids });
      const counted = withKnownUids(copy, part.data.users);
      const { closed } = await closedOutcomes(counted, 10, part.data);
      return { closed, tally: renderTallyJson(tallyDay(counted, postsWithClosed(postsFromStore(part.data), closed), 10)) };
    };
    const inFull = async () => {
      const all = await openStore(copy.storePath, { lock: false });
      return renderTallyJson(tallyDay(withKnownUids(copy, all.data.users), postsFromStore(all.data), 10));
    };
    await count(); // the closed days counted and saved
    // day 3's saved outcome marked, so that a count made again shows (it would not say "marked")
    const file = path.join(derivedDir(copy.storePath), 'closed-day-3.json');
    const mark = () => {
      const [head, json] = fs.readFileSync(file, 'utf8').split('\n');
      const value = JSON.parse(json);
      value.outcome.result.rule = 'marked';
      writeDerived(copy.storePath, 'closed-day-3', head.split(' ')[0] as MemoKey, value);
    };
    const add = (at: number, text: string) => addPost(copy, processTid, at, text);
    const day10 = findDay(copy, 10).opens + 3_600_000;

    mark();
    await add(day10, '申请加速');
    const late = await count();
    expect(late.closed.outcome(3)!.result.rule).toBe('marked'); // stands: not counted again
    expect(JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[1]).reads).toContainEqual([processTid, threadLogKey(copy.storePath, processTid), expect.anything()]);
    expect((await count()).closed.outcome(3)!.result.rule).toBe('marked'); // saved under the process log's new key

    await add(d3.opens + 3_600_000, '申请加速'); // a request of day 3's own time
    const early = await count();
    expect(early.closed.outcome(3)!.result.rule).not.toBe('marked');
    expect(early.tally).toBe(await inFull());

    mark();
    await add(day10 + 60_000, `警长移交给${copy.players[3]}`); // a later post naming a successor: a handover reads it
    const naming = await count();
    expect(naming.closed.outcome(3)!.result.rule).not.toBe('marked');
    expect(naming.tally).toBe(await inFull());
  }, 60_000);

  test("a cold count lets each closed day's threads go after that day, and keys what a later day reads of them as when all were held", async () => {
    const cold = async (name: string, yaml: string): Promise<Game> => {
      const copy = await storeOnDisk(root, name, '', (await openStore(game.storePath, { lock: false })).data, yaml);
      const part = await openStore(copy.storePath, { lock: false, threads: threadsForTally(copy, 10) });
      await closedOutcomes(withKnownUids(copy, part.data.users), 10, part.data);
      return copy;
    };
    const saved = (g: Game, day: number) => JSON.parse(fs.readFileSync(path.join(derivedDir(g.storePath), `closed-day-${day}.json`), 'utf8').split('\n')[1]);
    // the elected sheriff leaves in the night before day 5: days 5–9 read that handover's threads, day 4's vote thread among them
    const yaml = fs.readFileSync(game.file, 'utf8');
    const sheriff = saved(await cold('synth-cold-1', yaml), 1).outcome.result.name as string;
    const copy = await cold('synth-cold-2', yaml.replace(/- \{player: [^,]+, out: "2026-12-05 10:00"/, `- {player: ${sheriff}, out: "2026-12-05 10:00"`).replace(new RegExp(`- \\{player: ${sheriff}, out: "(?!2026-12-05)[^\n]*\n`), ''));
    const voteDay = new Map(copy.days.map((d) => [d.vote!.tid, d.day]));
    const laterReads: number[] = [];
    for (const d of copy.days.filter((x) => x.day < 10)) {
      for (const [tid, , dependence] of saved(copy, d.day).reads as Array<[number, string, [number, string]?]>) {
        const counted = voteDay.get(tid);
        if (counted === undefined || counted === 1 || counted >= d.day) continue;
        // an earlier day's vote thread, read in full there and let go: keyed on what this day depends on of it
        expect(dependence?.[0], `day ${d.day}, thread ${tid}`).toBe(d.day);
        laterReads.push(d.day);
      }
    }
    expect(laterReads).toEqual([6, 7, 8, 9]);
  }, 60_000);

  test('tally: a day declared not accelerated (the process thread not opened) still counts the closed days from their threads', async () => {
    const yaml = fs.readFileSync(game.file, 'utf8').replace(/(\{day: 10, [^}]*)\}/, '$1, accelerated: false}');
    const declared = await storeOnDisk(root, 'synth-declared', '', (await openStore(game.storePath, { lock: false })).data, yaml);
    const all = await openStore(declared.storePath, { lock: false });
    const counted = withKnownUids(declared, all.data.users);
    // the process thread not opened (were it one a successor is read from, the day's own count would differ)
    const tids = threadsForTally(counted, 10).filter((t) => t !== declared.process!.tid);
    const part = await openStore(declared.storePath, { lock: false, threads: tids });
    const { closed } = await closedOutcomes(counted, 10, part.data);
    // what the closed days give the count (the day's own audit differs: the process thread is not read)
    const of = (t: ReturnType<typeof tallyDay>) => ({ carried: t.notes.filter((n) => /^第 \d+ 日结果/.test(n)) });
    const want = of(tallyDay(counted, postsFromStore(all.data), 10));
    expect(want.carried.join('\n')).toMatch(/第 8 日结果/);
    expect(of(tallyDay(counted, postsWithClosed(postsFromStore(part.data), closed), 10))).toEqual(want);
  }, 60_000);

  test('a changed thread: its digest alone is made again, and the report counts the new post', async () => {
    await readThroughCache(game, 10);
    const before = derivedFiles(game);
    const d3 = game.days.find((d) => d.day === 3)!;
    const tid = d3.discussion!.tid;
    const keyBefore = threadLogKey(game.storePath, tid);
    const day3Of = (values: string): number => JSON.parse(values).report.table.rows.find((r: { player: string }) => r.player === '锅贴').counts[2];
    const countBefore = day3Of((await readInFull(game, 10)).values);
    // a player's post added to day 3's discussion (as a recrawl that found one would store it)
    const store = await openStore(game.storePath, { threads: [tid] });
    const last = Object.values(store.data.posts).sort((a, b) => b.pid - a.pid)[0];
    const pid = 9_000_000;
    const v = last.versions[last.versions.length - 1];
    store.data.posts[String(pid)] = { ...last, pid, versions: [{ ...v, post: { ...v.post, pid, floor: (v.post.floor ?? 0) + 1, author: '锅贴', authorId: null, postedAt: new Date(d3.opens + 60_000).toISOString() } }] };
    await store.write();
    await store.close();
    expect(threadLogKey(game.storePath, tid)).not.toEqual(keyBefore);

    const full = await readInFull(game, 10);
    const cached = await readThroughCache(game, 10);
    expect({ ...cached, opened: undefined }).toEqual({ ...full, opened: undefined });
    expect(day3Of(full.values)).toBe(countBefore + 1);
    const after = derivedFiles(game);
    const changed = Object.keys(after).filter((f) => after[f] !== before[f]);
    // (no digest but the changed thread's: that one too unless a successor is read from it in full)
    expect(changed.filter((f) => f.startsWith('thread-') && f !== `thread-${tid}.json`)).toEqual([]);
    // closed days whose sheriff's successor may be read from day 3's thread are counted again; no earlier one
    expect(changed.filter((f) => f.startsWith('closed-day-')).map((f) => Number(/\d+/.exec(f)![0])).every((d) => d >= 3)).toBe(true);
  }, 60_000);

  /**
   * The synthetic game with its day-1 sheriff leaving on day 6 (players leave one a night: the sheriff
   * may not be among them), in a store of its own: the departure and the threads a count of day 10
   * reads its handover from.
   */
  const sheriffLeaves = async (name: string) => {
    const all = await openStore(game.storePath, { lock: false });
    const elected = tallyDay(withKnownUids(game, all.data.users), postsFromStore(all.data), 1).result.name!;
    let yaml = fs.readFileSync(game.file, 'utf8');
    const day6 = DateTime.fromMillis(findDay(game, 6).opens, { zone: game.timezone }).toFormat('yyyy-MM-dd HH:mm');
    if (!game.events.some((e) => e.player === elected)) yaml = yaml.replace('events:\n', `events:\n  - {player: ${elected}, out: "${day6}", how: night}\n`);
    const g = await storeOnDisk(root, name, '', all.data, yaml);
    const dep = departureOf(g, elected, findDay(g, 10).closes)!;
    return { game: g, elected, dep, threads: handoverThreads(g, dep, 10) };
  };
  const day10Threads = (g: Game) => threadsForTally(g, 10);

  test("a sheriff's handover is read around the sheriff's own departure only, not every player's", async () => {
    const { game, dep, threads } = await sheriffLeaves('synth-sheriff');
    expect(dep).not.toBeNull();
    const others = game.events.filter((e) => e.player !== dep.player && e.out !== undefined && e.out < dep.at);
    expect(others.length).toBeGreaterThan(0); // players left before the sheriff did: their threads are not read
    fs.rmSync(derivedDir(game.storePath), { recursive: true, force: true });
    const { reads } = await closedOutcomes(withKnownUids(game, {}), 10, await openedOn(game, day10Threads(game)));
    expect(reads.map((r) => r.completeness.tid).sort()).toEqual([...threads].sort());
    // the discussion threads read outside the count's own: only those, kept as their candidate posts (a
    // vote thread is read in full anyway, for its day's count)
    const kept = Object.keys(derivedFiles(game)).filter((f) => f.startsWith('kept-succession-')).map((f) => Number(/\d+/.exec(f)![0]));
    const talk = new Set(game.days.map((d) => d.discussion?.tid));
    expect(kept.sort()).toEqual(threads.filter((t) => talk.has(t) && !day10Threads(game).includes(t)).sort());
    const otherThreads = others.flatMap((e) => successionThreads(game, e.out!)).filter((t) => !threads.includes(t) && !day10Threads(game).includes(t));
    expect(otherThreads.length).toBeGreaterThan(0);
    for (const t of otherThreads) expect(kept).not.toContain(t);
  }, 60_000);

  test("a director naming the successor in a handover thread: the next tally passes the badge, as when read in full", async () => {
    const { game: changed, elected, dep, threads } = await sheriffLeaves('synth-successor');
    const tally = async () => {
      const store = await openedOn(changed, day10Threads(changed));
      return renderTallyJson(await tallyFromStore(changed, store, 10, []));
    };
    const before = JSON.parse(await tally());
    const successor = changed.players.find((p) => p !== elected && !changed.events.some((e) => e.player === p))!;
    // the director's post, after the departure, in the first handover thread outside day 10's own
    const tid = threads.find((t) => !day10Threads(changed).includes(t))!;
    await postHandover(changed, tid, 9_100_000, successor, dep.at + 60_000);
    const after = JSON.parse(await tally());
    expect(before.sheriff).not.toBe(successor);
    expect(after.sheriff).toBe(successor);
    const all = await openStore(changed.storePath, { lock: false });
    const counted = withKnownUids(changed, all.data.users);
    expect(JSON.stringify(after, null, 2) + '\n').toEqual(renderTallyJson({ ...tallyDay(counted, postsFromStore(all.data), 10) }));
  }, 60_000);

  test("the process thread's handover candidates kept as of its log: a successor named there after a tally is read by the next, as when read in full", async () => {
    const { game: g, elected, dep, threads } = await sheriffLeaves('synth-process-successor');
    const processTid = g.process!.tid;
    expect(threads).toContain(processTid);
    const tally = () => countFromStore(g, 10, { gone: [] }, renderTallyJson);
    const inFull = async () => {
      const all = await openStore(g.storePath, { lock: false });
      return renderTallyJson(tallyDay(withKnownUids(g, all.data.users), postsFromStore(all.data), 10));
    };
    expect(await tally()).toBe(await inFull()); // cold: the closed days counted (the process thread read in full there)
    const kept = path.join(derivedDir(g.storePath), `kept-succession-${processTid}.json`);
    // (and, while the log's key holds, the candidates alone: closed-days.ts handoverCandidates)
    const candidates = path.join(derivedDir(g.storePath), `handover-${processTid}.json`);
    expect(await tally()).toBe(await inFull()); // warm: the candidates of the opened process thread kept
    expect(fs.existsSync(kept)).toBe(true);
    expect(fs.existsSync(candidates)).toBe(true);
    const stamp = fs.statSync(kept).mtimeMs;
    const candidatesStamp = fs.statSync(candidates).mtimeMs;
    expect(await tally()).toBe(await inFull()); // and read back
    expect(fs.statSync(kept).mtimeMs).toBe(stamp);
    expect(fs.statSync(candidates).mtimeMs).toBe(candidatesStamp);
    const successor = g.players.find((p) => p !== elected && !g.events.some((e) => e.player === p))!;
    await postHandover(g, processTid, 9_200_000, successor, dep.at + 60_000);
    const after = await tally();
    expect(JSON.parse(after).sheriff).toBe(successor);
    expect(after).toBe(await inFull());
    expect(await tally()).toBe(after);
    // the kept candidates emptied under the same key, as of where they were read to (the save's point, or the last
    // change appended to it: kept-posts.ts): read (the badge not passed), and a post appended since read from
    // there; gone, they are made again from the log
    const [head, json] = fs.readFileSync(kept, 'utf8').split('\n');
    const appended = kept.replace(/\.json$/, '.appended');
    const changes = fs.existsSync(appended) ? fs.readFileSync(appended, 'utf8').trim().split('\n').slice(1) : [];
    expect(changes.length).toBeGreaterThan(0); // the successor's post appended as a change, not the candidates saved whole
    const read = changes.map((line) => JSON.parse(line.replace(/^\S+ /, '')));
    const base = JSON.parse(json);
    const floors = [...base.floors, ...read.flatMap((c) => c.floors)];
    // (a change carries the pages it changed and those gone: the record there is the save's with each applied)
    const thread = read.reduce((t, c) => {
      const { pagesGone, ...next } = c.thread;
      const pages = { ...t.pages, ...next.pages };
      for (const n of pagesGone) delete pages[n];
      return { ...next, pages };
    }, base.thread);
    writeDerived(g.storePath, `kept-succession-${processTid}`, head.split(' ')[0] as MemoKey, { ...base, point: read.at(-1).point, thread, floors, posts: [] });
    // (the candidates kept under the log's key hold the successor's post: gone, the emptied save is what is read)
    fs.rmSync(candidates);
    expect(JSON.parse(await tally()).sheriff).not.toBe(successor);
    await addPost(g, processTid, findDay(g, 10).opens + 60_000, '只是聊天'); // no closed day's business
    expect(JSON.parse(await tally()).sheriff).not.toBe(successor);
    fs.rmSync(kept);
    fs.rmSync(candidates);
    expect(await tally()).toBe(await inFull());
  }, 60_000);

  test("a director's posts the account cannot read in handover threads (a discussion kept apart, the process thread as of its log): the kept count waits on them as the count read in full does", async () => {
    const { game: g, dep, threads } = await sheriffLeaves('synth-unreadable-handover');
    const processTid = g.process!.tid;
    const tally = () => countFromStore(g, 10, { gone: [] }, renderTallyJson);
    const inFull = async () => {
      const all = await openStore(g.storePath, { lock: false });
      return renderTallyJson(tallyDay(withKnownUids(g, all.data.users), postsFromStore(all.data), 10));
    };
    expect(await tally()).toBe(await inFull()); // cold
    expect(await tally()).toBe(await inFull()); // warm: the candidates kept
    const talk = threads.find((t) => !day10Threads(g).includes(t) && t !== processTid)!;
    await postUnreadable(g, talk, 9_300_000, dep.at + 60_000);
    await postUnreadable(g, processTid, 9_300_001, dep.at + 120_000);
    const after = await tally();
    expect(JSON.parse(after).unreadableSuccession?.pids).toEqual([9_300_000, 9_300_001]);
    expect(after).toBe(await inFull());
    expect(await tally()).toBe(after); // and read back
    expect(Object.keys(derivedFiles(g))).toContain(`kept-succession-${talk}.json`);
  }, 60_000);

  test("a handover thread crawled incompletely: the tally refuses naming it, or counts it as incomplete when allowed", async () => {
    const { game: gap, threads } = await sheriffLeaves('synth-gap');
    const tid = threads.find((t) => !day10Threads(gap).includes(t))!;
    const store = await openStore(gap.storePath, { threads: [tid] });
    const thread = store.data.threads[String(tid)];
    expect(thread.pageCount).toBeGreaterThan(1);
    delete thread.pages[String(thread.pageCount)];
    await store.write();
    await store.close();
    const loaded = await openedOn(gap, day10Threads(gap));
    await expect(tallyFromStore(gap, loaded, 10, [])).rejects.toMatchObject({ exitCode: 3, message: expect.stringContaining(String(tid)) });
    const counted = await tallyFromStore(gap, loaded, 10, [], { allowIncomplete: true });
    expect(counted.incomplete?.map((c) => c.tid)).toContain(tid);
  }, 60_000);

  test('a changed game file: the closed days are counted again', async () => {
    const yaml = fs.readFileSync(game.file, 'utf8') + '  - {player: 麻团, out: "2026-12-02 21:00", how: vote}\n';
    const changed = await storeOnDisk(root, 'synth-changed', '', (await openStore(game.storePath, { lock: false })).data, yaml);
    await readThroughCache(game, 10); // the old game's files, then the changed game over its own store
    await expectSame(changed, 10);
    await expectSame(changed, 10);
  }, 60_000);

  test('damaged derived files are made again, never read', async () => {
    await readThroughCache(game, 10);
    const dir = derivedDir(game.storePath);
    const good = derivedFiles(game);
    const names = Object.keys(good);
    const digest = names.find((f) => f.startsWith('thread-'))!;
    const closed = names.find((f) => f.startsWith('closed-day-'))!;
    // a changed byte inside the value (the author of a post, a vote-out's name), a cut-off file, an empty one
    expect(good[digest]).toContain('饺子');
    fs.writeFileSync(path.join(dir, digest), good[digest].replace('饺子', '包子'));
    fs.writeFileSync(path.join(dir, closed), good[closed].slice(0, good[closed].length - 5));
    // (the scan's compiled lists and readings are made again when a text is next scanned: test/violations/kept-lists.test.ts)
    const third = names.find((f) => f !== digest && f !== closed && f !== 'char-readings.json' && f !== 'word-lists.json')!;
    fs.writeFileSync(path.join(dir, third), '');
    await expectSame(game, 10);
    expect(derivedFiles(game)).toEqual(good);
  }, 60_000);
});

describe('the wording hits kept between runs (src/derived/wording-hits.ts)', () => {
  const synth = synthGame({ posts: 1500, players: 20, days: 4 });
  let data: StoreData;
  beforeAll(() => {
    data = emptyStore(synth.forum);
    for (const ref of synth.pages) {
      const page = gamePage(ref);
      recordFetched(data, { bytes: page.bytes, url: page.url, fetchedAt: new Date('2027-01-01T00:00:00Z'), status: 200, contentType: page.contentType });
    }
  }, 60_000);

  /** Day `day` through the kept hits, and how many texts it had to scan. */
  async function scanned(game: Game, day: number): Promise<{ out: Outputs; scanned: number }> {
    const { tids, load } = reportThreads(game, day);
    const store = await openStore(game.storePath, { lock: false, threads: [...new Set([...tids, ...load])] });
    const inputs = await reportInputs(game, day, store.data);
    const memo = wordingMemo(game.storePath, game);
    const closing = closingDay(game, store.data, day, { ledgerFile: null, closed: inputs.closed, source: reportSource(inputs, memo.hitsOf) });
    memo.save();
    const full = await readInFull(game, day);
    const out: Outputs = {
      tally: closing.tally && renderTallyJson(closing.tally),
      report: renderDayReportJson(closing.report),
      values: JSON.stringify(closing),
      bbcode: renderDayReportBBCode(closing.report, storedPostLinks(game, store.data, inputs.lookBack?.values())),
      html: dayHtml(game, store.data, closing, 0, inputs.lookBack),
    };
    expect(out).toEqual(full); // byte for byte what scanning every text afresh says
    return { out, scanned: memo.scanned };
  }
  const wordingFiles = (g: Game) => Object.keys(derivedFiles(g)).filter((f) => f.startsWith('wording-'));
  const hitsIn = (o: Outputs) => (JSON.parse(o.report).flags as Array<{ kind: string; pid: number }>).filter((f) => f.kind === 'banned-wording');

  /** A new current version of post `pid` (an edit a recrawl found), with `text`. */
  async function edit(game: Game, tid: number, pid: number, text: string): Promise<void> {
    const store = await openStore(game.storePath, { threads: [tid] });
    const p = store.data.posts[String(pid)];
    const v = p.versions[p.versions.length - 1];
    p.versions.push({ ...v, firstSeen: '2027-01-02T00:00:00.000Z', lastSeen: '2027-01-02T00:00:00.000Z', post: { ...v.post, text } });
    await store.write();
    await store.close();
  }

  test('cold, warm, an edited post, a changed word list, a changed roster: only what changed is scanned', async () => {
    const game = await storeOnDisk(root, 'wording', '', data, synth.gameYaml);
    const cold = await scanned(game, 4);
    expect(cold.scanned).toBeGreaterThan(100);
    expect(hitsIn(cold.out).length).toBeGreaterThan(0); // the game has hits to keep
    expect(wordingFiles(game).length).toBeGreaterThan(0);
    expect((await scanned(game, 4)).scanned).toBe(0); // warm: no text scanned, no list parsed

    // an edit: the new version alone is scanned, and its oath is flagged
    const d4 = findDay(game, 4);
    const store = await openStore(game.storePath, { lock: false, threads: [d4.discussion!.tid] });
    const post = Object.values(store.data.posts).find((p) => game.players.includes(p.versions[0].post.author))!;
    const hitsFile = path.join(derivedDir(game.storePath), `wording-${d4.discussion!.tid}.json`);
    const before = fs.readFileSync(hitsFile);
    await edit(game, d4.discussion!.tid, post.pid, '我对天发誓这是真的，第七号新文本');
    const edited = await scanned(game, 4);
    expect(edited.scanned).toBe(1);
    expect(hitsIn(edited.out).some((f) => f.pid === post.pid)).toBe(true);
    // the new text's hits appended beside the file, not the file written again; read back on the next run
    expect(fs.readFileSync(hitsFile).equals(before)).toBe(true);
    expect(fs.readFileSync(hitsFile.replace(/\.json$/, '.appended'), 'utf8').trim().split('\n')).toHaveLength(2);
    expect((await scanned(game, 4)).scanned).toBe(0);

    // a director's word list beside the game file: every text scanned again under it
    fs.mkdirSync(path.join(path.dirname(game.file), 'words'));
    fs.writeFileSync(path.join(path.dirname(game.file), 'words', '发誓与诅咒.txt'), '第七号新文本\n');
    const listed = await scanned(game, 4);
    expect(listed.scanned).toBe(cold.scanned + 1);
    expect(hitsIn(listed.out).filter((f) => f.pid === post.pid).length).toBeGreaterThan(hitsIn(edited.out).filter((f) => f.pid === post.pid).length);
    expect((await scanned(game, 4)).scanned).toBe(0);

    // a roster that names a player like the oath (a name is never a hit): scanned again, the hit gone
    const renamed = { ...game, players: [...game.players, '对天发誓'] };
    const named = await scanned(renamed, 4);
    expect(named.scanned).toBe(listed.scanned);
    expect((await scanned(game, 4)).scanned).toBe(listed.scanned); // and back
  }, 120_000);

  test('a damaged or emptied hits file is scanned again, never read', async () => {
    const game = await storeOnDisk(root, 'wording-damaged', '', data, synth.gameYaml);
    await scanned(game, 3);
    const dir = derivedDir(game.storePath);
    const files = wordingFiles(game);
    const good = derivedFiles(game);
    const withHits = files.find((f) => good[f].includes('"category"'))!;
    expect(withHits).toBeDefined();
    // a hit's offset changed (it would quote other words), another file emptied
    fs.writeFileSync(path.join(dir, withHits), good[withHits].replace(/"start":(\d)/, (_, d: string) => `"start":${(Number(d) + 1) % 10}`));
    const other = files.find((f) => f !== withHits);
    if (other) fs.writeFileSync(path.join(dir, other), '');
    const again = await scanned(game, 3);
    expect(again.scanned).toBeGreaterThan(0);
    expect(derivedFiles(game)).toEqual(good);
  }, 60_000);
});

describe('derived files', () => {
  test("a day's window keeps every post whose time may fall in it, and those only", () => {
    const opens = Date.parse('2026-12-10T10:00:00+08:00');
    const closes = Date.parse('2026-12-10T21:00:00+08:00');
    const keep = inWindow({ day: 10, opens, closes } as Parameters<typeof inWindow>[0]);
    const post = (postedAt: string, timePrecision: 'second' | 'minute', timeEarliest?: string): StoredPost => ({
      pid: 1, tid: 1, missingSince: null,
      versions: [{ hash: 'h', firstSeen: '', lastSeen: '', post: { postedAt, timePrecision, ...(timeEarliest ? { timeEarliest } : {}) } as StoredPost['versions'][0]['post'] }],
    });
    const kept = (p: StoredPost) => keep.keep(p) === p;
    expect(kept(post('2026-12-10T09:59:59+08:00', 'second'))).toBe(false); // surely before it opens
    expect(kept(post('2026-12-10T09:59:00+08:00', 'minute'))).toBe(false); // its whole minute is before 10:00
    expect(kept(post('2026-12-10T10:00:00+08:00', 'second'))).toBe(true);
    expect(kept(post('2026-12-10T20:59:59+08:00', 'second'))).toBe(true);
    expect(kept(post('2026-12-10T20:59:00+08:00', 'minute'))).toBe(true); // in the closing minute: may be before closing
    expect(kept(post('2026-12-10T21:00:00+08:00', 'second'))).toBe(false); // at closing: not before it
    expect(kept(post('2026-12-10T11:00:00+08:00', 'second', '2026-12-09T11:00:00+08:00'))).toBe(true); // "1 天前": may be in it
    expect(kept(post('2026-12-10T09:00:00+08:00', 'second', '2026-12-09T09:00:00+08:00'))).toBe(false);
  });

  test('owner-only, read back only under their own key', () => {
    const store = path.join(root, 'unit', 'game.store.json');
    const key = memoKey({ any: 'inputs' });
    writeDerived(store, 'x', key, { value: [1, '二'] });
    expect(readDerived(store, 'x', key)).toEqual({ value: [1, '二'] });
    expect(readDerived(store, 'x', memoKey({ any: 'other inputs' }))).toBeUndefined();
    expect(readDerived(store, 'missing', key)).toBeUndefined();
    expect(fs.statSync(derivedDir(store)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(derivedDir(store), 'x.json')).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(derivedDir(store))).toEqual(['x.json']); // no temp file left
  });

  test('a write that cannot be made is only a cache miss', () => {
    const blocked = path.join(root, 'unit-blocked');
    fs.writeFileSync(`${blocked}.derived`, 'a file where the folder would go');
    expect(() => writeDerived(`${blocked}.json`, 'x', 'k' as MemoKey, 1)).not.toThrow();
    expect(readDerived(`${blocked}.json`, 'x', 'k' as MemoKey)).toBeUndefined();
  });
});
