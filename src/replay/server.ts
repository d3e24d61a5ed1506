/**
 * A replay of a captured Discuz! forum over plain node:http, with no network: the pages of
 * fixtures/discuz/public (or public-gbk) at their Discuz URLs, a login form that sets a session cookie,
 * a board that answers guests with the real guest-denied page, and fault modes a test can switch on
 * (latency, slow drip, 5xx System Error, 429, connection reset, truncated body, anti-CC reload page,
 * antitheft script page, session expiry, a swapped newer page, a deleted thread, an off-host redirect).
 * Besides the captured pages it can serve thread pages built on the fly (`pages`, e.g. a synthetic game
 * of any size from src/replay/synth.ts through `synthPageSource`) and answer every request after a
 * fixed latency (`latencyMs`). Used by the tests, by `bansha demo` and by the benchmark.
 */
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import iconv from 'iconv-lite';
import { packagePath } from '../paths.js';
import { buildThreadPage, familyBase, familyPpp, pageCountOf, type SynthThread } from './synth.js';

/** One fault mode. */
export type Fault =
  /** Wait before answering. */
  | { kind: 'latency'; ms: number }
  /** Send the body in small chunks with a pause between them. */
  | { kind: 'drip'; chunkBytes: number; intervalMs: number }
  /** Answer with this status: 500/503 carry the real Discuz System Error page, 429 a short page. */
  | { kind: 'status'; status: number; retryAfterSeconds?: number }
  /** Destroy the connection without an answer. */
  | { kind: 'reset' }
  /** Send only the first `keepBytes` (default half) of the body; `lieLength` declares the full length first. */
  | { kind: 'truncate'; keepBytes?: number; lieLength?: boolean }
  /** The anti-CC reload page (with a `<prefix>lastrequest` Set-Cookie) until the request carries that cookie. */
  | { kind: 'anticc' }
  /** The antitheft script page for page 1 of a thread unless the URL carries `_dsign`. */
  | { kind: 'antitheft' }
  /** Every session stops working after this many authenticated requests (counted from now). */
  | { kind: 'session-expiry'; afterRequests: number }
  /** Redirect (302) to this location. */
  | { kind: 'redirect'; location: string };

/** A fault, where it applies (substring of path+query, or a RegExp) and how many times (default: always). */
export interface FaultRule {
  fault: Fault;
  path?: string | RegExp;
  times?: number;
}

/** One request the server saw. */
export interface ReplayRequest {
  method: string;
  /** Path and query, e.g. "/forum.php?mod=viewthread&tid=2&page=1". */
  path: string;
  /** The Host header. */
  host: string;
  /** True when it carried a valid session. */
  authenticated: boolean;
  userAgent: string;
}

export interface ReplayOptions {
  /** Fixture directory with manifest.json (default: the package's fixtures/discuz/public). */
  root?: string;
  /** Where the anti-CC, antitheft and System Error pages are (default: fixtures/discuz/public-defense). */
  defenseRoot?: string;
  port?: number;
  host?: string;
  /** Board refuses guests (default true, as captured). */
  requireLogin?: boolean;
  /** Accounts the login form accepts, name → password (default: the capture's director, 导演A / lab123456). */
  users?: Record<string, string>;
  /**
   * Thread pages built on the fly, asked first for every thread page request (query or rewrite URL):
   * `forum` is this server's root URL (for the page's links). Return null for a thread it does not
   * serve (the captured pages answer then). A page past the end should come back as the last page,
   * as Discuz does (`synthPageSource` does). Login, faults, swaps and deletions apply as to captured pages.
   */
  pages?: (tid: number, page: number, forum: string) => ServedPage | null;
  /** Every answer is sent this long after its request arrived, ms (building the page included). Default 0. */
  latencyMs?: number;
}

/** A page built on the fly for the replay server. */
export interface ServedPage {
  bytes: Uint8Array;
  contentType: string;
  /** The page number it is (a page past the end is the last page). */
  page: number;
}

/** A running replay server. */
export interface ReplayServer {
  /** Forum root URL, ending in "/". */
  url: string;
  /** The Discuz cookie prefix the pages declare (e.g. "Sv7L_2132_"). */
  cookiePrefix: string;
  close(): Promise<void>;
  /** Replace all fault rules (no argument: no faults). */
  setFault(...rules: FaultRule[]): void;
  /** Serve `body` (or the current page transformed) for thread `tid` page `page` from now on. */
  swapPage(tid: number, page: number, body: string | Uint8Array | ((html: string) => string)): void;
  /** Thread `tid` answers not-found from now on. */
  deleteThread(tid: number): void;
  /** A Playwright storage state holding a fresh valid session (for tests that skip the browser). */
  sessionState(): { cookies: Array<{ name: string; value: string; domain: string; path: string; expires: number; httpOnly: boolean; secure: boolean; sameSite: 'Lax' }>; origins: [] };
  /** Every request, in order. */
  requests: ReplayRequest[];
  /** The highest page number captured for each thread. */
  pageCounts: Record<number, number>;
}

interface ManifestEntry {
  file: string;
  url: string;
  status: number;
  content_type?: string;
}

interface Resource {
  file: string;
  status: number;
  contentType: string;
  /** Redirect target for the captured 301/302 .txt files. */
  location?: string;
}

function loadManifest(root: string): ManifestEntry[] {
  return JSON.parse(fs.readFileSync(path.join(root, 'manifest.json'), 'utf8')) as ManifestEntry[];
}

function charsetOf(contentType: string): string {
  return /charset=([^;\s]+)/i.exec(contentType)?.[1]?.toLowerCase() ?? 'utf-8';
}

class FixtureSite {
  readonly viewthread = new Map<string, Resource>(); // "tid:page" → page
  readonly pageCounts: Record<number, number> = {};
  readonly byUrl = new Map<string, Resource>(); // other captured URLs (authorid, printable, forumdisplay, api…)
  readonly guestByUrl = new Map<string, Resource>();
  readonly named = new Map<string, Resource>(); // login, notfound, guest-notfound, guest-denied, forumdisplay…
  readonly cookiePrefix: string;
  readonly charset: string;
  /** The forum root the pages were captured at (absolute links in them point there). */
  readonly capturedBase: string | null;
  #cache = new Map<string, Buffer>();

  constructor(readonly root: string) {
    const entries = loadManifest(root);
    for (const e of entries) {
      const res: Resource = { file: e.file, status: e.status, contentType: e.content_type ?? 'text/html; charset=utf-8' };
      if (e.file.endsWith('.txt')) {
        const loc = /^Location:\s*(\S+)/m.exec(fs.readFileSync(path.join(root, e.file), 'utf8'))?.[1];
        if (loc) res.location = loc;
      }
      const guest = e.file.startsWith('guest-');
      const vt = /^(?:viewthread-t(\d+)-p(\d+)|thread-(\d+)-(\d+)-1)\.html$/.exec(e.file);
      if (vt && !guest) {
        const tid = Number(vt[1] ?? vt[3]);
        const page = Number(vt[2] ?? vt[4]);
        if (!this.viewthread.has(`${tid}:${page}`) || e.file.startsWith('viewthread-')) this.viewthread.set(`${tid}:${page}`, res);
        this.pageCounts[tid] = Math.max(this.pageCounts[tid] ?? 0, page);
        continue;
      }
      const key = normaliseUrl(e.url);
      (guest ? this.guestByUrl : this.byUrl).set(key, res);
      if (e.file === 'login.html') this.named.set('login', res);
      if (e.file === 'notfound.html') this.named.set('notfound', res);
      if (e.file === 'guest-notfound.html') this.named.set('guest-notfound', res);
      if (/^guest-denied-t\d+\.html$/.test(e.file)) this.named.set('guest-denied', res);
      if (/^forumdisplay-f\d+\.html$/.test(e.file)) this.named.set('forumdisplay', res);
      if (/^guest-forumdisplay-f\d+\.html$/.test(e.file)) this.named.set('guest-forumdisplay', res);
    }
    const login = this.named.get('login');
    const loginHtml = login ? this.read(login).toString('latin1') : '';
    this.cookiePrefix = /cookiepre = '([^']*)'/.exec(loginHtml)?.[1] ?? 'bansha_2132_';
    this.charset = login ? charsetOf(login.contentType) : 'utf-8';
    const siteFile = path.join(root, 'site.json');
    const fromSite = fs.existsSync(siteFile) ? (JSON.parse(fs.readFileSync(siteFile, 'utf8')) as { base_url?: string }).base_url : undefined;
    this.capturedBase = fromSite ?? /<base href="([^"]+)"/.exec(loginHtml)?.[1] ?? null;
  }

  read(res: Resource): Buffer {
    let b = this.#cache.get(res.file);
    if (!b) {
      b = fs.readFileSync(path.join(this.root, res.file));
      this.#cache.set(res.file, b);
    }
    return b;
  }
}

/** Query parameters sorted, so captured and requested URLs compare equal. */
function normaliseUrl(u: string): string {
  const url = new URL(u, 'http://x/');
  const params = [...url.searchParams.entries()].filter(([k]) => k !== 'extra' && k !== '_dsign').sort(([a], [b]) => a.localeCompare(b));
  return url.pathname.replace(/^\//, '') + (params.length ? '?' + new URLSearchParams(params).toString() : '');
}

/** `buf` with every occurrence of `from` replaced by `to` (byte-wise: ASCII URLs are safe in GBK too). */
function replaceBytes(buf: Buffer, from: string, to: string): Buffer {
  const f = Buffer.from(from);
  let at = buf.indexOf(f);
  if (at < 0) return buf;
  const t = Buffer.from(to);
  const parts: Buffer[] = [];
  let last = 0;
  while (at >= 0) {
    parts.push(buf.subarray(last, at), t);
    last = at + f.length;
    at = buf.indexOf(f, last);
  }
  parts.push(buf.subarray(last));
  return Buffer.concat(parts);
}

function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return out;
}

interface ActiveRule extends FaultRule {
  used: number;
  /** session-expiry: authenticated requests counted since the rule was set. */
  count: number;
}

/** Start a replay server (port 0 = any free port). */
export async function startReplayServer(opts: ReplayOptions = {}): Promise<ReplayServer> {
  const root = opts.root ?? packagePath('fixtures', 'discuz', 'public');
  const defenseRoot = opts.defenseRoot ?? path.join(path.dirname(root), 'public-defense');
  const site = new FixtureSite(root);
  const defensePage = (name: string): Buffer | null => {
    const f = path.join(defenseRoot, name);
    if (!fs.existsSync(f)) return null;
    const buf = fs.readFileSync(f);
    const base = /<base href="([^"]+)"/.exec(buf.subarray(0, 8192).toString('latin1'))?.[1];
    return base && selfUrl ? replaceBytes(buf, base, selfUrl) : buf;
  };
  const users = opts.users ?? { 导演A: 'lab123456' };
  const requireLogin = opts.requireLogin ?? true;
  const sessions = new Set<string>();
  const swapped = new Map<string, Buffer>();
  const deleted = new Set<number>();
  let rules: ActiveRule[] = [];
  const anticcToken = new Map<string, string>(); // path → lastrequest token issued
  const issuedTokens = new Set<string>();
  const requests: ReplayRequest[] = [];
  const authCookie = `${site.cookiePrefix}auth`;
  const lastRequestCookie = `${site.cookiePrefix}lastrequest`;

  const newSession = (): string => {
    const token = randomBytes(18).toString('base64url');
    sessions.add(token);
    return token;
  };

  const matching = (reqPath: string): ActiveRule[] =>
    rules.filter((r) => {
      if (r.times !== undefined && r.used >= r.times) return false;
      if (r.path === undefined) return true;
      return typeof r.path === 'string' ? reqPath.includes(r.path) : r.path.test(reqPath);
    });

  function encodeLike(text: string): Buffer {
    return site.charset.startsWith('gb') ? iconv.encode(text, 'gbk') : Buffer.from(text, 'utf8');
  }
  function decodeLike(buf: Buffer): string {
    return site.charset.startsWith('gb') ? iconv.decode(buf, 'gbk') : buf.toString('utf8');
  }

  /** What a request resolves to, before faults. */
  function route(req: http.IncomingMessage, body: string, authed: boolean): { status: number; headers: Record<string, string | string[]>; body: Buffer; tid?: number; page?: number; onTheFly?: boolean } {
    const url = new URL(req.url ?? '/', 'http://x/');
    const q = url.searchParams;
    const html = (res: Resource, status = res.status) => ({ status, headers: { 'Content-Type': res.contentType }, body: site.read(res) });
    const textPage = (status: number, text: string) => ({ status, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: Buffer.from(text) });

    // Login form and submit.
    if (url.pathname === '/member.php' && q.get('mod') === 'logging' && q.get('action') === 'login') {
      const login = site.named.get('login');
      if (!login) return textPage(404, 'no login page captured');
      if (req.method === 'POST') {
        const form = new URLSearchParams(body);
        const name = form.get('username') ?? '';
        const ok = Object.prototype.hasOwnProperty.call(users, name) && users[name] === (form.get('password') ?? '');
        if (!ok) return html(login);
        const token = newSession();
        return {
          status: 302,
          headers: {
            Location: 'forum.php',
            'Set-Cookie': [`${authCookie}=${token}; path=/; HttpOnly`, `${site.cookiePrefix}saltkey=${randomBytes(6).toString('hex')}; path=/; HttpOnly`],
          },
          body: Buffer.alloc(0),
        };
      }
      return html(login);
    }

    // Thread pages: query form and rewrite form.
    let tid: number | null = null;
    let page = 1;
    const rewrite = /^\/thread-(\d+)-(\d+)-\d+\.html$/.exec(url.pathname);
    const isView = url.pathname === '/forum.php' && q.get('mod') === 'viewthread' && !q.has('authorid') && !q.has('action') && !q.has('mobile');
    if (rewrite) {
      tid = Number(rewrite[1]);
      page = Number(rewrite[2]);
    } else if (isView) {
      tid = Number(q.get('tid'));
      page = Math.max(1, Number.parseInt(q.get('page') ?? '1', 10) || 1);
    }
    if (tid !== null) {
      if (requireLogin && !authed) {
        const denied = site.named.get('guest-denied');
        return denied ? html(denied) : textPage(403, 'login required');
      }
      const built = deleted.has(tid) ? null : opts.pages?.(tid, page, selfUrl) ?? null;
      if (built) {
        const body = swapped.get(`${tid}:${built.page}`) ?? Buffer.from(built.bytes.buffer, built.bytes.byteOffset, built.bytes.length);
        return { status: 200, headers: { 'Content-Type': built.contentType }, body, tid, page: built.page, onTheFly: true };
      }
      const count = site.pageCounts[tid];
      if (!count || deleted.has(tid)) {
        const nf = site.named.get(authed ? 'notfound' : 'guest-notfound') ?? site.named.get('notfound');
        return nf ? html(nf) : textPage(404, 'not found');
      }
      const served = Math.min(page, count); // past the end: the last page, like Discuz
      const swap = swapped.get(`${tid}:${served}`);
      const res = site.viewthread.get(`${tid}:${served}`)!;
      return { status: 200, headers: { 'Content-Type': res.contentType }, body: swap ?? site.read(res), tid, page: served };
    }

    // Other captured URLs (author-only views, printable, board listing, mobile API, findpost).
    const key = normaliseUrl(req.url ?? '/');
    const res = (!authed && requireLogin ? site.guestByUrl.get(key) : undefined) ?? site.byUrl.get(key);
    if (res) {
      if (requireLogin && !authed && !site.guestByUrl.has(key)) {
        const denied = site.named.get('guest-denied');
        if (denied) return html(denied);
      }
      if (res.location) return { status: res.status, headers: { Location: res.location, 'Content-Type': res.contentType }, body: Buffer.alloc(0) };
      return html(res);
    }
    if (url.pathname === '/' || (url.pathname === '/forum.php' && !q.has('mod'))) {
      const fd = site.named.get(authed || !requireLogin ? 'forumdisplay' : 'guest-forumdisplay') ?? site.named.get('forumdisplay');
      if (fd) return html(fd, 200);
    }
    return textPage(404, 'not captured');
  }

  let selfUrl = '';
  /** Absolute links of the capture point at this server instead (as the real forum's would at its address). */
  const localise = (buf: Buffer): Buffer => {
    const base = site.capturedBase;
    if (!base || !selfUrl || buf.length === 0) return buf;
    return replaceBytes(replaceBytes(buf, base, selfUrl), base.replace(/\//g, '\\/'), selfUrl.replace(/\//g, '\\/'));
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void handle(req, res, Buffer.concat(chunks).toString('utf8')).catch(() => res.destroy());
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, body: string): Promise<void> {
    const arrived = performance.now();
    const reqPath = req.url ?? '/';
    const cookies = parseCookies(req.headers.cookie);
    const active = matching(reqPath);
    let authed = sessions.has(cookies[authCookie] ?? '');
    const isThread = /mod=viewthread|\/thread-\d+-\d+-\d+\.html/.test(reqPath);
    // Session expiry counts authenticated requests since the rule was set.
    for (const r of rules) {
      if (r.fault.kind === 'session-expiry' && authed) {
        r.count++;
        if (r.count > r.fault.afterRequests) {
          sessions.clear();
          authed = false;
        }
      }
    }
    requests.push({ method: req.method ?? 'GET', path: reqPath, host: req.headers.host ?? '', authenticated: authed, userAgent: req.headers['user-agent'] ?? '' });

    const use = (kind: Fault['kind']): ActiveRule | undefined => {
      const r = active.find((a) => a.fault.kind === kind);
      return r;
    };
    const latency = use('latency');
    if (latency && latency.fault.kind === 'latency') {
      latency.used++;
      await new Promise((r) => setTimeout(r, (latency.fault as { ms: number }).ms));
    }
    const reset = use('reset');
    if (reset) {
      reset.used++;
      req.socket.destroy();
      return;
    }
    const redirect = use('redirect');
    if (redirect && redirect.fault.kind === 'redirect') {
      redirect.used++;
      res.writeHead(302, { Location: redirect.fault.location }).end();
      return;
    }
    const status = use('status');
    if (status && status.fault.kind === 'status') {
      status.used++;
      const code = status.fault.status;
      const headers: Record<string, string> = { 'Content-Type': 'text/html; charset=utf-8' };
      if (status.fault.retryAfterSeconds !== undefined) headers['Retry-After'] = String(status.fault.retryAfterSeconds);
      const page = code >= 500 ? defensePage('system-error-t2-p2.html') : null;
      res.writeHead(code, headers).end(page ?? Buffer.from(`<html><body><h1>${code}</h1></body></html>`));
      return;
    }
    const anticc = use('anticc');
    if (anticc && isThread) {
      // Each path is challenged once; the repeat passes when it carries a lastrequest cookie we issued.
      const challenged = anticcToken.has(reqPath);
      if (!challenged || !issuedTokens.has(cookies[lastRequestCookie] ?? '')) {
        anticc.used++;
        const t = randomBytes(8).toString('hex');
        anticcToken.set(reqPath, t);
        issuedTokens.add(t);
        const page = defensePage('anticc-t2-p2.html') ?? Buffer.from('<title>页面重载开启</title>');
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Set-Cookie': `${lastRequestCookie}=${t}; path=/; HttpOnly` }).end(page);
        return;
      }
    }
    const antitheft = use('antitheft');
    if (antitheft && isThread && !/[?&]_dsign=/.test(reqPath)) {
      const u = new URL(reqPath, 'http://x/');
      if ((u.searchParams.get('page') ?? '1') === '1') {
        antitheft.used++;
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(defensePage('antitheft-t2-p1.html') ?? Buffer.from('<script>location.href="?"</script>'));
        return;
      }
    }

    const out = route(req, body, authed);
    if (!out.onTheFly) out.body = localise(out.body); // pages built on the fly already link here
    const fixed = (opts.latencyMs ?? 0) - (performance.now() - arrived);
    if (fixed > 0) await new Promise((r) => setTimeout(r, fixed));
    const headers = { ...out.headers } as Record<string, string | string[]>;
    const truncate = use('truncate');
    const drip = use('drip');
    if (truncate && truncate.fault.kind === 'truncate' && out.body.length > 0) {
      truncate.used++;
      const keep = Math.min(out.body.length - 1, truncate.fault.keepBytes ?? Math.floor(out.body.length / 2));
      if (truncate.fault.lieLength) {
        res.writeHead(out.status, { ...headers, 'Content-Length': String(out.body.length) });
        res.write(out.body.subarray(0, keep), () => setTimeout(() => res.destroy(), 5));
      } else {
        res.writeHead(out.status, { ...headers, 'Content-Length': String(keep) }).end(out.body.subarray(0, keep));
      }
      return;
    }
    if (drip && drip.fault.kind === 'drip') {
      drip.used++;
      const { chunkBytes, intervalMs } = drip.fault;
      res.writeHead(out.status, { ...headers, 'Content-Length': String(out.body.length) });
      for (let i = 0; i < out.body.length; i += chunkBytes) {
        if (res.destroyed) return;
        res.write(out.body.subarray(i, i + chunkBytes));
        await new Promise((r) => setTimeout(r, intervalMs));
      }
      res.end();
      return;
    }
    res.writeHead(out.status, { ...headers, 'Content-Length': String(out.body.length) }).end(out.body);
  }

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const addr = server.address() as AddressInfo;
  const host = opts.host ?? '127.0.0.1';
  selfUrl = `http://${host}:${addr.port}/`;
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  return {
    url: selfUrl,
    cookiePrefix: site.cookiePrefix,
    requests,
    pageCounts: { ...site.pageCounts },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
    setFault: (...r: FaultRule[]) => {
      rules = r.map((x) => ({ ...x, used: 0, count: 0 }));
      anticcToken.clear();
    },
    swapPage: (tid, page, b) => {
      const res = site.viewthread.get(`${tid}:${page}`);
      const built = res ? null : opts.pages?.(tid, page, selfUrl) ?? null;
      if (!res && !built) throw new Error(`thread ${tid} page ${page} is not captured`);
      if (typeof b === 'function') {
        const current = swapped.get(`${tid}:${page}`) ?? (res ? site.read(res) : Buffer.from(built!.bytes));
        swapped.set(`${tid}:${page}`, encodeLike(b(decodeLike(current))));
      } else {
        swapped.set(`${tid}:${page}`, typeof b === 'string' ? encodeLike(b) : Buffer.from(b));
      }
    },
    deleteThread: (tid) => {
      deleted.add(tid);
    },
    sessionState: () => ({
      cookies: [{ name: authCookie, value: newSession(), domain: host, path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' as const }],
      origins: [] as [],
    }),
  };
}

/**
 * A `pages` source for the replay server serving synthetic threads (src/replay/synth.ts), read live
 * through `threads()` so posts added later show up. Each page is built from the real captured markup
 * on first request with the server's root as its base (links of the copied skeleton too), and cached until its thread's post count
 * changes; a page past the end is the last page, as Discuz serves it.
 */
export function synthPageSource(threads: () => readonly SynthThread[]): (tid: number, page: number, forum: string) => ServedPage | null {
  const cache = new Map<string, { posts: number; forum: string; page: ServedPage }>();
  return (tid, page, forum) => {
    const thread = threads().find((t) => t.tid === tid);
    if (!thread) return null;
    const count = pageCountOf(thread.posts.length, thread.ppp ?? familyPpp(thread.family));
    const served = Math.min(Math.max(1, page), count);
    const key = `${tid}:${served}`;
    const hit = cache.get(key);
    if (hit && hit.posts === thread.posts.length && hit.forum === forum) return hit.page;
    const built = buildThreadPage({ ...thread, base: forum }, served);
    // the skeleton copied from the capture still names the captured site: point it here, as localise does
    const captured = familyBase(thread.family);
    const raw = Buffer.from(built.bytes.buffer, built.bytes.byteOffset, built.bytes.length);
    const bytes = captured === forum ? raw : replaceBytes(replaceBytes(raw, captured, forum), captured.replace(/\//g, '\\/'), forum.replace(/\//g, '\\/'));
    const out: ServedPage = { bytes, contentType: built.contentType, page: served };
    cache.set(key, { posts: thread.posts.length, forum, page: out });
    return out;
  };
}
