/**
 * The compiled word lists kept between runs (src/derived/wording-hits.ts keptLists, word-lists.ts
 * listsToJson/listsFromJson): read back, they give every hit the freshly parsed lists give; a list set
 * this process has not loaded is read from the kept file, not parsed; a damaged file or another code's
 * is never read. The characters' readings a scan looked up are kept beside them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { everydaySet, labelledParts } from '../../src/bench/wording-eval.js';
import { keptLists, wordingMemo } from '../../src/derived/wording-hits.js';
import { synthGame } from '../../src/bench/synth-game.js';
import { parseGame } from '../../src/game/game-file.js';
import type { SlicePost } from '../../src/store/slice.js';
import { readings } from '../../src/violations/text-fold.js';
import { derivedDir } from '../../src/store/memo.js';
import { bundledCategories, listsFromJson, listsToJson, loadWordLists, wordListFiles, type WordLists } from '../../src/violations/word-lists.js';
import { findBannedWording } from '../../src/violations/wording.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-kept-lists-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const categories = bundledCategories();
const { tune, heldOut } = labelledParts();
const sentences = [...tune, ...heldOut, ...everydaySet()].map((s) => s.sentence);
const hitsOf = (lists: WordLists) => JSON.stringify(sentences.map((s) => findBannedWording(s, lists, { names: ['饺子', 'sb'] })));

/** A director's words folder of its own (a list set this process has not loaded yet), with a latin entry. */
function wordsDir(name: string): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, '侮辱性评论.txt'), 'nmsl\n{亲属}*2没了\n');
  return dir;
}

describe('compiled word lists kept between runs', () => {
  const parsed = loadWordLists(categories);
  const revived = listsFromJson(JSON.parse(JSON.stringify(listsToJson(parsed))));

  test('read back from JSON: the same hits on the whole labelled and everyday corpus', () => {
    expect(sentences.length).toBeGreaterThan(3000);
    expect(revived.entries.some((e) => e.shape === 'latin' && e.regex instanceof RegExp)).toBe(true);
    const hits = hitsOf(parsed);
    expect(hits.length).toBeGreaterThan(1000); // not vacuous: the corpus has hits
    expect(hitsOf(revived)).toBe(hits);
  }, 120_000);

  test('a list set not loaded in this process is taken from what was kept, else parsed and kept', () => {
    const a = wordsDir('a');
    let written: unknown;
    const first = loadWordLists(categories, [a], wordListFiles(categories, [a]), { read: () => undefined, write: (l) => (written = listsToJson(l)) });
    expect(written).toBeDefined();
    const b = wordsDir('b');
    const kept = listsFromJson(JSON.parse(JSON.stringify(written)));
    let reads = 0;
    const second = loadWordLists(categories, [b], wordListFiles(categories, [b]), { read: () => (reads++, kept), write: () => expect.unreachable('nothing to keep') });
    expect([reads, second === kept]).toEqual([1, true]);
    expect(hitsOf(second)).toBe(hitsOf(first));
    expect(findBannedWording('n m s l', second).map((h) => h.word)).toContain('nmsl');
    // loaded in this process: neither read nor parsed again
    expect(loadWordLists(categories, [b], wordListFiles(categories, [b]), { read: () => expect.unreachable('in memory'), write: () => expect.unreachable('in memory') })).toBe(second);
  }, 60_000);

  test('the kept file is read only under its lists and code, never when damaged', () => {
    const store = path.join(root, 'game.store.json');
    const kept = keptLists(store, { lists: 'lists digest', data: 'data digest' });
    expect(kept.read()).toBeUndefined();
    kept.write(parsed);
    const back = kept.read()!;
    expect(JSON.stringify(listsToJson(back))).toBe(JSON.stringify(listsToJson(parsed)));
    expect(keptLists(store, { lists: 'lists digest', data: 'other data' }).read()).toBeUndefined();
    expect(keptLists(store, { lists: 'other lists', data: 'data digest' }).read()).toBeUndefined();
    const file = path.join(derivedDir(store), 'word-lists.json');
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain('"syls"');
    fs.writeFileSync(file, text.replace('"syls":["', '"syls":["x'));
    expect(kept.read()).toBeUndefined();
    fs.writeFileSync(file, text.slice(0, -10));
    expect(kept.read()).toBeUndefined();
  });

  test("a scan keeps the lists, their pattern index and its characters' readings in the store's derived files", () => {
    const dir = path.join(root, 'memo');
    fs.mkdirSync(dir);
    const synth = synthGame({ posts: 100 });
    const game = parseGame(synth.gameYaml, path.join(dir, 'game.yaml'), { store: path.join(dir, 'game.store.json') });
    const post = { tid: 101 } as SlicePost;
    const text = '我对天发誓，鼹鼠不是狼';
    const memo = wordingMemo(game.storePath, game);
    const hits = memo.hitsOf(post, text);
    expect(hits.map((h) => h.category)).toContain('发誓与诅咒');
    memo.save();
    const derived = derivedDir(game.storePath);
    expect(fs.readdirSync(derived).sort()).toEqual(['char-readings.json', 'pattern-index.bin', 'word-lists.json', 'wording-101.json']);
    const kept = JSON.parse(fs.readFileSync(path.join(derived, 'char-readings.json'), 'utf8').split('\n')[1]) as Record<string, string[]>;
    for (const ch of '鼹鼠不是狼') expect(kept[ch]).toEqual(readings(ch));
    // the next run: the same hit, from the kept hits (nothing scanned, nothing written)
    const again = wordingMemo(game.storePath, game);
    expect(again.hitsOf(post, text)).toEqual(hits);
    expect(again.scanned).toBe(0);
    // a damaged readings file is not read: the next scan looks the readings up and keeps them again
    const file = path.join(derived, 'char-readings.json');
    const good = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, good.replace('"shu"', '"shi"'));
    const damaged = wordingMemo(game.storePath, game);
    expect(damaged.hitsOf(post, '鼠年发誓，第二句')).toEqual(findBannedWording('鼠年发誓，第二句', loadWordLists(game.rules.bannedCategories), { names: game.players }));
    damaged.save();
    const rewritten = JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[1]) as Record<string, string[]>;
    expect(rewritten['鼠']).toEqual(readings('鼠'));
  });
});
