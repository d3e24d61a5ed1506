/**
 * The session under faults: a save killed by SIGTERM, SIGINT or SIGKILL at a random moment leaves no
 * temporary file holding credentials (a SIGKILL's leftover is removed by the next save or read), and
 * the session file is either the previous or the new one, owner-only, never half-written; a cookie value
 * with a line break is refused on reading (exit 4), naming the cookie, never quoting the value — not
 * even in a fetch error if such a value reaches the HTTP client.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { httpGet, HostScope } from '../../src/crawl/http.js';
import { CookieJar, readSession, saveSession } from '../../src/crawl/session.js';
import { bansha } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/captured.js';

const here = import.meta.dirname;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tmpDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-session-faults-'));
  dirs.push(d);
  return d;
};
/** Everything in `dir` other than the session file itself (temporary files and folders). */
const leftovers = (dir: string, file: string) => fs.readdirSync(dir).filter((n) => n !== path.basename(file));

/** Start the saving child, wait until `saves` saves completed plus a random part of the next, then send `signal`. */
async function killMidSave(file: string, signal: NodeJS.Signals, saves: number): Promise<void> {
  const child = fork(path.join(here, 'session-writer-child.mjs'), [file], {
    execArgv: ['--import', path.join(here, '../store/register-ts.mjs')],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  await new Promise<void>((resolve, reject) => {
    child.on('message', (m: { saved?: number }) => {
      if ((m.saved ?? 0) >= saves) setTimeout(() => child.kill(signal), Math.random() * 15);
    });
    child.on('exit', () => resolve());
    child.on('error', reject);
  });
  expect(stderr).toBe('');
}

describe('a save killed at any moment leaves no credentials behind', () => {
  test('SIGTERM, SIGINT, SIGKILL: no temporary file (after a SIGKILL, once the next read has run); the session is whole and owner-only', async () => {
    // the three signals side by side, each in its own folder, two kills each (a child takes a second to start)
    await Promise.all((['SIGTERM', 'SIGINT', 'SIGKILL'] as const).map(async (signal) => {
      const dir = tmpDir();
      const file = path.join(dir, 'game.session.json');
      for (let round = 0; round < 2; round++) {
        await killMidSave(file, signal, 1 + round);
        if (signal === 'SIGKILL') await readSession(file); // the next command's read cleans up
        expect(leftovers(dir, file), signal).toEqual([]);
        expect(fs.statSync(file).mode & 0o777).toBe(0o600);
        expect(JSON.parse(fs.readFileSync(file, 'utf8')).cookies).toHaveLength(4000);
      }
    }));
  }, 60_000);

  test('a save that fails (the folder cannot be written) leaves nothing and says so', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'ro', 'game.session.json');
    fs.mkdirSync(path.dirname(file), { mode: 0o500 });
    const err = await saveSession(file, { cookies: [], origins: [] }).catch((e) => e);
    fs.chmodSync(path.dirname(file), 0o700);
    if (process.getuid?.() === 0) return; // root writes anyway
    expect(err).toBeInstanceOf(Error);
    expect(leftovers(path.dirname(file), file)).toEqual([]);
  });

  test('a new session folder is owner-only (0700)', async () => {
    const file = path.join(tmpDir(), 'new', 'game.session.json');
    await saveSession(file, { cookies: [], origins: [] });
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('a cookie value with a line break', () => {
  const SECRET = 'S3CRET-line\r\nX-Injected: 1';
  const state = { cookies: [{ name: 'Sv7L_2132_auth', value: SECRET, domain: '127.0.0.1', path: '/', expires: -1 }], origins: [] };

  test('is refused when the session is read (exit 4), naming the cookie, never the value', async () => {
    const file = path.join(tmpDir(), 'game.session.json');
    fs.writeFileSync(file, JSON.stringify(state), { mode: 0o600 });
    const err = await readSession(file, 'game.yaml').catch((e) => e);
    expect(err).toMatchObject({ exitCode: 4 });
    expect(err.message).toContain('Sv7L_2132_auth');
    expect(err.message).not.toContain('S3CRET');
  });

  test('through the CLI: crawl exits 4 and prints no part of the value', async () => {
    const dir = tmpDir();
    const game = path.join(dir, 'public.yaml');
    fs.copyFileSync(path.join(FIXTURES, 'games', 'public.yaml'), game);
    fs.writeFileSync(path.join(dir, 'public.session.json'), JSON.stringify(state), { mode: 0o600 });
    const r = await bansha(['crawl', '--game', game, '--no-progress']);
    expect(r.code).toBe(4);
    expect(r.out).not.toContain('S3CRET');
    expect(r.out).not.toContain('Injected');
  });

  test('if such a value reaches the HTTP client anyway, the error does not quote the Cookie header', async () => {
    const jar = new CookieJar(state.cookies);
    const err = await httpGet('http://127.0.0.1:9/forum.php', { jar, scope: new HostScope('http://127.0.0.1:9/'), timeoutMs: 1000 }).catch((e) => e);
    expect(err.name).toBe('NetworkError');
    expect(err.message).not.toContain('S3CRET');
    expect(err.message).not.toContain('Injected');
  });
});
