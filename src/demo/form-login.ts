/**
 * Logging in to the demo's local replay forum without a browser: one POST of Discuz's login form
 * (member.php?mod=logging&action=login&loginsubmit=yes), the session cookies it sets saved as the
 * Playwright storage state the crawler reads (owner-only, like `bansha login` saves it). For the demo
 * and the end-to-end tests when Chromium is not wanted; a real forum gets `bansha login` (Chromium).
 */
import { USER_AGENT } from '../crawl/http.js';
import { saveSession, type StorageState } from '../crawl/session.js';
import { UserError } from '../errors.js';
import { t } from '../i18n/index.js';

/** An account on the replay server. */
export interface FormLoginUser {
  username: string;
  password: string;
}

/** Posts the login form and saves the session at `sessionPath`. Throws a UserError (exit 4) when refused. */
export async function formLogin(forum: string, sessionPath: string, user: FormLoginUser): Promise<void> {
  const url = new URL('member.php?mod=logging&action=login&loginsubmit=yes', forum);
  const res = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': USER_AGENT },
    body: new URLSearchParams({ username: user.username, password: user.password, loginfield: 'username', questionid: '0', answer: '' }).toString(),
  });
  await res.arrayBuffer();
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]).filter((c) => c.includes('='));
  if (res.status !== 302 || cookies.length === 0) throw new UserError(t('demo.loginRefused', res.status), 4);
  const state: StorageState = {
    cookies: cookies.map((c) => {
      const i = c.indexOf('=');
      return { name: c.slice(0, i), value: c.slice(i + 1), domain: url.hostname, path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' as const };
    }),
    origins: [],
  };
  await saveSession(sessionPath, state);
}
