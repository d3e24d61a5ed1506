/**
 * Test helper: a store built the way a crawl builds it — pages rendered from the real captured markup
 * (src/replay/synth.ts) or read from fixtures/discuz, parsed by the real parser, recorded by the real
 * store code. Shared by test/auction, test/elevator and test/cli.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parsePage } from '../../src/discuz/index.js';
import { applyPage, emptyStore } from '../../src/store/index.js';
import type { StoreData } from '../../src/store/types.js';
import { buildThreadPages, type SynthThread } from '../../src/replay/synth.js';

export const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures');

/** Parses and records every page of the given synthetic threads into a fresh store. */
export function storeFromSynth(
  forum: string,
  threads: SynthThread[],
  fetchedAt = new Date('2027-01-01T00:00:00Z'),
  data: StoreData = emptyStore(forum),
): StoreData {
  for (const t of threads) {
    for (const page of buildThreadPages({ ...t, base: forum })) {
      const fetched = { bytes: page.bytes, url: page.url, fetchedAt, status: 200, contentType: page.contentType };
      applyPage(data, fetched, parsePage(fetched));
    }
  }
  return data;
}

/** Parses and records captured fixture pages (files of fixtures/discuz/<dir>, by manifest URL). */
export function storeFromFixture(dir: string, files: string[]): StoreData {
  const root = path.join(FIXTURES, 'discuz', dir);
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'manifest.json'), 'utf8')) as Array<{ file: string; url: string; content_type: string }>;
  const ids = JSON.parse(fs.readFileSync(path.join(root, 'ids.json'), 'utf8')) as { base: string };
  const data = emptyStore(ids.base);
  for (const file of files) {
    const m = manifest.find((x) => x.file === file);
    if (!m) throw new Error(`${file} is not in ${dir}/manifest.json`);
    const fetched = { bytes: new Uint8Array(fs.readFileSync(path.join(root, file))), url: ids.base + m.url, fetchedAt: new Date('2026-11-23T00:00:00Z'), status: 200, contentType: m.content_type };
    applyPage(data, fetched, parsePage(fetched));
  }
  return data;
}
