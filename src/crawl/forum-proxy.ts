/**
 * The only way out for bansha's browser: a local HTTP proxy that forwards requests to the forum's host
 * and refuses every other (403, never forwarded). Chromium is launched with it as its proxy, loopback
 * included, so every request the browser makes — page loads, subresources, form posts, and each hop
 * of a redirect chain, which Playwright's route interception never sees — is checked here before it
 * can leave the machine. HTTPS to the forum is tunnelled (CONNECT to the forum's host and port only);
 * WebSocket upgrades are refused (Discuz uses none). The proxy follows no redirect itself.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { HostScope } from './http.js';

/** A running forum-only proxy. */
export interface ForumProxy {
  /** The proxy's URL, for Chromium's `proxy.server`. */
  server: string;
  /** Every URL (or https://host:port for a tunnel) refused because it is off the forum's host. */
  refused: string[];
  close(): Promise<void>;
}

/** Request headers that belong to the hop to the proxy, not to the forum. */
const HOP_HEADERS = new Set(['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'transfer-encoding']);

/** Start a proxy on 127.0.0.1 (any free port) that forwards only what `scope` allows. */
export async function startForumProxy(scope: HostScope): Promise<ForumProxy> {
  const refused: string[] = [];
  const sockets = new Set<net.Socket>();

  const server = http.createServer((req, res) => {
    const target = req.url ?? '';
    if (!/^http:\/\//i.test(target) || !scope.allows(target)) {
      refused.push(target);
      res.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' }).end('bansha: only the forum host may be requested');
      req.resume();
      return;
    }
    const u = new URL(target);
    const headers: http.OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(req.headers)) if (!HOP_HEADERS.has(k) && v !== undefined) headers[k] = v;
    const upstream = http.request(
      { host: u.hostname, port: u.port || 80, method: req.method, path: `${u.pathname}${u.search}`, headers },
      (answer) => {
        const out: http.OutgoingHttpHeaders = {};
        for (const [k, v] of Object.entries(answer.headers)) if (!HOP_HEADERS.has(k) && v !== undefined) out[k] = v;
        res.writeHead(answer.statusCode ?? 502, out);
        answer.on('error', () => res.destroy()); // the forum reset mid-answer: the browser sees a failed load
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    // A browser that resets its side (a tab closed mid-load) must not take the proxy down with an unhandled ECONNRESET.
    req.on('error', () => upstream.destroy());
    res.on('error', () => upstream.destroy());
    res.on('close', () => upstream.destroy()); // the browser gave up (or the answer is done): nothing left dangling
    req.pipe(upstream);
  });

  // A CONNECT's or an upgrade's socket is handed over without Node's own error handler: a browser that
  // resets it (Chromium closing with a background call refused) would be an unhandled ECONNRESET.
  const ownErrors = (socket: net.Socket) => socket.on('error', () => socket.destroy());
  server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    ownErrors(socket);
    const [host, port] = splitHostPort(req.url ?? '');
    const asUrl = `https://${req.url ?? ''}/`;
    if (!host || !scope.allows(asUrl)) {
      refused.push(`https://${req.url ?? ''}`);
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = net.connect(port, host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });

  server.on('clientError', (_err, socket: net.Socket) => socket.destroy());
  server.on('upgrade', (req: http.IncomingMessage, socket: net.Socket) => {
    ownErrors(socket);
    refused.push(req.url ?? '');
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server: `http://127.0.0.1:${port}`,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** "host:port" or "[v6]:port" → [host, port]; port 443 when absent. */
function splitHostPort(authority: string): [string, number] {
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(authority) ?? /^([^:]+)(?::(\d+))?$/.exec(authority);
  return m ? [m[1], Number(m[2] ?? 443)] : ['', 0];
}
