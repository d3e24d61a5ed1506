/** The files bansha keeps beside a game file (rulings, ledger, the checked game) and the director's word lists there. */
import fs from 'node:fs';
import path from 'node:path';

/** game.yaml → game.<suffix> in the same folder. */
export function besideGame(gameFile: string, suffix: string): string {
  const dir = path.dirname(path.resolve(gameFile));
  return path.join(dir, `${path.basename(gameFile).replace(/\.ya?ml$/i, '')}.${suffix}`);
}

/** The director's word lists a report of `game` scans besides the bundled ones: `words/` beside the game file. */
export function reportWordDirs(game: { file: string }): string[] {
  const extra = path.join(path.dirname(path.resolve(game.file)), 'words');
  return fs.existsSync(extra) ? [extra] : [];
}
