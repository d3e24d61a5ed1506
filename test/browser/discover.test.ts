/**
 * Browser discovery on the three systems, with stand-in paths: the order (the director's choice, then
 * Chromium, Chrome, Edge where their installers put them, then PATH), a named browser that is missing,
 * and the error when none is found (every place tried, how to install one). Then the real file system:
 * a stand-in executable on PATH is found, a non-executable file is not, and on this machine the real
 * Chromium is found and starts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { discoverBrowser, findBrowser, installedCandidates } from '../../src/browser/discover.js';
import { launchChromium } from '../../src/crawl/login.js';
import { UserError } from '../../src/errors.js';
import { setLanguage } from '../../src/i18n/index.js';

const TMP = path.resolve(import.meta.dirname, '../.tmp/browser');

/** A context where exactly `present` exist. */
const only = (platform: NodeJS.Platform, env: NodeJS.ProcessEnv, present: string[]) => ({ platform, env, isExecutable: (f: string) => present.includes(f) });

const WIN_ENV = { LOCALAPPDATA: 'C:\\Users\\导演\\AppData\\Local', PROGRAMFILES: 'C:\\Program Files', 'PROGRAMFILES(X86)': 'C:\\Program Files (x86)', PATH: 'C:\\Windows\\system32' };
const EDGE_WIN = 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe';
const CHROME_WIN_USER = 'C:\\Users\\导演\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe';
const CHROME_MAC = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
const EDGE_MAC = '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge';

describe('where each system keeps its browsers', () => {
  test('Windows: Edge where Windows installs it; a per-user Chrome is preferred to Edge', () => {
    expect(findBrowser(undefined, only('win32', WIN_ENV, [EDGE_WIN]))).toEqual({ path: EDGE_WIN, source: 'installed', browser: 'Microsoft Edge' });
    expect(findBrowser(undefined, only('win32', WIN_ENV, [EDGE_WIN, CHROME_WIN_USER])).path).toBe(CHROME_WIN_USER);
  });
  test('macOS: the app bundles in /Applications and ~/Applications', () => {
    expect(findBrowser(undefined, only('darwin', { HOME: '/Users/dy' }, [EDGE_MAC])).browser).toBe('Microsoft Edge');
    expect(findBrowser(undefined, only('darwin', { HOME: '/Users/dy' }, [EDGE_MAC, CHROME_MAC])).path).toBe(CHROME_MAC);
    const mine = '/Users/dy/Applications/Chromium.app/Contents/MacOS/Chromium';
    expect(findBrowser(undefined, only('darwin', { HOME: '/Users/dy' }, [mine, CHROME_MAC])).path).toBe(mine);
  });
  test('Linux: Chromium, then Chrome, then Edge; then PATH', () => {
    expect(findBrowser(undefined, only('linux', {}, ['/opt/google/chrome/chrome', '/usr/bin/microsoft-edge'])).path).toBe('/opt/google/chrome/chrome');
    expect(findBrowser(undefined, only('linux', {}, ['/usr/bin/microsoft-edge'])).browser).toBe('Microsoft Edge');
    expect(findBrowser(undefined, only('linux', { PATH: '/home/dy/bin:/usr/local/bin' }, ['/usr/local/bin/chromium'])).path).toBe('/usr/local/bin/chromium');
  });
  test('every system lists all three browsers', () => {
    for (const p of ['linux', 'darwin', 'win32'] as const) {
      expect(new Set(installedCandidates(p, p === 'win32' ? WIN_ENV : { HOME: '/Users/dy' }).map((c) => c.browser))).toEqual(new Set(['Chromium', 'Google Chrome', 'Microsoft Edge']));
    }
  });
});

describe('the director\'s choice comes first', () => {
  test('--browser / browser: and then BANSHA_CHROMIUM win over what is installed', () => {
    const ctx = only('linux', { BANSHA_CHROMIUM: '/srv/chrome' }, ['/srv/chrome', '/opt/my/chromium', '/usr/bin/chromium']);
    expect(findBrowser('/opt/my/chromium', ctx)).toEqual({ path: '/opt/my/chromium', source: 'explicit' });
    expect(findBrowser(undefined, ctx)).toEqual({ path: '/srv/chrome', source: 'env' });
  });
  test('a named browser that is not there is an error, not another browser', () => {
    setLanguage('zh');
    const ctx = only('linux', { BANSHA_CHROMIUM: '/nope' }, ['/usr/bin/chromium']);
    expect(() => findBrowser('/missing/chrome', ctx)).toThrow(/找不到浏览器 \/missing\/chrome（来自 --browser/);
    expect(() => findBrowser(undefined, ctx)).toThrow(/找不到浏览器 \/nope（来自环境变量 BANSHA_CHROMIUM）/);
  });
});

describe('none found', () => {
  test.each([
    ['linux', {}, '/usr/bin/chromium', 'apt-get install chromium'],
    ['darwin', { HOME: '/Users/dy' }, CHROME_MAC, 'https://www.google.com/chrome/'],
    ['win32', WIN_ENV, EDGE_WIN, 'Microsoft Edge'],
  ] as const)('%s: every place tried and how to install one (exit 2)', (platform, env, somewhere, install) => {
    setLanguage('zh');
    let err: unknown;
    try {
      findBrowser(undefined, only(platform, env, []));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).exitCode).toBe(2);
    const msg = (err as Error).message;
    expect(msg).toContain('找不到可用的浏览器');
    expect(msg).toContain(`  ${somewhere}\n`);
    expect(msg).toContain(install);
    expect(msg).toContain('BANSHA_CHROMIUM');
    expect(discoverBrowser(only(platform, env, [])).tried.length).toBeGreaterThan(5);
  });
});

describe('on the real file system', () => {
  test('an executable on PATH is found; a file that is not executable is not', () => {
    fs.rmSync(TMP, { recursive: true, force: true });
    const bin = path.join(TMP, 'bin');
    fs.mkdirSync(bin, { recursive: true });
    fs.writeFileSync(path.join(bin, 'google-chrome'), '#!/bin/sh\n', { mode: 0o644 });
    const env = { PATH: bin };
    const ctx = { platform: 'linux' as const, env };
    const before = discoverBrowser(ctx).found;
    if (before && !before.path.startsWith(bin)) return; // a real browser at a standard place is found first: covered below
    expect(before).toBeNull();
    fs.chmodSync(path.join(bin, 'google-chrome'), 0o755);
    expect(findBrowser(undefined, ctx)).toMatchObject({ path: path.join(bin, 'google-chrome'), browser: 'Google Chrome' });
  });

  test.skipIf(process.platform !== 'linux' || !fs.existsSync('/usr/bin/chromium'))('this machine: the system Chromium is found and starts', async () => {
    const found = findBrowser(undefined, { env: { PATH: '' } });
    expect(found.source).toBe('installed');
    const browser = await launchChromium(found.path, true, []);
    try {
      expect(browser.version()).toMatch(/^\d+\./);
    } finally {
      await browser.close();
    }
  });
});
