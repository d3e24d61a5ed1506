/**
 * The card ledger under the same lock as the store: a change while another process holds it is
 * refused (exit 2) and changes nothing; the file is owner-only; a failed write leaves no temp file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fsp from 'node:fs/promises';
import { describe, expect, test, vi } from 'vitest';
import { emptyLedger, mergeProposals, readLedger, updateLedger, writeLedger } from '../../src/cards/ledger.js';
import { takeFileLock } from '../../src/store/lock.js';

const game = { file: 'game.yaml' };
const proposal = { day: 1, player: '饺子', color: 'yellow' as const, kind: 'few-posts' as const, kinds: ['few-posts' as const], reason: '潜水', evidence: [] };

function tmpLedger(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-ledger-')), 'game.cards.json');
}

describe('card ledger lock', () => {
  test('a change waits for no one: refused while the lock is held, and the ledger is unchanged', async () => {
    const file = tmpLedger();
    await writeLedger(emptyLedger(game), file);
    const release = takeFileLock(`${file}.lock`, 'the test');
    await expect(updateLedger(game, file, (l) => mergeProposals(l, [proposal], new Date()).ledger)).rejects.toMatchObject({ exitCode: 2 });
    expect(readLedger(game, file).cards).toEqual([]);
    release();
    await updateLedger(game, file, (l) => mergeProposals(l, [proposal], new Date()).ledger);
    expect(readLedger(game, file).cards).toHaveLength(1);
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${JSON.stringify(readLedger(game, file), null, 2)}\n`);
  });

  test('a write that fails leaves the old ledger, no temp file and no lock', async () => {
    const file = tmpLedger();
    await writeLedger(emptyLedger(game), file);
    const rename = vi.spyOn(fsp, 'rename').mockRejectedValueOnce(new Error('EIO: the rename fails'));
    try {
      await expect(updateLedger(game, file, (l) => mergeProposals(l, [proposal], new Date()).ledger)).rejects.toThrow('EIO');
    } finally {
      rename.mockRestore();
    }
    expect(readLedger(game, file).cards).toEqual([]);
    expect(fs.readdirSync(path.dirname(file)).sort()).toEqual(['game.cards.json']);
  });
});
