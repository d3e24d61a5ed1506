/**
 * The heap growth bound the CLI sets at start-up (src/heap-growth.ts) is a V8 flag set at run time: this
 * checks, on the Node running the tests, that V8 still honours it — the same allocation, in two fresh
 * processes, peaks at a clearly smaller heap with it (measured: ~250 MB without, ~80 MB with, on Node 20,
 * 22 and 24). The children run as bansha runs, with V8's concurrent marking: without it (`--single-threaded`,
 * which this test once used to steady the figures) Node 24's V8 grows the young generation past the bound
 * in this allocation (~350 MB with it, ~180 without), a mode bansha never runs in. With concurrent marking
 * the moment a collection ends depends on the machine's load (under a full test run an unbounded child
 * once peaked as low as a bounded one), so a pair is measured again, up to three times, before it fails:
 * a V8 that ignores the flags fails every time. The young generation's growth factor is such a flag too,
 * held the same way.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));

interface Peak {
  peakHeapMB: number;
  youngMB: number;
}

function peakHeap(mode: 'bound' | 'default'): Peak {
  const out = execFileSync(process.execPath, ['--import', path.join(here, '..', 'store', 'register-ts.mjs'), path.join(here, 'heap-growth-child.mjs'), mode], { encoding: 'utf8' });
  return JSON.parse(out) as Peak;
}

/** Whether the bound held in one pair: a clearly smaller peak heap and the young generation kept at its first size (V8's own doubles it while most of it survives). */
const held = (bounded: Peak, unbounded: Peak): boolean => bounded.peakHeapMB < unbounded.peakHeapMB * 0.75 && bounded.youngMB < unbounded.youngMB / 2;

describe('heap growth bound', () => {
  test('a crawl-shaped allocation peaks at a much smaller heap with the bound than with V8\'s default', () => {
    let pair: { unbounded: Peak; bounded: Peak } | undefined;
    for (let attempt = 0; attempt < 3 && !(pair && held(pair.bounded, pair.unbounded)); attempt++) {
      pair = { unbounded: peakHeap('default'), bounded: peakHeap('bound') };
    }
    const { unbounded, bounded } = pair!;
    expect(bounded.peakHeapMB).toBeLessThan(unbounded.peakHeapMB * 0.75);
    expect(bounded.youngMB).toBeLessThan(unbounded.youngMB / 2);
  }, 60_000);
});
