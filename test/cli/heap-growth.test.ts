/**
 * The heap growth bound the CLI sets at start-up (src/heap-growth.ts) is a V8 flag set at run time: this
 * checks, on the Node running the tests, that V8 still honours it — the same allocation, in two fresh
 * processes, peaks at a clearly smaller heap with it (measured: ~250 MB without, ~125 MB with). The children
 * run single-threaded: with V8's concurrent marking, the moment a collection ends depends on the machine's
 * load (under a full test run the unbounded child once peaked at 80 MB, as low as the bounded one). The
 * young generation's growth factor is such a flag too, held the same way.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));

function peakHeap(mode: 'bound' | 'default'): { peakHeapMB: number; youngMB: number } {
  const out = execFileSync(process.execPath, ['--single-threaded', '--import', path.join(here, '..', 'store', 'register-ts.mjs'), path.join(here, 'heap-growth-child.mjs'), mode], { encoding: 'utf8' });
  return JSON.parse(out) as { peakHeapMB: number; youngMB: number };
}

describe('heap growth bound', () => {
  test('a crawl-shaped allocation peaks at a much smaller heap with the bound than with V8\'s default', () => {
    const unbounded = peakHeap('default');
    const bounded = peakHeap('bound');
    expect(bounded.peakHeapMB).toBeLessThan(unbounded.peakHeapMB * 0.75);
    // the young generation kept at its first size (V8's own doubles it while most of it survives)
    expect(bounded.youngMB).toBeLessThan(unbounded.youngMB / 2);
  });
});
