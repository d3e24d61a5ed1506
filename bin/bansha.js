#!/usr/bin/env node
/**
 * The `bansha` command: it runs bundle/cli.js, the CLI bundled into a few modules by
 * scripts/bundle-cli.mjs (tsc's dist/ is the library's; a command started from its ~170 separate
 * modules paid about 0.1 s more CPU before its own work). The published package ships bundle/, built
 * by `prepack`. In a git checkout (src/ is there) this first bundles src/ when bundle/ is missing or
 * older than src/ or the installed packages (about a second, noted on stderr) — so `npm ci && npx bansha
 * demo` works on a fresh clone with no install-time build step, and an edited checkout never runs stale
 * code. The bundler's output goes to stderr, so stdout stays clean for --json.
 */
import fs from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundled = path.join(root, 'bundle', 'cli.js');
const src = path.join(root, 'src');

/**
 * The newest modification time, in ms, of what the bundle is made from: a .ts or .yaml file under `dir`
 * (the package's YAML data is parsed into it: src/package-yaml.ts), the build's own files, and the
 * installed packages (npm rewrites node_modules/.package-lock.json on every install: the bundle holds
 * their code).
 */
function newestSource(dir) {
  let newest = 0;
  for (const f of ['tsconfig.json', 'package.json', 'scripts/bundle-cli.mjs', 'scripts/package-yaml.mjs', 'node_modules/.package-lock.json']) {
    if (fs.existsSync(path.join(root, f))) newest = Math.max(newest, fs.statSync(path.join(root, f)).mtimeMs);
  }
  // a walk of its own: half the time of readdirSync's `recursive` (~200 files, every command in a checkout)
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = d + path.sep + entry.name;
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile() && /\.(ts|yaml)$/.test(entry.name)) newest = Math.max(newest, fs.statSync(p).mtimeMs);
    }
  };
  walk(dir);
  return newest;
}

if (fs.existsSync(path.join(src, 'cli', 'main.ts'))) {
  const built = fs.existsSync(bundled) ? fs.statSync(bundled).mtimeMs : 0;
  if (built < newestSource(src)) {
    process.stderr.write('bansha: 正在打包 bundle/（首次运行或源码有更新）… / bundling the CLI …\n');
    // loaded only here: child_process (and the net/dgram modules it loads) cost every command ~4 ms
    const { spawnSync } = await import('node:child_process');
    const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'bundle-cli.mjs')], { stdio: ['ignore', 2, 2] });
    if (r.status !== 0) {
      process.stderr.write('bansha: 打包失败（见上）/ the build failed (see above)\n');
      process.exit(1);
    }
  }
}
// Node ≥ 22.1 keeps V8's compiled code of the bundle between runs (Node 20 has no such cache for ES
// modules). In bundle/ itself: as trusted as the code it holds, gone with it when it is built again,
// and simply unused where bundle/ is not writable (the call then reports a failure, it does not throw).
try {
  module.enableCompileCache?.(path.join(root, 'bundle', '.compile-cache'));
} catch {
  // no cache: only slower
}
await import(pathToFileURL(bundled).href);
