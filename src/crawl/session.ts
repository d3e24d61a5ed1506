/**
 * The login session: the Playwright storage state `bansha login` saves, and the cookie jar the crawler
 * builds from it for plain HTTP. The file holds live credentials (the Discuz auth cookie), so it is
 * written owner-only (0600) and refused when anyone else can read it. Cookie values never leave this
 * module except in a Cookie request header: the jar prints as names only.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { inspect } from 'node:util';
import { UserError } from '../cli/errors.js';

/** A cookie as Playwright's storageState() writes it. */
export interface StoredCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  /** Unix seconds; -1 for a session cookie. */
  expires: number;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
}

/** Playwright's storage state file. */
export interface StorageState {
  cookies: StoredCookie[];
  origins: Array<{ origin: string; localStorage: Array<{ name: string; value: string }> }>;
}

/** The hint every "log in" message ends with. */
export function loginHint(gameFile?: string): string {
  return `log in again: bansha login --game ${gameFile ?? '<game.yaml>'}`;
}

/** Throws unless only the owner can read/write the file (POSIX). */
export function assertOwnerOnly(file: string, mode: number): void {
  if (process.platform === 'win32') return;
  if ((mode & 0o077) !== 0) {
    throw new UserError(
      `refusing to use the login session ${file}: other users can access it (mode ${(mode & 0o777).toString(8)}); ` +
        `run chmod 600 ${file}, or delete it and log in again`,
      4,
    );
  }
}

/** Read a saved session; refuses a missing, malformed or group/other-readable file (exit code 4). */
export async function readSession(file: string, gameFile?: string): Promise<StorageState> {
  let st: fs.Stats;
  try {
    st = await fsp.stat(file);
  } catch {
    throw new UserError(`no login session at ${file}; ${loginHint(gameFile)}`, 4);
  }
  assertOwnerOnly(file, st.mode);
  let s: Partial<StorageState> | null = null;
  try {
    s = JSON.parse(await fsp.readFile(file, 'utf8')) as Partial<StorageState> | null;
  } catch {
    // Unreadable or not JSON: refused below. Never echo the content: it is a credential.
  }
  if (!s || !Array.isArray(s.cookies)) {
    throw new UserError(`the login session ${file} is not a valid session file; ${loginHint(gameFile)}`, 4);
  }
  return { cookies: s.cookies, origins: Array.isArray(s.origins) ? s.origins : [] };
}

/** Write a session owner-only (0600), atomically; the directory is created owner-only if missing. */
export async function saveSession(file: string, state: StorageState): Promise<void> {
  const dir = path.dirname(file);
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.tmp`);
  await fsp.rm(tmp, { force: true });
  const h = await fsp.open(tmp, 'wx', 0o600);
  try {
    await h.writeFile(JSON.stringify(state), 'utf8');
    await h.sync();
  } finally {
    await h.close();
  }
  await fsp.chmod(tmp, 0o600);
  await fsp.rename(tmp, file);
  await fsp.chmod(file, 0o600);
}

function domainMatches(host: string, cookie: StoredCookie): boolean {
  const d = cookie.domain.toLowerCase();
  if (d.startsWith('.')) return host === d.slice(1) || host.endsWith(d);
  return host === d;
}

function pathMatches(reqPath: string, cookiePath: string): boolean {
  if (!cookiePath || cookiePath === '/') return true;
  return reqPath === cookiePath || reqPath.startsWith(cookiePath.endsWith('/') ? cookiePath : cookiePath + '/');
}

/**
 * In-memory cookies for requests to the forum: seeded from the storage state, updated from Set-Cookie
 * (the anti-CC `<prefix>_lastrequest`, Discuz's `lastact`/`sid`). Not persisted.
 */
export class CookieJar {
  #cookies: StoredCookie[] = [];

  constructor(cookies: StoredCookie[] = []) {
    for (const c of cookies) this.#put({ ...c });
  }

  /** Cookie names only: safe to log. */
  names(): string[] {
    return this.#cookies.map((c) => c.name);
  }

  #put(c: StoredCookie): void {
    this.#cookies = this.#cookies.filter((o) => !(o.name === c.name && o.domain === c.domain && o.path === c.path));
    this.#cookies.push(c);
  }

  /** The Cookie header for a request to `url` ('' when none apply). */
  header(url: string): string {
    const u = new URL(url);
    const host = u.hostname.toLowerCase();
    const now = Date.now() / 1000;
    return this.#cookies
      .filter((c) => domainMatches(host, c) && pathMatches(u.pathname, c.path) && (!c.secure || u.protocol === 'https:'))
      .filter((c) => c.expires === -1 || c.expires === undefined || c.expires > now)
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  /** Apply Set-Cookie headers received from `url`. Returns the names set. */
  update(setCookies: string[], url: string): string[] {
    const u = new URL(url);
    const names: string[] = [];
    for (const line of setCookies) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const c: StoredCookie = { name, value, domain: u.hostname, path: '/', expires: -1 };
      for (const a of attrs) {
        const [k, ...v] = a.split('=');
        const key = k.trim().toLowerCase();
        const val = v.join('=').trim();
        if (key === 'path' && val) c.path = val;
        else if (key === 'domain' && val) c.domain = val.startsWith('.') ? val : `.${val}`;
        else if (key === 'expires') {
          const t = Date.parse(val);
          if (!Number.isNaN(t)) c.expires = t / 1000;
        } else if (key === 'max-age') c.expires = Date.now() / 1000 + Number(val);
        else if (key === 'secure') c.secure = true;
        else if (key === 'httponly') c.httpOnly = true;
      }
      this.#put(c);
      names.push(name);
    }
    return names;
  }

  /** Never print values, whatever logs this object. */
  [inspect.custom](): string {
    return `CookieJar(${this.names().join(', ')})`;
  }

  toJSON(): { cookies: string[] } {
    return { cookies: this.names() };
  }
}
