/**
 * `bansha login`: log in to the forum in real Chromium (playwright-core driving the system browser)
 * and save the session (Playwright storage state) owner-only for the crawler's plain HTTP requests.
 *
 * Headless with a username and password (BANSHA_USERNAME / BANSHA_PASSWORD), or headed so a person
 * can type them and pass a captcha. It fills `form[name="login"]` (username, password), clicks
 * `loginsubmit` and checks the forum now says `discuz_uid = 'N'` with N ≠ 0. Neither the password nor
 * any cookie value is ever printed, not even inside an error message.
 */
import { UserError } from '../errors.js';
import { t } from '../i18n/index.js';
import { chromiumPath, openForumBrowser, redact, type ForumBrowser } from './forum-browser.js';
import { saveSession, type StorageState } from './session.js';

export { CHROMIUM_ARGS, chromiumPath, launchChromium, redact } from './forum-browser.js';

export interface LoginOptions {
  /** Forum root URL (ending in "/"). */
  forum: string;
  /** Where to save the session (mode 0600). */
  sessionPath: string;
  /** Chromium executable: this, else env BANSHA_CHROMIUM, else /usr/bin/chromium. */
  browserPath?: string;
  /** Credentials for a headless login; without both, the browser opens headed for a person. */
  username?: string;
  password?: string;
  /** Force headless (fails without credentials) or headed. Default: headless iff credentials given. */
  headless?: boolean;
  /** How long to wait for the login to succeed, ms. Default 20 s headless, 5 min headed. */
  timeoutMs?: number;
  /** Progress notes (never secrets). */
  log?: (line: string) => void;
  /** For the hint in messages. */
  gameFile?: string;
}

export interface LoginResult {
  /** The forum uid the session belongs to. */
  uid: number;
  sessionPath: string;
  /** Names of the cookies saved (never values). */
  cookieNames: string[];
}

const UID = /discuz_uid\s*=\s*'(\d+)'/;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Log in and save the session; returns the uid. Throws a UserError (exit 4) on failure. */
export async function login(opts: LoginOptions): Promise<LoginResult> {
  const headless = opts.headless ?? Boolean(opts.username && opts.password);
  if (headless && !(opts.username && opts.password)) {
    throw new UserError(t('login.needsCredentials'), 2);
  }
  const log = opts.log ?? (() => undefined);
  const timeoutMs = opts.timeoutMs ?? (headless ? 20_000 : 300_000);
  const exe = chromiumPath(opts.browserPath);
  const secrets = [opts.password];
  const loginUrl = new URL('member.php?mod=logging&action=login', opts.forum).toString();
  const probeUrl = new URL('forum.php', opts.forum).toString();
  const forumHost = new URL(opts.forum).host;

  let fb: ForumBrowser | null = null;
  try {
    fb = await openForumBrowser({ forum: opts.forum, exe, headless, secrets });
    const { context } = fb;
    const page = await context.newPage();
    log(t('login.opening', loginUrl));
    await page.goto(loginUrl, { timeout: timeoutMs });
    fb.assertOnHost();
    const form = page.locator('form[name="login"]').first();
    if (opts.username) await form.locator('input[name="username"]').first().fill(opts.username);
    if (opts.password) await form.locator('input[name="password"]').first().fill(opts.password);
    if (headless) {
      await form.locator('[name="loginsubmit"]').first().click();
    } else {
      log(t('login.inWindow'));
    }

    // Poll the forum (with the context's cookies, through bansha's own host-checked client) until it names a logged-in uid.
    const deadline = Date.now() + timeoutMs;
    let uid = 0;
    while (Date.now() < deadline) {
      await sleep(headless ? 500 : 1000);
      fb.assertOnHost();
      const cookies = await context.cookies(opts.forum);
      if (cookies.length === 0) continue;
      try {
        const res = await fb.get(probeUrl, Math.min(15_000, timeoutMs));
        const m = UID.exec(Buffer.from(res.bytes).toString('latin1'));
        if (m && m[1] !== '0') {
          uid = Number(m[1]);
          break;
        }
      } catch (err) {
        if (err instanceof UserError) throw err; // off-host redirect, oversized answer: a refusal
        // The forum may be mid-redirect; try again until the deadline.
      }
    }
    fb.assertOnHost();
    if (!uid) {
      throw new UserError(t('login.stillGuest', forumHost), 4);
    }
    const state = (await context.storageState()) as StorageState;
    // Keep only the forum's cookies: nothing from other sites goes into the session file.
    const host = new URL(opts.forum).hostname;
    state.cookies = state.cookies.filter((c) => c.domain.replace(/^\./, '') === host || host.endsWith(c.domain));
    state.origins = state.origins.filter((o) => new URL(o.origin).hostname === host);
    await saveSession(opts.sessionPath, state);
    log(t('login.progress', uid, opts.sessionPath));
    return { uid, sessionPath: opts.sessionPath, cookieNames: state.cookies.map((c) => c.name) };
  } catch (err) {
    if (err instanceof UserError) throw err;
    fb?.assertOnHost(); // a browser error after a page was sent off the host: say that, not the symptom
    // Browser errors can echo typed values: redact, and keep only the first line.
    throw new UserError(t('login.failed', redact(String((err as Error).message ?? err).split('\n')[0], secrets)), 4);
  } finally {
    await fb?.close();
  }
}
