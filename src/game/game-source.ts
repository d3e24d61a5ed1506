/** A game file's text, or a UserError naming the file (its own module: game-cache.ts reads it without the parsers). */
import fs from 'node:fs';
import { UserError } from '../errors.js';
import { t } from '../i18n/index.js';

export function readGameSource(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new UserError(t('game.cannotRead', file, (err as Error).message));
  }
}
