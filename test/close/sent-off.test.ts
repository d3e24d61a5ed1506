/**
 * A red card confirmed on day 2 (罚下) carries forward like a vote: `bansha close --confirm` (here on the
 * stored capture, no crawl) writes the player's exit, how: card, into the game file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import type { Ledger } from '../../src/cards/types.js';
import { loadGame } from '../../src/game/game-file.js';
import { FIXTURES } from '../helpers/captured.js';
import { bansha } from '../helpers/cli.js';
import { captureStore } from '../votes/fixtures.js';

test('a confirmed red card on the day is a derived exit; --confirm records it', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-sentoff-'));
  const game = path.join(dir, 'public.yaml');
  fs.copyFileSync(path.join(FIXTURES, 'games', 'public.yaml'), game);
  fs.writeFileSync(path.join(dir, 'public.store.json'), JSON.stringify(captureStore('public')));
  const ledger: Ledger = {
    version: 1, game,
    cards: [{ id: 'C1', day: 2, player: '烧卖', color: 'red', kind: 'zombie-post', kinds: ['zombie-post'], reason: '诈尸', evidence: [], status: 'confirmed', proposedAt: '2026-11-22T13:00:00Z' }],
  };
  fs.writeFileSync(path.join(dir, 'public.cards.json'), JSON.stringify(ledger));
  const first = await bansha(['close', '--game', game, '--day', '2', '--no-crawl']);
  expect(first.code, first.stderr).toBe(0);
  expect(first.stdout).toContain('结果：烧卖 红牌罚下，时间 11-22 21:00 —— 游戏文件中没有（加 --confirm 运行）');
  expect(first.stdout).toContain('结果：月饼 投票出局，时间 11-22 21:00 —— 游戏文件中已有');
  const r = await bansha(['close', '--game', game, '--day', '2', '--no-crawl', '--confirm']);
  expect(r.code, r.stderr).toBe(0);
  expect(fs.readFileSync(game, 'utf8')).toContain('  - {player: 烧卖, out: "2026-11-22 21:00", how: card}\n');
  expect(loadGame(game).events.find((e) => e.player === '烧卖')).toMatchObject({ how: 'card' });
});
