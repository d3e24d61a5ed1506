/**
 * The checked game kept between commands: a director reruns tally, report and elevator every minute at
 * closing over a game file that has not changed, and reading it (YAML, then zod's checks of the file and
 * of the ruleset) was a fifth of such a command's fixed cost. The Game that game-file.ts made is saved
 * in `<game>.game-cache.json` beside the game file (owner-only, src/store/keyed-file.ts) under the key of
 * everything it was made from: the game file's bytes, its path and the --store path, the rulings file's
 * bytes, every preset file's bytes, the code (the bundle's build: scripts/bundle-cli.mjs writes a digest
 * of the bundle into it) and Node's time-zone data. Anything else — a change, a damaged cache file,
 * another build — reads the file again through game-file.ts, which then loads; a cache that is missing or
 * stale only costs time. Kept beside the Game: the forum zone's offsets over the game's span
 * (src/game/zone-offsets.ts), so a warm command writes forum times without setting up Intl. Run from src/ or dist/ (the library, the tests) there is no build to key on,
 * and nothing is cached unless a caller names one.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { packagePath } from '../paths.js';
import { besideGame } from './beside.js';
import { rulingsPath } from '../rulings/path.js';
import { keyInputText, readKeyedFile, writeKeyedFile } from '../store/keyed-file.js';
import type { LoadGameOptions } from './game-file.js';
import { readGameSource } from './game-source.js';
import type { Game } from './types.js';
import { gameSpan, keepZoneOffsets, type ZoneOffsets } from './zone-offsets.js';

/** Bump when the cache file's content changes shape. */
const FORMAT = 2;

/** What the cache file holds. */
interface Kept {
  game: Game;
  zone: ZoneOffsets | null;
}

declare const BANSHA_BUILD: string | undefined;
/** The bundle's build (a digest of its code, set by scripts/bundle-cli.mjs), or null outside the bundle. */
export const BUILD: string | null = typeof BANSHA_BUILD === 'string' ? BANSHA_BUILD : null;

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
 * cache when nothing it was made from changed. `build` names the code (default: the bundle's).
 */
export async function loadGameCached(file: string, opts: LoadGameOptions = {}, build: string | null = BUILD): Promise<Game> {
  const source = readGameSource(file);
  const fresh = async (): Promise<Game> => (await import('./game-file.js')).gameFromSource(source, file, opts);
  if (build === null) return fresh();
  const rulings = keyInputText(rulingsPath(file));
  if (rulings === undefined) return fresh(); // an unreadable rulings file: game-file.ts says so
  const inputs = [FORMAT, build, process.version, process.versions.tz ?? null, path.resolve(file), file, opts.store === undefined ? null : path.resolve(opts.store), source, rulings, presetTexts()];
  const key = createHash('sha256').update(JSON.stringify(inputs)).digest('hex');
  const cacheFile = gameCachePath(file);
  const cached = readKeyedFile<Kept>(cacheFile, key);
  if (cached?.game !== undefined) {
    if (cached.zone) keepZoneOffsets(cached.zone);
    return cached.game;
  }
  const game = await fresh();
  // Saved only when its JSON gives the same Game back, and under the rulings it was made with.
  if (keyInputText(rulingsPath(file)) === rulings && isDeepStrictEqual(JSON.parse(JSON.stringify(game)), game)) {
    const span = gameSpan(game);
    const zone = span && (await import('./zone-table.js')).zoneOffsets(game.timezone, ...span);
    if (zone) keepZoneOffsets(zone);
    writeKeyedFile(cacheFile, key, { game, zone } satisfies Kept);
  }
  return game;
}
