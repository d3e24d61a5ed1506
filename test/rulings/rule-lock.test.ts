/**
 * A ruling is appended under the rulings file's lock (src/rulings/rule.ts): while another process (the
 * cockpit, or `bansha rule` in another terminal) holds it, a ruling is refused naming the file — never
 * written over the other's entry — and the lock is released after each ruling.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadGame } from '../../src/game/game-file.js';
import { rulingsPath } from '../../src/game/rulings/file.js';
import { applyRuling, undoRuling } from '../../src/rulings/rule.js';
import { takeFileLock } from '../../src/store/lock.js';
import { UserError } from '../../src/errors.js';
import { FIXTURES } from '../helpers/captured.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-rule-lock-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('a ruling while the rulings file is locked is refused, and nothing is written', async () => {
  const file = path.join(dir, 'public.yaml');
  fs.copyFileSync(path.join(FIXTURES, 'games', 'public.yaml'), file);
  const game = loadGame(file);
  const release = takeFileLock(`${rulingsPath(file)}.lock`, 'a test holding the rulings file');
  try {
    const err = await applyRuling(game, 'reject', '153', { day: 2, why: '测试' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toContain(rulingsPath(file));
    await expect(undoRuling(game, undefined)).rejects.toBeInstanceOf(UserError);
  } finally {
    release();
  }
  expect(fs.existsSync(rulingsPath(file))).toBe(false);
  // unlocked: the ruling goes on to its own checks (no store here: refused for that), and leaves no lock
  await expect(applyRuling(game, 'reject', '153', { day: 2, why: '测试' })).rejects.not.toThrow(/rulings file/);
  expect(fs.readdirSync(dir).filter((f) => f.endsWith('.lock'))).toEqual([]);
});
