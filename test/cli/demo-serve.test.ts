/**
 * `bansha demo --serve`: the real command (bin/bansha.js) runs the demo and keeps the bundled forum
 * running, with the demo's game file and session pointing at it. Asked for a port that is taken, it
 * serves on another and says so. While it runs: the HTML report's post links open, a crawl fetches from
 * it, `close --day 2` closes against it and (with Chromium) `--post --yes` posts the announcement there,
 * which the forum then shows. Ctrl-C (SIGINT) stops it: the forum is gone, the command says so and exits 0.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bansha } from '../helpers/cli.js';
import { startBansha, type RunningBansha } from '../helpers/child.js';
import { loadGame } from '../../src/game/game-file.js';

const hasChromium = fs.existsSync(process.env.BANSHA_CHROMIUM ?? '/usr/bin/chromium');
const here = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-serve-'));

let child: RunningBansha['child'] | undefined;
let blocker: net.Server | undefined;
afterAll(() => {
  child?.kill('SIGKILL');
  blocker?.close();
});

/** Until `text` holds `mark`, or the child ends, or `ms` pass. */
function waitFor(read: () => string, mark: string, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      if (read().includes(mark)) return resolve();
      if (child?.exitCode !== null) return reject(new Error(`bansha demo --serve ended: ${read()}`));
      if (Date.now() - started > ms) return reject(new Error(`no "${mark}" after ${ms} ms: ${read()}`));
      setTimeout(tick, 100);
    };
    tick();
  });
}

describe('bansha demo --serve', () => {
  it('keeps the forum running for crawl, close and --post --yes, on another port when the asked one is taken; Ctrl-C stops it with exit 0', async () => {
    // a port someone else holds
    blocker = net.createServer();
    await new Promise<void>((r) => blocker!.listen(0, '127.0.0.1', r));
    const taken = (blocker.address() as net.AddressInfo).port;

    const demo = startBansha(['demo', '--serve', '--port', String(taken)], { cwd: here });
    child = demo.child;
    await waitFor(demo.out, '按 Ctrl-C 停止本地论坛', 90_000);
    const stdout = demo.out();

    const gameFile = path.join(here, 'bansha-demo', 'game.yaml');
    const game = loadGame(gameFile);
    expect(game.forum).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(game.forum).not.toContain(`:${taken}/`);
    expect(stdout).toContain(`端口 ${taken} 已被占用`);
    expect(stdout).toContain(`本地论坛在运行：${game.forum}（账号 导演A，密码 lab123456）`);
    expect(stdout).toContain(`bansha close --day 2 -g .${path.sep}bansha-demo${path.sep}game.yaml --post --yes`);
    expect(fs.readFileSync(gameFile, 'utf8')).toMatch(/^forum: http:\/\/127\.0\.0\.1:\d+\/ +# 演示用的本地论坛：只在 bansha demo --serve 运行时在线$/m);

    // the HTML report's links open while it runs
    const html = fs.readFileSync(path.join(here, 'bansha-demo', 'game-day2', 'report-day2.html'), 'utf8');
    const link = /href="(http:\/\/127\.0\.0\.1:\d+\/forum\.php\?mod=redirect&amp;goto=findpost[^"]*)"/.exec(html)![1].replaceAll('&amp;', '&');
    expect(link.startsWith(game.forum)).toBe(true);
    const cookie = sessionCookie(path.join(here, 'bansha-demo', 'game.session.json'));
    const opened = await fetch(link, { headers: { cookie } });
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain('id="postlist"');

    // a crawl and a close against it
    const crawl = await bansha(['crawl', '--game', gameFile, '--json']);
    expect(crawl.code, crawl.out).toBe(0);
    expect(JSON.parse(crawl.stdout)).toMatchObject({ complete: true });
    if (hasChromium) {
      const posted = await bansha(['close', '--day', '2', '--game', gameFile, '--post', '--yes']);
      expect(posted.code, posted.out).toBe(0);
      expect(posted.stdout).toContain('已发布：已回复帖子 5，身份 导演A');
      // the forum shows it: the last page of the vote thread holds the announcement
      const page = await fetch(`${game.forum}forum.php?mod=viewthread&tid=5&page=99`, { headers: { cookie } });
      expect(await page.text()).toContain('bansha 计票 · 第2日');
    } else {
      const dry = await bansha(['close', '--day', '2', '--game', gameFile, '--post']);
      expect(dry.code, dry.out).toBe(0);
      expect(dry.stdout).toContain('bansha 计票 · 第2日');
    }

    // Ctrl-C
    child.kill('SIGINT');
    expect(await demo.exited).toBe(0);
    expect(demo.out().trimEnd().endsWith('本地论坛已停止。')).toBe(true);
    expect(demo.err()).not.toMatch(/Error|错误/);
    await expect(fetch(game.forum)).rejects.toThrow();
  }, 180_000);
});

/** The Cookie header of a saved session (Playwright storage state). */
function sessionCookie(file: string): string {
  const state = JSON.parse(fs.readFileSync(file, 'utf8')) as { cookies: Array<{ name: string; value: string }> };
  return state.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}
