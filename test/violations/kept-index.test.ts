/**
 * The compiled pattern index kept between runs (pattern-index.ts keepIndexIn, indexBytes/indexFromBytes
 * over typed-bytes.ts; src/derived/wording-hits.ts keptIndex): read back, it is the index compiling the
 * same lists gives, field by field, and gives every hit it gives; a list set with a kept index is not
 * compiled; bytes that do not fit are never used; a report's wording memo keeps it under the lists' key.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { everydaySet, labelledParts } from '../../src/bench/wording-eval.js';
import { keptIndex, wordingMemo } from '../../src/derived/wording-hits.js';
import { synthGame } from '../../src/bench/synth-game.js';
import { parseGame } from '../../src/game/game-file.js';
import { derivedDir } from '../../src/store/memo.js';
import type { SlicePost } from '../../src/store/slice.js';
import { indexBytes, indexFromBytes, indexOf, keepIndexIn, type KeptIndex, type PatternIndex } from '../../src/violations/pattern-index.js';
import { fromTypedBytes, typedBytes } from '../../src/violations/typed-bytes.js';
import { bundledCategories, listsFromJson, listsToJson, loadWordLists, type WordLists } from '../../src/violations/word-lists.js';
import { findBannedWording } from '../../src/violations/wording.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-kept-index-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const json = JSON.stringify(listsToJson(loadWordLists(bundledCategories())));
/** A list set of its own (the index is compiled once per list set object). */
const fresh = (): WordLists => listsFromJson(JSON.parse(json));
const { tune, heldOut } = labelledParts();
const sentences = [...tune, ...heldOut, ...everydaySet()].map((s) => s.sentence);
const hitsOf = (lists: WordLists) => JSON.stringify(sentences.map((s) => findBannedWording(s, lists, { names: ['饺子', 'sb'] })));

/** The bytes as a file gives them back: one 8-aligned buffer. */
function asRead(parts: readonly ArrayBufferView[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) out.set(new Uint8Array(p.buffer, p.byteOffset, p.byteLength), (at += p.byteLength) - p.byteLength);
  return out;
}

/** An index with its references to the lists named by what they refer to (entry ids, alternatives' options), to compare two. */
function comparable(ix: PatternIndex): unknown {
  return {
    ...ix,
    entries: ix.entries.map((e) => e && [e.entry.id, e.needs]),
    alts: [...ix.alts].map(([alt, n]) => [JSON.stringify(alt), n]),
    allOfAlt: ix.allOfAlt.map((a) => ({ ...a, list: JSON.stringify(a.list) })),
    listed: ix.listed.map((e) => e.id),
  };
}

/** A store of the kept index in memory, counting its reads and writes. */
function memory(bytes?: Uint8Array): KeptIndex & { reads: number; writes: number; bytes?: Uint8Array } {
  const m = {
    bytes, reads: 0, writes: 0,
    read: () => (m.reads++, m.bytes),
    write: (parts: readonly ArrayBufferView[]) => {
      m.writes++;
      m.bytes = asRead(parts);
    },
  };
  return m;
}

describe('the compiled pattern index kept between runs', () => {
  test('read back, it is the index compiled from the same lists, and gives every hit on the labelled and everyday corpus', () => {
    const compiledHere = fresh();
    const kept = memory();
    keepIndexIn(compiledHere, kept);
    const hits = hitsOf(compiledHere);
    expect(hits.length).toBeGreaterThan(1000); // not vacuous: the corpus has hits
    expect([kept.reads, kept.writes]).toEqual([1, 1]);

    // a new list set (as the next process has): the index read back, not compiled
    const revived = fresh();
    const again = memory(kept.bytes);
    keepIndexIn(revived, again);
    const readBack = indexOf(revived);
    expect([again.reads, again.writes]).toEqual([1, 0]);
    expect(comparable(readBack)).toEqual(comparable(indexOf(fresh())));
    expect(hitsOf(revived)).toBe(hits);
    expect(hitsOf(fresh())).toBe(hits);
  }, 180_000);

  test('bytes that do not fit the lists or are damaged are not used: the index is compiled and kept again', () => {
    const lists = fresh();
    const kept = memory();
    keepIndexIn(lists, kept);
    indexOf(lists);
    const good = kept.bytes!;
    // another list set (one entry fewer), a table cut short, a length that runs past the end
    const fewer = listsFromJson({ ...JSON.parse(json), entries: JSON.parse(json).entries.slice(1) });
    expect(indexFromBytes(good, fewer)).toBeUndefined();
    expect(indexFromBytes(good.subarray(0, good.length - 8), fresh())).toBeUndefined();
    const long = new Uint8Array(good);
    new Float64Array(long.buffer, 16 + Math.ceil(new Float64Array(good.buffer, good.byteOffset, 1)[0] / 8) * 8, 1)[0] = good.length;
    expect(indexFromBytes(long, fresh())).toBeUndefined();

    const damaged = fresh();
    const m = memory(long);
    keepIndexIn(damaged, m);
    indexOf(damaged);
    expect([m.reads, m.writes]).toEqual([1, 1]);
    expect(m.bytes).toEqual(good);
  });

  test('only an index as compiled is written: one a text was read with has scratch of that text', () => {
    const lists = fresh();
    findBannedWording('你这个傻逼', lists);
    expect(() => indexBytes(indexOf(lists))).toThrow(/as compiled/);
  });

  test("a report's wording memo keeps the index under the lists' key: the next run reads it", () => {
    const store = path.join(root, 'memo', 'bench.store.json');
    fs.mkdirSync(path.dirname(store), { recursive: true });
    const synth = synthGame({ posts: 300 });
    const game = parseGame(synth.gameYaml, path.join(path.dirname(store), 'game.yaml'), { store });
    const memo = wordingMemo(store, game);
    memo.hitsOf({ tid: 1 } as SlicePost, '你这个傻逼');
    const file = path.join(derivedDir(store), 'pattern-index.bin');
    expect(fs.existsSync(file)).toBe(true);
    const bytes = keptIndex(store, { lists: 'x', data: 'y' }).read();
    expect(bytes).toBeUndefined(); // (under other lists' key: not read)
  });
});

describe('typed-bytes', () => {
  test('a value of typed arrays, Maps, arrays with holes and plain values comes back as it was', () => {
    const value = {
      n: 3, s: 'é\u0001', b: true, z: null, list: [1, 'two', [3]],
      ints: Int32Array.from([1, -2, 3]), floats: Float64Array.from([0.5, -1e300]), bytes: Uint8Array.from([255]),
      packed: [Uint32Array.from([1, 2]), undefined, Uint32Array.from([]), Uint32Array.from([7])],
      byName: new Map([['a', Uint16Array.from([9])], ['b', Uint16Array.from([10, 11])]]), byNumber: new Map([[4, 'four']]), none: new Map(),
    };
    expect(fromTypedBytes(asRead(typedBytes(value)))).toEqual(value);
  });

  test('a value that holds one object twice, or an object of a class, is refused', () => {
    const shared = Int32Array.from([1]);
    expect(() => typedBytes({ a: shared, b: shared })).toThrow(/twice/);
    expect(() => typedBytes({ a: [shared], b: [shared] })).toThrow(/twice/);
    expect(() => typedBytes({ d: new Date(0) })).toThrow(/class/);
    expect(() => typedBytes({ m: new Map([[{}, 1]]) })).toThrow(/Map/);
  });
});
