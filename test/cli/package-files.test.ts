/**
 * What the published package holds (package.json `files`): the library's dist/ and the CLI's bundle/, not
 * the benchmark compiled beside the library (dist/bench: `npm run bench` builds and runs it from a
 * checkout). Asked of npm itself (`npm pack --dry-run`) over a folder laid out as a build leaves it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { FIXTURES } from '../helpers/captured.js';

test('npm pack ships dist/ and bundle/ but not dist/bench', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-pack-'));
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(FIXTURES, '..', 'package.json'), 'utf8')) as { scripts?: unknown };
    delete pkg.scripts; // (nothing is built here)
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg));
    for (const f of ['dist/index.js', 'dist/votes/count.js', 'dist/bench/main.js', 'dist/bench/synth-game.js', 'bundle/cli.js', 'bin/bansha.js']) {
      fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      fs.writeFileSync(path.join(dir, f), '// built\n');
    }
    const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: dir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const files = (JSON.parse(r.stdout) as Array<{ files: Array<{ path: string }> }>)[0].files.map((f) => f.path).sort();
    expect(files).toEqual(expect.arrayContaining(['dist/index.js', 'dist/votes/count.js', 'bundle/cli.js', 'bin/bansha.js']));
    expect(files.filter((f) => f.startsWith('dist/bench'))).toEqual([]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
