/**
 * `bansha rule` on the captured public game (m107): a ruling changes every count from then on and is
 * shown as 导演裁定 in public; refusals (pid not stored, ballot of another day, not a ballot, a ballot
 * naming nobody); list and undo; the rulings file is append-only and owner-only.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import { rulingsPath } from '../../src/game/rulings/file.js';
import type { StoreData } from '../../src/store/types.js';
import { FIXTURES } from '../helpers/captured.js';
import { bansha } from '../helpers/cli.js';
import { captureStore } from '../votes/fixtures.js';

let dir: string;
let game: string;
let store: StoreData;

/** The pid of floor `floor` of thread `tid` in the captured store. */
function pidAt(tid: number, floor: number): number {
  const p = Object.values(store.posts).find((x) => x.tid === tid && x.versions.at(-1)!.post.floor === floor);
  if (!p) throw new Error(`no floor ${floor} in thread ${tid}`);
  return p.pid;
}

async function tallyJson(day: number) {
  const r = await bansha(['tally', '--game', game, '--day', String(day), '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { totals: Array<{ name: string; votes: number }>; ballots: Array<{ pid: number; status: string; code: string; reason: string; note: string | null }> };
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-rule-'));
  game = path.join(dir, 'public.yaml');
  fs.writeFileSync(game, fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8'));
  store = captureStore('public');
  fs.writeFileSync(path.join(dir, 'public.store.json'), JSON.stringify(store));
});

describe('bansha rule', () => {
  test('accept: a change the tool could not see as a reply counts, and the announcement says 导演裁定', async () => {
    const pid = pidAt(5, 14); // 春卷's change to 花卷, rejected: it does not quote 6#
    const before = await tallyJson(2);
    expect(before.ballots.find((b) => b.pid === pid)).toMatchObject({ status: 'rejected', code: 'change-not-quoting-vote' });
    expect(before.totals).toEqual([{ name: '月饼', votes: 7.5 }, { name: '花卷', votes: 4 }]);

    const r = await bansha(['rule', 'accept', String(pid), '--game', game, '--day', '2', '--why', '回复了原投票帖，已核对']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('无效 → 有效');

    const after = await tallyJson(2);
    expect(after.ballots.find((b) => b.pid === pid)).toMatchObject({ status: 'counted', code: 'ruling-accepted' });
    expect(after.ballots.find((b) => b.pid === pidAt(5, 6))).toMatchObject({ status: 'superseded' });
    expect(after.totals).toEqual([{ name: '月饼', votes: 6.5 }, { name: '花卷', votes: 5 }]);

    const bb = (await bansha(['tally', '--game', game, '--day', '2', '--bbcode'])).stdout;
    expect(bb).toContain('导演裁定：认可此票（回复了原投票帖，已核对）；原判：改票未引用原投票帖 6#（m107 l.205 改票时必须引用原投票帖）');
    expect(bb).not.toMatch(/导演可|请导演|导演备注|bansha rule/);

    const file = rulingsPath(game);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(saved.entries).toEqual([expect.objectContaining({ id: 1, verb: 'accept', subject: 'ballot', pid, day: 2, by: '导演A', why: '回复了原投票帖，已核对', at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) })]);
  });

  test('reject, list and undo: the file keeps every entry, the count follows the rulings in force', async () => {
    const pid = pidAt(5, 4); // 烧卖 → 月饼, counted
    expect((await bansha(['rule', 'reject', String(pid), '--game', game, '--day', '2', '--why', '发帖时已被禁言'])).code).toBe(0);
    let t = await tallyJson(2);
    expect(t.ballots.find((b) => b.pid === pid)).toMatchObject({ status: 'rejected', code: 'ruling-rejected', reason: '导演裁定：此票不计（发帖时已被禁言）' });
    expect(t.ballots.find((b) => b.pid === pid)!.note).toContain('bansha rule undo 1');
    expect(t.totals[0]).toEqual({ name: '月饼', votes: 6.5 });

    const list = await bansha(['rule', 'list', '--game', game]);
    expect(list.stdout).toMatch(/#1 {2}第 2 日 {2}不计 {2}选票 pid \d+ {2}—— 发帖时已被禁言/);

    expect((await bansha(['rule', 'undo', '--game', game])).stdout).toMatch(/^已撤销：#1/);
    t = await tallyJson(2);
    expect(t.ballots.find((b) => b.pid === pid)).toMatchObject({ status: 'counted' });
    const saved = JSON.parse(fs.readFileSync(rulingsPath(game), 'utf8'));
    expect(saved.entries.map((e: { verb: string }) => e.verb)).toEqual(['reject', 'undo']);
    expect((await bansha(['rule', 'undo', '--game', game])).code).toBe(2); // nothing left in force
  });

  test('refusals: not in the store, another day\'s ballot, no --why, a ballot naming nobody', async () => {
    const nope = await bansha(['rule', 'accept', '999999', '--game', game, '--day', '2', '--why', 'x']);
    expect([nope.code, nope.stderr]).toEqual([2, expect.stringContaining('pid 999999 不在存档')]);
    const other = await bansha(['rule', 'accept', String(pidAt(5, 14)), '--game', game, '--day', '1', '--why', 'x']);
    expect([other.code, other.stderr]).toEqual([2, expect.stringContaining('是第 2 日的选票（帖子 5），不是第 1 日的')]);
    const noWhy = await bansha(['rule', 'accept', String(pidAt(5, 14)), '--game', game, '--day', '2']);
    expect(noWhy.code).toBe(2);
    const t = await tallyJson(1);
    const nobody = t.ballots.find((b) => b.status === 'rejected' && ['unknown-target', 'malformed-no-reason', 'malformed-no-heads', 'empty-reason'].includes(b.code));
    expect(nobody).toBeDefined();
    const r = await bansha(['rule', 'accept', String(nobody!.pid), '--game', game, '--day', '1', '--why', 'x']);
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('不能认可')]);
    expect(fs.existsSync(rulingsPath(game))).toBe(false); // nothing refused was written
  });

  test('a flag: reject drops it (no card proposed) and the report says 导演裁定; a card: accept confirms it in the ledger, undo reopens it', async () => {
    const report = async () => JSON.parse((await bansha(['report', '--game', game, '--day', '2', '--json', '--no-ledger'])).stdout) as {
      flags: Array<{ kind: string; pid: number | null; player: string }>; cards: Array<{ player: string; evidence: number[] }>;
    };
    const before = await report();
    const red = before.flags.find((f) => f.kind === 'red-font' && f.pid !== null)!;
    expect(before.cards.some((c) => c.evidence.includes(red.pid!))).toBe(true);
    const r = await bansha(['rule', 'reject', String(red.pid), '--game', game, '--day', '2', '--flag', '--why', '引用的是导演原话']);
    expect(r.code, r.stderr).toBe(0);
    const after = await report();
    expect(after.flags.some((f) => f.pid === red.pid && f.kind === 'red-font')).toBe(false);
    const zhNote = `导演裁定 #1：${red.player} 红色字体（pid ${red.pid}）不予判罚（引用的是导演原话）`;
    expect((await bansha(['report', '--game', game, '--day', '2', '--no-ledger'])).stdout).toContain(zhNote);
    // the director's note in the director's language; in Chinese in what players read, whatever the language
    const en = await bansha(['--lang', 'en', 'report', '--game', game, '--day', '2', '--no-ledger']);
    expect(en.stdout).toContain(`director's ruling (导演裁定) #1: ${red.player} red font (pid ${red.pid}) not punished (引用的是导演原话)`);
    expect(en.stdout).not.toContain(zhNote);
    for (const lang of ['zh', 'en']) {
      expect((await bansha(['--lang', lang, 'report', '--game', game, '--day', '2', '--markdown', '--no-ledger'])).stdout).toContain(`> ${zhNote.replace('#', '\\#')}`); // (markdown escapes #)
    }
    const none = await bansha(['rule', 'reject', String(pidAt(4, 1)), '--game', game, '--day', '2', '--flag', '--why', 'x']);
    expect([none.code, none.stderr]).toEqual([2, expect.stringContaining('既不是第 2 日的选票也不是违规帖')]);

    expect((await bansha(['report', '--game', game, '--day', '2'])).code).toBe(0); // proposals into the ledger
    const ledger = () => JSON.parse(fs.readFileSync(path.join(dir, 'public.cards.json'), 'utf8')) as { cards: Array<{ id: string; status: string; note?: string }> };
    const id = ledger().cards[0].id;
    expect((await bansha(['rule', 'accept', id, '--game', game, '--why', '证据确凿'])).code).toBe(0);
    expect(ledger().cards[0]).toMatchObject({ id, status: 'confirmed', note: '导演裁定 #2：证据确凿' });
    expect((await bansha(['report', '--game', game, '--day', '2', '--bbcode', '--no-ledger'])).stdout).not.toContain('[b]判罚[/b]\n无');
    expect((await bansha(['rule', 'undo', '2', '--game', game])).code).toBe(0);
    expect(ledger().cards[0].status).toBe('proposed');
    expect((await bansha(['rule', 'accept', 'C999', '--game', game, '--why', 'x'])).code).toBe(2);
  });
});
