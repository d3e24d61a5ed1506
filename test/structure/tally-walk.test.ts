/**
 * The walk from the tally command to where ballots are selected (docs/design.md "The tally's walk"): the
 * calls that carry a day's count down to src/votes/select.ts selectBallots visit each file once, in one
 * direction — no callback takes the count back up into a file it already left. Measured on the real
 * count of the captured public game (day 2: its sheriff from day 1's election), from the stack that
 * selectBallots is called with; the same check on a walk made to come back shows it can fail.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { tallyResult } from '../../src/derived/kept-closing.js';
import { FIXTURES, storeFromFixture, threadPageFiles } from '../helpers/captured.js';
import { storeOnDisk } from '../helpers/store-on-disk.js';

/** Each stack selectBallots was called with: the src/ files of its callers' frames, innermost first. */
const walks: string[][] = vi.hoisted(() => []);

vi.mock('../../src/votes/select.js', async (original) => {
  const real = await original<typeof import('../../src/votes/select.js')>();
  return {
    ...real,
    selectBallots: (input: Parameters<typeof real.selectBallots>[0]) => {
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 200;
      const stack = new Error().stack ?? '';
      Error.stackTraceLimit = limit;
      walks.push([...stack.matchAll(/\/src\/([\w/.-]+\.ts):\d+/g)].map((m) => m[1]));
      return real.selectBallots(input);
    },
  };
});

/** The files of a walk from the outermost call in, each once for a run of frames in it; and whether one came back. */
function filesOf(walk: readonly string[]): { files: string[]; revisits: string[] } {
  const files: string[] = [];
  const revisits: string[] = [];
  for (const f of [...walk].reverse()) {
    if (files.at(-1) === f) continue;
    if (files.includes(f)) revisits.push(f);
    files.push(f);
  }
  return { files, revisits };
}

let root: string | undefined;
afterAll(() => root && fs.rmSync(root, { recursive: true, force: true }));

describe("the tally's walk to the ballot selection", () => {
  test('each file once, one direction: derived → votes', async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-walk-'));
    const game = await storeOnDisk(root, 'g', path.join(FIXTURES, 'games', 'public.yaml'), storeFromFixture('public', threadPageFiles('public')));
    walks.length = 0;
    const result = await tallyResult(game, 2, { gone: [] }, 'walk test');
    expect(result.sheriff).not.toBeNull(); // day 1's election was counted on the way (a walk of its own)
    expect(walks.length).toBeGreaterThanOrEqual(2);
    for (const walk of walks) {
      const { files, revisits } = filesOf(walk);
      expect(revisits).toEqual([]);
      // (then src/votes/select.ts: this test's stand-in for it records the stack and calls it)
      expect(files).toEqual(['derived/kept-closing.ts', 'derived/closed-days.ts', 'votes/tally.ts']);
    }
  }, 120_000);

  test('a walk that comes back into a file it left is named', () => {
    const back = ['votes/select.ts', 'votes/tally.ts', 'derived/closed-days.ts', 'store/with-store.ts', 'derived/closed-days.ts', 'derived/kept-closing.ts'];
    expect(filesOf(back).revisits).toEqual(['derived/closed-days.ts']);
  });
});
