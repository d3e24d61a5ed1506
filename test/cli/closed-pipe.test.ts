/**
 * `bansha … | head`: a reader that closes the pipe before bansha has written is not an internal error
 * (no stack trace, exit 0), and the command still does its work.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { FIXTURES } from '../helpers/captured.js';

const root = path.join(FIXTURES, '..');
// the CLI's own entry, from source (as test/cli/lazy-imports.test.ts runs it)
const CLI = ['--import', path.join(root, 'test/store/register-ts.mjs'), path.join(root, 'src/cli/main.ts')];

test('a closed stdout: exit 0, nothing on stderr', async () => {
  const page = path.join(FIXTURES, 'discuz', 'public', 'viewthread-t4-p4.html');
  expect(fs.existsSync(page)).toBe(true);
  const child = spawn(process.execPath, [...CLI, 'parse', page], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy(); // the reader is gone before the first write
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(stderr).toBe('');
  expect(code).toBe(0);
});
