/** The files bansha keeps beside a game file (rulings, ledger, the checked game). */
import path from 'node:path';

/** game.yaml → game.<suffix> in the same folder. */
export function besideGame(gameFile: string, suffix: string): string {
  const dir = path.dirname(path.resolve(gameFile));
  return path.join(dir, `${path.basename(gameFile).replace(/\.ya?ml$/i, '')}.${suffix}`);
}
