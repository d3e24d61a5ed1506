import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { expect, test } from 'vitest';
import { register } from '../../src/cli/commands/lastwords.js';

test('bansha lastwords FILE: lists the tags and exits 1; a clean text exits 0', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-lw-'));
  const bad = path.join(dir, 'bad.txt');
  const good = path.join(dir, 'good.txt');
  fs.writeFileSync(bad, '我是预言家。\n[Color=Red]饺子[/color]是狼\n');
  fs.writeFileSync(good, '我是预言家，饺子是狼。\n');
  const out: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((s: string) => (out.push(String(s)), true)) as typeof process.stdout.write;
  const before = process.exitCode;
  try {
    const run = (f: string) => {
      const p = new Command().exitOverride();
      register(p);
      return p.parseAsync(['node', 'bansha', 'lastwords', f, '--json']);
    };
    await run(bad);
    expect(process.exitCode).toBe(1);
    expect(JSON.parse(out.join(''))).toMatchObject({ clean: false, findings: [{ tag: 'color', line: 2, column: 1 }, { tag: 'color' }] });
    process.exitCode = undefined;
    out.length = 0;
    await run(good);
    expect(process.exitCode).toBeUndefined();
    expect(JSON.parse(out.join(''))).toEqual({ clean: true, findings: [] });
  } finally {
    process.stdout.write = write;
    process.exitCode = before;
  }
});
