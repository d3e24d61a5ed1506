/**
 * The layout tells the pipeline one way (docs: style.md "the one-way flow is the point"): no folder-level
 * import cycle among src/'s rooms — every folder, the store, the rulings, the cockpit and the commands
 * included. The check is scripts/folder-cycles.mjs, run here on the real src/ — and on a cycle made on
 * purpose, so it can fail.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const script = path.join(root, 'scripts', 'folder-cycles.mjs');

describe('folder-level import cycles', () => {
  test('none among all of src/\'s folders', () => {
    const r = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(r.stdout).toContain('no folder-level cycle');
    for (const room of ['store', 'rulings', 'cockpit', 'cli', 'game', 'votes', 'report', 'derived']) expect(r.stdout).toContain(room);
    expect(r.status).toBe(0);
  });

  test('a cycle is named, with the files that make it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-cycles-'));
    fs.mkdirSync(path.join(dir, 'scripts'));
    fs.copyFileSync(script, path.join(dir, 'scripts', 'folder-cycles.mjs'));
    for (const [file, text] of [
      ['src/votes/a.ts', "import { b } from '../game/b.js';\nexport const a = b;\n"],
      ['src/game/b.ts', "export const b = 1;\nexport type { A } from '../votes/c.js';\n"],
      ['src/votes/c.ts', 'export type A = number;\n'],
    ]) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    const r = spawnSync(process.execPath, [path.join(dir, 'scripts', 'folder-cycles.mjs')], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('votes → game (votes/a.ts) and back');
    expect(r.stdout).toContain('game → votes (game/b.ts) and back');
  });
});
