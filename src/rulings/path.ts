/** Where a game's rulings live (its own module: the game cache reads the file's bytes without zod). */
import path from 'node:path';

/** game.yaml → game.rulings.json in the same folder. */
export function rulingsPath(gameFile: string): string {
  const dir = path.dirname(path.resolve(gameFile));
  return path.join(dir, `${path.basename(gameFile).replace(/\.ya?ml$/i, '')}.rulings.json`);
}
