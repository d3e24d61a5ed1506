import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { startReplayServer, synthPageSource, type ReplayServer, type ReplayOptions } from '../../src/replay/server.js';
import { synthGame } from '../../src/bench/synth-game.js';
import { parsePage } from '../../src/discuz/parse-page.js';
import { DISCUZ } from '../helpers/captured.js';
import { ids } from '../store/fixture-pages.js';

const servers: ReplayServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
async function start(o: ReplayOptions = {}) {
  const s = await startReplayServer(o);
  servers.push(s);
  return s;
}
const authCookie = (s: ReplayServer) => s.sessionState().cookies.map((c) => `${c.name}=${c.value}`).join('; ');
async function get(s: ReplayServer, p: string, cookie = authCookie(s)) {
  const res = await fetch(s.url + p, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}
const kindOf = (s: ReplayServer, p: string, r: { res: Response; bytes: Uint8Array }) =>
  parsePage({ bytes: r.bytes, url: s.url + p, fetchedAt: new Date(), status: r.res.status, contentType: r.res.headers.get('content-type') ?? undefined }).page;

describe('replay server', () => {
  test('serves the captured thread pages at the query and rewrite URLs, with links pointing at itself', async () => {
    const s = await start();
    const tid = ids.threads.d1talk.tid;
    const q = await get(s, `forum.php?mod=viewthread&tid=${tid}&page=2`);
    const w = await get(s, `thread-${tid}-2-1.html`);
    expect(q.res.status).toBe(200);
    expect(Buffer.from(w.bytes).equals(Buffer.from(q.bytes))).toBe(true);
    const text = Buffer.from(q.bytes).toString('utf8');
    expect(text).not.toContain(ids.base);
    expect(text).toContain(`<base href="${s.url}"`);
    expect(kindOf(s, 'x', q)).toMatchObject({ kind: 'thread', tid, page: 2 });
  });

  test('a page past the end is served as the last page, like Discuz', async () => {
    const s = await start();
    const tid = ids.threads.d1vote.tid;
    const last = s.pageCounts[tid];
    const r = await get(s, `forum.php?mod=viewthread&tid=${tid}&page=${last + 5}`);
    expect(kindOf(s, 'x', r)).toMatchObject({ page: last, pageCount: last });
  });

  test('the GBK capture is served with its charset, in both URL forms', async () => {
    const s = await start({ root: path.join(DISCUZ, 'public-gbk') });
    const q = await get(s, 'forum.php?mod=viewthread&tid=13&page=1');
    expect(q.res.headers.get('content-type')).toMatch(/gbk/i);
    const w = await get(s, 'thread-13-1-1.html');
    expect(kindOf(s, 'x', w)).toMatchObject({ kind: 'thread', tid: 13 });
  });

  test('guests get the real guest-denied page; the login form sets a session cookie', async () => {
    const s = await start();
    const tid = ids.threads.d1vote.tid;
    const guest = await get(s, `forum.php?mod=viewthread&tid=${tid}&page=1`, '');
    expect(kindOf(s, 'x', guest).kind).toBe('no-permission');
    const form = await get(s, 'member.php?mod=logging&action=login', '');
    expect(Buffer.from(form.bytes).toString()).toMatch(/<form[^>]*name="login"/);
    const post = (password: string) =>
      fetch(`${s.url}member.php?mod=logging&action=login&loginsubmit=yes&loginhash=X`, {
        method: 'POST', redirect: 'manual', body: new URLSearchParams({ username: '导演A', password }),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    const bad = await post('wrong');
    expect(bad.headers.getSetCookie()).toEqual([]);
    const good = await post('lab123456');
    expect(good.status).toBe(302);
    const cookie = good.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    expect(cookie).toContain(`${s.cookiePrefix}auth=`);
    const page = await get(s, `forum.php?mod=viewthread&tid=${tid}&page=1`, cookie);
    expect(kindOf(s, 'x', page).kind).toBe('thread');
    expect(s.requests.at(-1)).toMatchObject({ authenticated: true, path: `/forum.php?mod=viewthread&tid=${tid}&page=1` });
  });

  test('unknown and deleted threads answer with the not-found page (404)', async () => {
    const s = await start();
    const nf = await get(s, 'forum.php?mod=viewthread&tid=999&page=1');
    expect(nf.res.status).toBe(404);
    expect(kindOf(s, 'x', nf).kind).toBe('not-found');
    s.deleteThread(ids.threads.d1vote.tid);
    const del = await get(s, `forum.php?mod=viewthread&tid=${ids.threads.d1vote.tid}&page=1`);
    expect(kindOf(s, 'x', del).kind).toBe('not-found');
  });

  test('fault modes: System Error page, anti-CC once per path, session expiry, swapped page', async () => {
    const s = await start();
    const tid = ids.threads.d1vote.tid;
    const p = `forum.php?mod=viewthread&tid=${tid}&page=1`;
    s.setFault({ fault: { kind: 'status', status: 503 }, times: 1 });
    const e = await get(s, p);
    expect(e.res.status).toBe(503);
    expect(kindOf(s, p, e).kind).toBe('server-error');
    expect((await get(s, p)).res.status).toBe(200);

    s.setFault({ fault: { kind: 'anticc' } });
    const cc = await get(s, p);
    expect(kindOf(s, p, cc).kind).toBe('challenge');
    const last = cc.res.headers.getSetCookie()[0].split(';')[0];
    expect(last).toMatch(new RegExp(`^${s.cookiePrefix}lastrequest=`));
    expect(kindOf(s, p, await get(s, p, `${authCookie(s)}; ${last}`)).kind).toBe('thread');

    s.setFault({ fault: { kind: 'session-expiry', afterRequests: 1 } });
    const cookie = authCookie(s);
    expect(kindOf(s, p, await get(s, p, cookie)).kind).toBe('thread');
    expect(kindOf(s, p, await get(s, p, cookie)).kind).toBe('no-permission');

    s.setFault();
    s.swapPage(tid, 1, (html) => html.replace('</body>', '<!-- newer --></body>'));
    expect(Buffer.from((await get(s, p)).bytes).toString()).toContain('<!-- newer -->');
  });

  test('the fixture pages it serves are the ones in fixtures/discuz (no network)', async () => {
    const s = await start();
    const tid = ids.threads.process.tid;
    const r = await get(s, `forum.php?mod=viewthread&tid=${tid}&page=1`);
    const raw = fs.readFileSync(path.join(DISCUZ, 'public', `viewthread-t${tid}-p1.html`), 'utf8');
    expect(Buffer.from(r.bytes).toString('utf8')).toBe(raw.split(ids.base).join(s.url));
  });

  test('serves pages built on the fly (a synthetic game) after a fixed latency, past the end as the last page', async () => {
    const game = synthGame({ posts: 300 });
    const threads = game.threads.map((t) => ({ ...t, posts: [...t.posts] }));
    const s = await start({ pages: synthPageSource(() => threads), latencyMs: 30 });
    const gbk = threads.find((t) => t.family === 'gbk')!;
    const count = Math.ceil(gbk.posts.length / 20);
    const t0 = performance.now();
    const r = await get(s, `forum.php?mod=viewthread&tid=${gbk.tid}&page=${count + 3}`);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(29);
    expect(r.res.headers.get('content-type')).toMatch(/gbk/i);
    const page = kindOf(s, 'x', r);
    expect(page).toMatchObject({ kind: 'thread', tid: gbk.tid, page: count, pageCount: count });
    // links point at this server; the rewrite URL serves the same bytes
    expect(Buffer.from(r.bytes).toString('latin1')).toContain(`<base href="${s.url}"`);
    const w = await get(s, `thread-${gbk.tid}-${count}-1.html`);
    expect(Buffer.from(w.bytes).equals(Buffer.from(r.bytes))).toBe(true);
    // posts added later show up; guests are still refused; unknown tids fall through to not-found
    gbk.posts.push(...Array.from({ length: 20 }, (_, i) => ({ ...gbk.posts[1], pid: 900_000 + i, quote: undefined })));
    const grown = await get(s, `forum.php?mod=viewthread&tid=${gbk.tid}&page=${count + 1}`);
    expect(kindOf(s, 'x', grown)).toMatchObject({ page: count + 1, pageCount: count + 1 });
    expect(kindOf(s, 'x', await get(s, `forum.php?mod=viewthread&tid=${gbk.tid}&page=1`, '')).kind).toBe('no-permission');
    expect(kindOf(s, 'x', await get(s, 'forum.php?mod=viewthread&tid=424242&page=1')).kind).toBe('not-found');
  });
});
