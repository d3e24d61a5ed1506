/**
 * The heap growth bound the CLI sets at start-up (src/heap-growth.ts) is a V8 flag set at run time: this
 * checks, on the Node running the tests, that V8 still honours it — the same allocation, in two fresh
 * processes, peaks at a clearly smaller heap with it (measured: ~250 MB without, ~125 MB with). The children
 * run single-threaded: with V8's concurrent marking, the moment a collection ends depends on the machine's
 * load (under a full test run the unbounded child once peaked at 80 MB, as low as the bounded one).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));

function peakHeapMB(mode: 'bound' | 'default'): number {
  const out = execFileSync(process.execPath, ['--single-threaded', '--import', path.join(here, '..', 'store', 'register-ts.mjs'), path.join(here, 'heap-growth-child.mjs'), mode], { encoding: 'utf8' });
  return (JSON.parse(out) as { peakHeapMB: number }).peakHeapMB;
}

describe('heap growth bound', () => {
  test('a crawl-shaped allocation peaks at a much smaller heap with the bound than with V8\'s default', () => {
    const unbounded = peakHeapMB('default');
    const bounded = peakHeapMB('bound');
    expect(bounded).toBeLessThan(unbounded * 0.75);
  });
});
