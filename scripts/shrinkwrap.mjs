/**
 * The packed package's npm-shrinkwrap.json: package-lock.json copied in at `npm pack` (prepack) and
 * removed after it (postpack). With it, `npm install -g bansha-<version>.tgz` installs the very versions
 * the suite ran on (npm's advice for a command-line tool), straight from the npm cache when it holds
 * them (`--offline` works on a machine that ran `npm ci`), instead of resolving every range anew. The
 * repository keeps only package-lock.json: one lock file for the engineers, the same one for the package.
 * Usage: node scripts/shrinkwrap.mjs [--remove]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const shrinkwrap = path.join(root, 'npm-shrinkwrap.json');
if (process.argv.includes('--remove')) fs.rmSync(shrinkwrap, { force: true });
else fs.copyFileSync(path.join(root, 'package-lock.json'), shrinkwrap);
