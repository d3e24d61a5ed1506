/**
 * The browser bansha drives (`login`, `init --login`, `--post`), kept on the forum's host: system
 * Chromium whose every request goes through the forum-only proxy (forum-proxy.ts) — redirect hops
 * included, which route interception does not see — plus route interception that aborts off-host
 * requests before they are sent (so they are listed), service workers blocked, and a watch on
 * main-frame navigations: one that leaves the forum's host is an OutOfScopeError (exit 5) at the next
 * `assertOnHost()`. Plain reads the code makes itself (the login probe, reading a thread back) go
 * through `get()`: bansha's own HTTP client with the browser's cookies, which checks every hop too.
 */
import type { Browser, BrowserContext, BrowserContextOptions, LaunchOptions } from 'playwright-core';
import { UserError } from '../errors.js';
import { findBrowser } from '../browser/discover.js';
import { t } from '../i18n/index.js';
import { HostScope, OutOfScopeError, USER_AGENT, httpGet, type HttpResult } from './http.js';
import { startForumProxy, type ForumProxy } from './forum-proxy.js';
import { CookieJar, redact, type StoredCookie } from './session.js';

export { redact } from './session.js';

/** Chromium flags that keep the system browser quiet and container-friendly. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The browser to drive: explicit path, else BANSHA_CHROMIUM, else the installed Chromium/Chrome/Edge (src/browser/discover.ts). */
export function chromiumPath(explicit?: string): string {
  return findBrowser(explicit).path;
}

/**
 * Launch the system Chromium at `exe` with CHROMIUM_ARGS; a browser that will not start is a UserError
 * (exit 2) saying how to point bansha at one, with `secrets` redacted from the browser's message.
 */
export async function launchChromium(exe: string, headless: boolean, secrets: Array<string | undefined>, extra: LaunchOptions = {}): Promise<Browser> {
  try {
    // Loaded here, not at the top: playwright-core alone costs ~1 s and 130 MB, and only browser paths need it.
    const { chromium } = await import('playwright-core');
    return await chromium.launch({ ...extra, executablePath: exe, headless, args: CHROMIUM_ARGS });
  } catch (err) {
    throw new UserError(
      t('browser.cannotStart', exe, redact((err as Error).message.split('\n')[0], secrets)),
      2,
    );
  }
}



/** An open, host-confined browser. */
export interface ForumBrowser {
  browser: Browser;
  context: BrowserContext;
  /** Every URL the browser asked for (route hits), in order. */
  requested: string[];
  /** Off-host URLs the pages asked for, refused unsent: by route interception, or (redirect hops) by the proxy. */
  blocked: string[];
  /** Everything the proxy refused: those hops, and Chromium's own background calls (updates, sign-in). */
  refusedByProxy: string[];
  /** Throws an OutOfScopeError when a page was sent (navigated or redirected) off the forum's host. */
  assertOnHost(): void;
  /** GET `url` from the forum with the browser's current cookies (same-host redirects only). */
  get(url: string, timeoutMs?: number): Promise<HttpResult>;
  close(): Promise<void>;
}

export interface ForumBrowserOptions {
  forum: string;
  /** Chromium executable. */
  exe: string;
  headless: boolean;
  /** Redacted from a launch failure's message. */
  secrets: Array<string | undefined>;
  storageState?: BrowserContextOptions['storageState'];
}

/** Launch Chromium confined to `opts.forum`'s host. Close it with `close()` (the proxy stops with it). */
export async function openForumBrowser(opts: ForumBrowserOptions): Promise<ForumBrowser> {
  const scope = new HostScope(opts.forum);
  const proxy: ForumProxy = await startForumProxy(scope);
  let browser: Browser;
  try {
    // `<-loopback>`: Chromium sends loopback addresses past a proxy unless told not to.
    browser = await launchChromium(opts.exe, opts.headless, opts.secrets, { proxy: { server: proxy.server, bypass: '<-loopback>' } });
  } catch (err) {
    await proxy.close();
    throw err;
  }
  const requested: string[] = [];
  const routeBlocked: string[] = [];
  const offHostNavigations: string[] = [];
  const context = await browser.newContext({ userAgent: USER_AGENT, locale: 'zh-CN', serviceWorkers: 'block', storageState: opts.storageState });
  await context.route('**/*', (route) => {
    const url = route.request().url();
    requested.push(url);
    if (scope.allows(url)) return route.continue();
    routeBlocked.push(url);
    return route.abort('blockedbyclient');
  });
  const hopsBlocked: string[] = [];
  context.on('request', (req) => {
    if (scope.allows(req.url())) return;
    if (req.redirectedFrom()) hopsBlocked.push(req.url()); // the proxy refuses it: route interception never saw it
    if (!req.isNavigationRequest()) return;
    let main = false;
    try {
      main = req.frame().parentFrame() === null;
    } catch {
      // a request without a frame (service worker) is no page navigation
    }
    if (main) offHostNavigations.push(req.url());
  });
  return {
    browser,
    context,
    requested,
    get blocked() {
      return [...routeBlocked, ...hopsBlocked];
    },
    refusedByProxy: proxy.refused,
    assertOnHost() {
      if (offHostNavigations.length) throw new OutOfScopeError(offHostNavigations[0], scope.origin.host);
    },
    async get(url, timeoutMs = 15_000) {
      const jar = new CookieJar((await context.cookies(opts.forum)) as StoredCookie[]);
      return httpGet(url, { jar, scope, timeoutMs, userAgent: USER_AGENT });
    },
    async close() {
      await browser.close().catch(() => undefined);
      await proxy.close();
    },
  };
}
