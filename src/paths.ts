/**
 * Where the package's own data files are (selectors/, src/game/presets, word lists), whether the
 * code runs from src/ (tests) or dist/ (the CLI): both sit one level below the package root; and which
 * version of a dependency is installed.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** An absolute path inside the package, e.g. packagePath('selectors', 'discuz-x3-desktop.json'). */
export function packagePath(...parts: string[]): string {
  return path.join(packageRoot, ...parts);
}

/** A dependency's installed version: its package.json, found from where it resolves. */
export function installedVersion(name: string): string {
  const require = createRequire(import.meta.url);
  let dir = path.dirname(require.resolve(name));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === name) return `${name}@${pkg.version}`;
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no package.json of ${name}`);
    dir = up;
  }
}
