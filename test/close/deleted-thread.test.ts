/**
 * Issue 31: a thread that decides the count and that the forum now says does not exist (Discuz's
 * thread_nonexistence message, 抱歉，指定的主题不存在或已被删除或正在被审核: the captured page
 * fixtures/discuz/public/notfound.html, served by the replay server for a deleted thread) is a named
 * state, not a stale thread to crawl again forever: the crawl records the forum's answer, the refusal
 * says the thread was deleted, moved or is under moderation, that the posts read before are kept, and
 * the way forward — crawl again if it comes back, or the director's ruling `bansha rule accept T<tid>
 * --day N`, after which the count goes ahead from the kept versions and says so in every output.
 *
 * The public game crawled whole at 20:30 on day 2; day 2's discussion thread (read by day 2's count for
 * ballots posted there) is then deleted on the forum; the close runs at 21:05.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formLogin } from '../../src/demo/form-login.js';
import { loadGame } from '../../src/game/game-file.js';
import { countFreshness, goneThreads, readFetches } from '../../src/crawl/freshness.js';
import { runWatch } from '../../src/cli/commands/watch.js';
import { startReplayServer, type ReplayServer } from '../../src/replay/server.js';
import { FIXTURES, ids as readIds } from '../helpers/captured.js';
import { bansha } from '../helpers/cli.js';
import { countFromStore } from '../../src/derived/closed-days.js';
import { closingDayFromStore, reportThreads } from '../../src/derived/closing-inputs.js';
import { tallyResult } from '../../src/derived/kept-closing.js';
import { withCountingStore } from '../../src/store/with-store.js';

const DIRECTOR = { username: '导演A', password: 'lab123456' };
const ids = readIds('public');
const D2TALK = ids.threads.d2talk.tid;
const D2VOTE = ids.threads.d2vote.tid;
const GAME_TEXT = fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8');
const at = (local: string) => `${local.replace(' ', 'T')}:00+08:00`;
const FAST = ['--delay-ms', '0', '--concurrency', '4'];

let server: ReplayServer;
let dir: string;
let file: string;

beforeAll(async () => {
  server = await startReplayServer({ users: { [DIRECTOR.username]: DIRECTOR.password } });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-gone-'));
  file = path.join(dir, 'public.yaml');
  fs.writeFileSync(file, GAME_TEXT.replace(/^forum: .*$/m, `forum: ${server.url}`));
  await formLogin(loadGame(file).forum, loadGame(file).sessionPath, DIRECTOR);
  const r = await bansha(['crawl', '--game', file, ...FAST], { BANSHA_NOW: at('2026-11-22 20:30') });
  expect(r.code, r.stderr).toBe(0);
  server.deleteThread(D2TALK);
}, 60_000);

afterAll(async () => {
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a deciding thread deleted on the forum', () => {
  test('the served page is Discuz\'s own nonexistence message', async () => {
    const cookie = server.sessionState(DIRECTOR.username).cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const page = await (await fetch(`${server.url}forum.php?mod=viewthread&tid=${D2TALK}&page=1`, { headers: { cookie } })).text();
    expect(page).toContain('<p>抱歉，指定的主题不存在或已被删除或正在被审核</p>');
  });

  test('close --post --yes at 21:05: exit 7, nothing posted; the refusal says the forum answered it does not exist, and what to do', async () => {
    const r = await bansha(['close', '--game', file, '--day', '2', '--post', '--yes', ...FAST], { BANSHA_NOW: at('2026-11-22 21:05') });
    expect(r.code).toBe(7);
    expect(server.posted).toEqual([]);
    // the crawl recorded the forum's answer, not a transient fault
    expect(readFetches(loadGame(file).storePath)[String(D2TALK)]).toMatchObject({ notFound: true, failure: null });
    expect(r.stderr).toContain(`帖子 ${D2TALK}（第 2 日讨论帖）：论坛在 11-22 21:05 答复"指定的主题不存在或已被删除或正在被审核"（帖子被删除、移动或正在审核）；此前抓到的帖子保留为证据（截至 11-22 20:30）`);
    expect(r.stderr).toContain(`bansha rule accept T${D2TALK} --day 2`);
    expect(r.stderr).not.toContain('关门后再运行 bansha close');
    // every other deciding thread was fetched whole after the close
    expect(r.stderr).not.toContain(`帖子 ${D2VOTE}（`);
    const json = JSON.parse((await bansha(['tally', '--game', file, '--day', '2', '--json'], { BANSHA_NOW: at('2026-11-22 21:06') })).stdout) as { stale: unknown[] };
    expect(json.stale).toEqual([expect.objectContaining({ tid: D2TALK, role: 'discussion', roleDay: 2, gone: '2026-11-22T21:05:00+08:00', asOf: '2026-11-22T20:30:00+08:00' })]);
    const en = await bansha(['tally', '--game', file, '--day', '2', '--post', '--lang', 'en'], { BANSHA_NOW: at('2026-11-22 21:06') });
    expect(en.code).toBe(7);
    expect(en.stderr).toContain(`thread ${D2TALK} (day 2 discussion thread): at 11-22 21:05 the forum answered that it does not exist (deleted, moved or under moderation); the posts read before are kept as evidence (as of 11-22 20:30)`);
    expect(en.stderr).toContain(`bansha rule accept T${D2TALK} --day 2 --why`);
  }, 120_000);

  test('the ruling: only accept, only for a thread the forum said does not exist', async () => {
    const reject = await bansha(['rule', 'reject', `T${D2TALK}`, '--game', file, '--day', '2', '--why', 'x']);
    expect(reject.code).toBe(2);
    const live = await bansha(['rule', 'accept', `T${D2VOTE}`, '--game', file, '--day', '2', '--why', 'x']);
    expect(live.code).toBe(2);
    expect(live.stderr).toContain(`帖子 ${D2VOTE}：最近一次抓取`);
    const other = await bansha(['rule', 'accept', 'T999', '--game', file, '--day', '2', '--why', 'x']);
    expect(other.code).toBe(2);
    const ok = await bansha(['rule', 'accept', `T${D2TALK}`, '--game', file, '--day', '2', '--why', '讨论帖被版主误删，以此前抓到的版本计票']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`帖子 ${D2TALK}（论坛上已不存在：以此前抓到的版本计票）`);
  });

  test('after the ruling the close goes ahead from the kept versions, and the count says so', async () => {
    const out = path.join(dir, 'day2');
    const r = await bansha(['close', '--game', file, '--day', '2', '--post', '--out', out, ...FAST], { BANSHA_NOW: at('2026-11-22 21:10') });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('过时');
    expect(r.stdout).toContain(`位置：回复帖子 ${D2VOTE}`);
    expect(r.stdout).toContain('第 2 日：出局 月饼 —— 月饼 7.5，花卷 4');
    const note = `按导演裁定 #1，以论坛上已不存在的帖子此前抓到的版本计票：帖子 ${D2TALK}（第 2 日讨论帖）：论坛在 11-22 21:10 答复`;
    expect(fs.readFileSync(path.join(out, 'tally-day2.bbcode.txt'), 'utf8')).toContain(note);
    expect(fs.readFileSync(path.join(out, 'tally-day2.txt'), 'utf8')).toContain(note);
    expect(fs.readFileSync(path.join(out, 'report-day2.html'), 'utf8')).toContain(note);
    const json = JSON.parse((await bansha(['tally', '--game', file, '--day', '2', '--json'], { BANSHA_NOW: at('2026-11-22 21:11') })).stdout) as { gone: Array<{ text: string }>; stale?: unknown };
    expect(json).not.toHaveProperty('stale');
    expect(json.gone).toEqual([expect.objectContaining({ tid: D2TALK, role: 'discussion', ruling: 1, gone: '2026-11-22T21:10:00+08:00', asOf: '2026-11-22T20:30:00+08:00' })]);
    expect(json.gone[0].text).toContain(note);
    const en = await bansha(['tally', '--game', file, '--day', '2', '--lang', 'en'], { BANSHA_NOW: at('2026-11-22 21:11') });
    expect(en.stdout).toContain(`counted from the versions read before of a thread no longer on the forum, by ruling #1: thread ${D2TALK} (day 2 discussion thread)`);
    expect(server.posted).toEqual([]); // a dry run
    // the ruling is for day 2's count: it does not carry to another day's
    expect(loadGame(file).rulings).toEqual([expect.objectContaining({ subject: 'thread', tid: D2TALK, day: 2, verb: 'accept' })]);
  }, 120_000);

  test('the count from the store is marked with it in one step of its own: counted, kept, or with the report (gone is a required option)', async () => {
    const game = loadGame(file);
    const gone = goneThreads(game, await countFreshness(game, 2));
    const marked = [expect.objectContaining({ tid: D2TALK, role: 'discussion', ruling: 1, gone: Date.parse(at('2026-11-22 21:10')) })];
    expect(gone).toEqual(marked);
    expect((await countFromStore(game, 2, { gone }, (r) => r)).gone).toEqual(marked);
    // counted, then as kept (src/derived/kept-closing.ts): the same — and what is kept does not carry it (the crawler's records are not in its key)
    expect((await tallyResult(game, 2, { gone }, 'gone test')).gone).toEqual(marked);
    expect((await tallyResult(game, 2, { gone }, 'gone test')).gone).toEqual(marked);
    expect((await tallyResult(game, 2, { gone: [] }, 'gone test')).gone).toBeUndefined();
    const threads = reportThreads(game, 2);
    const closing = await withCountingStore(game, { ...threads, allowIncomplete: false }, (store, checked) => closingDayFromStore(game, 2, store, { ledgerFile: null, checked, gone }));
    expect(closing.closing.tally?.gone).toEqual(marked);
    // (the control: nothing gone, nothing marked)
    expect((await countFromStore(game, 2, { gone: [] }, (r) => r)).gone).toBeUndefined();
  }, 60_000);

  test('report says so too, as tally does: JSON gone, and the first line of every view', async () => {
    const now = { BANSHA_NOW: at('2026-11-22 21:11') };
    const note = `按导演裁定 #1，以论坛上已不存在的帖子此前抓到的版本计票：帖子 ${D2TALK}（第 2 日讨论帖）：论坛在 11-22 21:10 答复`;
    const json = JSON.parse((await bansha(['report', '--game', file, '--day', '2', '--json'], now)).stdout) as { gone: Array<{ text: string }>; stale?: unknown; cards: unknown[] };
    expect(json).not.toHaveProperty('stale');
    expect(json.gone).toEqual([expect.objectContaining({ tid: D2TALK, role: 'discussion', ruling: 1, gone: '2026-11-22T21:10:00+08:00', asOf: '2026-11-22T20:30:00+08:00' })]);
    expect(json.gone[0].text).toContain(note);
    expect(json.cards.length).toBeGreaterThan(0); // (the report itself follows)
    // the same as tally's JSON gives it
    const tally = JSON.parse((await bansha(['tally', '--game', file, '--day', '2', '--json'], now)).stdout) as { gone: unknown };
    expect(json.gone).toEqual(tally.gone);
    for (const [view, first] of [[[], `!! ${note}`], [['--bbcode'], note], [['--markdown'], `> ${note}`]] as const) {
      for (const round of ['first', 'kept']) {
        const r = await bansha(['report', '--game', file, '--day', '2', ...view], now);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout.split('\n')[0], `${view.join(' ') || 'terminal'} ${round}`).toContain(first);
      }
    }
    // the HTML page names it in its count's section, as close's page does — drawn anew on a rerun, never read as kept
    for (const round of ['first', 'again']) {
      const page = path.join(dir, `report-html-${round}.html`);
      const r = await bansha(['report', '--game', file, '--day', '2', '--html', '--out', page], now);
      expect(r.code, r.stderr).toBe(0);
      expect(fs.readFileSync(page, 'utf8'), round).toContain(note);
    }
    const en = await bansha(['report', '--game', file, '--day', '2', '--lang', 'en'], now);
    expect(en.stdout.split('\n')[0]).toContain(`!! counted from the versions read before of a thread no longer on the forum, by ruling #1: thread ${D2TALK} (day 2 discussion thread)`);
  }, 60_000);

  test('watch\'s final count after the close goes by the ruling too, and carries it', async () => {
    const after = Date.parse(at('2026-11-22 21:12'));
    const final = await runWatch({
      game: loadGame(file), day: 2, clock: { now: () => after, sleep: async () => undefined }, draw: () => undefined,
      crawl: { delayMs: 0, concurrency: 4, retries: 0, now: () => after },
    });
    expect(final.result.name).toBe('月饼');
    expect(final.gone).toEqual([expect.objectContaining({ tid: D2TALK, ruling: 1 })]);
  }, 60_000);

  test('rule undo takes the acceptance back: the count is refused again (exit 7), naming the thread gone', async () => {
    const undo = await bansha(['rule', 'undo', '--game', file]);
    expect(undo.code, undo.stderr).toBe(0);
    const r = await bansha(['tally', '--game', file, '--day', '2', '--post', '--yes'], { BANSHA_NOW: at('2026-11-22 21:20') });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain(`帖子 ${D2TALK}（第 2 日讨论帖）：论坛在 11-22 21:12 答复`);
    expect(server.posted).toEqual([]);
  }, 60_000);
});
