/**
 * Bundles the CLI (src/cli/main.ts and what it imports) into bundle/: one module for the start and a
 * few per lazily imported command or view, instead of the ~170 modules (95 of them zod's) a command
 * otherwise resolves and compiles one by one — most of a closing command's fixed cost. esbuild only
 * strips the types (tsconfig.json's target); `tsc -p test` checks them, and tsc's dist/ stays the
 * library's. bundle/ sits one level below the package root, as src/ and dist/ do (src/paths.ts finds
 * the data files from there), so every chunk goes beside cli.js. Packages that load native or browser
 * files from their own folders stay external. The bundle knows its build — a digest of its own code, every
 * package it holds included — as BANSHA_BUILD: what src/game/game-cache.ts keys the checked game on.
 * The package's YAML data files are parsed here into the bundle (src/package-yaml.ts, scripts/package-yaml.mjs).
 * Usage: node scripts/bundle-cli.mjs   (bin/bansha.js runs it when src/ is newer; `npm run build` too)
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundledPackageYaml } from './package-yaml.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'bundle');
// A build of its own beside the bundle: two builds at once never write into one folder.
const tmp = `${out}.tmp-${process.pid}`;
// Where the build's digest goes, once the code it digests is known (as long as a sha256 in hex).
const PLACEHOLDER = 'bansha-build:'.padEnd(64, '-');

try {
  const { outputFiles } = await build({
    entryPoints: { cli: path.join(root, 'src', 'cli', 'main.ts') },
    outdir: tmp,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: '[name]-[hash]', // beside cli.js (see above)
    external: ['playwright-core', '@node-rs/jieba'],
    // The CommonJS packages bundled (yaml, commander, iconv-lite…) call require() for Node's modules.
    banner: { js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);" },
    // Less text to parse at every start; names are kept, so a stack trace (BANSHA_DEBUG) still reads.
    minifyWhitespace: true,
    minifySyntax: true,
    define: { BANSHA_BUILD: JSON.stringify(PLACEHOLDER) },
    // The package's YAML data parsed now, not by every command (src/package-yaml.ts).
    plugins: [
      {
        name: 'package-yaml',
        setup(b) {
          b.onLoad({ filter: /[\\/]src[\\/]package-yaml\.ts$/ }, (args) => ({ contents: bundledPackageYaml(root, args.path), loader: 'js' }));
        },
      },
      {
        // commander requires child_process (and with it net, dgram and streams: ~4 ms) as it loads, for
        // executable subcommands bansha has none of: it gets the module when it first uses it instead.
        name: 'lazy-child-process',
        setup(b) {
          b.onResolve({ filter: /^(node:)?child_process$/ }, (args) => (/[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'lazy' } : undefined));
          b.onLoad({ filter: /^child_process$/, namespace: 'lazy' }, () => ({ contents: "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });", loader: 'js' }));
        },
      },
      {
        // luxon's module costs ~9 ms CPU to load and run, and a warm closing command mostly needs none of it
        // (forum times come from the kept zone offsets): its CommonJS build is bundled instead, run on the
        // first use of DateTime (bansha imports only DateTime, and calls only its static methods).
        name: 'lazy-luxon',
        setup(b) {
          b.onResolve({ filter: /^luxon$/ }, (args) => (args.kind === 'require-call' ? undefined : { path: 'luxon', namespace: 'lazy' }));
          b.onLoad({ filter: /^luxon$/, namespace: 'lazy' }, () => ({
            contents: `let luxon;
const real = () => (luxon ??= require('luxon')).DateTime;
export const DateTime = new Proxy({}, { get: (_, key) => (typeof real()[key] === 'function' ? real()[key].bind(real()) : real()[key]) });`,
            loader: 'js',
            resolveDir: root,
          }));
        },
      },
    ],
    write: false,
    logLevel: 'warning',
  });
  const files = outputFiles.map((f) => ({ name: path.relative(tmp, f.path).split(path.sep).join('/'), text: f.text })).sort((a, b) => (a.name < b.name ? -1 : 1));
  const digest = createHash('sha256');
  for (const f of files) digest.update(`${f.name}\n${f.text.length}\n`).update(f.text);
  const buildId = digest.digest('hex');
  fs.mkdirSync(tmp, { recursive: true });
  for (const f of files) fs.writeFileSync(path.join(tmp, f.name), f.text.replaceAll(PLACEHOLDER, buildId));
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
