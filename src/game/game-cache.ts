/**
 * The checked game kept between commands: a director reruns tally, report and elevator every minute at
 * closing over a game file that has not changed, and reading it (YAML, then zod's checks of the file and
 * of the ruleset) is a large part of such a command's fixed cost. The Game that game-file.ts made is saved
 * in `<game>.game-cache.json` beside the game file (owner-only, through src/store/memo.ts) under the key of
 * everything it was made from: the game file's bytes, its path and the --store path, the rulings file's
 * bytes, every preset file's bytes and the code that runs (memo.ts codeIdentity: the bundle's build, Node's
 * time-zone data). Anything else — a change, a damaged cache file, another build — reads the file again
 * through game-file.ts, which then loads; a cache that is missing or stale only costs time. Kept beside the Game: the forum zone's offsets over the game's span
 * (src/game/zone-offsets.ts), so a warm command writes forum times without setting up Intl. Run from src/
 * or dist/ (the library, the tests) nothing is cached unless a caller asks (`build`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { packagePath } from '../paths.js';
import { besideGame } from './beside.js';
import { rulingsPath } from './rulings/path.js';
import { BUILD, inputText, memoKey, readMemoFile, writeMemoFile } from '../store/memo.js';
import type { LoadGameOptions } from './game-file.js';
import { readGameSource } from './game-source.js';
import type { Game } from './types.js';
import { gameSpan, keepZoneOffsets, type ZoneOffsets } from './zone-offsets.js';

/** What the cache file holds. */
interface Kept {
  game: Game;
  zone: ZoneOffsets | null;
}

export { BUILD };

/** Where a game's cache lives: game.yaml → game.game-cache.json in the same folder. */
export function gameCachePath(gameFile: string): string {
  return besideGame(gameFile, 'game-cache.json');
}

/** The preset files by name, with their text: a game's ruleset is its preset merged with its overrides. */
function presetTexts(): Array<[string, string]> {
  const dir = packagePath('src', 'game', 'presets');
  return fs.readdirSync(dir).sort().map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]);
}

/**
 * The game file `file` read and checked as `loadGame` does (the same Game, the same errors), from the
 * cache when nothing it was made from changed. `build`: whether to cache (default: in the bundle alone), a
 * name the key holds besides the code's identity.
 */
export async function loadGameCached(file: string, opts: LoadGameOptions = {}, build: string | null = BUILD): Promise<Game> {
  const source = readGameSource(file);
  const fresh = async (): Promise<Game> => (await import('./game-file.js')).gameFromSource(source, file, opts);
  if (build === null) return fresh();
  const rulings = inputText(rulingsPath(file));
  if (rulings === undefined) return fresh(); // an unreadable rulings file: game-file.ts says so
  const key = memoKey({ checkedGame: build, path: path.resolve(file), file, store: opts.store === undefined ? null : path.resolve(opts.store), source, rulings, presets: presetTexts() });
  const cacheFile = gameCachePath(file);
  const cached = readMemoFile<Kept>(cacheFile, key);
  if (cached?.game !== undefined) {
    if (cached.zone) keepZoneOffsets(cached.zone);
    return cached.game;
  }
  const game = await fresh();
  // (node:util on a miss alone: imported as an ES module it reads every export, its lazy ones too — ~6 ms of
  // Node 24's start-up for every closing command)
  const { isDeepStrictEqual } = await import('node:util');
  // Saved only when its JSON gives the same Game back, and under the rulings it was made with.
  if (inputText(rulingsPath(file)) === rulings && isDeepStrictEqual(JSON.parse(JSON.stringify(game)), game)) {
    const span = gameSpan(game);
    const zone = span && (await import('./zone-table.js')).zoneOffsets(game.timezone, ...span);
    if (zone) keepZoneOffsets(zone);
    writeMemoFile(cacheFile, key, { game, zone } satisfies Kept);
  }
  return game;
}
