/**
 * Secrets: the session file is owner-only (0600) and refused when others can read it; no cookie value
 * or password ever appears in logs, progress or error messages — checked by capturing everything the
 * `crawl` command prints while the session expires, the anti-CC cookie is set and pages fail.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { Command } from 'commander';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { CookieJar, readSession, saveSession } from '../../src/crawl/session.js';
import { crawlGame } from '../../src/crawl/crawler.js';
import { register } from '../../src/cli/commands/crawl.js';
import { reportError } from '../../src/cli/errors.js';
import { loadGame } from '../../src/game/game-file.js';
import { startReplayServer } from '../../src/replay/server.js';
import { ids } from '../store/fixture-pages.js';

const dirs: string[] = [];
const tmpDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-session-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  vi.restoreAllMocks();
});

const secretState = {
  cookies: [{ name: 'Sv7L_2132_auth', value: 'S3CRET-auth-value-9f8e7d', domain: '127.0.0.1', path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' as const }],
  origins: [],
};

describe('session file', () => {
  test('is written owner-only (0600) whatever the umask, and read back', async () => {
    const file = path.join(tmpDir(), 'sub', 'game.session.json');
    const old = process.umask(0);
    try {
      await saveSession(file, secretState);
    } finally {
      process.umask(old);
    }
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect((await readSession(file)).cookies[0].name).toBe('Sv7L_2132_auth');
  });

  test.each([0o644, 0o640, 0o604, 0o660])('mode %o is refused (exit 4) without printing the cookie', async (mode) => {
    const file = path.join(tmpDir(), 'game.session.json');
    await saveSession(file, secretState);
    fs.chmodSync(file, mode);
    const err = await readSession(file, 'game.yaml').catch((e) => e);
    expect(err.exitCode).toBe(4);
    expect(err.message).toContain('chmod 600');
    expect(err.message).not.toContain('S3CRET');
  });

  test('a missing or malformed session asks for a login and never echoes the content', async () => {
    const dir = tmpDir();
    await expect(readSession(path.join(dir, 'none.json'), 'g.yaml')).rejects.toThrow(/bansha login --game g\.yaml/);
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, '{"cookies": "S3CRET-auth-value-9f8e7d', { mode: 0o600 });
    const err = await readSession(bad).catch((e) => e);
    expect(err.exitCode).toBe(4);
    expect(err.message).not.toContain('S3CRET');
  });

  test('the cookie jar prints names only, and matches domain, path and expiry', () => {
    const jar = new CookieJar([
      ...secretState.cookies,
      { name: 'other', value: 'x', domain: 'example.com', path: '/', expires: -1 },
      { name: 'old', value: 'y', domain: '127.0.0.1', path: '/', expires: 1 },
      { name: 'deep', value: 'z', domain: '127.0.0.1', path: '/admin', expires: -1 },
    ]);
    expect(inspect(jar)).not.toContain('S3CRET');
    expect(JSON.stringify(jar)).not.toContain('S3CRET');
    expect(jar.header('http://127.0.0.1:8081/forum.php')).toBe('Sv7L_2132_auth=S3CRET-auth-value-9f8e7d');
    jar.update(['Sv7L_2132_lastrequest=abc; expires=Thu, 01 Jan 2099 00:00:00 GMT; path=/; HttpOnly'], 'http://127.0.0.1:8081/forum.php');
    expect(jar.header('http://127.0.0.1:8081/x')).toContain('Sv7L_2132_lastrequest=abc');
  });
});

describe('no secret in anything bansha prints', () => {
  test('crawl refuses a group-readable session before making any request', async () => {
    const srv = await startReplayServer();
    try {
      const dir = tmpDir();
      const game = gameFile(dir, srv.url);
      await saveSession(path.join(dir, 'game.session.json'), srv.sessionState());
      fs.chmodSync(path.join(dir, 'game.session.json'), 0o640);
      await expect(crawlGame(loadGame(game), { delayMs: 0 })).rejects.toMatchObject({ exitCode: 4 });
      expect(srv.requests).toEqual([]);
    } finally {
      await srv.close();
    }
  });

  test('`bansha crawl` output and errors hold no cookie value, while retrying and when the login expires', async () => {
    const srv = await startReplayServer();
    try {
      const dir = tmpDir();
      const game = gameFile(dir, srv.url);
      const state = srv.sessionState();
      await saveSession(path.join(dir, 'game.session.json'), state);
      srv.setFault({ fault: { kind: 'anticc' } }, { fault: { kind: 'status', status: 503 }, path: 'page=2', times: 1 }, { fault: { kind: 'session-expiry', afterRequests: 5 } });
      let printed = '';
      vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((printed += String(s)), true));
      vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((printed += String(s)), true));
      const program = new Command().exitOverride();
      register(program);
      let code = 0;
      try {
        await program.parseAsync(['node', 'bansha', 'crawl', '--game', game, '--delay-ms', '0', '--retries', '3', '--verbose']);
      } catch (err) {
        code = reportError(err);
      }
      vi.restoreAllMocks();
      expect(code).toBe(4);
      expect(printed).toContain('bansha login --game');
      expect(printed).toContain('次重试');
      for (const c of state.cookies) expect(printed).not.toContain(c.value);
      expect(printed).not.toMatch(/lastrequest=/);
    } finally {
      await srv.close();
    }
  });
});

function gameFile(dir: string, forum: string): string {
  const file = path.join(dir, 'game.yaml');
  fs.writeFileSync(file, [
    `forum: ${forum}`,
    'ruleset: m107',
    `players: [${Object.keys(ids.users).filter((u) => u !== '导演A').join(', ')}]`,
    `process: ${ids.threads.process.tid}`,
    'days:',
    `  - {day: 1, discussion: ${ids.threads.d1talk.tid}, vote: ${ids.threads.d1vote.tid}, opens: "2026-11-20 10:00", closes: "2026-11-21 21:00"}`,
    '',
  ].join('\n'));
  return file;
}
