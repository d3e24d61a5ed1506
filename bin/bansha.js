#!/usr/bin/env node
/**
 * The `bansha` command. The published package ships dist/ (built by `prepack`) and this only runs it.
 * In a git checkout (src/ is there) it first builds dist/ with the project's own TypeScript when dist/
 * is missing or older than src/ — so `npm ci && npx bansha demo` works on a fresh clone with no
 * install-time build step, and an edited checkout never runs stale code. The compiler's output goes to
 * stderr, so stdout stays clean for --json.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const main = path.join(root, 'dist', 'cli', 'main.js');
const src = path.join(root, 'src');

/** The newest modification time of a .ts file under `dir` (and tsconfig.json), in ms. */
function newestSource(dir) {
  let newest = fs.statSync(path.join(root, 'tsconfig.json')).mtimeMs;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts')) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  }
  return newest;
}

if (fs.existsSync(path.join(src, 'cli', 'main.ts'))) {
  const built = fs.existsSync(main) ? fs.statSync(main).mtimeMs : 0;
  if (built < newestSource(src)) {
    process.stderr.write('bansha: 正在编译 dist/（首次运行或源码有更新）… / building dist/ …\n');
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const r = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.json')], { stdio: ['ignore', 2, 2] });
    if (r.status !== 0) {
      process.stderr.write('bansha: 编译失败（见上）/ the build failed (see above)\n');
      process.exit(1);
    }
    // tsc leaves dist/cli/main.js untouched when it did not change: mark the build as done.
    const now = new Date();
    fs.utimesSync(main, now, now);
  }
}
await import(pathToFileURL(main).href);
