/**
 * The game as it really runs (issue 14), on a replayed game whose pages are rendered from the real captured
 * Discuz markup (test/game/seats-world.ts): a substitute mid-game, a renamed account, a player with no
 * posts, a ballot in the discussion thread, a traditional 申請加速 — through the tally, the report, the
 * card ledger, the elevator and the real CLI.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { closingDay, threadsThroughDay } from '../../src/day/closing-day.js';
import { buildDayReport } from '../../src/report/day-report.js';
import { plainReportSource } from '../../src/report/source.js';
import { dayHtml } from '../../src/day/day-page.js';
import { elevatorFloor } from '../../src/elevator/index.js';
import { renderElevatorBBCode } from '../../src/render/elevator-bbcode.js';
import { parseForumTime } from '../../src/game/forum-time.js';
import { otherSeatNames, seatOfPost, seatPosts, unknownUids, withKnownUids } from '../../src/game/roster.js';
import { postUrl } from '../../src/store/slice.js';
import { openStore } from '../../src/store/store-file.js';
import { threadDigests } from '../../src/store/thread-digest.js';
import { readProxy } from '../../src/votes/ballot.js';
import { renderTallyBBCode } from '../../src/render/tally-bbcode.js';
import { tallyJson } from '../../src/render/tally-json.js';
import { renderTallyTerminal } from '../../src/render/tally-terminal.js';
import { postsFromStore, tallyDay } from '../../src/votes/tally.js';
import { bansha } from '../helpers/cli.js';
import { FORUM, PID, PLAYERS, SEATS_YAML, seatsWorld, UID, writeSeatsWorld } from './seats-world.js';
import { flagDetail, publicFlagDetail } from '../../src/violations/details.js';
import { withLanguage } from '../../src/i18n/index.js';

const world = seatsWorld();
const game = withKnownUids(world.game, world.store.users);
const posts = postsFromStore(world.store);
const day2 = tallyDay(game, posts, 2);
const report2 = closingDay(world.game, world.store, 2, { ledgerFile: null }).report;
const ballotOf = (pid: number) => day2.ballots.find((b) => b.pid === pid);
const local = (s: string) => parseForumTime(s, 'Asia/Shanghai')!;

describe('a substitute (替补) takes the seat over mid-game', () => {
  test('the substitute\'s ballot is the seat\'s; the replaced account\'s later ballot counts for nobody', () => {
    expect(ballotOf(PID.d2SubstituteBallot)).toMatchObject({ voter: '馒头', target: '包子', status: 'counted', weight: 1 });
    expect(ballotOf(PID.d2OldAccountBallot)).toBeUndefined();
    expect(day2.players.find((p) => p.player === '馒头')?.state).toBe('voted');
    expect(day2.totals.find((t) => t.name === '包子')).toEqual({ name: '包子', votes: 2, voters: ['春卷', '馒头'] });
  });
  test('post counts follow the seat: the account\'s posts before the hand-over and the substitute\'s after', () => {
    expect(report2.activity.find((a) => a.player === '馒头')).toMatchObject({ posts: 3, pids: [4101, 4102, PID.d2SubstituteTalk] });
  });
  test('the replaced account\'s posts after the hand-over are flagged for the director, never 诈尸, never a card', () => {
    const replaced = report2.flags.filter((f) => f.kind === 'replaced-account');
    expect(replaced.map((f) => f.pid).sort()).toEqual([PID.d2OldAccountTalk, PID.d2OldAccountBallot, PID.accelOldAccount].sort());
    expect(replaced[0]).toMatchObject({ player: '馒头', url: expect.stringContaining(`pid=${replaced[0].pid}`) });
    expect(publicFlagDetail(replaced[0], report2.timezone)).toMatch(/^馒头 已于 11-22 12:00 由替补 花卷 接替（馒头 的座位）：此帖不计入任何玩家，也不算诈尸/);
    expect(withLanguage('en', () => flagDetail(replaced[0], report2.timezone))).toMatch(/^馒头 was replaced by the substitute 花卷 at 11-22 12:00 \(馒头's seat\): this post counts for no player/);
    expect(report2.flags.filter((f) => f.kind === 'zombie-post')).toEqual([]);
    expect(report2.cards.filter((c) => c.kind === 'replaced-account')).toEqual([]);
  });
  test('an account is the seat only while it holds it: the substitute before its time speaks for nobody', () => {
    const at = local('2026-11-22 11:00');
    expect(seatOfPost(game, { author: '花卷', authorId: UID['花卷'], at })).toEqual({ kind: 'none' });
    expect(seatOfPost(game, { author: '馒头', authorId: UID['馒头'], at })).toEqual({ kind: 'seat', seat: '馒头' });
    expect(seatOfPost(game, { author: '馒头', authorId: UID['馒头'], at: local('2026-11-22 12:00') })).toMatchObject({ kind: 'replaced', by: '花卷' });
  });
  test('the elevator links the account that played the seat each day (both on the day of the hand-over)', () => {
    const floor = elevatorFloor(world.store, world.game, 2);
    const link = (uid: number) => `${FORUM}forum.php?mod=viewthread&tid=4&page=1&authorid=${uid}`;
    expect(renderElevatorBBCode(floor).split('\n')[3]).toBe(`3. [url=${link(UID['馒头'])}]馒头[/url] → [url=${link(UID['花卷'])}]花卷[/url]（替补）`);
    expect(renderElevatorBBCode(elevatorFloor(world.store, world.game, 1)).split('\n')[3]).toBe(`3. [url=${FORUM}forum.php?mod=viewthread&tid=2&page=1&authorid=${UID['馒头']}]馒头[/url]`);
  });
});

describe('a renamed account (same uid, new name) is still the seat', () => {
  test('its ballot counts for the seat, with the sheriff\'s weight the seat won on day 1', () => {
    expect(day2.sheriff).toBe('包子');
    expect(ballotOf(PID.d2RenamedBallot)).toMatchObject({ voter: '包子', target: '春卷', status: 'counted', weight: 1.5 });
  });
  test('a ballot may name the seat by its new name', () => {
    expect(ballotOf(PID.d2ByNewName)).toMatchObject({ voter: '春卷', target: '包子', status: 'counted' });
  });
  test('a director\'s 代投 may name the seat by its new name, or by both names', () => {
    expect(readProxy('代投：小笼包\n投票对象：春卷\n投票理由：委托', game.players, ['代投'], otherSeatNames(game))).toEqual({ ok: true, player: '包子' });
    expect(readProxy('代投：包子（小笼包）\n投票对象：春卷\n投票理由：委托', game.players, ['代投'], otherSeatNames(game))).toEqual({ ok: true, player: '包子' });
    expect(readProxy('代投：小笼包\n投票对象：春卷\n投票理由：委托', game.players, ['代投'])).toMatchObject({ ok: false });
  });
  test('its posts count for the seat, and the elevator links the uid', () => {
    expect(report2.activity.find((a) => a.player === '包子')).toMatchObject({ posts: 3, pids: [4103, 4104, PID.d2RenamedTalk] });
    expect(elevatorFloor(world.store, world.game, 2).entries[1]).toMatchObject({ player: '包子', uid: UID['包子'] });
  });
  test('a uid in the game file recognises it with no help from the store', () => {
    const filed = SEATS_YAML.replace('players: [饺子, 包子,', `players: [饺子, {name: 包子, uid: ${UID['包子']}},`);
    const g = seatsWorld(filed).game;
    expect(seatOfPost(g, { author: '小笼包', authorId: UID['包子'], at: local('2026-11-22 15:10') })).toEqual({ kind: 'seat', seat: '包子' });
    expect(tallyDay(g, posts, 2).ballots.find((b) => b.pid === PID.d2RenamedBallot)).toMatchObject({ voter: '包子', status: 'counted' });
  });
  test('without a uid, a post under the seat\'s name by another uid is not the seat (the name changed hands)', () => {
    expect(seatOfPost(game, { author: '包子', authorId: 999, at: local('2026-11-22 15:10') })).toEqual({ kind: 'none' });
  });
});

describe('cards follow the seat: the substitute inherits them (120b l.630 继承前任玩家受到的一切判罚; 062 l.267 代替该玩家继续游戏)', () => {
  test('a card confirmed for the seat before the hand-over stands on the substitute\'s days', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-seats-'));
    const file = writeSeatsWorld(world, dir);
    const d1 = await bansha(['report', '--game', file, '--day', '1', '--json']);
    expect(d1.code).toBe(0);
    const ledger = JSON.parse(fs.readFileSync(path.join(dir, 'game.cards.json'), 'utf8')) as { cards: Array<{ id: string; player: string; day: number; kind: string }> };
    const card = ledger.cards.find((c) => c.player === '馒头' && c.kind === 'few-posts' && c.day === 1)!;
    expect((await bansha(['cards', 'confirm', card.id, '--game', file])).code).toBe(0);
    const standings = closingDay(world.game, world.store, 2, { ledgerFile: path.join(dir, 'game.cards.json') }).report.standings;
    expect(standings.find((s) => s.player === '馒头')).toMatchObject({ yellow: 1, given: { yellow: 1 } });
    const notice = await bansha(['report', '--game', file, '--day', '2', '--bbcode']);
    expect(notice.stdout).toMatch(/\[b\]累计\[\/b\]\n馒头：/);
  });
});

describe('a player with no posts does not hold up the elevator', () => {
  test('every other line is written; theirs is marked and a warning names them', () => {
    const floor = elevatorFloor(world.store, world.game, 2);
    expect(floor.entries.filter((e) => e.url !== null)).toHaveLength(7);
    expect(renderElevatorBBCode(floor).trim().split('\n').at(-1)).toBe('8. 豆浆（暂无链接）');
    expect(floor.warnings).toEqual([expect.stringMatching(/^豆浆 的论坛 uid 尚不知道/)]);
  });
  test('the accounts whose uid is still unknown are named (what `bansha crawl` prints)', () => {
    expect(unknownUids(withKnownUids(world.game, world.store.users))).toEqual(['豆浆']);
    expect(unknownUids(world.game)).toEqual(['饺子', '包子', '馒头', '花卷', ...PLAYERS.slice(3)]);
  });
  test('the CLI exits 0 with the floor on stdout and the warning on stderr', async () => {
    const file = writeSeatsWorld(world, fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-seats-')));
    const run = await bansha(['elevator', '--game', file, '--day', '1']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('8. 豆浆（暂无链接）');
    expect(run.stderr).toMatch(/^注意：豆浆 的论坛 uid 尚不知道/);
  });
});

describe('ballots in the wrong place', () => {
  test('a ballot in the discussion thread is listed with its link, not counted', () => {
    expect(day2.misplaced).toEqual([
      { player: '汤圆', thread: 'discussion', tid: 4, pid: PID.d2MisplacedBallot, floor: expect.any(Number), at: local('2026-11-22 14:00'), url: `${FORUM}forum.php?mod=redirect&goto=findpost&ptid=4&pid=${PID.d2MisplacedBallot}`, target: '春卷' },
    ]);
    expect(day2.players.find((p) => p.player === '汤圆')?.state).toBe('none');
    expect(renderTallyTerminal(day2)).toMatch(/投票发错帖（不计票，请导演裁定）\n {2}\? 汤圆 → 春卷 {2}讨论帖 4 \d+# 11-22 14:00/);
    expect(renderTallyBBCode(day2)).toContain(`[b]发在投票帖以外的投票（不计票）[/b]\n汤圆 [url=${FORUM}forum.php?mod=redirect&goto=findpost&ptid=4&pid=${PID.d2MisplacedBallot}]`);
    const misplaced = report2.flags.find((f) => f.kind === 'misplaced-ballot')!;
    expect(misplaced).toMatchObject({ player: '汤圆', pid: PID.d2MisplacedBallot });
    expect(withLanguage('en', () => flagDetail(misplaced, report2.timezone))).toMatch(/^ballot posted in the (discussion|process) thread \(thread \d+\), not the vote thread: not counted, the director decides/);
    expect(publicFlagDetail(misplaced, report2.timezone)).toMatch(/^投票发在(讨论帖|进程帖)（帖子 \d+），不在投票帖：不计票，请导演裁定/);
    expect(report2.activity.find((a) => a.player === '汤圆')?.voted).toBe(false);
  });
  test('the report takes them off the day\'s count when given it: the same flags as it reads itself', () => {
    const threads = new Map(threadsThroughDay(game, 2).filter((tid) => world.store.threads[String(tid)]).map((tid) => [tid, posts(tid)]));
    const plain = plainReportSource(game);
    const flagsOf = (misplaced?: typeof day2.misplaced) =>
      buildDayReport(game, threads, 2, { accelerated: false, source: { ...plain, ballotsOutOfPlace: (d, p) => plain.ballotsOutOfPlace(d, p, misplaced) } }).flags.filter((f) => f.kind === 'misplaced-ballot');
    expect(flagsOf().map((f) => f.pid)).toEqual([PID.d2MisplacedBallot]);
    expect(flagsOf(day2.misplaced)).toEqual(flagsOf());
    expect(flagsOf([])).toEqual([]); // (given, they are not read again)
    expect(report2.flags.filter((f) => f.kind === 'misplaced-ballot')).toEqual(flagsOf()); // closingDay hands the count's over
  });
  test('a day\'s two vote threads are counted as one', () => {
    expect(ballotOf(PID.d2SecondThread)).toMatchObject({ voter: '烧卖', target: '春卷', status: 'counted' });
    expect(day2.totals[0]).toEqual({ name: '春卷', votes: 4.5, voters: ['饺子', '包子', '油条', '烧卖'] });
    expect(report2.activity.find((a) => a.player === '烧卖')?.voted).toBe(true);
  });
});

describe('acceleration you can audit', () => {
  const a = day2.acceleration!;
  test('who asked (name, time, floor, link) and why a request did not count', () => {
    expect(a.audit.map((r) => [r.pid, r.player, r.counted, r.code])).toEqual([
      [PID.accelTraditional, '春卷', true, null], // 申請加速: traditional
      [PID.accelVariant, '馒头', true, null], // 申请加快 by the substitute, for the seat
      [PID.accelFirst, '饺子', true, null],
      [PID.accelAgain, '饺子', false, 'repeat'],
      [PID.accelOldAccount, '馒头', false, 'replaced'],
    ]);
    expect(a.audit[3].reason).toBe('重复申请：已于 11-22 13:00（5#）申请过，只计一次');
    expect(a.requests).toHaveLength(3);
    expect(a.explanation).toBe('11-22 21:00 前，8 名存活玩家中 3 人申请加速（须过半：5 人）：未加速');
  });
  test('JSON: acceleration {needed, requests: [{player, pid, at, counted, reason}]} beside accelerated', () => {
    const j = tallyJson(day2);
    expect(j.accelerated).toBe(false);
    expect(j.acceleration).toMatchObject({ needed: 5, alive: 8, asOf: '2026-11-22T21:00:00+08:00' });
    expect(j.acceleration!.requests[0]).toEqual({
      player: '春卷', pid: PID.accelTraditional, floor: 3, at: '2026-11-22T11:00:00+08:00',
      url: `${FORUM}forum.php?mod=redirect&goto=findpost&ptid=6&pid=${PID.accelTraditional}`, counted: true, reason: null, code: null,
    });
  });
  test('terminal, BBCode and HTML list the requests', () => {
    expect(renderTallyTerminal(day2)).toContain(`  ✗ 饺子  6# 11-22 14:00  ${FORUM}forum.php?mod=redirect&goto=findpost&ptid=6&pid=${PID.accelAgain}  重复申请`);
    expect(renderTallyBBCode(day2)).toMatch(/^申请加速：春卷 \[url=[^\]]+pid=6201\]3#\[\/url\] 11-22 11:00、馒头 /m);
    expect(renderTallyBBCode(day2)).toMatch(/^不计的申请：饺子 \[url=[^\]]+\]6#\[\/url\]（重复申请/m);
    const html = dayHtml(game, world.store, closingDay(world.game, world.store, 2, { ledgerFile: null }), 0);
    expect(html).toMatch(/<table class="acceleration">.*<td class="nw" data-label="玩家">春卷<\/td><td class="nw counted" data-label="计入">计入<\/td>/s);
    expect(html).toContain('已被替补 花卷 替换');
  });
  test('--at shows acceleration as of that moment: later requests are not there yet', () => {
    const r = tallyDay(game, posts, 2, { at: local('2026-11-22 12:50') }).acceleration!;
    expect(r.audit.map((x) => x.pid)).toEqual([PID.accelTraditional, PID.accelVariant]);
    expect(r.explanation).toMatch(/^11-22 12:50 前，8 名存活玩家中 2 人申请加速/);
  });
  test('the real CLI: tally --json --at', async () => {
    const file = writeSeatsWorld(world, fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-seats-')));
    const run = await bansha(['tally', '--game', file, '--day', '2', '--json', '--at', '2026-11-22 13:30']);
    expect(run.code).toBe(0);
    const j = JSON.parse(run.stdout);
    expect(j.acceleration.requests.map((r: { pid: number }) => r.pid)).toEqual([PID.accelTraditional, PID.accelVariant, PID.accelFirst]);
    expect(j.acceleration.asOf).toBe('2026-11-22T13:30:00+08:00');
  });
});

describe('the look-back (earlier threads read through their digests) follows the seat', () => {
  test("a renamed account's post read back from its digest is the seat's and keeps its link", async () => {
    const file = writeSeatsWorld(world, fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-seats-')));
    const storePath = path.join(path.dirname(file), 'game.store.json');
    const migrated = await openStore(storePath); // the one-time migration to thread logs, which digests are keyed on
    await migrated.write();
    await migrated.close();
    const digest = (await threadDigests(storePath, FORUM, [4])).get(4)!;
    const renamed = digest.posts.find((p) => p.pid === PID.d2RenamedTalk)!;
    expect(renamed.author).toBe('小笼包');
    const seated = seatPosts(game, digest.posts).posts.find((p) => p.pid === PID.d2RenamedTalk)!;
    expect(seated).not.toBe(renamed);
    expect(seated).toMatchObject({ author: '包子', authorId: UID['包子'], at: renamed.at, sightings: renamed.sightings });
    expect(seated.url).toBe(postUrl(FORUM, 4, PID.d2RenamedTalk));
  });
});
