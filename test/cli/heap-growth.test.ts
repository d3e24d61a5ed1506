/**
 * The heap growth bound the CLI sets at start-up (src/heap-growth.ts) is a V8 flag set at run time: this
 * checks, on the Node running the tests, that V8 still honours it — the same allocation, in two fresh
 * processes, peaks at a clearly smaller heap with it (measured: ~250 MB without, ~80 MB with, on Node 20,
 * 22 and 24). Each way of running the children misleads on one Node, so a pair is measured
 * `--single-threaded` first, then as bansha runs (with V8's concurrent marking) up to three times, and the
 * bound holds when one pair shows it; a V8 that ignores the flags fails every pair.
 * - Single-threaded: steady on Node 20 and 22. Node 24's V8 grows the young generation past the bound there
 *   (~350 MB with it, ~180 without), a mode bansha never runs in.
 * - Concurrent: the moment a collection ends depends on the machine's load. Under a full test run on Node 20
 *   the unbounded child peaked at ~80 MB three times, as low as the bounded one.
 * The young generation's growth factor is such a flag too, held the same way.
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

function peakHeap(mode: 'bound' | 'default', flags: readonly string[]): Peak {
  const out = execFileSync(process.execPath, [...flags, '--import', path.join(here, '..', 'store', 'register-ts.mjs'), path.join(here, 'heap-growth-child.mjs'), mode], { encoding: 'utf8' });
  return JSON.parse(out) as Peak;
}

/** Whether the bound held in one pair: a clearly smaller peak heap and the young generation kept at its first size (V8's own doubles it while most of it survives). */
const held = (bounded: Peak, unbounded: Peak): boolean => bounded.peakHeapMB < unbounded.peakHeapMB * 0.75 && bounded.youngMB < unbounded.youngMB / 2;

describe('heap growth bound', () => {
  test('a crawl-shaped allocation peaks at a much smaller heap with the bound than with V8\'s default', () => {
    let pair: { unbounded: Peak; bounded: Peak } | undefined;
    for (const flags of [['--single-threaded'], [], [], []]) {
      pair = { unbounded: peakHeap('default', flags), bounded: peakHeap('bound', flags) };
      if (held(pair.bounded, pair.unbounded)) break;
    }
    const { unbounded, bounded } = pair!;
    expect(bounded.peakHeapMB).toBeLessThan(unbounded.peakHeapMB * 0.75);
    expect(bounded.youngMB).toBeLessThan(unbounded.youngMB / 2);
  }, 120_000);
});
