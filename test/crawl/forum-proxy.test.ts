/**
 * The forum-only proxy on its own, spoken to as Chromium speaks to it (absolute-form requests, CONNECT
 * for HTTPS, WebSocket upgrades): the forum's host is forwarded, with the answer passed back untouched
 * (a redirect is not followed); any other host — another address, another port — is refused with 403
 * and never contacted.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HostScope } from '../../src/crawl/http.js';
import { startForumProxy, type ForumProxy } from '../../src/crawl/forum-proxy.js';
import { startReplayServer, type ReplayServer } from '../../src/replay/server.js';

let forum: ReplayServer;
let far: ReplayServer;
let proxy: ForumProxy;

beforeAll(async () => {
  forum = await startReplayServer();
  far = await startReplayServer({ host: '127.0.0.2' });
  proxy = await startForumProxy(new HostScope(forum.url));
});
afterAll(async () => {
  await Promise.all([proxy?.close(), forum?.close(), far?.close()]);
});

/** One raw request line + headers to the proxy; resolves with what it answered first. */
function ask(lines: string[]): Promise<string> {
  const { port } = new URL(proxy.server);
  return new Promise((resolve, reject) => {
    const s = net.connect(Number(port), '127.0.0.1', () => s.write(`${lines.join('\r\n')}\r\n\r\n`));
    let got = '';
    s.on('data', (d) => {
      got += d.toString('latin1');
      if (got.includes('\r\n\r\n')) {
        s.destroy();
        resolve(got);
      }
    });
    s.on('error', reject);
    s.on('close', () => resolve(got));
  });
}

describe('the forum-only proxy', () => {
  test('forwards a request to the forum and passes its redirect back unfollowed', async () => {
    const host = new URL(forum.url).host;
    forum.setFault({ fault: { kind: 'redirect', location: `${far.url}x` }, path: 'mod=logging' });
    try {
      const answer = await ask([`GET ${forum.url}member.php?mod=logging&action=login HTTP/1.1`, `Host: ${host}`, 'Connection: close']);
      expect(answer).toMatch(/^HTTP\/1\.1 302/);
      expect(answer).toContain(`location: ${far.url}x`);
    } finally {
      forum.setFault();
    }
    expect(forum.requests.at(-1)?.path).toBe('/member.php?mod=logging&action=login');
    expect(far.requests).toEqual([]);
  });

  test.each([
    ['another address', () => `${far.url}forum.php`],
    ['the forum\'s address on another port', () => forum.url.replace(/:\d+\//, ':9/')],
    ['localhost for 127.0.0.1', () => forum.url.replace('127.0.0.1', 'localhost')],
  ])('refuses %s (403), never contacting it', async (_name, url) => {
    const target = url();
    const answer = await ask([`GET ${target} HTTP/1.1`, `Host: ${new URL(target).host}`, 'Connection: close']);
    expect(answer).toMatch(/^HTTP\/1\.1 403/);
    expect(proxy.refused).toContain(target);
    expect(far.requests).toEqual([]);
  });

  test('refuses a CONNECT tunnel to another host and any WebSocket upgrade', async () => {
    expect(await ask(['CONNECT 127.0.0.2:443 HTTP/1.1', 'Host: 127.0.0.2:443'])).toMatch(/^HTTP\/1\.1 403/);
    expect(proxy.refused).toContain('https://127.0.0.2:443');
    const ws = await ask([`GET ${forum.url}ws HTTP/1.1`, `Host: ${new URL(forum.url).host}`, 'Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==']);
    expect(ws).toMatch(/^HTTP\/1\.1 403/);
  });

  test.each([
    ['a refused CONNECT', ['CONNECT 127.0.0.2:443 HTTP/1.1', 'Host: 127.0.0.2:443']],
    ['a refused WebSocket upgrade', ['GET /ws HTTP/1.1', 'Host: x', 'Connection: Upgrade', 'Upgrade: websocket']],
  ])('%s whose browser resets the connection (Chromium closing) does not take the proxy down', async (_name, lines) => {
    // The 403 is read, then the peer sends a TCP reset: the proxy's socket errors (ECONNRESET) after Node's
    // own handler has left it, as a browser closing with a background call open does.
    const { port } = new URL(proxy.server);
    await new Promise<void>((resolve, reject) => {
      const s = net.connect(Number(port), '127.0.0.1', () => s.write(`${lines.join('\r\n')}\r\n\r\n`));
      s.once('data', () => s.resetAndDestroy());
      s.on('error', reject);
      s.on('close', () => resolve());
    });
    await new Promise((r) => setTimeout(r, 50)); // the reset reaches the proxy's socket
    const host = new URL(forum.url).host;
    expect(await ask([`GET ${forum.url}forum.php HTTP/1.1`, `Host: ${host}`, 'Connection: close'])).toMatch(/^HTTP\/1\.1 200/);
  });
});
