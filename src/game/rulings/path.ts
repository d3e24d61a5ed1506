/** Where a game's rulings live (its own module: the game cache reads the file's bytes without zod). */
import { besideGame } from '../beside.js';

/** game.yaml → game.rulings.json in the same folder. */
export function rulingsPath(gameFile: string): string {
  return besideGame(gameFile, 'rulings.json');
}
