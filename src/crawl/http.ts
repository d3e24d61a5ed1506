/**
 * One HTTP GET to the forum, as a browser would send it: the session's cookies, a browser-like
 * User-Agent, same-host redirects only, a timeout over the whole response (headers and body). No
 * retries here: the crawler decides what to retry.
 */
import type { FetchedPage } from '../discuz/types.js';
import { UserError } from '../cli/errors.js';
import type { CookieJar } from './session.js';

/**
 * The User-Agent bansha sends: a desktop Chromium, naming bansha. Discuz serves a reduced page (no
 * floors) to User-Agents containing bot, crawl, spider, slurp… (checkrobot), so none of those words.
 */
export const USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 bansha/0.1';

/** Discuz's checkrobot() keywords (source/function/function_core.php): a UA containing one gets a reduced page. */
export const ROBOT_WORDS = ['bot', 'crawl', 'spider', 'slurp', 'sohu-search', 'lycos', 'robozilla'];

/** The only host bansha ever talks to: the game's forum. */
export class HostScope {
  readonly origin: URL;

  constructor(forum: string) {
    this.origin = new URL(forum);
  }

  /** True when `url` is on the forum's host and port (an http→https upgrade on the same host is allowed). */
  allows(url: string): boolean {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return false;
    }
    if (u.hostname.toLowerCase() !== this.origin.hostname.toLowerCase()) return false;
    if (u.protocol === this.origin.protocol) return u.port === this.origin.port;
    return u.protocol === 'https:' && this.origin.protocol === 'http:' && u.port === '' && this.origin.port === '';
  }

  /** Throws an OutOfScopeError unless `url` is on the forum's host. */
  assert(url: string): void {
    if (!this.allows(url)) throw new OutOfScopeError(url, this.origin.host);
  }
}

/** A request (or a redirect) to a host other than the forum's was refused. */
export class OutOfScopeError extends UserError {
  constructor(readonly url: string, host: string) {
    super(`refusing to request ${new URL(url).origin}: bansha only talks to the game's forum (${host})`, 5);
    this.name = 'OutOfScopeError';
  }
}

/** A network-level failure: timeout, reset, truncated body (all worth retrying). */
export class NetworkError extends Error {
  constructor(message: string, readonly url: string) {
    super(message);
    this.name = 'NetworkError';
  }
}

/** A fetched page plus what the crawler needs beyond the parser's input. */
export interface HttpResult extends FetchedPage {
  status: number;
  /** Set-Cookie header values of the final response (already applied to the jar). */
  setCookieNames: string[];
  /** Retry-After in ms, when the server sent one. */
  retryAfterMs: number | null;
}

export interface HttpGetOptions {
  jar: CookieJar;
  scope: HostScope;
  userAgent?: string;
  /** Whole-response timeout (headers and body), ms. */
  timeoutMs: number;
  /** Injected fetch (tests); defaults to the global fetch. */
  fetchImpl?: typeof fetch;
  maxRedirects?: number;
}

function retryAfter(h: Headers): number | null {
  const v = h.get('retry-after');
  if (!v) return null;
  const s = Number(v);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : Math.max(0, t - Date.now());
}

function describe(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'timed out';
  const code = e?.cause?.code;
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET') return 'connection reset';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code) return code;
  return e?.message ?? String(err);
}

/** GET `url` from the forum; follows same-host redirects; throws NetworkError or OutOfScopeError. */
export async function httpGet(url: string, opts: HttpGetOptions): Promise<HttpResult> {
  const doFetch = opts.fetchImpl ?? fetch;
  const signal = AbortSignal.timeout(opts.timeoutMs);
  let current = url;
  for (let hop = 0; hop <= (opts.maxRedirects ?? 5); hop++) {
    opts.scope.assert(current);
    const headers: Record<string, string> = {
      'User-Agent': opts.userAgent ?? USER_AGENT,
      Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'Accept-Language': 'zh-CN,zh;q=0.9,en;q=0.5',
    };
    const cookie = opts.jar.header(current);
    if (cookie) headers.Cookie = cookie;
    let res: Response;
    let bytes: Uint8Array;
    try {
      res = await doFetch(current, { headers, redirect: 'manual', signal });
      bytes = new Uint8Array(await res.arrayBuffer());
    } catch (err) {
      if (err instanceof OutOfScopeError) throw err;
      throw new NetworkError(`${describe(err)} fetching ${current}`, current);
    }
    const setCookies = typeof res.headers.getSetCookie === 'function' ? res.headers.getSetCookie() : [];
    const setCookieNames = opts.jar.update(setCookies, current);
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      current = new URL(location, current).toString();
      continue;
    }
    return {
      bytes,
      url: current,
      fetchedAt: new Date(),
      status: res.status,
      contentType: res.headers.get('content-type') ?? undefined,
      setCookieNames,
      retryAfterMs: retryAfter(res.headers),
    };
  }
  throw new NetworkError(`too many redirects fetching ${url}`, url);
}
