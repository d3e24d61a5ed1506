/**
 * A closing command whose inputs did not change renders what it kept (src/derived/kept-closing.ts):
 * every view of a kept report or tally is byte-identical to a fresh computation from the store (the
 * path `report` and `tally` took before they kept anything), on the captured games; each input of the
 * key changed in turn makes it compute again, and the new answer equals a fresh one; a damaged or torn
 * kept file is ignored; an incomplete thread is still refused and a refused run keeps nothing; with no
 * build to name the code nothing is kept.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decide, ledgerPath, readLedger, updateLedger } from '../../src/cards/ledger.js';
import { storedPostLinks } from '../../src/day/closing-day.js';
import { dayHtmlOf } from '../../src/day/day-html.js';
import { dayHtml } from '../../src/day/day-page.js';
import { recordProposals } from '../../src/close/proposals.js';
import { countFromStore } from '../../src/derived/closed-days.js';
import { beforeReport, closingDayFromStore, reportThreads } from '../../src/derived/closing-inputs.js';
import { elevatorView, evidenceLinks, reportDay, tallyResult, type ReportDay, type TallyOptions } from '../../src/derived/kept-closing.js';
import { closedOutcomes } from '../../src/derived/closed-days.js';
import { keptThreadRecords } from '../../src/derived/thread-records.js';
import { carriedForward } from '../../src/close/carried.js';
import { elevatorFloor } from '../../src/elevator/index.js';
import { renderElevatorBBCode } from '../../src/render/elevator-bbcode.js';
import { dayTids } from '../../src/game/threads.js';
import { findDay, withKnownUids } from '../../src/game/roster.js';
import { emptyStore } from '../../src/store/store-file.js';
import { jsonPlain } from '../../src/store/memo.js';
import { BUILD } from '../../src/game/game-cache.js';
import { loadGame } from '../../src/game/game-file.js';
import type { Game } from '../../src/game/types.js';
import { withLanguage } from '../../src/i18n/index.js';
import type { DayReport } from '../../src/report/day-report.js';
import { renderDayReportBBCode } from '../../src/render/report-bbcode.js';
import { renderDayReportJson } from '../../src/render/report-json.js';
import { renderDayReportMarkdown } from '../../src/render/report-markdown.js';
import { renderDayReportTerminal } from '../../src/render/report-terminal.js';
import { renderTallyBBCode } from '../../src/render/tally-bbcode.js';
import { renderTallyJson } from '../../src/render/tally-json.js';
import { renderTallyTerminal } from '../../src/render/tally-terminal.js';
import { derivedDir } from '../../src/store/memo.js';
import { openStore } from '../../src/store/index.js';
import { threadLogPath } from '../../src/store/store-file.js';
import { fullEntry, logLine, readLog, writeFileAtomic } from '../../src/store/thread-log.js';
import { withCountingStore } from '../../src/store/with-store.js';
import type { TallyResult } from '../../src/votes/types.js';
import { crawlGame } from '../../src/crawl/crawler.js';
import { saveSession } from '../../src/crawl/session.js';
import { startReplayServer } from '../../src/replay/server.js';
import { bansha } from '../helpers/cli.js';
import { demoStore, FIXTURES, storeFromFixture, threadPageFiles } from '../helpers/captured.js';
import { storeOnDisk } from '../helpers/store-on-disk.js';

/** What names the code in these tests (the library has no bundle build: see the last test). */
const CODE = 'test build';

let root: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-kept-'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const publicGame = (name: string) => storeOnDisk(root, name, path.join(FIXTURES, 'games', 'public.yaml'), storeFromFixture('public', threadPageFiles('public')));

/** Every view a director reads of a day report and its tally (the HTML made at a fixed time). */
type Views = Record<'json' | 'terminal' | 'bbcode' | 'markdown' | 'html' | 'values', string> & { tally: string | null };

function viewsOf(report: DayReport, tally: TallyResult | null, links: (pid: number) => string | null, html: string): Views {
  return {
    json: renderDayReportJson(report),
    terminal: renderDayReportTerminal(report),
    bbcode: renderDayReportBBCode(report, links),
    markdown: renderDayReportMarkdown(report),
    html,
    values: JSON.stringify({ report, tally }),
    tally: tally && renderTallyJson(tally),
  };
}

/** Day `day` as `bansha report` now makes it: reportDay (kept or not), the ledger step, the views. */
async function asReportDoes(game: Game, day: number, opts: { ledger?: boolean; allowIncomplete?: boolean } = {}): Promise<{ kept: boolean; views: Views }> {
  const ledgerFile = ledgerPath(game.file);
  const r: ReportDay & { kept: boolean } = await reportDay(game, day, { ledgerFile, allowIncomplete: opts.allowIncomplete }, CODE);
  if (opts.ledger) await recordProposals(game, r.closing.report, ledgerFile);
  const links = evidenceLinks(game, r);
  return { kept: r.kept, views: viewsOf(r.closing.report, r.closing.tally, links, dayHtmlOf(r.closing, r.page, links, 0)) };
}

/** Day `day` computed afresh from the store, as `bansha report` made it before it kept anything. */
async function fresh(game: Game, day: number, opts: { ledger?: boolean; allowIncomplete?: boolean } = {}): Promise<Views> {
  const ledgerFile = ledgerPath(game.file);
  await beforeReport(game, day);
  return withCountingStore(game, { ...reportThreads(game, day), allowIncomplete: opts.allowIncomplete }, async (store, incomplete) => {
    const { closing, lookBack } = await closingDayFromStore(game, day, store, { ledgerFile, checked: incomplete, allowIncomplete: opts.allowIncomplete, gone: [] });
    if (opts.ledger) await recordProposals(game, closing.report, ledgerFile);
    return viewsOf(closing.report, closing.tally, storedPostLinks(game, store, lookBack?.values()), dayHtml(game, store, closing, 0, lookBack));
  });
}

/** Every view of the tally of `day`. */
const tallyViews = (r: TallyResult) => ({ json: renderTallyJson(r), text: renderTallyTerminal(r), bbcode: renderTallyBBCode(r), values: JSON.stringify(r) });
const freshTally = async (game: Game, day: number, opts: Partial<TallyOptions> = {}) => countFromStore(game, day, { gone: [], ...opts }, tallyViews);
const keptTally = async (game: Game, day: number, opts: Partial<TallyOptions> = {}) => tallyViews(await tallyResult(game, day, { gone: [], ...opts }, CODE));

const keptFile = (game: Game, what: 'report' | 'tally', day: number) => path.join(derivedDir(game.storePath), `closing-${what}-day${day}.json`);

/** Runs `asReportDoes` expecting a recomputation (kept: false) that says what a fresh computation says, then a hit that says it too. */
async function recomputedThenKept(game: Game, day: number, opts: { ledger?: boolean; allowIncomplete?: boolean } = {}): Promise<Views> {
  const want = await fresh(game, day, opts);
  const missed = await asReportDoes(game, day, opts);
  expect(missed.kept).toBe(false);
  expect(missed.views).toEqual(want);
  const hit = await asReportDoes(game, day, opts);
  expect(hit.kept).toBe(true);
  expect(hit.views).toEqual(want);
  return want;
}

/** A post added to thread `tid` after its last, saying `text` (as a recrawl stores it): one log line appended. */
async function addPost(game: Game, tid: number, text: string): Promise<void> {
  const store = await openStore(game.storePath, { threads: [tid] });
  const last = Object.values(store.data.posts).sort((a, b) => b.pid - a.pid)[0];
  const v = last.versions[last.versions.length - 1];
  const pid = last.pid + 100_000;
  const floor = (v.post.floor ?? 0) + 1;
  store.data.posts[String(pid)] = { ...last, pid, versions: [{ ...v, hash: `h${pid}`, post: { ...v.post, pid, floor, floorLabel: `${floor}#`, text } }] };
  const thread = store.data.threads[String(tid)];
  if (typeof thread.replies === 'number') thread.replies++;
  await store.write();
  await store.close();
}

describe('a kept result renders every view as a fresh computation does', () => {
  const games = {
    public: () => publicGame('views-public'),
    wuhui: () => storeOnDisk(root, 'views-wuhui', path.join(FIXTURES, 'games', 'wuhui.yaml'), demoStore('wuhui')),
    '120b': () => storeOnDisk(root, 'views-120b', path.join(FIXTURES, 'games', '120b.yaml'), demoStore('120b')),
  };
  for (const [name, make] of Object.entries(games)) {
    test(name, async () => {
      const game = await make();
      for (const d of game.days) {
        const want = await recomputedThenKept(game, d.day, { allowIncomplete: true });
        expect(want.html).toContain('</html>');
        if (!game.rules.publicVote || !d.vote) continue;
        for (const opts of [{ allowIncomplete: true }, ...(d.rules ? [{ rules: true, allowIncomplete: true }] : [])]) {
          const wantTally = await freshTally(game, d.day, opts);
          expect(await keptTally(game, d.day, opts)).toEqual(wantTally); // computed, kept
          expect(fs.existsSync(keptFile(game, 'tally', d.day))).toBe(true);
          expect(await keptTally(game, d.day, opts)).toEqual(wantTally); // read from the kept file
        }
      }
    }, 120_000);
  }
});

describe('a deleted reply in the discussion thread (read apart) with no reply count to confirm it', () => {
  test('the kept report says what the fresh one says: judged deleted on whole pages alone', async () => {
    // Day 2's discussion as a crawl stores it when one reply is no longer on the forum and page 1 shows no
    // usable reply count (a theme without it): the floor is skipped, every page fetched whole.
    const data = storeFromFixture('public', threadPageFiles('public'));
    const game0 = loadGame(path.join(FIXTURES, 'games', 'public.yaml'));
    const tid = game0.days[1].discussion!.tid;
    const gone = Object.values(data.posts).filter((p) => p.tid === tid).sort((a, b) => a.pid - b.pid)[18];
    delete data.posts[String(gone.pid)];
    delete data.threads[String(tid)].replies;
    const game = await storeOnDisk(root, 'apart-vanished', path.join(FIXTURES, 'games', 'public.yaml'), data);
    const want = await recomputedThenKept(game, 2);
    const floor = gone.versions[0].post.floor!;
    expect(JSON.parse(want.json).notes.find((n: string) => n.includes(`postno=${floor}`))).toContain('依据仅是整帖每一页都抓全而此楼被跳过');
  }, 60_000);
});

describe('each input of the key changed: computed again, the same as afresh', () => {
  let game: Game;
  beforeAll(async () => {
    game = await publicGame('inputs');
    await recomputedThenKept(game, 2);
  }, 60_000);
  const day = 2;

  test("a log line appended: the day's vote and discussion threads, an earlier day's thread, the process thread", async () => {
    // the earlier threads summed up (look-back.ts) stand while the day's threads grow, and are made again when one of theirs does
    const lookBack = path.join(derivedDir(game.storePath), `look-back-day${day}.json`);
    const summed = fs.readFileSync(lookBack, 'utf8');
    const stat = fs.statSync(lookBack);
    await addPost(game, game.days[1].vote!.tid, `投票对象：${game.players[3]}`);
    await recomputedThenKept(game, day);
    await addPost(game, game.days[1].discussion!.tid, '大家好');
    await recomputedThenKept(game, day);
    // the discussion is read apart, as its scanned posts kept (closing-inputs.ts readApart): a post there
    // with a ballot (misplaced) and banned wording, then another, each read from where they were kept
    const discussion = game.days[1].discussion!.tid;
    const scanned = path.join(derivedDir(game.storePath), `kept-scanned-${discussion}.json`);
    expect(fs.existsSync(scanned)).toBe(true);
    await addPost(game, discussion, `投票对象：${game.players[2]} 你去死吧`);
    await recomputedThenKept(game, day);
    await addPost(game, discussion, '没什么');
    await recomputedThenKept(game, day);
    expect(fs.statSync(lookBack).mtimeMs).toBe(stat.mtimeMs);
    // an earlier day's thread (read through its digest, summed up) and the process thread
    await addPost(game, game.days[0].discussion!.tid, '补一句');
    await recomputedThenKept(game, day);
    expect(fs.readFileSync(lookBack, 'utf8')).not.toBe(summed);
    expect(fs.readFileSync(lookBack, 'utf8').split('\n')[0]).not.toBe(summed.split('\n')[0]);
    await addPost(game, game.process!.tid, '申请加速');
    await recomputedThenKept(game, day);
  }, 60_000);

  test('a log compacted (another file renamed in, the same posts)', async () => {
    const log = threadLogPath(game.storePath, game.days[1].vote!.tid);
    await writeFileAtomic(log, logLine(fullEntry((await readLog(log))!)), { backup: true });
    await recomputedThenKept(game, day);
  }, 60_000);

  test('the card ledger: the proposals recorded, then a card confirmed', async () => {
    // (the first run records the proposals: the ledger it was computed from changed under it)
    await recomputedThenKept(game, day, { ledger: true });
    const ledger = readLedger(game);
    expect(ledger.cards.length).toBeGreaterThan(0);
    await updateLedger(game, ledgerPath(game.file), (l) => decide(l, ledger.cards[0].id, 'confirmed', new Date('2026-11-23T00:00:00Z')));
    const after = await recomputedThenKept(game, day, { ledger: true });
    expect(after.bbcode).toContain(ledger.cards[0].player); // the notice lists confirmed cards
  }, 60_000);

  test('a ruling added (the checked game changes with it)', async () => {
    const before = await fresh(game, day);
    const counted = JSON.parse(before.values).tally.ballots.find((b: { status: string }) => b.status === 'counted');
    const r = await bansha(['rule', 'reject', String(counted.pid), '--game', game.file, '--day', String(day), '--why', '重复计票']);
    expect(r.code, r.out).toBe(0);
    game = loadGame(game.file);
    const after = await recomputedThenKept(game, day);
    expect(after.tally).not.toBe(before.tally);
  }, 60_000);

  test("a words/ file beside the game edited", async () => {
    const words = path.join(path.dirname(game.file), 'words');
    fs.mkdirSync(words, { recursive: true });
    fs.writeFileSync(path.join(words, '侮辱性评论.txt'), '笨蛋\n');
    await recomputedThenKept(game, day);
    fs.writeFileSync(path.join(words, '侮辱性评论.txt'), '笨蛋\n傻瓜\n');
    await recomputedThenKept(game, day);
  }, 60_000);

  test('the game file edited', async () => {
    fs.appendFileSync(game.file, '  - {player: 麻花, out: "2026-11-22 12:00", how: night}\n');
    game = loadGame(game.file);
    await recomputedThenKept(game, day);
  }, 60_000);

  test('the language switched', async () => {
    const en = await withLanguage('en', () => recomputedThenKept(game, day));
    const zh = await recomputedThenKept(game, day);
    expect(en.terminal).not.toBe(zh.terminal);
  }, 60_000);

  test("the locale's environment (ICU's default locale orders names tied in votes)", async () => {
    const saved = process.env.LC_ALL;
    process.env.LC_ALL = 'zh_TW.UTF-8';
    try {
      await recomputedThenKept(game, day);
    } finally {
      if (saved === undefined) delete process.env.LC_ALL;
      else process.env.LC_ALL = saved;
    }
    await recomputedThenKept(game, day);
  }, 60_000);

  test('--allow-incomplete', async () => {
    await recomputedThenKept(game, day, { allowIncomplete: true });
    await recomputedThenKept(game, day);
  }, 60_000);

  test("the store index's users (a uid learned)", async () => {
    const store = await openStore(game.storePath, { threads: [] });
    store.data.users['新账号'] = 424242;
    await store.write();
    await store.close();
    await recomputedThenKept(game, day);
  }, 60_000);

  test('tally: a line appended, --at, --allow-incomplete, the language, the index — each counted again as afresh', async () => {
    const vote = game.days[1].vote!.tid;
    const expectKeptAsFresh = async (opts: Partial<TallyOptions> = {}) => {
      const want = await freshTally(game, day, opts);
      fs.rmSync(keptFile(game, 'tally', day), { force: true });
      expect(await keptTally(game, day, opts)).toEqual(want);
      const saved = fs.readFileSync(keptFile(game, 'tally', day), 'utf8');
      expect(await keptTally(game, day, opts)).toEqual(want);
      return { want, saved };
    };
    const first = await expectKeptAsFresh();
    const stale = async (opts: Partial<TallyOptions> = {}) => {
      // the file kept before the change, put back: not used (its key is another), and the answer is the fresh one
      fs.writeFileSync(keptFile(game, 'tally', day), first.saved);
      expect(await keptTally(game, day, opts)).toEqual(await freshTally(game, day, opts));
      expect(fs.readFileSync(keptFile(game, 'tally', day), 'utf8')).not.toBe(first.saved);
    };
    await stale({ at: game.days[1].closes - 3_600_000 });
    await stale({ allowIncomplete: true });
    await withLanguage('en', () => stale());
    await addPost(game, vote, `投票对象：${game.players[4]}`);
    await stale();
    await expectKeptAsFresh();
  }, 60_000);
});

test("the elevator's floor kept (elevatorView): made once, then read while its inputs stand; a line appended to one of the day's threads or an earlier day's, the language, the index: made again, as afresh", async () => {
  const game = await publicGame('elevator');
  const day = 2;
  let made = 0;
  // what `bansha elevator` makes of the store (src/cli/commands/elevator.ts)
  const make = async () => {
    made++;
    const store = await keptThreadRecords(game.storePath, dayTids(findDay(game, day)));
    const { closed } = await closedOutcomes(withKnownUids(game, store.users), day, emptyStore(game.forum), { outcomesOnly: true });
    const carried = carriedForward(game, closed, day);
    const floor = elevatorFloor(store, carried.game, day);
    return { floor, bbcode: renderElevatorBBCode(floor), warnings: [...carried.warnings.map((w) => w.text), ...floor.warnings] };
  };
  const kept = path.join(derivedDir(game.storePath), `closing-elevator-day${day}.json`);
  const keptAsFresh = async (view = () => elevatorView(game, day, make, CODE)) => {
    const before = made;
    const first = await view();
    expect(made).toBe(before + 1); // made
    expect(fs.existsSync(kept)).toBe(true);
    expect(await view()).toEqual(first); // read back
    expect(made).toBe(before + 1);
    expect(first).toEqual(await make()); // as afresh
    return first;
  };
  const first = await keptAsFresh();
  expect(first.bbcode).toContain(String(day));
  await addPost(game, game.days[1].vote!.tid, '顶');
  await keptAsFresh();
  await addPost(game, game.days[0].discussion!.tid, '补一句');
  await keptAsFresh();
  await withLanguage('en', () => keptAsFresh());
  const index = fs.readFileSync(game.storePath, 'utf8');
  const users = JSON.parse(index);
  fs.writeFileSync(game.storePath, JSON.stringify({ ...users, users: { ...users.users, 新人: 999_999 } }));
  await keptAsFresh();
  fs.writeFileSync(game.storePath, index);
  // with no build to name the code, nothing is read or kept
  fs.rmSync(kept);
  const before = made;
  await elevatorView(game, day, make, null);
  await elevatorView(game, day, make, null);
  expect(made).toBe(before + 2);
  expect(fs.existsSync(kept)).toBe(false);
}, 60_000);

test('a recrawl that finds nothing new leaves the kept results standing: the rerun renders them', async () => {
  const srv = await startReplayServer();
  try {
    const dir = path.join(root, 'recrawl');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'game.yaml');
    fs.writeFileSync(file, fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8').replace(/^forum: .*$/m, `forum: ${srv.url}`));
    await saveSession(path.join(dir, 'game.session.json'), srv.sessionState());
    const game = loadGame(file);
    await crawlGame(game, { delayMs: 0, concurrency: 4, progress: false });
    const want = await recomputedThenKept(game, 2);
    const wantTally = await freshTally(game, 2);
    expect(await keptTally(game, 2)).toEqual(wantTally);
    const kept = fs.readFileSync(keptFile(game, 'tally', 2), 'utf8');
    const again = await crawlGame(game, { delayMs: 0, concurrency: 4, progress: false });
    expect(again.requests).toBeGreaterThan(0);
    const hit = await asReportDoes(game, 2);
    expect(hit.kept).toBe(true);
    expect(hit.views).toEqual(want);
    expect(await keptTally(game, 2)).toEqual(wantTally);
    expect(fs.readFileSync(keptFile(game, 'tally', 2), 'utf8')).toBe(kept);
  } finally {
    await srv.close();
  }
}, 120_000);

describe('kept files that cannot be trusted, refusals, no build', () => {
  test('a damaged or torn kept file is ignored and computed again', async () => {
    const game = await publicGame('damaged');
    await recomputedThenKept(game, 2);
    const file = keptFile(game, 'report', 2);
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, text.slice(0, Math.floor(text.length / 2))); // torn
    await recomputedThenKept(game, 2);
    const whole = fs.readFileSync(file, 'utf8');
    const at = whole.indexOf('"day":2');
    fs.writeFileSync(file, `${whole.slice(0, at)}"day":3${whole.slice(at + 7)}`); // one value changed, same length
    await recomputedThenKept(game, 2);
    fs.writeFileSync(file, ''); // empty
    await recomputedThenKept(game, 2);
  }, 60_000);

  test('an incomplete thread is still refused, and the refused run keeps nothing', async () => {
    const game = await publicGame('incomplete');
    await recomputedThenKept(game, 2);
    await keptTally(game, 2);
    const kept = (['report', 'tally'] as const).map((what) => fs.readFileSync(keptFile(game, what, 2), 'utf8'));
    const vote = game.days[1].vote!.tid;
    const store = await openStore(game.storePath, { threads: [vote] });
    const pages = store.data.threads[String(vote)].pages;
    delete pages[Object.keys(pages).sort().at(-1)!];
    await store.write();
    await store.close();
    // (the files kept while it was complete are under another key: not used, and not written over)
    await expect(reportDay(game, 2, { ledgerFile: null }, CODE)).rejects.toMatchObject({ exitCode: 3 });
    await expect(tallyResult(game, 2, { gone: [] }, CODE)).rejects.toMatchObject({ exitCode: 3 });
    expect((['report', 'tally'] as const).map((what) => fs.readFileSync(keptFile(game, what, 2), 'utf8'))).toEqual(kept);
    // allowed: kept as incomplete, under its own key — and the refusal stands without it
    const allowed = await recomputedThenKept(game, 2, { allowIncomplete: true });
    expect(JSON.parse(allowed.json).incomplete).toEqual([expect.objectContaining({ tid: vote })]);
    await expect(reportDay(game, 2, { ledgerFile: null }, CODE)).rejects.toMatchObject({ exitCode: 3 });
  }, 60_000);

  test('with no build to name the code (the library, dist/, tests), or from a version-1 store, nothing is kept', async () => {
    expect(BUILD).toBeNull();
    const game = await publicGame('no-build');
    await reportDay(game, 2, { ledgerFile: null });
    await tallyResult(game, 2, { gone: [] });
    expect(fs.readdirSync(derivedDir(game.storePath)).filter((f) => f.startsWith('closing-'))).toEqual([]);
    // nor from a version-1 store (one file: no thread logs to key on), whatever names the code
    const dir = path.join(root, 'version-1');
    fs.mkdirSync(dir);
    fs.copyFileSync(path.join(FIXTURES, 'games', 'public.yaml'), path.join(dir, 'game.yaml'));
    const v1 = loadGame(path.join(dir, 'game.yaml'));
    fs.writeFileSync(v1.storePath, JSON.stringify(storeFromFixture('public', threadPageFiles('public'))));
    const first = await reportDay(v1, 2, { ledgerFile: null }, CODE);
    expect((await reportDay(v1, 2, { ledgerFile: null }, CODE)).kept).toBe(false);
    expect(renderDayReportJson(first.closing.report)).toBe((await fresh(v1, 2)).json);
    await tallyResult(v1, 2, { gone: [] }, CODE);
    expect(fs.existsSync(derivedDir(v1.storePath)) ? fs.readdirSync(derivedDir(v1.storePath)).filter((f) => f.startsWith('closing-')) : []).toEqual([]);
  }, 60_000);

  test('jsonPlain: only what JSON gives back as it was', () => {
    expect(jsonPlain({ a: [1, 'x', null, true, { b: undefined }] })).toBe(true);
    for (const bad of [[undefined], new Map(), new Set(), new Date(0), Number.NaN, Number.POSITIVE_INFINITY, -0, [, 1], () => 0, 1n]) expect(jsonPlain({ v: bad })).toBe(false);
  });
});

/** Posts added to thread `tid` after its last, one for each of `texts`, in one write (as a recrawl stores a new page): one log line appended. */
async function addPosts(game: Game, tid: number, texts: readonly string[]): Promise<number[]> {
  const store = await openStore(game.storePath, { threads: [tid] });
  const last = Object.values(store.data.posts).filter((p) => p.tid === tid).sort((a, b) => b.pid - a.pid)[0];
  const v = last.versions[last.versions.length - 1];
  const pids = texts.map((text, i) => {
    const pid = last.pid + 200_000 + i;
    const floor = (v.post.floor ?? 0) + 1 + i;
    store.data.posts[String(pid)] = { ...last, pid, versions: [{ ...v, hash: `h${pid}`, post: { ...v.post, pid, floor, floorLabel: `${floor}#`, text } }] };
    return pid;
  });
  const thread = store.data.threads[String(tid)];
  if (typeof thread.replies === 'number') thread.replies += texts.length;
  await store.write();
  await store.close();
  return pids;
}

describe('the day\'s threads grown by a few posts at once (a recrawl at closing)', () => {
  test('each rerun reads what was appended to the kept discussion and says what a fresh report says', async () => {
    const game = await publicGame('grown');
    const day = 2;
    await recomputedThenKept(game, day);
    const discussion = game.days[1].discussion!.tid;
    const scanned = path.join(derivedDir(game.storePath), `kept-scanned-${discussion}`);
    const saved = fs.readFileSync(`${scanned}.json`, 'utf8');
    // new wording, a misplaced ballot and plain talk in the discussion, ballots in the vote thread; then more
    const first = await addPosts(game, discussion, ['我对天发誓我是好人', `投票对象：${game.players[2]}`, '没什么', '你去死吧']);
    await addPosts(game, game.days[1].vote!.tid, [`投票对象：${game.players[3]}`, `投票对象：${game.players[4]}`]);
    const grown = await recomputedThenKept(game, day);
    const flagged = new Set((JSON.parse(grown.json).flags as Array<{ pid: number }>).map((f) => f.pid));
    expect(first.filter((pid) => flagged.has(pid)).length).toBeGreaterThan(0); // (not vacuous: the new posts are read)
    await addPosts(game, discussion, ['他妈的', '同意楼上', `投票对象：${game.players[5]}`]);
    await recomputedThenKept(game, day);
    // (the kept discussion was appended to, not saved whole again)
    expect(fs.readFileSync(`${scanned}.json`, 'utf8')).toBe(saved);
    expect(fs.existsSync(`${scanned}.appended`)).toBe(true);
  }, 60_000);
});
