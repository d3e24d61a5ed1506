/**
 * Which browser bansha drives (login, --post, the demo): the one the director names — `--browser`,
 * the game file's `browser:`, or BANSHA_CHROMIUM — else the first installed of Chromium, Google Chrome
 * and Microsoft Edge at the places their installers put them on this system (the same places
 * Playwright's `chrome`/`msedge` channels look), then on PATH. None found: an error listing every
 * place tried and how to install one. Pure over its inputs (platform, environment, a file check), so
 * the tests run it with stand-in paths for all three systems.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.js';
import { t } from '../i18n/index.js';

export type BrowserName = 'Chromium' | 'Google Chrome' | 'Microsoft Edge';

/** A place a browser may be. */
export interface BrowserCandidate {
  browser: BrowserName;
  path: string;
}

/** What discovery looks at (defaults: this process's platform and environment, the real file system). */
export interface DiscoveryContext {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  /** Whether `file` is an executable file. */
  isExecutable?: (file: string) => boolean;
}

/** The browser found, and where the choice came from. */
export interface FoundBrowser {
  path: string;
  source: 'explicit' | 'env' | 'installed';
  browser?: BrowserName;
}

/** Executable names on PATH, in order of preference. */
const PATH_NAMES: Record<'posix' | 'win32', Array<[BrowserName, string]>> = {
  posix: [['Chromium', 'chromium'], ['Chromium', 'chromium-browser'], ['Google Chrome', 'google-chrome'], ['Google Chrome', 'google-chrome-stable'], ['Microsoft Edge', 'microsoft-edge'], ['Microsoft Edge', 'microsoft-edge-stable']],
  win32: [['Google Chrome', 'chrome.exe'], ['Microsoft Edge', 'msedge.exe']],
};

/** Where the installers put each browser, per system, in order of preference. */
export function installedCandidates(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): BrowserCandidate[] {
  if (platform === 'win32') {
    const roots = [env.LOCALAPPDATA, env.PROGRAMFILES ?? 'C:\\Program Files', env['PROGRAMFILES(X86)'] ?? 'C:\\Program Files (x86)'].filter((r): r is string => Boolean(r));
    const at = (browser: BrowserName, ...rel: string[]) => roots.map((r) => ({ browser, path: path.win32.join(r, ...rel) }));
    return [
      ...at('Chromium', 'Chromium', 'Application', 'chrome.exe'),
      ...at('Google Chrome', 'Google', 'Chrome', 'Application', 'chrome.exe'),
      ...at('Microsoft Edge', 'Microsoft', 'Edge', 'Application', 'msedge.exe'),
    ];
  }
  if (platform === 'darwin') {
    const apps = ['/Applications', ...(env.HOME ? [path.posix.join(env.HOME, 'Applications')] : [])];
    const app = (browser: BrowserName, bundle: string, exe: string) => apps.map((a) => ({ browser, path: path.posix.join(a, `${bundle}.app`, 'Contents', 'MacOS', exe) }));
    return [
      ...app('Chromium', 'Chromium', 'Chromium'),
      ...app('Google Chrome', 'Google Chrome', 'Google Chrome'),
      ...app('Microsoft Edge', 'Microsoft Edge', 'Microsoft Edge'),
    ];
  }
  return [
    { browser: 'Chromium', path: '/usr/bin/chromium' },
    { browser: 'Chromium', path: '/usr/bin/chromium-browser' },
    { browser: 'Chromium', path: '/snap/bin/chromium' },
    { browser: 'Google Chrome', path: '/opt/google/chrome/chrome' },
    { browser: 'Google Chrome', path: '/usr/bin/google-chrome' },
    { browser: 'Google Chrome', path: '/usr/bin/google-chrome-stable' },
    { browser: 'Microsoft Edge', path: '/opt/microsoft/msedge/msedge' },
    { browser: 'Microsoft Edge', path: '/usr/bin/microsoft-edge' },
    { browser: 'Microsoft Edge', path: '/usr/bin/microsoft-edge-stable' },
  ];
}

/** The browsers' executables on PATH (after the install locations). */
export function pathCandidates(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): BrowserCandidate[] {
  const win = platform === 'win32';
  const dirs = (env.PATH ?? env.Path ?? '').split(win ? ';' : ':').filter(Boolean);
  const join = win ? path.win32.join : path.posix.join;
  return PATH_NAMES[win ? 'win32' : 'posix'].flatMap(([browser, name]) => dirs.map((d) => ({ browser, path: join(d, name) })));
}

function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, process.platform === 'win32' ? fs.constants.F_OK : fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first installed browser, or null (with the places tried). */
export function discoverBrowser(ctx: DiscoveryContext = {}): { found: FoundBrowser | null; tried: string[] } {
  const platform = ctx.platform ?? process.platform;
  const env = ctx.env ?? process.env;
  const ok = ctx.isExecutable ?? isExecutableFile;
  const tried: string[] = [];
  for (const c of [...installedCandidates(platform, env), ...pathCandidates(platform, env)]) {
    if (tried.includes(c.path)) continue;
    tried.push(c.path);
    if (ok(c.path)) return { found: { path: c.path, source: 'installed', browser: c.browser }, tried };
  }
  return { found: null, tried };
}

/**
 * The browser to drive: `explicit` (--browser or the game file's `browser:`), else BANSHA_CHROMIUM,
 * else the first installed one. A named browser that is not there is an error rather than a silent
 * fallback to another (exit 2), and so is finding none: both say what was tried and what to do.
 */
export function findBrowser(explicit: string | undefined, ctx: DiscoveryContext = {}): FoundBrowser {
  const env = ctx.env ?? process.env;
  const ok = ctx.isExecutable ?? isExecutableFile;
  const named = explicit ? { path: explicit, source: 'explicit' as const } : env.BANSHA_CHROMIUM ? { path: env.BANSHA_CHROMIUM, source: 'env' as const } : null;
  if (named) {
    if (!ok(named.path)) throw new UserError(t(named.source === 'env' ? 'browser.envMissing' : 'browser.namedMissing', named.path), 2);
    return named;
  }
  const { found, tried } = discoverBrowser(ctx);
  if (found) return found;
  const platform = ctx.platform ?? process.platform;
  throw new UserError(t('browser.none', tried.map((p) => `  ${p}`).join('\n'), t(platform === 'win32' ? 'browser.install.win32' : platform === 'darwin' ? 'browser.install.darwin' : 'browser.install.linux')), 2);
}

/** Whether findBrowser would give a browser (the demo logs in over plain HTTP when not). */
export function hasBrowser(explicit: string | undefined, ctx: DiscoveryContext = {}): boolean {
  try {
    findBrowser(explicit, ctx);
    return true;
  } catch (err) {
    if (err instanceof UserError) return false;
    throw err;
  }
}
