/**
 * The rough edges a new director met in the first hour (issue 35), each where it starts, through the
 * real commands on the captured public game: `store check` reads ./game.yaml like every other command;
 * `close` lines up the files it wrote by display width (a Chinese label takes two columns a character);
 * a ruling that changes nothing says so; the HTML report's director notes are Chinese, the page's
 * language, in an English run too, while the terminal keeps the director's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Game } from '../../src/game/types.js';
import { displayWidth } from '../../src/text/width.js';
import { FIXTURES, storeFromFixture, threadPageFiles } from '../helpers/captured.js';
import { bansha } from '../helpers/cli.js';
import { storeOnDisk } from '../helpers/store-on-disk.js';

const TMP = path.resolve(import.meta.dirname, '../.tmp/first-hour');
const GAME_FILE = path.join(FIXTURES, 'games', 'public.yaml');
const cwd = process.cwd();
afterEach(() => process.chdir(cwd));

/** The captured public game and its store in a folder of its own. */
async function publicGameIn(name: string): Promise<Game> {
  return storeOnDisk(TMP, name, GAME_FILE, storeFromFixture('public', threadPageFiles('public')));
}

beforeAll(() => {
  fs.rmSync(TMP, { recursive: true, force: true });
  fs.mkdirSync(TMP, { recursive: true });
});

describe('bansha store check', () => {
  it('reads ./game.yaml when given neither --game nor --store, like every other command', async () => {
    const game = await publicGameIn('store-check');
    process.chdir(path.dirname(game.file));
    const r = await bansha(['store', 'check']);
    expect(r.code, r.out).toBe(0);
    expect(r.stdout).toContain(`${game.storePath}: 完好`);
  });

  it('in a folder without game.yaml: says what to give, and that there is none here (exit 2)', async () => {
    const empty = path.join(TMP, 'empty');
    fs.mkdirSync(empty, { recursive: true });
    process.chdir(empty);
    const r = await bansha(['store', 'check']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('请给出 --game 游戏文件 或 --store 存档路径（当前目录没有 game.yaml）');
  });
});

describe('bansha close', () => {
  it('lists the files it wrote with every path starting in the same column (display width)', async () => {
    const game = await publicGameIn('close-columns');
    const r = await bansha(['close', '--day', '2', '--game', game.file, '--no-crawl']);
    expect(r.code, r.out).toBe(0);
    const lines = r.stdout.split('\n');
    const from = lines.findIndex((l) => l.startsWith('已写入 '));
    const listed = lines.slice(from + 1).filter((l) => l.startsWith('  ') && l.includes(TMP));
    expect(listed.length).toBeGreaterThanOrEqual(8);
    const columns = listed.map((l) => displayWidth(l.slice(0, l.indexOf(TMP))));
    expect(new Set(columns).size, listed.join('\n')).toBe(1);
    // the labels differ in width: the alignment is not a coincidence
    expect(new Set(listed.map((l) => displayWidth(l.trim().split(/\s{2,}/)[0]))).size).toBeGreaterThan(1);
  });
});

describe('bansha rule', () => {
  it('a ruling that changes neither the ballot nor the day\'s result says so, instead of "月饼 → 月饼"', async () => {
    const game = await publicGameIn('rule-same');
    const tally = JSON.parse((await bansha(['tally', '--game', game.file, '--day', '2', '--json'])).stdout) as { ballots: Array<{ pid: number; status: string; target: string | null; voter: string; floor: number }> };
    const forMooncake = tally.ballots.find((b) => b.status === 'counted' && b.target === '月饼')!;

    // voiding one of 月饼's 7.5 votes: the ballot changes, the result does not
    const voided = await bansha(['rule', 'reject', String(forMooncake.pid), '--game', game.file, '--day', '2', '--why', '核对后不计']);
    expect(voided.code, voided.out).toBe(0);
    expect(voided.stdout).toContain(`${forMooncake.voter} → 月饼 ${forMooncake.floor}#：有效 → 无效`);
    expect(voided.stdout).toContain('第 2 日结果不变：月饼（这条裁定没有改变结果）');
    expect(voided.stdout).not.toContain('月饼 → 月饼');

    // accepting a ballot that already counts changes nothing at all
    const other = tally.ballots.find((b) => b.status === 'counted' && b.pid !== forMooncake.pid)!;
    const same = await bansha(['rule', 'accept', String(other.pid), '--game', game.file, '--day', '2', '--why', '已核对', '--lang', 'en']);
    expect(same.code, same.out).toBe(0);
    expect(same.stdout).toContain(`${other.voter} → ${other.target} ${other.floor}#: still counted (this ruling does not change this ballot)`);
    expect(same.stdout).toContain('day 2 result unchanged: 月饼 (this ruling does not change it)');
  });
});

describe('the HTML report in an English run', () => {
  it('writes the director\'s notes in Chinese, as the rest of the page; the terminal keeps English', async () => {
    const game = await publicGameIn('html-notes');
    const html = path.join(path.dirname(game.file), 'day2.html');
    const r = await bansha(['report', '--game', game.file, '--day', '2', '--html', '--no-ledger', '--out', html, '--lang', 'en']);
    expect(r.code, r.out).toBe(0);
    const page = fs.readFileSync(html, 'utf8');
    expect(page).toContain('导演备注：请导演核对编辑内容');
    expect(page).toContain('Discuz X3.5 的“回复”不在帖子里留痕迹');
    expect(page).not.toContain('check the edited text');
    expect(page).not.toMatch(/a Discuz X3\.5 .{0,10}reply/);
    const terminal = await bansha(['tally', '--game', game.file, '--day', '2', '--lang', 'en']);
    expect(terminal.stdout).toContain('check the edited text');
  });
});
