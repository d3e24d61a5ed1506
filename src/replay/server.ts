/**
 * A replay of a captured Discuz! forum over plain node:http, with no network: the pages of
 * fixtures/discuz/public (or public-gbk) at their Discuz URLs, a login form that sets a session cookie,
 * a board that answers guests with the real guest-denied page, and fault modes a test can switch on
 * (latency, slow drip, 5xx System Error, 429, connection reset, truncated body, anti-CC reload page,
 * antitheft script page, session expiry, a swapped newer page, a deleted thread, an off-host redirect),
 * and a post's link (mod=redirect&goto=findpost) sent to the page holding the post.
 * Besides the captured pages it can serve thread pages built on the fly (`pages`, e.g. a synthetic game
 * of any size from src/replay/synth.ts through `synthPageSource`) and answer every request after a
 * fixed latency (`latencyMs`). Used by the tests, by `bansha demo` and by the benchmark.
 *
 * Posting (for `--post`, src/publish): the fast reply form's endpoint (forum.php?mod=post&action=reply,
 * session + formhash required) appends the post to the thread's served last page, rendered by the
 * synthetic builder (synth.ts) so it parses like a real one; the edit page (forum.php?mod=post&action=edit,
 * markup after Discuz X3.5's template/default/forum/post.htm + post_editor_body.htm) and its submit
 * replace that pid's message wherever it is served, with Discuz's 本帖最后由 … 编辑 marker. Every accepted
 * message is recorded in `posted`.
 */
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import iconv from 'iconv-lite';
import { packagePath } from '../paths.js';
import { AUTHOR_LINK, buildThreadPage, escapeHtml, familyBase, familyPpp, pageCountOf, renderMessage, renderThreadPageHtml, type SynthFamily, type SynthPost, type SynthThread } from './synth.js';

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
  | { kind: 'redirect'; location: string }
  /** A wrong or missing charset: this Content-Type header (e.g. "text/html" or "text/html; charset=utf-8" on a
   *  GBK page), and with `stripMeta` the page's own <meta charset> declaration removed too. */
  | { kind: 'charset'; contentType: string; stripMeta?: boolean };

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
  /** A Playwright storage state holding a fresh valid session of `user` (default: the first account), for tests that skip the browser. */
  sessionState(user?: string): { cookies: Array<{ name: string; value: string; domain: string; path: string; expires: number; httpOnly: boolean; secure: boolean; sameSite: 'Lax' }>; origins: [] };
  /** Every request, in order. */
  requests: ReplayRequest[];
  /** The highest page number captured for each thread. */
  pageCounts: Record<number, number>;
  /** Every message the reply and edit endpoints accepted, in order. */
  posted: PostedMessage[];
}

/** One message a form of the replay server accepted. */
export interface PostedMessage {
  kind: 'reply' | 'edit';
  tid: number;
  pid: number;
  /** The account that posted it, and its uid (from the fixture's ids.json; 0 when unknown). */
  user: string;
  uid: number;
  /** The message field as submitted (decoded from the page's charset). */
  message: string;
  /** Epoch ms. */
  at: number;
}

/** A reply appended to a thread by the replay server. */
interface AddedPost {
  pid: number;
  tid: number;
  user: string;
  uid: number;
  at: number;
  body: string;
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

/** `buf` with absolute links to the forum root `from` pointing at `to` instead, JSON-escaped ones ("http:\/\/…") too. */
function rebase(buf: Buffer, from: string, to: string): Buffer {
  return replaceBytes(replaceBytes(buf, from, to), from.replace(/\//g, '\\/'), to.replace(/\//g, '\\/'));
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
  const sessions = new Map<string, string>(); // token → account name
  const uidByName: Record<string, number> = readIdsUsers(root);
  const firstUser = Object.keys(users)[0] ?? '导演A';
  const swapped = new Map<string, Buffer>();
  const deleted = new Set<number>();
  let rules: ActiveRule[] = [];
  const anticcToken = new Map<string, string>(); // path → lastrequest token issued
  const issuedTokens = new Set<string>();
  const requests: ReplayRequest[] = [];
  const authCookie = `${site.cookiePrefix}auth`;
  const lastRequestCookie = `${site.cookiePrefix}lastrequest`;

  const newSession = (user: string = firstUser): string => {
    const token = randomBytes(18).toString('base64url');
    sessions.set(token, user);
    return token;
  };
  const posted: PostedMessage[] = [];
  const added = new Map<number, AddedPost[]>(); // tid → replies appended, in order
  const edits = new Map<number, { body: string; by: string; at: number }>(); // pid → current message
  let nextPid = 1_000_001; // above any captured or synthetic pid

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
    return decodeCharset(buf, site.charset);
  }

  /** What a request resolves to, before faults. */
  function route(req: http.IncomingMessage, raw: Buffer, authed: boolean, user: string | null): { status: number; headers: Record<string, string | string[]>; body: Buffer; tid?: number; page?: number; onTheFly?: boolean } {
    const url = new URL(req.url ?? '/', 'http://x/');
    const q = url.searchParams;
    const html = (res: Resource, status = res.status) => ({ status, headers: { 'Content-Type': res.contentType }, body: site.read(res) });
    const textPage = (status: number, text: string) => ({ status, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: Buffer.from(text) });
    const body = raw.toString('utf8');

    // Posting: the fast reply form, the edit page and its submit.
    if (url.pathname === '/forum.php' && q.get('mod') === 'post') {
      const action = q.get('action');
      if (action === 'reply' && req.method === 'POST') return postReply(q, raw, authed ? user : null);
      if (action === 'edit' && req.method === 'POST') return postEdit(q, raw, authed ? user : null);
      if (action === 'edit') return editPage(q, authed ? user : null);
    }

    // Login form and submit.
    if (url.pathname === '/member.php' && q.get('mod') === 'logging' && q.get('action') === 'login') {
      const login = site.named.get('login');
      if (!login) return textPage(404, 'no login page captured');
      if (req.method === 'POST') {
        const form = new URLSearchParams(body);
        const name = form.get('username') ?? '';
        const ok = Object.prototype.hasOwnProperty.call(users, name) && users[name] === (form.get('password') ?? '');
        if (!ok) return html(login);
        const token = newSession(name);
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
        const out = withPublished(tid, built.page, body, built.contentType);
        return { status: 200, headers: { 'Content-Type': built.contentType }, body: out, tid, page: built.page, onTheFly: true };
      }
      const count = site.pageCounts[tid];
      if (!count || deleted.has(tid)) {
        const nf = site.named.get(authed ? 'notfound' : 'guest-notfound') ?? site.named.get('notfound');
        return nf ? html(nf) : textPage(404, 'not found');
      }
      const served = Math.min(page, count); // past the end: the last page, like Discuz
      const swap = swapped.get(`${tid}:${served}`);
      const res = site.viewthread.get(`${tid}:${served}`)!;
      return { status: 200, headers: { 'Content-Type': res.contentType }, body: withPublished(tid, served, swap ?? site.read(res), res.contentType), tid, page: served };
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
    // A post's link (what every count, report and HTML page links to), when not captured as such: the
    // page holding the post, as Discuz's forum_redirect answers it (source/module/forum/forum_redirect.php).
    if (url.pathname === '/forum.php' && q.get('mod') === 'redirect' && q.get('goto') === 'findpost') {
      const ptid = Number(q.get('ptid'));
      const pid = Number(q.get('pid'));
      const found = Number.isInteger(ptid) && Number.isInteger(pid) ? findPost(ptid, pid) : null;
      if (found) return { status: 302, headers: { Location: `forum.php?mod=viewthread&tid=${ptid}&page=${found.page}#pid${pid}` }, body: Buffer.alloc(0) };
    }
    if (url.pathname === '/' || (url.pathname === '/forum.php' && !q.has('mod'))) {
      const fd = site.named.get(authed || !requireLogin ? 'forumdisplay' : 'guest-forumdisplay') ?? site.named.get('forumdisplay');
      if (fd) return html(fd, 200);
    }
    return textPage(404, 'not captured');
  }

  // ——— Posting: the fast reply endpoint, the edit page and its submit (for src/publish) ———

  type Answer = { status: number; headers: Record<string, string | string[]>; body: Buffer };

  /** Thread `tid` page `page` as served before any posting change (swaps included), or null. */
  function rawThreadPage(tid: number, page: number): { bytes: Buffer; contentType: string; page: number; last: number } | null {
    if (deleted.has(tid)) return null;
    const built = opts.pages?.(tid, page, selfUrl) ?? null;
    if (built) {
      const last = opts.pages?.(tid, Number.MAX_SAFE_INTEGER, selfUrl)?.page ?? built.page;
      const bytes = swapped.get(`${tid}:${built.page}`) ?? Buffer.from(built.bytes.buffer, built.bytes.byteOffset, built.bytes.length);
      return { bytes, contentType: built.contentType, page: built.page, last };
    }
    const count = site.pageCounts[tid];
    if (!count) return null;
    const served = Math.min(Math.max(1, page), count);
    const res = site.viewthread.get(`${tid}:${served}`)!;
    return { bytes: swapped.get(`${tid}:${served}`) ?? site.read(res), contentType: res.contentType, page: served, last: count };
  }

  const familyOf = (contentType: string): SynthFamily => (charsetOf(contentType).startsWith('gb') ? 'gbk' : 'utf8');

  /** The message HTML of a post as Discuz renders it after an edit (with its 本帖最后由 marker). */
  function renderedMessage(family: SynthFamily, tid: number, post: SynthPost): string {
    return renderMessage(post, { family, tid, base: selfUrl });
  }

  /** One appended reply's post block (div#post_PID … up to the next block), cut from a synthetic page. */
  function addedBlock(family: SynthFamily, a: AddedPost, floor: number, opUid: number | undefined): string {
    const e = edits.get(a.pid);
    const post: SynthPost = { pid: a.pid, author: a.user, uid: a.uid, at: a.at, body: e?.body ?? a.body, ...(e ? { edited: { by: e.by, at: e.at } } : {}) };
    const filler = Array.from({ length: floor - 1 }, (_, i): SynthPost => ({ pid: i + 1, author: '-', uid: i === 0 ? (opUid ?? 0) : 0, at: a.at, body: '-' }));
    const html = renderThreadPageHtml({ family, tid: a.tid, title: '-', ppp: 1, posts: [...filler, post], base: selfUrl }, floor);
    const start = html.indexOf(`<div id="post_${a.pid}" >`);
    const end = html.indexOf('<div id="postlistreply"', start);
    const block = html.slice(start, end);
    const captured = familyBase(family);
    return captured === selfUrl ? block : block.split(captured).join(selfUrl);
  }

  /** The uid of the author of post block `pid` in `html`, or null when the block is not there. */
  function blockAuthor(html: string, pid: number): { uid: number; name: string } | null {
    const start = html.indexOf(`<div id="post_${pid}" `);
    if (start < 0) return null;
    const m = AUTHOR_LINK.exec(html.slice(start, start + 20_000));
    return m ? { uid: Number(m[1]), name: m[2] } : null;
  }

  /** Replace the content of td.t_f#postmessage_PID (Discuz closes it with </td></tr></table>). */
  function replaceMessage(html: string, pid: number, inner: string): string {
    const open = `id="postmessage_${pid}">`;
    const at = html.indexOf(open);
    if (at < 0) return html;
    const from = at + open.length;
    let end = html.indexOf('</td></tr></table>', from);
    if (end < 0) end = html.indexOf('</td>', from);
    return html.slice(0, from) + '\n' + inner + html.slice(end);
  }

  /** A served thread page with the accepted replies (on its last page) and edits applied. */
  function withPublished(tid: number, page: number, bytes: Buffer, contentType: string): Buffer {
    const adds = added.get(tid) ?? [];
    if (adds.length === 0 && edits.size === 0) return bytes;
    const charset = charsetOf(contentType);
    const family = familyOf(contentType);
    let html: string | null = null;
    const text = (): string => (html ??= decodeCharset(bytes, charset));
    for (const [pid, e] of edits) {
      if (adds.some((a) => a.pid === pid) || bytes.indexOf(`id="postmessage_${pid}"`) < 0) continue;
      const author = blockAuthor(text(), pid);
      html = replaceMessage(text(), pid, renderedMessage(family, tid, { pid, author: author?.name ?? e.by, uid: author?.uid ?? 0, at: e.at, body: e.body, edited: { by: e.by, at: e.at } }));
    }
    if (adds.length > 0 && page === 1) {
      // page 1's header counts go up with each reply (Discuz adds to replies; the redirect to the thread is a view)
      const bump = (_m: string, pre: string, n: string): string => pre + String(Number(n) + adds.length);
      html = text()
        .replace(/(查看:<\/span> <span class="xi1">)(\d+)/, bump)
        .replace(/(回复:<\/span> <span class="xi1">)(\d+)/, bump);
    }
    if (adds.length > 0 && page === (rawThreadPage(tid, Number.MAX_SAFE_INTEGER)?.last ?? page)) {
      const opUid = (() => {
        const first = rawThreadPage(tid, 1);
        if (!first) return undefined;
        const h = decodeCharset(first.bytes, charsetOf(first.contentType));
        const pid = /<div id="post_(\d+)" /.exec(h)?.[1];
        return pid ? blockAuthor(h, Number(pid))?.uid : undefined;
      })();
      for (const a of adds) {
        const h = text();
        const at = h.indexOf('<div id="postlistreply"');
        if (at < 0) break;
        // the floor after the last one on the page (Discuz numbers replies in order)
        const floors = [...h.slice(0, at).matchAll(/id="postnum\d+"[^>]*>\s*(?:<em>(\d+)<\/em>|(楼主|沙发|板凳|地板))/g)];
        const lastFloor = floors.length ? Number(floors[floors.length - 1][1] ?? { 楼主: 1, 沙发: 2, 板凳: 3, 地板: 4 }[floors[floors.length - 1][2] as '楼主']) : (page - 1) * familyPpp(family);
        html = h.slice(0, at) + addedBlock(family, a, lastFloor + 1, opUid) + h.slice(at);
      }
    }
    return html === null ? bytes : encodeCharset(html, charset);
  }

  /** Discuz's showmessage(): the captured message page with `text`, or the ajax XML when the form asked for it. */
  function showMessage(q: URLSearchParams, text: string, ok: { redirect: string; handle: string; values: Record<string, string> } | null): Answer {
    if (q.has('inajax')) {
      const handle = q.get('handlekey') ?? 'fastpost';
      const call = ok
        ? `if(typeof succeedhandle_${handle}=='function') {succeedhandle_${handle}('${ok.redirect}', '${text}', ${JSON.stringify(ok.values).replace(/"/g, "'")});}`
        : `if(typeof errorhandle_${handle}=='function') {errorhandle_${handle}('${text}', {});}`;
      const xml = `<?xml version="1.0" encoding="${site.charset}"?><root><![CDATA[${text}<script type="text/javascript" reload="1">${call}</script>]]></root>`;
      return { status: 200, headers: { 'Content-Type': `text/xml; charset=${site.charset}` }, body: encodeLike(xml) };
    }
    if (ok) return { status: 302, headers: { Location: ok.redirect }, body: Buffer.alloc(0) };
    const nf = site.named.get('notfound');
    const page = nf ? decodeLike(site.read(nf)).replace(/(<div id="messagetext" class="alert_error">\s*<p>)[^<]*(<\/p>)/, `$1${escapeHtml(text)}$2`) : `<div id="messagetext" class="alert_error"><p>${escapeHtml(text)}</p></div>`;
    return { status: 200, headers: { 'Content-Type': `text/html; charset=${site.charset}` }, body: encodeLike(page) };
  }

  /** The formhash the thread's pages carry for a logged-in user (what Discuz checks a submit against). */
  function formhashOf(tid: number): string | null {
    const p = rawThreadPage(tid, 1);
    if (!p) return null;
    return /name="formhash" value="([0-9a-f]+)"/.exec(p.bytes.toString('latin1'))?.[1] ?? null;
  }

  const uidOf = (user: string): number => uidByName[user] ?? 0;

  /** POST forum.php?mod=post&action=reply&fid=F&tid=T&…&replysubmit=yes (the fast reply form). */
  function postReply(q: URLSearchParams, raw: Buffer, user: string | null): Answer {
    const tid = Number(q.get('tid'));
    if (!user) return showMessage(q, '抱歉，您尚未登录，无法进行此操作', null);
    const page = rawThreadPage(tid, 1);
    if (!page) return showMessage(q, '抱歉，指定的主题不存在或已被删除或正在被审核', null);
    const form = parseForm(raw, charsetOf(page.contentType));
    if (!form.get('formhash') || form.get('formhash') !== formhashOf(tid)) return showMessage(q, '您的请求来路不正确或表单验证串不符，无法提交', null);
    const message = (form.get('message') ?? '').replace(/\r\n?/g, '\n').trim();
    if (!message) return showMessage(q, '抱歉，您尚未输入标题或内容', null);
    const a: AddedPost = { pid: nextPid++, tid, user, uid: uidOf(user), at: Date.now(), body: message };
    added.set(tid, [...(added.get(tid) ?? []), a]);
    posted.push({ kind: 'reply', tid, pid: a.pid, user, uid: a.uid, message, at: a.at });
    const last = rawThreadPage(tid, Number.MAX_SAFE_INTEGER)?.last ?? 1;
    const fid = q.get('fid') ?? '';
    return showMessage(q, '非常感谢，回复发布成功，现在将转入主题页，请稍候……', {
      redirect: `forum.php?mod=viewthread&tid=${tid}&pid=${a.pid}&page=${last}&extra=#pid${a.pid}`,
      handle: q.get('handlekey') ?? 'fastpost',
      values: { fid, tid: String(tid), pid: String(a.pid), from: '', sechash: '' },
    });
  }

  /** Where post `pid` of thread `tid` is served: its page, author and current message as BBCode-ish text. */
  function findPost(tid: number, pid: number): { page: number; author: { uid: number; name: string }; message: string; contentType: string } | null {
    const a = (added.get(tid) ?? []).find((x) => x.pid === pid);
    const last = rawThreadPage(tid, Number.MAX_SAFE_INTEGER);
    if (!last) return null;
    if (a) return { page: last.last, author: { uid: a.uid, name: a.user }, message: edits.get(pid)?.body ?? a.body, contentType: last.contentType };
    for (let p = 1; p <= last.last; p++) {
      const served = rawThreadPage(tid, p)!;
      if (served.bytes.indexOf(`<div id="post_${pid}" `) < 0) continue;
      const html = decodeCharset(served.bytes, charsetOf(served.contentType));
      const author = blockAuthor(html, pid);
      if (!author) return null;
      const m = new RegExp(`id="postmessage_${pid}">\\r?\\n?([\\s\\S]*?)</td>`).exec(html);
      return { page: p, author, message: edits.get(pid)?.body ?? htmlToText(m?.[1] ?? ''), contentType: served.contentType };
    }
    return null;
  }

  /** GET forum.php?mod=post&action=edit&fid=F&tid=T&pid=P: the edit form of Discuz X3.5's post.htm. */
  function editPage(q: URLSearchParams, user: string | null): Answer {
    const tid = Number(q.get('tid'));
    const pid = Number(q.get('pid'));
    if (!user) return showMessage(q, '抱歉，您尚未登录，无法进行此操作', null);
    const found = findPost(tid, pid);
    if (!found) return showMessage(q, '抱歉，指定的主题不存在或已被删除或正在被审核', null);
    if (found.author.uid !== uidOf(user)) return showMessage(q, '抱歉，您没有权限编辑或删除这个帖子', null);
    const fid = q.get('fid') ?? '';
    const html = editFormHtml({
      charset: site.charset, cookiepre: site.cookiePrefix, uid: uidOf(user), user, base: selfUrl, formhash: formhashOf(tid) ?? '',
      fid, tid, pid, page: q.get('page') ?? String(found.page), message: found.message, posttime: Math.floor(Date.now() / 1000),
    });
    return { status: 200, headers: { 'Content-Type': `text/html; charset=${site.charset}` }, body: encodeLike(html) };
  }

  /** POST forum.php?mod=post&action=edit&extra=&editsubmit=yes: replace the message of `pid`. */
  function postEdit(q: URLSearchParams, raw: Buffer, user: string | null): Answer {
    const form = parseForm(raw, site.charset);
    const tid = Number(form.get('tid') ?? q.get('tid'));
    const pid = Number(form.get('pid') ?? q.get('pid'));
    if (!user) return showMessage(q, '抱歉，您尚未登录，无法进行此操作', null);
    const found = findPost(tid, pid);
    if (!found) return showMessage(q, '抱歉，指定的主题不存在或已被删除或正在被审核', null);
    if (!form.get('formhash') || form.get('formhash') !== formhashOf(tid)) return showMessage(q, '您的请求来路不正确或表单验证串不符，无法提交', null);
    if (found.author.uid !== uidOf(user)) return showMessage(q, '抱歉，您没有权限编辑或删除这个帖子', null);
    const message = (form.get('message') ?? '').replace(/\r\n?/g, '\n').trim();
    if (!message) return showMessage(q, '抱歉，您尚未输入标题或内容', null);
    const at = Date.now();
    edits.set(pid, { body: message, by: user, at });
    posted.push({ kind: 'edit', tid, pid, user, uid: uidOf(user), message, at });
    return { status: 302, headers: { Location: `forum.php?mod=viewthread&tid=${tid}&page=${form.get('page') || found.page}&extra=#pid${pid}` }, body: Buffer.alloc(0) };
  }

  let selfUrl = '';
  /** Absolute links of the capture point at this server instead (as the real forum's would at its address). */
  const localise = (buf: Buffer): Buffer => {
    const base = site.capturedBase;
    if (!base || !selfUrl || buf.length === 0) return buf;
    return rebase(buf, base, selfUrl);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', () => res.destroy()); // a client that resets mid-request (a browser closing) is no server fault
    res.on('error', () => undefined);
    req.on('end', () => {
      void handle(req, res, Buffer.concat(chunks)).catch(() => res.destroy());
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): Promise<void> {
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

    const use = (kind: Fault['kind']): ActiveRule | undefined => active.find((a) => a.fault.kind === kind);
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

    const out = route(req, body, authed, authed ? sessions.get(cookies[authCookie] ?? '') ?? null : null);
    if (!out.onTheFly) out.body = localise(out.body); // pages built on the fly already link here
    const fixed = (opts.latencyMs ?? 0) - (performance.now() - arrived);
    if (fixed > 0) await new Promise((r) => setTimeout(r, fixed));
    const headers = { ...out.headers } as Record<string, string | string[]>;
    const charset = use('charset');
    if (charset && charset.fault.kind === 'charset' && isThread) {
      charset.used++;
      headers['Content-Type'] = charset.fault.contentType;
      // The meta tag is ASCII in every charset Discuz serves, so it can be cut from the bytes directly.
      if (charset.fault.stripMeta) out.body = Buffer.from(out.body.toString('latin1').replace(/<meta[^>]*charset=[^>]*>/gi, ''), 'latin1');
    }
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

  // A port already taken (EADDRINUSE) rejects here, for the caller to choose another.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
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
    posted,
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
    sessionState: (user?: string) => ({
      cookies: [{ name: authCookie, value: newSession(user), domain: host, path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' as const }],
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
    const bytes = captured === forum ? raw : rebase(raw, captured, forum);
    const out: ServedPage = { bytes, contentType: built.contentType, page: served };
    cache.set(key, { posts: thread.posts.length, forum, page: out });
    return out;
  };
}

// ——— Helpers of the posting endpoints ———

/** name → uid of the fixture's accounts (ids.json `users`), {} when the fixture has none. */
function readIdsUsers(root: string): Record<string, number> {
  const f = path.join(root, 'ids.json');
  if (!fs.existsSync(f)) return {};
  const users = (JSON.parse(fs.readFileSync(f, 'utf8')) as { users?: Record<string, number> }).users;
  return users ?? {};
}

function decodeCharset(buf: Buffer, charset: string): string {
  return charset.startsWith('gb') ? iconv.decode(buf, 'gbk') : buf.toString('utf8');
}

/** Text to bytes in a page's charset; in GBK a character it cannot hold becomes a numeric reference, as Discuz stores it. */
function encodeCharset(text: string, charset: string): Buffer {
  if (!charset.startsWith('gb')) return Buffer.from(text, 'utf8');
  const safe = text.replace(/[^\x00-\x7f]/gu, (ch) => (iconv.decode(iconv.encode(ch, 'gbk'), 'gbk') === ch ? ch : `&#${ch.codePointAt(0)};`));
  return iconv.encode(safe, 'gbk');
}

/**
 * An application/x-www-form-urlencoded body in the page's charset (a browser encodes a form in the
 * charset of the page that holds it; characters the charset lacks arrive as &#N; references).
 */
function parseForm(raw: Buffer, charset: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of raw.toString('latin1').split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const dec = (s: string): string => {
      const bytes = Buffer.from(s.replace(/\+/g, ' ').replace(/%([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1');
      const text = decodeCharset(bytes, charset);
      return charset.startsWith('gb') ? text.replace(/&#(\d+);/g, (_m, n: string) => String.fromCodePoint(Number(n))) : text;
    };
    out.set(dec(eq < 0 ? part : part.slice(0, eq)), eq < 0 ? '' : dec(part.slice(eq + 1)));
  }
  return out;
}

/** A rendered message back to plain text (lines kept): what the edit box shows for a captured post. */
function htmlToText(html: string): string {
  return html
    .replace(/<i class="pstatus">[\s\S]*?<\/i>(?:<br \/>)?\s*/g, '')
    .replace(/<br\s*\/?>\r?\n?/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#(\d+);/g, (_m, n: string) => String.fromCodePoint(Number(n))).replace(/&amp;/g, '&')
    .trim();
}

/**
 * The edit page of a reply, after Discuz X3.5's template/default/forum/post.htm with its subtemplates
 * post_editor_extra.htm, post_editor_body.htm and post_editor_attribute.htm (the public Discuz X3.5
 * source): form#postform posting to forum.php?mod=post&action=edit&extra=&editsubmit=yes with
 * onsubmit="return validate(this)", the hidden formhash / posttime / delattachop / wysiwyg (#e_mode) /
 * fid / tid / pid / page inputs, the subject input, the editor box div#e_body (display:none until
 * editor.js starts it) around textarea#e_textarea name="message", the parseurloff / smileyoff /
 * bbcodeoff options and button#postsubmit name="editsubmit". The scripts it names (forum_post.js,
 * editor.js) are not served here, so the form submits as plain HTML, which is what validate() ends
 * with too (postsubmit → theform.submit()).
 */
function editFormHtml(o: {
  charset: string; cookiepre: string; uid: number; user: string; base: string; formhash: string;
  fid: string; tid: number; pid: number; page: string; message: string; posttime: number;
}): string {
  const e = escapeHtml;
  return `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=${o.charset}" />
<title>编辑帖子 -  Discuz! Board</title>
<base href="${o.base}" /><script type="text/javascript">var STYLEID = '1', STATICURL = 'static/', IMGDIR = 'static/image/common', VERHASH = 'l53', charset = '${o.charset}', discuz_uid = '${o.uid}', cookiepre = '${o.cookiepre}', cookiedomain = '', cookiepath = '/', showusercard = '1', attackevasive = '0', disallowfloat = 'newthread', creditnotice = '', defaultstyle = '', SITEURL = '${o.base}', JSPATH = 'data/cache/', CSSPATH = 'data/cache/style_', DYNAMICURL = '';</script>
<script src="data/cache/common.js?l53" type="text/javascript"></script>
</head>
<body id="nv_forum" class="pg_post">
<div id="hd"><strong class="vwmy"><a href="home.php?mod=space&amp;uid=${o.uid}" target="_blank" title="访问我的空间">${e(o.user)}</a></strong></div>
<div id="wp" class="wp">
<script type="text/javascript">
var allowpostattach = parseInt('1');
var pid = parseInt('${o.pid}');
var tid = parseInt('${o.tid}');
var postminchars = parseInt('1');
var postmaxchars = parseInt('10000');
var disablepostctrl = parseInt('0');
var seccodecheck = parseInt('0');
var secqaacheck = parseInt('0');
var special = parseInt('0');
var isfirstpost = 0;
var fid = ${Number(o.fid) || 0};
var postaction = 'edit';
</script>
<script type="text/javascript" src="data/cache/forum_post.js?l53"></script>
<div id="pt" class="bm cl"><div class="z"><a href="./" class="nvhm" title="首页">Discuz! Board</a> <em>&rsaquo;</em><a href="forum.php?mod=redirect&goto=findpost&ptid=${o.tid}&pid=${o.pid}">RE</a> <em>&rsaquo;</em> 编辑帖子</div></div>
<form method="post" autocomplete="off" id="postform"
action="forum.php?mod=post&action=edit&extra=&editsubmit=yes" 
onsubmit="return validate(this)">
<div id="ct" class="ct2_a ct2_a_r wp cl">
<input type="hidden" name="formhash" id="formhash" value="${e(o.formhash)}" />
<input type="hidden" name="posttime" id="posttime" value="${o.posttime}" />
<input type="hidden" name="delattachop" id="delattachop" value="0" />
<input type="hidden" name="wysiwyg" id="e_mode" value="0" />
<input type="hidden" name="fid" id="fid" value="${e(o.fid)}" />
<input type="hidden" name="tid" value="${o.tid}" />
<input type="hidden" name="pid" value="${o.pid}" />
<input type="hidden" name="page" value="${e(o.page)}" />
<div class="bm bw0 cl" id="editorbox">
<div id="postbox">
<div class="pbt cl">
<div class="z">
<span><input type="text" name="subject" id="subject" class="px" value="" onkeyup="dstrLenCalc(this, 'checklen', 80);" style="width: 25em" tabindex="1" /></span>
<span id="subjectchk">还可输入 <strong id="checklen">80</strong> 个字符</span>
</div>
</div>
<div id="e_body_loading"><div class="loadicon vm"></div> 编辑器加载中...</div>
<div class="edt" id="e_body" style="display: none">
<div id="e_controls" class="bar">
<div class="y"><div class="z"><label id="e_switcher" class="bar_swch ptn"><input id="e_switchercheck" type="checkbox" class="pc" name="checkbox" value="0" checked="checked" onclick="switchEditor(this.checked?0:1)" />代码</label></div></div>
</div>
<div class="area">
<textarea name="message" id="e_textarea" class="pt" rows="15" tabindex="2">${e(o.message)}</textarea>
</div>
</div>
<div id="post_extra" class="ptm cl">
<div id="post_extra_c" class="um_cb">
<div id="extra_additional_c" class="exfm cl">
<label for="parseurloff"><input type="checkbox" name="parseurloff" id="parseurloff" class="pc" value="1" />禁用链接识别</label>
<label for="smileyoff"><input type="checkbox" name="smileyoff" id="smileyoff" class="pc" value="1" />禁用表情</label>
<label for="bbcodeoff"><input type="checkbox" name="bbcodeoff" id="bbcodeoff" class="pc" value="1" />禁用编辑器代码</label>
<label for="usesig"><input type="checkbox" name="usesig" id="usesig" class="pc" value="1" checked="checked" />使用个人签名</label>
</div>
</div>
</div>
<div class="mtm mbm pnpost">
<a href="home.php?mod=spacecp&ac=credit&op=rule&fid=${e(o.fid)}" class="y" target="_blank">本版积分规则</a>
<button type="submit" id="postsubmit" class="pn pnc" value="true" name="editsubmit">
<span>保存</span>
</button>
</div>
</div>
</div>
</div>
</form>
<iframe name="ajaxpostframe" id="ajaxpostframe" style="display: none;"></iframe>
</div>
</body>
</html>
`;
}
