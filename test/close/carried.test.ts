/**
 * Results carried forward into a later day's elevator (issue 13): the captured public game's day 2
 * puts 月饼 out by vote. When the game file does not record it, `bansha elevator --day 3` still lists
 * her as out and warns naming her, the day and the result; recorded, it says nothing; a day whose
 * threads are not stored cannot be checked and the warning says which.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { carriedForward } from '../../src/close/carried.js';
import { closedInStore } from '../../src/derived/closed-days.js';
import { FIXTURES, ids as readIds } from '../helpers/captured.js';
import { bansha } from '../helpers/cli.js';
import { captureStore, publicGameWith } from '../votes/fixtures.js';

const ids = readIds('public');
const EVENT = '  - {player: 月饼, out: "2026-11-22 21:00", how: vote}\n';
const DAY3 = `  - {day: 3, discussion: ${ids.threads.d3talk.tid}, opens: "2026-11-23 10:00", closes: "2026-11-23 21:00"}\n`;
const withDay3 = (y: string) => y.replace(/(  - \{day: 2,[^\n]*\n)/, `$1${DAY3}`);

function setUp(edit: (yaml: string) => string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-carried-'));
  const game = path.join(dir, 'public.yaml');
  fs.writeFileSync(game, edit(fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8')));
  fs.writeFileSync(path.join(dir, 'public.store.json'), JSON.stringify(captureStore('public')));
  return game;
}

describe('bansha elevator after a closed day', () => {
  test('an unrecorded vote-out is listed as out, with a warning naming the player, the day and the result', async () => {
    const r = await bansha(['elevator', '--game', setUp((y) => withDay3(y.replace(EVENT, ''))), '--day', '3']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\[s\]月饼\[\/s\]/);
    expect(r.stderr).toContain('注意：月饼 第 2 日投票出局（11-22 21:00），游戏文件 events 中没有记录：此处已按出局处理——请运行 bansha close --day 2');
  }, 60_000);

  test('recorded in the game file: the same floor, no warning', async () => {
    const r = await bansha(['elevator', '--game', setUp(withDay3), '--day', '3']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\[s\]月饼\[\/s\]/);
    expect(r.stderr).not.toContain('月饼');
  }, 60_000);
});

describe('carriedForward', () => {
  test('a file recording another vote-out at that close: the mismatch is shown, the count\'s result applied', () => {
    const game = publicGameWith((y) => withDay3(y.replace(EVENT, '  - {player: 花卷, out: "2026-11-22 21:00", how: vote}\n')));
    const c = carriedForward(game, closedInStore(game, captureStore('public')), 3);
    expect(c.applied.map((x) => x.player)).toEqual(['月饼']);
    expect(c.warnings.map((w) => w.text)).toContainEqual('游戏文件记 花卷 于第 2 日关门时（11-22 21:00）投票出局，但计票结果是 月饼 出局：请核对');
  });

  test('a closed day whose vote thread is not stored cannot be checked: said, nothing applied', () => {
    const store = captureStore('public');
    delete store.threads[String(ids.threads.d2vote.tid)];
    const game = publicGameWith((y) => withDay3(y.replace(EVENT, '')));
    const c = carriedForward(game, closedInStore(game, store), 3);
    expect(c.applied).toEqual([]);
    expect(c.warnings).toContainEqual({ day: 2, text: expect.stringMatching(new RegExp(`^第 2 日的帖子 .*${ids.threads.d2vote.tid}.* 未抓全或不在存档中`)) });
  });
});
