/**
 * The closing cockpit (issue 33) in the real Chromium (/usr/bin/chromium through launchChromium) against
 * the replay server while day 2's ballots arrive (src/demo/live.ts: the captured threads served post by
 * post as a test clock moves): the ballots appear in order; a ruling click changes the count and the
 * rulings file, and undo takes it back; after the close the closing count equals `bansha close`'s; a
 * fetch failing at the close shows the count stale and 发布 refused, then, once a crawl succeeds, 发布
 * posts once and a second 发布 edits that post; requests without the token, with a foreign Host or
 * Origin, are refused. Screenshots at 390 and 1280 px go to fixtures/screenshots/cockpit-*.png.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCockpit, type RunningCockpit } from '../../src/cockpit/index.js';
import { chromiumPath, launchChromium } from '../../src/crawl/login.js';
import { liveGame } from '../../src/demo/live.js';
import type { Game } from '../../src/game/types.js';
import { startReplayServer, synthPageSource, type ReplayServer } from '../../src/replay/server.js';
import { readRulings, rulingsPath } from '../../src/game/rulings/file.js';
import { FIXTURES, ids as readIds } from '../helpers/captured.js';
import { bansha } from '../helpers/cli.js';
import { gameOnReplay } from '../helpers/replay-game.js';

const ids = readIds('public');
const VOTE = ids.threads.d2vote.tid;
const PROCESS = ids.threads.process.tid;
const SITE = path.join(FIXTURES, 'discuz', 'public');
/** Where the screenshots go: fixtures/screenshots with BANSHA_SCREENSHOTS=1 (for the docs), else the run's temp folder. */
const shots = () => (process.env.BANSHA_SCREENSHOTS ? path.join(FIXTURES, 'screenshots') : root);
const fast = { delayMs: 0, backoffMs: 2, maxBackoffMs: 20, challengeWaitMs: 2, timeoutMs: 3000, retries: 1, concurrency: 3 };
const hasChromium = fs.existsSync(chromiumPath());

let server: ReplayServer;
let browser: Browser;
let root: string;
let forumNow = 0;
let closes = 0;
const clock = { now: () => forumNow };
const at = (hm: string) => Date.parse(`2026-11-22T${hm}:00+08:00`);

/** A fresh game folder for the server: the public game file and a valid session, no store. */
const freshGame = (): Game => gameOnReplay(server, root);

/** The voters of the ballot rows, top to bottom. */
const voters = (page: Page) => page.locator('#ballots tbody tr td:nth-child(2)').evaluateAll((tds) => tds.map((td) => td.firstChild?.textContent?.trim() ?? ''));
/** A candidate's total as the page shows it. */
const total = (page: Page, name: string) => page.locator('#totals tr', { has: page.locator(`th:text-is("${name}")`) }).locator('td.num').textContent();

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-cockpit-'));
  closes = at('21:00');
  const live = liveGame(SITE, VOTE, PROCESS, closes);
  server = await startReplayServer({ pages: synthPageSource(() => live.at(forumNow)) });
  if (hasChromium) browser = await launchChromium(chromiumPath(), true, []);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe.skipIf(!hasChromium)('the closing cockpit in Chromium', () => {
  let game: Game;
  let running: RunningCockpit;
  let page: Page;

  test('ballots appear in order as they arrive, without a reload', async () => {
    game = freshGame();
    forumNow = at('11:10');
    running = await runCockpit({ game, day: 2, clock, intervalMs: 250, crawl: fast, log: () => undefined });
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[\w-]{32}\/$/);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(running.url);
    await expect.poll(() => voters(page), { timeout: 15_000 }).toEqual(['饺子']);
    await expect.poll(() => page.locator('#state').textContent()).toMatch(/进行中：实时票数 截至 11:1\d/);
    const reloads: string[] = [];
    page.on('framenavigated', (f) => reloads.push(f.url()));
    // when each view was made (the round's crawl and count done), and when the page drew it
    const made = new Map<number, number>();
    running.cockpit.subscribe((v) => made.set(v.version, Date.now()));
    await page.evaluate(() => {
      const w = window as unknown as { drawn: Record<number, number> };
      w.drawn = {};
      const live = document.getElementById('live')!;
      new MutationObserver(() => (w.drawn[Number(live.dataset.version)] ??= Date.now())).observe(live, { attributes: true, attributeFilter: ['data-version'] });
    });
    forumNow = at('13:05');
    await expect.poll(() => voters(page), { timeout: 15_000 }).toEqual(['饺子', '包子', '烧卖', '汤圆', '春卷']);
    const drawn = await page.evaluate(() => (window as unknown as { drawn: Record<number, number> }).drawn);
    expect(Object.keys(drawn).length).toBeGreaterThan(0);
    for (const [version, when] of Object.entries(drawn)) expect(when - made.get(Number(version))!).toBeLessThan(1000);
    forumNow = at('19:05');
    await expect.poll(async () => (await voters(page)).length, { timeout: 15_000 }).toBe(15);
    const all = await voters(page);
    expect(all.slice(-4)).toEqual(['饺子', '春卷', '饺子', '馒头']); // the changes and the out player's ballot, in floor order
    expect(reloads).toEqual([]);
    await expect.poll(() => page.locator('#state').textContent()).toMatch(/进行中：实时票数 截至 19:05/);
    // before the close: who leads, never a result's wording (rules-spec: a running count is no result)
    await expect.poll(() => page.locator('#totals p.result').textContent()).toContain('领先：月饼');
    expect(await page.locator('#totals').textContent()).not.toMatch(/出局|当选/);
    // the change superseded the first ballot; the acceleration requests with how many more are needed
    await page.locator('#ballots tr.b-superseded').first().waitFor({ state: 'visible', timeout: 10_000 });
    await expect.poll(() => page.locator('#acceleration').textContent(), { timeout: 10_000 }).toContain('申请加速');
    await expect.poll(() => page.locator('#acceleration li').first().textContent(), { timeout: 10_000 }).toContain('pid');
    await expect.poll(() => page.locator('#missing').textContent(), { timeout: 10_000 }).toContain('尚未投票');
    await page.screenshot({ path: path.join(shots(), 'cockpit-1280.png'), fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: path.join(shots(), 'cockpit-390.png'), fullPage: false });
    // nothing overflows the phone's width
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 900 });
  }, 90_000);

  test('a ruling click changes the count and the rulings file; undo takes it back', async () => {
    const WHY = '测试：导演驳回 <img src=x onerror="window.pwned=1">';
    const before = Number(await total(page, '花卷'));
    // 月饼's ballot for 花卷 (floor 11): rejected by the director
    const row = page.locator('#ballots tbody tr', { has: page.locator('td:nth-child(2):text-is("月饼")') }).first();
    const pid = Number(await row.getAttribute('data-pid'));
    await row.locator('button[data-act="reject"]').click();
    await page.fill('#ask-why', WHY);
    await page.click('#ask-ok');
    await expect.poll(async () => Number(await total(page, '花卷')), { timeout: 10_000 }).toBe(before - 1);
    const file = readRulings(rulingsPath(game.file));
    expect(file.entries).toEqual([expect.objectContaining({ verb: 'reject', subject: 'ballot', pid, day: 2, why: WHY })]);
    // the CLI reads the same file: rule list shows it
    const list = await bansha(['rule', 'list', '--game', game.file]);
    expect(list.stdout).toContain('测试：导演驳回');
    // the text is shown as text, never as markup (the ballot's reason and the rulings list)
    await expect.poll(() => page.locator('#rulings').textContent()).toContain(WHY);
    expect(await page.locator('#live img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await row.locator('.reason').textContent()).toContain(WHY);
    await page.locator('#rulings button[data-act="undo"]').click();
    await expect.poll(async () => Number(await total(page, '花卷')), { timeout: 10_000 }).toBe(before);
    expect(readRulings(rulingsPath(game.file)).entries.at(-1)).toMatchObject({ verb: 'undo', undoes: file.entries[0].id });
  }, 60_000);

  test('after the close: the closing count, the late ballot not counted, and the count equals `bansha close`\'s', async () => {
    forumNow = closes + 60_000;
    await expect.poll(() => page.locator('#status').getAttribute('class'), { timeout: 20_000 }).toBe('state final');
    await expect.poll(() => page.locator('#state').textContent(), { timeout: 10_000 }).toMatch(/关门计票/);
    await expect.poll(() => page.locator('#totals p.result').textContent(), { timeout: 10_000 }).toContain('出局');
    const state = await (await fetch(`${running.url}api/state`, { headers: {} })).json() as { tally: { ballots: Array<{ voter: string; status: string; at: string; reason: string | null }> } };
    // the late ballot (a change 40 s after the close) arrived last and is not counted, with why
    const late = state.tally.ballots.filter((b) => Date.parse(b.at) > closes);
    expect(late).toEqual([expect.objectContaining({ voter: '馒头', status: 'rejected' })]);
    expect(late[0].reason).toMatch(/关门/);
    expect(state.tally.ballots.at(-1)).toBe(late[0]);
    expect(await voters(page)).toHaveLength(16);
    await expect.poll(() => page.locator('#announce textarea').textContent(), { timeout: 10_000 }).toContain('投票');
    await expect.poll(() => page.locator('#publish').isEnabled(), { timeout: 10_000 }).toBe(true);
    const out = path.join(root, 'close-out');
    const closed = await bansha(['close', '--game', game.file, '--day', '2', '--no-crawl', '--out', out], { BANSHA_NOW: String(closes + 120_000) });
    expect(closed.code).toBe(0);
    expect(state.tally).toEqual(JSON.parse(fs.readFileSync(path.join(out, 'tally-day2.json'), 'utf8')));
    await running.stop();
    await page.close();
  }, 60_000);
});

describe.skipIf(!hasChromium)('a fetch failing at the close, then 发布', () => {
  test('the count is shown stale and 发布 refused; once a crawl succeeds 发布 posts, and again edits', async () => {
    const game = freshGame();
    forumNow = at('20:50');
    const running = await runCockpit({ game, day: 2, clock, intervalMs: 250, crawl: fast, log: () => undefined });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await page.goto(running.url);
      await expect.poll(async () => (await voters(page)).length, { timeout: 20_000 }).toBe(15);
      server.setFault({ fault: { kind: 'status', status: 503 }, path: `tid=${VOTE}&` });
      forumNow = closes + 60_000;
      await expect.poll(() => page.locator('#status').getAttribute('class'), { timeout: 20_000 }).toBe('state stale');
      await expect.poll(() => page.locator('#state').textContent(), { timeout: 10_000 }).toContain('不是关门计票');
      await expect.poll(() => page.locator('#stale').textContent(), { timeout: 10_000 }).toContain(`帖子 ${VOTE} 仅截至 11-22 20:5`);
      await expect.poll(() => page.locator('#publish').isEnabled(), { timeout: 10_000 }).toBe(false);
      await expect.poll(() => page.locator('#refusal').textContent(), { timeout: 10_000 }).toContain(`帖子 ${VOTE}`);
      // the server refuses it too (exit 7), whatever the page shows
      const refused = await page.evaluate(async () => {
        const r = await fetch('api/publish', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
        return { status: r.status, body: await r.json() };
      });
      expect(refused).toMatchObject({ status: 409, body: { exitCode: 7 } });
      expect(server.posted).toHaveLength(0);
      await page.screenshot({ path: path.join(shots(), 'cockpit-stale-1280.png') });

      server.setFault();
      await expect.poll(() => page.locator('#status').getAttribute('class'), { timeout: 20_000 }).toBe('state final');
      await expect.poll(() => page.locator('#publish').isEnabled(), { timeout: 10_000 }).toBe(true);
      await page.screenshot({ path: path.join(shots(), 'cockpit-closed-1280.png'), fullPage: true });
      await page.click('#publish');
      await page.click('#ask-ok');
      await page.locator('#published').waitFor({ state: 'visible', timeout: 60_000 });
      expect(server.posted.map((p) => [p.kind, p.tid])).toEqual([['reply', VOTE]]);
      const first = server.posted[0];
      await expect.poll(() => page.locator('#announce').textContent(), { timeout: 10_000 }).toContain(`pid ${first.pid}`); // the next 发布 edits that post
      await page.click('#publish');
      await page.click('#ask-ok');
      await expect.poll(() => server.posted.length, { timeout: 60_000 }).toBe(2);
      expect(server.posted[1]).toMatchObject({ kind: 'edit', tid: VOTE, pid: first.pid });
    } finally {
      server.setFault();
      await page.close();
      await running.stop();
    }
  }, 180_000);
});

/** A raw request to the cockpit with the headers given (Host included), its status. */
function request(port: number, pathName: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: pathName, method, headers, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('who may talk to the cockpit', () => {
  test('the token, the Host and the Origin are required; the page has a CSP and no inline script; stop leaves nothing listening', async () => {
    const game = freshGame();
    forumNow = at('20:00');
    const running = await runCockpit({ game, day: 2, clock, intervalMs: 60_000, crawl: fast, log: () => undefined });
    const { port, token } = running.server;
    const host = `127.0.0.1:${port}`;
    try {
      await running.cockpit.idle();
      const ok = await fetch(running.url);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
      expect(ok.headers.get('referrer-policy')).toBe('no-referrer');
      const html = await ok.text();
      expect(html.match(/<script[^>]*>/g)).toEqual(['<script type="module" src="assets/cockpit.js">']);
      expect(html).not.toMatch(/\son[a-z]+=/i); // no inline handlers either
      expect(await request(port, `/${token}/`, { Host: host })).toBe(200);
      expect(await request(port, `/${token}/events`, { Host: host, Accept: 'text/event-stream' })).toBe(200);
      // without the token, or a wrong one: the page, the assets, the stream, the API
      for (const p of ['/', '/assets/cockpit.js', '/events', '/api/state', `/${token.slice(1)}x/`, `/${token}x/api/state`]) expect(await request(port, p, { Host: host })).toBe(403);
      // a foreign Host (DNS rebinding) or Origin
      expect(await request(port, `/${token}/api/state`, { Host: `evil.example:${port}` })).toBe(403);
      expect(await request(port, `/${token}/events`, { Host: `evil.example:${port}` })).toBe(403);
      expect(await request(port, `/${token}/api/state`, { Host: host, Origin: 'http://evil.example' })).toBe(403);
      const json = { 'Content-Type': 'application/json' };
      expect(await request(port, `/${token}/api/undo`, { Host: host, Origin: 'http://evil.example', ...json }, 'POST', '{"id":1}')).toBe(403);
      // a change without this server's Origin, or not as JSON (a cross-site form)
      expect(await request(port, `/${token}/api/undo`, { Host: host, ...json }, 'POST', '{"id":1}')).toBe(403);
      expect(await request(port, `/${token}/api/undo`, { Host: host, Origin: `http://${host}`, 'Content-Type': 'application/x-www-form-urlencoded' }, 'POST', 'id=1')).toBe(403);
      // what the page's own script sends passes the guard (and is answered with the refusal's words)
      expect(await request(port, `/${token}/api/undo`, { Host: host, Origin: `http://${host}`, ...json }, 'POST', '{"id":1}')).toBe(409);
      // the page never gets the forum session's cookies
      expect(ok.headers.get('set-cookie')).toBeNull();
      expect(html).not.toContain(JSON.parse(fs.readFileSync(game.sessionPath, 'utf8')).cookies[0].value);
    } finally {
      await running.stop();
    }
    await expect(request(port, `/${token}/`, { Host: host })).rejects.toThrow(/ECONNREFUSED/);
    expect(fs.readdirSync(path.dirname(game.storePath)).filter((f) => f.endsWith('.lock'))).toEqual([]);
  }, 60_000);
});
