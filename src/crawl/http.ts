/**
 * One HTTP GET to the forum, as a browser would send it: the session's cookies, a browser-like
 * User-Agent, same-host redirects only, a timeout over the whole response (headers and body) and a cap
 * on its size. No retries here: the crawler decides what to retry.
 */
import type { FetchedPage } from '../discuz/types.js';
import { UserError } from '../errors.js';
import { redact, type CookieJar } from './session.js';
import { t } from '../i18n/index.js';

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
    super(t('crawl.offHost', new URL(url).origin, host), 5);
    this.name = 'OutOfScopeError';
  }
}

/**
 * A network-level failure: timeout, reset, truncated body (all worth retrying). `address`: the forum's
 * address itself looks wrong (nothing listening there, a name that does not resolve) — retried all the
 * same (a forum restarting refuses for a moment), but the advice is to check `forum:` in the game file.
 */
export class NetworkError extends Error {
  constructor(message: string, readonly url: string, readonly address = false) {
    super(message);
    this.name = 'NetworkError';
  }
}

/** fetch's error codes that say the address is wrong rather than the forum busy. */
const ADDRESS_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

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
  /** Largest body accepted, bytes (after decompression). Default DEFAULT_MAX_RESPONSE_BYTES. */
  maxBytes?: number;
}

/** 20 MiB: a Discuz thread page is well under 1 MiB; a body beyond this is refused, never buffered whole. */
export const DEFAULT_MAX_RESPONSE_BYTES = 20 * 1024 * 1024;

/** A response larger than the cap: refused unread (exit 3), the cap named with the option that raises it. */
export class ResponseTooLargeError extends UserError {
  constructor(readonly url: string, readonly maxBytes: number) {
    super(t('crawl.tooLarge', url, formatMiB(maxBytes)), 3);
    this.name = 'ResponseTooLargeError';
  }
}

function formatMiB(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return `${Number.isInteger(mib) ? mib : mib.toFixed(2)} MiB`;
}

function retryAfter(h: Headers): number | null {
  const v = h.get('retry-after');
  if (!v) return null;
  const s = Number(v);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : Math.max(0, t - Date.now());
}

/** The body of `res`, read in chunks and abandoned as soon as it passes `maxBytes` (a declared length beyond it is refused unread). */
async function readCapped(res: Response, url: string, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw new ResponseTooLargeError(url, maxBytes);
  }
  if (!res.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new ResponseTooLargeError(url, maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

/**
 * What went wrong, in words, without the request's Cookie header: fetch's own messages can quote a
 * header value (an invalid one, e.g. a cookie value holding a line break), and cookies are credentials.
 */
function describe(err: unknown, cookie: string | undefined): string {
  if (!cookie) return describeRaw(err);
  const values = cookie.split(/;\s*/).map((p) => p.slice(p.indexOf('=') + 1));
  return redact(describeRaw(err), [cookie, ...values]).split('\n')[0];
}

function describeRaw(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'timed out';
  const code = e?.cause?.code;
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET') return 'connection reset';
  if (code === 'ECONNREFUSED') return t('err.connectionRefused');
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
      bytes = await readCapped(res, current, opts.maxBytes ?? DEFAULT_MAX_RESPONSE_BYTES);
    } catch (err) {
      if (err instanceof OutOfScopeError || err instanceof ResponseTooLargeError) throw err;
      const code = (err as { cause?: { code?: string } })?.cause?.code;
      throw new NetworkError(t('err.fetchFailed', describe(err, cookie), String(current)), current, code !== undefined && ADDRESS_CODES.has(code));
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
  throw new NetworkError(t('err.tooManyRedirects', String(url)), url);
}
