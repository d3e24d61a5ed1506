/**
 * The login session: the Playwright storage state `bansha login` saves, and the cookie jar the crawler
 * builds from it for plain HTTP. The file holds live credentials (the Discuz auth cookie), so it is
 * written owner-only (0600), by way of a temporary file inside a private (0700) folder that is removed
 * on every exit path (errors, SIGINT/SIGTERM/SIGHUP, exit; after a SIGKILL, by the next save), and
 * refused when anyone else can read it. Cookie values never leave this module except in a Cookie
 * request header: the jar prints as names only, and a value that could not be sent in a header (a line
 * break, a control character) is refused when the session is read, naming the cookie but never its value.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { inspect } from 'node:util';
import { UserError } from '../errors.js';
import { atFile } from '../file-fault.js';
import { t } from '../i18n/index.js';
import { renameOverAsync } from '../replace-file.js';

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

/** `text` with every secret replaced by ***: for anything derived from an error that may quote one. */
export function redact(text: string, secrets: Array<string | undefined>): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 3) out = out.split(s).join('***');
  return out;
}

/** The hint every "log in" message ends with. */
export function loginHint(gameFile?: string): string {
  return t('session.hint', gameFile ?? '<game.yaml>');
}

/** Throws unless only the owner can read/write the file (POSIX). */
export function assertOwnerOnly(file: string, mode: number): void {
  if (process.platform === 'win32') return;
  if ((mode & 0o077) !== 0) {
    throw new UserError(t('session.notOwnerOnly', file, (mode & 0o777).toString(8)), 4);
  }
}

/** Read a saved session; refuses a missing, malformed or group/other-readable file (exit code 4). */
export async function readSession(file: string, gameFile?: string): Promise<StorageState> {
  await removeStaleTemps(file); // credentials a killed save left behind
  let st: fs.Stats;
  try {
    st = await fsp.stat(file);
  } catch {
    throw new UserError(t('session.missing', file, loginHint(gameFile)), 4);
  }
  assertOwnerOnly(file, st.mode);
  let s: Partial<StorageState> | null = null;
  try {
    s = JSON.parse(await fsp.readFile(file, 'utf8')) as Partial<StorageState> | null;
  } catch {
    // Unreadable or not JSON: refused below. Never echo the content: it is a credential.
  }
  if (!s || !Array.isArray(s.cookies)) {
    throw new UserError(t('session.invalid', file, loginHint(gameFile)), 4);
  }
  s.cookies.forEach((c, i) => {
    const bad = cookieProblem(c);
    if (bad) throw new UserError(t('session.badCookie', file, bad(i), loginHint(gameFile)), 4);
  });
  return { cookies: s.cookies, origins: Array.isArray(s.origins) ? s.origins : [] };
}

/** Characters no cookie name or value may hold in a Cookie header: controls (line breaks included) and ";". */
// eslint-disable-next-line no-control-regex
const NOT_IN_HEADER = /[\u0000-\u001f\u007f;]/;
/** What a cookie name may not hold besides: white space and "=". */
// eslint-disable-next-line no-control-regex
const NOT_IN_NAME = /[\u0000-\u0020\u007f;=]/;

/** What is wrong with a stored cookie (a phrase, given its index), or null. Never quotes the value. */
function cookieProblem(c: unknown): ((i: number) => string) | null {
  const k = c as Partial<StoredCookie> | null;
  if (!k || typeof k.name !== 'string' || typeof k.value !== 'string' || typeof k.domain !== 'string') return (i) => t('session.notCookie', i + 1);
  if (!k.name || NOT_IN_NAME.test(k.name)) return (i) => t('session.badCookieName', i + 1);
  if (NOT_IN_HEADER.test(k.value)) return () => t('session.badCookieValue', k.name!);
  return null;
}

/** The private folders a save of `file` writes in: `.NAME.tmp-PID-XXXXXX` beside it. */
const tempPrefix = (file: string) => `.${path.basename(file)}.tmp-`;

/** Remove the temporary folders of saves of `file` whose process is gone (killed mid-save, SIGKILL included). */
export async function removeStaleTemps(file: string): Promise<void> {
  const dir = path.dirname(file);
  const prefix = tempPrefix(file);
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(/^(\d+)-/.exec(name.slice(prefix.length))?.[1]);
    if (pid === process.pid || (Number.isInteger(pid) && pid > 0 && processAlive(pid))) continue;
    await fsp.rm(path.join(dir, name), { recursive: true, force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Write a session owner-only (0600), atomically: into a private (0700) temporary folder beside it, then
 * renamed into place. The temporary folder is removed however the save ends — an error, a signal (the
 * default action then proceeds unless someone else handles the signal), process.exit — and leftovers of
 * a killed earlier save are removed first. The session's folder is created owner-only (0700) if missing.
 */
export async function saveSession(file: string, state: StorageState): Promise<void> {
  const dir = path.dirname(file);
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  await removeStaleTemps(file);
  // The name is chosen and the handlers installed before the folder exists, and the folder is made
  // synchronously: a signal either lands before it exists or finds a handler that knows its name.
  const tmpDir = path.join(dir, `${tempPrefix(file)}${process.pid}-${randomBytes(6).toString('hex')}`);
  const cleanup = () => fs.rmSync(tmpDir, { recursive: true, force: true });
  const onSignal = (signal: NodeJS.Signals) => {
    cleanup();
    release();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal); // nobody else handles it: die as asked
  };
  const release = () => {
    for (const sig of SIGNALS) process.off(sig, onSignal);
    process.off('exit', cleanup);
  };
  for (const sig of SIGNALS) process.on(sig, onSignal);
  process.on('exit', cleanup);
  try {
    fs.mkdirSync(tmpDir, { mode: 0o700 });
    const tmp = path.join(tmpDir, 'session.json');
    const h = await fsp.open(tmp, 'wx', 0o600);
    try {
      await h.writeFile(JSON.stringify(state), 'utf8');
      await h.sync();
    } finally {
      await h.close();
    }
    await renameOverAsync(tmp, file);
    await fsp.chmod(file, 0o600);
  } catch (e) {
    throw atFile(e, file);
  } finally {
    cleanup();
    release();
  }
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
