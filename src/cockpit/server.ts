/**
 * The cockpit's local web server (issue 33): Hono on @hono/node-server, listening on 127.0.0.1 only.
 * Every request must carry the random token as the first part of its path (`/<token>/…`: the page's own
 * relative links keep it, the event stream included) and a Host naming this server (127.0.0.1:PORT or
 * localhost:PORT: a DNS-rebound name is refused); a request carrying an Origin must come from this
 * server; a change (POST) must be JSON from this server. Answers carry a Content-Security-Policy that
 * allows only this server's CSS and JS module (no inline script), no referrer (the token stays here),
 * no caching. The page never receives a cookie or the forum session: the server posts for it.
 *
 * Routes under /<token>/: the page, assets/cockpit.css and assets/cockpit.js (files shipped in the
 * package: src/cockpit/assets), events (server-sent events: each new view's live HTML), api/state
 * (the view as JSON, for scripts and tests), api/rule, api/undo, api/card, api/publish.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { serve } from '@hono/node-server';
import { packagePath } from '../paths.js';
import { UserError } from '../errors.js';
import { t } from '../i18n/index.js';
import { renderTallyJson } from '../render/tally-json.js';
import { renderLive, renderPage } from './render.js';
import type { Cockpit, CockpitView } from './state.js';

/** The page's static files, shipped in the package (package.json `files`). */
export const ASSETS_DIR = packagePath('src', 'cockpit', 'assets');
const ASSETS: Record<string, string> = { 'cockpit.css': 'text/css; charset=utf-8', 'cockpit.js': 'text/javascript; charset=utf-8' };

export const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

export interface CockpitServer {
  /** The page's address, token included. */
  url: string;
  port: number;
  token: string;
  /** Stops listening, ends every open event stream; resolves when nothing is listening. */
  close(): Promise<void>;
}

/** The live part of a view and what the page's countdown needs, as one event. */
export function viewEvent(v: CockpitView, rate: number): string {
  return JSON.stringify({ version: v.version, now: v.now, closes: v.closes, open: v.open, rate, html: renderLive(v) });
}

/** A view as JSON for scripts: the state, the count as `tally --json` writes it, the refusal. */
function viewJson(v: CockpitView): unknown {
  return {
    version: v.version, day: v.day, now: v.now, closes: v.closes, open: v.open, asOf: v.asOf,
    stale: v.stale, incomplete: v.incomplete, lastCrawl: v.lastCrawl, countError: v.countError,
    tally: v.tally ? JSON.parse(renderTallyJson(v.tally)) : null,
    rulings: v.rulings, cards: v.cards, publishRefusal: v.publishRefusal, published: v.published,
    announcement: v.announcement ? { bbcode: v.announcement.bbcode, kind: v.announcement.plan.kind, tid: v.announcement.plan.tid, pid: v.announcement.plan.target?.pid ?? null, as: v.announcement.poster } : null,
  };
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Starts the server for `cockpit` on 127.0.0.1:`port` (0: any free port). */
export async function startCockpitServer(cockpit: Cockpit, opts: { port?: number; rate?: number; title: string }): Promise<CockpitServer> {
  const token = randomBytes(24).toString('base64url');
  const rate = opts.rate ?? 1;
  const stop = new AbortController();
  let port = 0;
  const hosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];
  const origins = () => hosts().map((h) => `http://${h}`);

  const app = new Hono({ strict: false });
  // Every answer: no inline script, no framing, no referrer, not cached, not sniffed.
  app.use('*', async (c, next) => {
    await next();
    c.header('Content-Security-Policy', CSP);
    c.header('Referrer-Policy', 'no-referrer');
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('X-Frame-Options', 'DENY');
    c.header('Cache-Control', 'no-store');
  });
  // The guard: Host, Origin, token — before any route.
  app.use('*', async (c, next) => {
    const host = c.req.header('host') ?? '';
    const origin = c.req.header('origin');
    const first = new URL(c.req.url).pathname.split('/')[1] ?? '';
    if (!hosts().includes(host) || (origin !== undefined && !origins().includes(origin)) || !sameSecret(first, token)) {
      return c.text(t('cockpit.refused'), 403);
    }
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      // A change comes from the page: this server's origin, as JSON (a cross-site form cannot send that).
      if (origin === undefined || !(c.req.header('content-type') ?? '').startsWith('application/json')) return c.text(t('cockpit.refused'), 403);
    }
    return next();
  });

  const base = new Hono({ strict: false });
  base.get('/', (c) => c.html(renderPage(cockpit.view, opts.title)));
  base.get('/assets/:name', (c) => {
    const name = c.req.param('name');
    const type = ASSETS[name];
    if (!type) return c.notFound();
    return c.body(fs.readFileSync(`${ASSETS_DIR}/${name}`), 200, { 'Content-Type': type });
  });
  base.get('/api/state', (c) => {
    const v = cockpit.view;
    return v ? c.json(viewJson(v)) : c.json({ version: 0 }, 503);
  });
  base.get('/events', (c) => streamSSE(c, async (stream) => {
    let wake: (() => void) | null = null;
    let pending: CockpitView | null = cockpit.view;
    const off = cockpit.subscribe((v) => {
      pending = v;
      wake?.();
    });
    const onStop = () => wake?.();
    stop.signal.addEventListener('abort', onStop);
    stream.onAbort(() => wake?.());
    try {
      while (!stream.aborted && !stop.signal.aborted) {
        if (pending) {
          const v = pending;
          pending = null;
          await stream.writeSSE({ event: 'view', id: String(v.version), data: viewEvent(v, rate) });
          continue;
        }
        // A comment line now and then keeps proxies and the browser from timing the stream out.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 15_000);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
        if (!pending && !stream.aborted && !stop.signal.aborted) await stream.write(': keep-alive\n\n');
      }
    } finally {
      off();
      stop.signal.removeEventListener('abort', onStop);
    }
  }));
  base.post('/api/rule', (c) => act(c, async (body) => {
    const verb = body.verb === 'accept' || body.verb === 'reject' ? body.verb : null;
    const pid = Number(body.pid);
    if (!verb || !Number.isInteger(pid) || pid <= 0) throw new UserError(t('cockpit.badRequest', 'verb, pid'));
    const { lines } = await cockpit.rule(verb, String(pid), String(body.why ?? ''));
    return { lines };
  }));
  base.post('/api/undo', (c) => act(c, async (body) => {
    const id = Number(body.id);
    if (!Number.isInteger(id) || id <= 0) throw new UserError(t('cockpit.badRequest', 'id'));
    const { ruling } = await cockpit.undo(id);
    return { undone: ruling.id };
  }));
  base.post('/api/card', (c) => act(c, async (body) => {
    const status = body.status === 'confirmed' || body.status === 'dismissed' ? body.status : null;
    if (!status || typeof body.id !== 'string') throw new UserError(t('cockpit.badRequest', 'id, status'));
    const note = typeof body.note === 'string' && body.note.trim() ? body.note.trim() : undefined;
    const { card } = await cockpit.card(body.id, status, note);
    return { card: card.id, status: card.status };
  }));
  base.post('/api/publish', (c) => act(c, async () => {
    const r = await cockpit.publish();
    return { url: r.url, pid: r.pid };
  }));
  app.route(`/${token}`, base);

  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: opts.port ?? 0 }, () => resolve(s as Server));
    (s as Server).once('error', reject);
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/${token}/`,
    port,
    token,
    close: () => new Promise<void>((resolve) => {
      stop.abort();
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/** Runs one of the director's acts: its answer as JSON, a refusal (a UserError) as 409 with its words. */
async function act(c: Context, run: (body: Record<string, unknown>) => Promise<unknown>): Promise<Response> {
  let body: Record<string, unknown>;
  try {
    const parsed: unknown = await c.req.json();
    body = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return c.json({ error: t('cockpit.badRequest', 'JSON') }, 400);
  }
  try {
    return c.json({ ok: true, ...((await run(body)) as object) });
  } catch (err) {
    if (err instanceof UserError) return c.json({ error: err.message, exitCode: err.exitCode }, 409);
    throw err;
  }
}
