/**
 * The bench's wording figure (issue #15): over a small synthetic game stored by the pipeline, the
 * banned-wording scan is timed within every day's report, over the very posts report scans.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { synthGame } from '../../src/bench/synth-game.js';
import { gameOf, runPipeline } from '../../src/bench/pipeline.js';
import { measureWordingShare } from '../../src/bench/wording-share.js';

describe('wording share of report', () => {
  it('times the scan of every post version of every day against that day’s report', async () => {
    const synth = synthGame({ posts: 500 });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-wording-share-'));
    try {
      await runPipeline(synth, { dir, keepDir: true });
      const r = await measureWordingShare(gameOf(synth, dir));
      expect(r.days).toBe(10);
      // The players' posts (the directors' are not scanned), each version once.
      expect(r.texts).toBeGreaterThan(400);
      expect(r.texts).toBeLessThanOrEqual(500);
      expect(r.wordingMs).toBeGreaterThan(0);
      expect(r.reportMs).toBeGreaterThan(0);
      expect(r.share).toBeCloseTo(r.wordingMs / r.reportMs, 10);
      expect(r.maxDayShare).toBeGreaterThanOrEqual(r.share * 0.999);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
