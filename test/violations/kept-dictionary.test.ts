/**
 * jieba's dictionary kept between runs as bytes (src/violations/dictionary.ts, src/derived/wording-hits.ts
 * keptDictionary): read back, the same arrays; a damaged, truncated or other-keyed file is only a miss
 * (dict.txt read again, the file written again); a segmenter made from a kept dictionary reads no dict.txt
 * and cuts every text as one made from dict.txt (which test/violations/segment.test.ts holds to jieba's).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import { everydaySet, labelledParts } from '../../src/bench/wording-eval.js';
import { keptDictionary } from '../../src/derived/wording-hits.js';
import { synthGame } from '../../src/bench/synth-game.js';
import { parseGame } from '../../src/game/game-file.js';
import { derivedDir } from '../../src/store/memo.js';
import type { SlicePost } from '../../src/store/slice.js';
import { dictFile, dictionaryBytes, dictionaryFromBytes, readDictionary, type Dictionary, type KeptDictionary } from '../../src/violations/dictionary.js';
import type { Words } from '../../src/violations/segment.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-kept-dictionary-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const whole = readDictionary(dictFile())!;
const arrays = ['chars', 'start', 'length', 'freq', 'byFirstUnit'] as const;

function expectSameDictionary(got: Dictionary | undefined, want: Dictionary): void {
  expect(got).toBeDefined();
  expect(got!.total).toBe(want.total);
  for (const k of arrays) {
    expect(got![k].constructor, k).toBe(want[k].constructor);
    expect(got![k].length, k).toBe(want[k].length);
    expect(Buffer.from(got![k].buffer, got![k].byteOffset, got![k].byteLength).equals(Buffer.from(want[k].buffer, want[k].byteOffset, want[k].byteLength)), k).toBe(true);
  }
}

let stores = 0;
/** A store of its own (its derived folder not made yet). */
const newStore = (): string => path.join(root, `game${++stores}.store.json`);
const keptFile = (store: string): string => path.join(derivedDir(store), 'jieba-dictionary.bin');

/** segment.ts words() of a module instance of its own: the segmenter is made once a process, on its first cut. */
async function freshWords(): Promise<(text: string, kept?: KeptDictionary) => Words> {
  vi.resetModules();
  return (await import('../../src/violations/segment.js')).words;
}

/** How many times dict.txt is read from now on. */
function dictReads(): () => number {
  const spy = vi.spyOn(fs, 'readFileSync');
  return () => spy.mock.calls.filter(([file]) => String(file).endsWith('dict.txt')).length;
}

/** The words at every offset of every text, both modes: what a segmenter makes of the corpus. */
function cuts(words: (text: string, kept?: KeptDictionary) => Words, texts: readonly string[], kept?: KeptDictionary): string {
  return JSON.stringify(texts.map((text) => {
    const w = words(text, kept);
    return Array.from({ length: text.length }, (_, i) => [w.boundAt(i), ...w.wordAt(i), ...w.wordAt(i, true)]);
  }));
}

describe("jieba's dictionary kept as bytes", () => {
  test('read back: the same arrays, views onto one read of the file, owner-only', () => {
    const flat = Buffer.concat(dictionaryBytes(whole).map((p) => new Uint8Array(p.buffer, p.byteOffset, p.byteLength)));
    expectSameDictionary(dictionaryFromBytes(new Uint8Array(flat.buffer, flat.byteOffset, flat.byteLength)), whole);

    const store = newStore();
    const kept = keptDictionary(store, 'code digest');
    expect(kept.read()).toBeUndefined();
    kept.write(whole);
    const back = kept.read()!;
    expectSameDictionary(back, whole);
    expect(arrays.every((k) => back[k].buffer === back.chars.buffer)).toBe(true);
    expect(fs.statSync(keptFile(store)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(derivedDir(store)).mode & 0o777).toBe(0o700);
  });

  test('a damaged, truncated or other-keyed file is a miss; bytes not laid out so are none', () => {
    const store = newStore();
    const kept = keptDictionary(store, 'code digest');
    kept.write(whole);
    const file = keptFile(store);
    const good = fs.readFileSync(file);
    expect(keptDictionary(store, 'other code').read()).toBeUndefined();
    const flipped = Buffer.from(good);
    flipped[good.length >> 1] ^= 0x01;
    for (const bad of [flipped, good.subarray(0, good.length - 1), good.subarray(0, good.indexOf(0x0a) + 1), Buffer.concat([good, Buffer.from([0])]), Buffer.alloc(0)]) {
      fs.writeFileSync(file, bad);
      expect(kept.read()).toBeUndefined();
    }
    fs.writeFileSync(file, good);
    expectSameDictionary(kept.read(), whole);

    // (a checksum says only that the bytes are as written: the layout is checked too)
    const flat = Buffer.concat(dictionaryBytes(whole).map((p) => new Uint8Array(p.buffer, p.byteOffset, p.byteLength)));
    const view = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    const header = new Float64Array(flat.buffer, flat.byteOffset, 3);
    for (const [at, value] of [[0, header[0] + 1], [1, header[1] - 1], [2, -1], [0, 0.5]] as const) {
      const copy = Buffer.from(flat);
      new Float64Array(copy.buffer, copy.byteOffset, 3)[at] = value;
      expect(dictionaryFromBytes(view(copy)), `header[${at}] = ${value}`).toBeUndefined();
    }
    const wrongBound = Buffer.from(flat);
    new Int32Array(wrongBound.buffer, wrongBound.byteOffset + 24 + 4 * whole.start.length, 0x10001)[0x10000] -= 1;
    expect(dictionaryFromBytes(view(wrongBound))).toBeUndefined();
  });

  test('a first cut keeps the dictionary; a kept one is read instead of dict.txt and cuts every text the same', async () => {
    const { tune, heldOut } = labelledParts();
    const texts = [...tune, ...heldOut, ...everydaySet()].map((s) => s.sentence);
    expect(texts.length).toBeGreaterThan(3000);
    const fromDictTxt = cuts(await freshWords(), texts);

    // a store with none: dict.txt read once, the file written
    const store = newStore();
    let reads = dictReads();
    const first = cuts(await freshWords(), texts, keptDictionary(store, 'code digest'));
    expect(reads()).toBe(1);
    expect(first).toBe(fromDictTxt);
    expectSameDictionary(keptDictionary(store, 'code digest').read(), whole);
    vi.restoreAllMocks();

    // the next process: the kept file, no dict.txt
    reads = dictReads();
    const again = cuts(await freshWords(), texts, keptDictionary(store, 'code digest'));
    expect(reads()).toBe(0);
    expect(again).toBe(fromDictTxt);
    vi.restoreAllMocks();

    // a damaged file: dict.txt read again, and the file written again
    const file = keptFile(store);
    const good = fs.readFileSync(file);
    fs.writeFileSync(file, good.subarray(0, good.length - 100));
    reads = dictReads();
    expect(cuts(await freshWords(), texts.slice(0, 200), keptDictionary(store, 'code digest'))).toBe(JSON.stringify(JSON.parse(fromDictTxt).slice(0, 200)));
    expect(reads()).toBe(1);
    expect(fs.readFileSync(file).equals(good)).toBe(true);
  }, 120_000);

  test("a report's scan keeps the dictionary in the store's derived files, and the next one reads it", async () => {
    const dir = path.join(root, 'memo');
    fs.mkdirSync(dir);
    const synth = synthGame({ posts: 100 });
    const game = parseGame(synth.gameYaml, path.join(dir, 'game.yaml'), { store: path.join(dir, 'game.store.json') });
    const post = { tid: 101 } as SlicePost;
    // (法誓: a same-sound 发誓, whose bounds are words' — the text is cut)
    const scan = async (text: string) => {
      vi.resetModules();
      const memo = (await import('../../src/derived/wording-hits.js')).wordingMemo(game.storePath, game);
      memo.hitsOf(post, text);
      memo.save();
    };
    let reads = dictReads();
    await scan('我对天法誓，鼹鼠不是狼');
    expect(reads()).toBe(1);
    expect(fs.readdirSync(derivedDir(game.storePath))).toContain('jieba-dictionary.bin');
    vi.restoreAllMocks();
    reads = dictReads();
    await scan('他对天法誓，鼹鼠不是狼'); // (a new text: scanned, and cut)
    expect(reads()).toBe(0);
  });
});
