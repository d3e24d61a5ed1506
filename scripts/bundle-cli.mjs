/**
 * Bundles the CLI (src/cli/main.ts and what it imports) into bundle/: one module for the start and a
 * few per lazily imported command or view, instead of the ~170 modules (95 of them zod's) a command
 * otherwise resolves and compiles one by one — most of a closing command's fixed cost. esbuild only
 * strips the types (tsconfig.json's target); `tsc -p test` checks them, and tsc's dist/ stays the
 * library's. bundle/ sits one level below the package root, as src/ and dist/ do (src/paths.ts finds
 * the data files from there), so every chunk goes beside cli.js. Packages that load native or browser
 * files from their own folders stay external.
 * Usage: node scripts/bundle-cli.mjs   (bin/bansha.js runs it when src/ is newer; `npm run build` too)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'bundle');
// A build of its own beside the bundle: two builds at once never write into one folder.
const tmp = `${out}.tmp-${process.pid}`;

try {
  await build({
    entryPoints: { cli: path.join(root, 'src', 'cli', 'main.ts') },
    outdir: tmp,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: '[name]-[hash]',
    external: ['playwright-core', '@node-rs/jieba'],
    // The CommonJS packages bundled (yaml, commander, iconv-lite…) call require() for Node's modules.
    banner: { js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  // The old bundle out, the new one in: never chunks of two builds side by side.
  fs.rmSync(out, { recursive: true, force: true });
  try {
    fs.renameSync(tmp, out);
  } catch (err) {
    // Another build of the same sources moved its bundle in first: that one serves.
    if (!fs.existsSync(path.join(out, 'cli.js'))) throw err;
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
