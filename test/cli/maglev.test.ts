/**
 * The CLI keeps V8's Maglev compiler off (src/maglev.ts) with a flag set at run time: this checks, on the
 * Node running the tests, that V8 honours it — a hot function, in a fresh process under --trace-opt, is never
 * compiled for Maglev after skipMaglev(). On a Node that compiles with Maglev by default (24; not 20 or 22)
 * the same process without it must show Maglev compiles, or the check would prove nothing there.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));

/** How many compiles of the child's hot function its trace names for Maglev (the TypeScript loader's own code is compiled before the flag is set). */
function maglevCompiles(mode: 'skip' | 'default'): number {
  const out = execFileSync(process.execPath, ['--trace-opt', '--import', path.join(here, '..', 'store', 'register-ts.mjs'), path.join(here, 'maglev-child.mjs'), mode], {
    encoding: 'utf8',
  });
  expect(out).toMatch(/^total \d+$/m);
  return out.split('\n').filter((l) => /<JSFunction hot .*\(target MAGLEV\)/.test(l)).length;
}

/** Whether this Node compiles with Maglev unless told not to. */
function maglevByDefault(): boolean {
  const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
  return /^ {2}--maglev \(.*\n\s+type: bool\s+default: --maglev$/m.test(options);
}

describe('Maglev kept off', () => {
  test('a hot function is never compiled for Maglev after skipMaglev()', () => {
    if (maglevByDefault()) expect(maglevCompiles('default')).toBeGreaterThan(0);
    expect(maglevCompiles('skip')).toBe(0);
  }, 60_000);
});
