/**
 * Where the package's own data files are (selectors/, src/game/presets, word lists), whether the
 * code runs from src/ (tests) or dist/ (the CLI): both sit one level below the package root.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** An absolute path inside the package, e.g. packagePath('selectors', 'discuz-x3-desktop.json'). */
export function packagePath(...parts: string[]): string {
  return path.join(packageRoot, ...parts);
}
