/** The files bansha keeps beside a game file (rulings, ledger, the checked game) and the director's word lists there. */
import fs from 'node:fs';
import path from 'node:path';

/** game.yaml → game: the game file's name, a report's title when the threads give none. */
export const gameFileTitle = (gameFile: string): string => path.basename(gameFile).replace(/\.ya?ml$/i, '');

/** game.yaml → game.<suffix> in the same folder. */
export function besideGame(gameFile: string, suffix: string): string {
  return path.join(path.dirname(path.resolve(gameFile)), `${gameFileTitle(gameFile)}.${suffix}`);
}

/** Where `report --html` writes day `day`'s page by default: game.yaml → game-day<N>.html in the same folder. */
export function dayHtmlBeside(gameFile: string, day: number): string {
  return path.join(path.dirname(path.resolve(gameFile)), `${gameFileTitle(gameFile)}-day${day}.html`);
}

/** The director's word lists a report of `game` scans besides the bundled ones: `words/` beside the game file. */
export function reportWordDirs(game: { file: string }): string[] {
  const extra = path.join(path.dirname(path.resolve(game.file)), 'words');
  return fs.existsSync(extra) ? [extra] : [];
}
