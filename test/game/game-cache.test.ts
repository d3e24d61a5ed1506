/**
 * The checked game kept between commands (src/game/game-cache.ts) never changes an answer: cold, warm,
 * after a change to the game file, its rulings or the --store path, under another build, and with a
 * damaged cache file, it gives what loadGame gives — and a warm read writes nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import { BUILD, gameCachePath, loadGameCached } from '../../src/game/game-cache.js';
import { loadGame } from '../../src/game/game-file.js';
import { writeRulings } from '../../src/game/rulings/file.js';
import { forgetZoneOffsets, keptOffset } from '../../src/game/zone-offsets.js';
import { writeKeyedFile } from '../../src/store/keyed-file.js';

const FIXTURE = path.resolve(import.meta.dirname, '../../fixtures/games/public.yaml');
const build = 'test-build';

let dir: string;
let file: string;
let cache: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-game-cache-'));
  file = path.join(dir, 'g.yaml');
  fs.copyFileSync(FIXTURE, file);
  cache = gameCachePath(file);
});

/** The cache file's identity: a write renames a new file in, so a read that writes nothing keeps it. */
const stamp = () => {
  const st = fs.statSync(cache);
  return `${st.ino}:${st.mtimeMs}`;
};

describe('the game cache', () => {
  test('cold: what loadGame gives, saved owner-only beside the game file; warm: the same, nothing written', async () => {
    expect(fs.existsSync(cache)).toBe(false);
    const cold = await loadGameCached(file, {}, build);
    expect(cold).toEqual(loadGame(file));
    expect(cache).toBe(path.join(dir, 'g.game-cache.json'));
    if (process.platform !== 'win32') expect(fs.statSync(cache).mode & 0o777).toBe(0o600);
    const before = stamp();
    const warm = await loadGameCached(file, {}, build);
    expect(warm).toEqual(cold);
    expect(stamp()).toBe(before);
  });

  test('a changed game file is read again', async () => {
    await loadGameCached(file, {}, build);
    const before = stamp();
    fs.appendFileSync(file, '  - {player: 饺子, out: "2026-11-23 10:00", how: night}\n');
    const changed = await loadGameCached(file, {}, build);
    expect(changed).toEqual(loadGame(file));
    expect(changed.events.map((e) => e.player)).toContain('饺子');
    expect(stamp()).not.toBe(before);
  });

  test('new rulings beside the game are read again', async () => {
    await loadGameCached(file, {}, build);
    await writeRulings({ version: 1, entries: [{ id: 1, verb: 'reject', subject: 'ballot', pid: 123, day: 2, why: '测试', by: 'director', at: '2026-11-22T12:00:00Z' }] }, path.join(dir, 'g.rulings.json'));
    const ruled = await loadGameCached(file, {}, build);
    expect(ruled.rulings).toHaveLength(1);
    expect(ruled).toEqual(loadGame(file));
  });

  test('another --store path or another build is not served the cached game', async () => {
    await loadGameCached(file, {}, build);
    const other = await loadGameCached(file, { store: path.join(dir, 'elsewhere.store.json') }, build);
    expect(other.storePath).toBe(path.join(dir, 'elsewhere.store.json'));
    expect(other).toEqual(loadGame(file, { store: path.join(dir, 'elsewhere.store.json') }));
    const before = stamp();
    expect(await loadGameCached(file, { store: path.join(dir, 'elsewhere.store.json') }, 'another-build')).toEqual(other);
    expect(stamp()).not.toBe(before);
  });

  test.each([
    ['cut short', (s: string) => s.slice(0, s.length - 40)],
    ['a value changed under the same checksum', (s: string) => s.replace('"m107"', '"062"')],
    ['not a cache file at all', () => 'garbage'],
    ['empty', () => ''],
  ])('a damaged cache file (%s) is ignored and written again', async (_, damage) => {
    const good = await loadGameCached(file, {}, build);
    const text = fs.readFileSync(cache, 'utf8');
    fs.writeFileSync(cache, damage(text));
    expect(await loadGameCached(file, {}, build)).toEqual(good);
    expect(fs.readFileSync(cache, 'utf8')).toBe(text);
  });

  test('a broken game file: the same error as loadGame, nothing cached', async () => {
    fs.appendFileSync(file, 'colour: red\n');
    const expected = (() => {
      try {
        loadGame(file);
      } catch (e) {
        return (e as Error).message;
      }
      return null;
    })();
    expect(expected).toMatch(/colour/);
    await expect(loadGameCached(file, {}, build)).rejects.toThrow(expected!);
    expect(fs.existsSync(cache)).toBe(false);
  });

  test("the forum zone's offsets are kept with the game: cold and warm, the clock is read from them; a damaged table is not", async () => {
    forgetZoneOffsets();
    const game = await loadGameCached(file, {}, build);
    const at = game.days[0].opens;
    expect(keptOffset(game.timezone, at)).toBe(8 * 3_600_000); // the fixture's Asia/Shanghai
    forgetZoneOffsets();
    expect(await loadGameCached(file, {}, build)).toEqual(game);
    expect(keptOffset(game.timezone, at)).toBe(8 * 3_600_000);
    // the same key and checksum over a table that is not well-formed: the game still served, no offsets kept
    forgetZoneOffsets();
    const key = fs.readFileSync(cache, 'utf8').split(' ')[0];
    const kept = JSON.parse(fs.readFileSync(cache, 'utf8').split('\n')[1]);
    writeKeyedFile(cache, key, { ...kept, zone: { ...kept.zone, offsets: ['+08:00'] } });
    expect(await loadGameCached(file, {}, build)).toEqual(game);
    expect(keptOffset(game.timezone, at)).toBeUndefined();
    forgetZoneOffsets();
  });

  test('outside the bundle there is no build to key on: nothing is cached', async () => {
    expect(BUILD).toBeNull();
    expect(await loadGameCached(file)).toEqual(loadGame(file));
    expect(fs.existsSync(cache)).toBe(false);
  });
});
