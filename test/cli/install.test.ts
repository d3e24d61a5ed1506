/**
 * bansha installs like any command-line tool: `npm pack` builds what the package needs (prepack: the
 * library's dist/, the CLI's bundle/, npm-shrinkwrap.json from the lock), `npm install -g` of that
 * tarball into a prefix of its own puts a `bansha` on that prefix's PATH, and it runs from an empty
 * folder — `--version`, then the whole demo — with no src/ to build from (an installed package has
 * none). Installed `--offline`: the dependencies come from npm's cache, as on any machine that ran
 * `npm ci` (the shrinkwrap names their exact versions, so nothing has to be resolved). The same for a
 * clone: `npm install -g .` in a checkout links it, and its `bansha` builds its bundle from src/.
 * One pack, reused. Packed from a copy of the checkout (its sources and data, the installed packages
 * linked): the build's new bundle/ and dist/ never replace the ones the other tests run meanwhile.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-install-'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string; name: string; files: string[] };
/** The copy of the checkout that is packed and linked. */
const checkout = path.join(work, 'checkout');
/** npm's own notices off: the test looks at what a director's install prints, not at audit or funding. */
const npmEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, env, encoding: 'utf8', shell: process.platform === 'win32', timeout: 180_000 });
}

/** The `bansha` an install into `prefix` puts on that prefix's PATH. */
const binOf = (prefix: string) => (process.platform === 'win32' ? path.join(prefix, 'bansha.cmd') : path.join(prefix, 'bin', 'bansha'));

/** An empty folder to run bansha from. */
function emptyFolder(name: string): string {
  const d = path.join(work, name);
  fs.mkdirSync(d);
  return d;
}

let tarball = '';
let packed: SpawnSyncReturns<string>;

/** What a clone holds that the build and the package read: the sources, the build's scripts, the package's data; the installed packages linked. */
function copyCheckout(): void {
  const built = new Set(['dist', 'bundle', 'npm-shrinkwrap.json']);
  const parts = ['package.json', 'package-lock.json', 'tsconfig.json', 'README.md', 'scripts', 'src', ...pkg.files.filter((f) => !built.has(f))];
  for (const part of new Set(parts)) {
    if (fs.existsSync(path.join(ROOT, part))) fs.cpSync(path.join(ROOT, part), path.join(checkout, part), { recursive: true });
  }
  fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules')), path.join(checkout, 'node_modules'), 'junction');
}

beforeAll(() => {
  copyCheckout();
  packed = run(npm, ['pack', '--pack-destination', work], checkout, npmEnv);
  expect(packed.status, packed.stderr).toBe(0);
  tarball = path.join(work, `${pkg.name}-${pkg.version}.tgz`);
  expect(fs.existsSync(tarball)).toBe(true);
}, 300_000);

describe('npm install -g', () => {
  it('the packed tarball holds the built CLI, the data it reads and the shrinkwrap, not the sources; the checkout keeps no shrinkwrap', () => {
    const list = run('tar', ['tzf', tarball], work);
    expect(list.status, list.stderr).toBe(0);
    const files = list.stdout.split('\n').filter(Boolean);
    for (const f of ['package/bin/bansha.js', 'package/bundle/cli.js', 'package/dist/index.js', 'package/npm-shrinkwrap.json', 'package/selectors/discuz-x3-desktop.json', 'package/src/game/presets/m107.yaml', 'package/fixtures/games/public.yaml', 'package/fixtures/discuz/public/manifest.json']) {
      expect(files, f).toContain(f);
    }
    // bin/bansha.js rebuilds only where src/cli/main.ts is: never in an installed package.
    expect(files.filter((f) => /^package\/src\/.*\.ts$/.test(f))).toEqual([]);
    expect(fs.existsSync(path.join(checkout, 'npm-shrinkwrap.json'))).toBe(false);
  });

  it('from the tarball, offline: a bansha on the PATH that runs --version and the demo from an empty folder, with no warning', () => {
    const prefix = path.join(work, 'prefix-tarball');
    const installed = run(npm, ['install', '-g', '--prefix', prefix, '--offline', tarball], work, npmEnv);
    expect(installed.status, installed.stderr).toBe(0);
    expect(installed.stderr).not.toMatch(/npm (warn|WARN)/);
    const bin = binOf(prefix);
    expect(fs.existsSync(bin)).toBe(true);

    const here = emptyFolder('tarball-run');
    const version = run(bin, ['--version'], here);
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(pkg.version);
    expect(version.stderr).toBe('');

    const demo = run(bin, ['demo'], here);
    expect(demo.status, demo.stderr).toBe(0);
    expect(demo.stderr).not.toContain('bundling'); // it ran the packed bundle, built nothing
    expect(demo.stdout).toMatch(/抓取：\d+ 个帖子，\d+ 页，\d+ 次请求，全部完整/);
    expect(demo.stdout).toContain('第 2 日：出局 月饼');
    expect(fs.existsSync(path.join(here, 'bansha-demo', 'game-day2', 'report-day2.html'))).toBe(true);
    expect(fs.readdirSync(here)).toEqual(['bansha-demo']);
  });

  it('`npm ci` from the lock file prints no install-script warning, and esbuild (whose postinstall it approves) still works', () => {
    const clone = emptyFolder('ci');
    for (const f of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(ROOT, f), path.join(clone, f));
    const ci = run(npm, ['ci', '--offline'], clone, npmEnv);
    expect(ci.status, ci.stderr).toBe(0);
    expect(ci.stderr).not.toContain('install-scripts');
    expect(ci.stderr).not.toMatch(/npm (warn|WARN)/);
    const esbuild = run(process.execPath, ['-e', "import('esbuild').then((e) => e.transform('let a: number = 1', { loader: 'ts' })).then((r) => process.stdout.write(r.code))"], clone);
    expect(esbuild.status, esbuild.stderr).toBe(0);
    expect(esbuild.stdout).toContain('let a = 1');
  });

  it('from a clone (`npm install -g .` after `npm ci`): a bansha on the PATH that runs from an empty folder', () => {
    const prefix = path.join(work, 'prefix-clone');
    const installed = run(npm, ['install', '-g', '--prefix', prefix, '--offline', '.'], checkout, npmEnv);
    expect(installed.status, installed.stderr).toBe(0);
    expect(installed.stderr).not.toMatch(/npm (warn|WARN)/);
    const version = run(binOf(prefix), ['--version'], emptyFolder('clone-run'));
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(pkg.version);
  });
});
