/**
 * Test helper: a store built the way a crawl builds it from pages rendered from the real captured markup
 * (src/replay/synth.ts), parsed by the real parser, recorded by the real store code. Shared by
 * test/auction, test/elevator and test/violations; captured pages read as they are: test/helpers/captured.ts.
 */
import { emptyStore } from '../../src/store/index.js';
import type { StoreData } from '../../src/store/types.js';
import { buildThreadPages, type SynthThread } from '../../src/replay/synth.js';
import { recordFetched } from '../helpers/captured.js';

/** fixtures/ (test/helpers/captured.ts): still exported here for test/cli/demo-games.test.ts, which imports it from this file. */
export { FIXTURES } from '../helpers/captured.js';

/** Parses and records every page of the given synthetic threads into a fresh store. */
export function storeFromSynth(
  forum: string,
  threads: SynthThread[],
  fetchedAt = new Date('2027-01-01T00:00:00Z'),
  data: StoreData = emptyStore(forum),
): StoreData {
  for (const t of threads) {
    for (const page of buildThreadPages({ ...t, base: forum })) {
      recordFetched(data, { bytes: page.bytes, url: page.url, fetchedAt, status: 200, contentType: page.contentType });
    }
  }
  return data;
}
