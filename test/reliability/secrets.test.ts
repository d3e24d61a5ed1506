/**
 * Secrets across the whole CLI (issue 8): with a login session holding recognisable cookie values and a
 * recognisable password, every command — crawl (with retries, the anti-CC cookie and the login expiring),
 * login (wrong and right password, real Chromium), tally, report (every view, the HTML file), elevator,
 * cards, demo — is run in-process through the real command definitions, and nothing it prints (stdout,
 * stderr, error messages) nor any file it writes other than the session itself contains a cookie value,
 * the password, or the session file's contents.
 *
 * The crawler's own secret tests (session file 0600 / refused when readable, no cookie in `crawl`
 * output) are in test/crawl/session.test.ts; this file covers the other commands and the files they
 * write, and repeats crawl only as the way a real store gets built.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { saveSession, type StorageState } from '../../src/crawl/session.js';
import { startReplayServer, type ReplayServer } from '../../src/replay/server.js';
import { FIXTURES } from '../helpers/captured.js';
import { bansha } from '../helpers/cli.js';

const PASSWORD = 'PW-s3cret-Canary-8841';
const CANARY = 'CANARY-cookie-value-5d1e9b7a';
const chromiumExe = process.env.BANSHA_CHROMIUM ?? '/usr/bin/chromium';

/** Every file under `dir` (recursively), except the session file(s). */
function writtenFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name);
    if (e.isFile() && !/session\.json$/.test(e.name)) out.push(p);
  }
  return out;
}

describe('no cookie, password or session content in any output', () => {
  let srv: ReplayServer;
  let dir: string;
  let game: string;
  let session: string;
  let secrets: string[];
  const printed: Array<{ args: string; out: string; code: number }> = [];
  const run = async (args: string[], env?: Record<string, string>) => {
    const r = await bansha(args, env);
    printed.push({ args: args.join(' '), out: r.out, code: r.code });
    return r;
  };

  beforeAll(async () => {
    srv = await startReplayServer({ users: { 导演A: PASSWORD } });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-secrets-'));
    game = path.join(dir, 'game.yaml');
    fs.writeFileSync(game, fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8').replace(/^forum: .*$/m, `forum: ${srv.url}`));
    session = path.join(dir, 'game.session.json');
    const state = srv.sessionState() as StorageState;
    state.cookies.push({ ...state.cookies[0], name: 'bansha_canary', value: CANARY });
    await saveSession(session, state);
    secrets = [PASSWORD, CANARY, ...state.cookies.map((c) => c.value).filter((v) => v.length >= 6), fs.readFileSync(session, 'utf8')];
  });
  afterAll(async () => {
    await srv.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('crawl (anti-CC, a 503, retries), then every reading command on the crawled store', async () => {
    srv.setFault({ fault: { kind: 'anticc' } }, { fault: { kind: 'status', status: 503 }, path: 'page=2', times: 1 });
    const crawl = await run(['crawl', '--game', game, '--delay-ms', '0', '--retries', '3', '--verbose', '--no-progress']);
    expect(crawl.code, crawl.out).toBe(0);
    srv.setFault();
    for (const day of ['1', '2']) {
      for (const view of [[], ['--bbcode'], ['--json']]) expect((await run(['tally', '--game', game, '--day', day, ...view])).code).toBe(0);
      for (const view of [[], ['--bbcode'], ['--json'], ['--markdown']]) expect((await run(['report', '--game', game, '--day', day, ...view])).code).toBe(0);
      expect((await run(['report', '--game', game, '--day', day, '--html', '--out', path.join(dir, `report-day${day}.html`)])).code).toBe(0);
      expect((await run(['elevator', '--game', game, '--day', day])).code).toBe(0);
      expect((await run(['elevator', '--game', game, '--day', day, '--json'])).code).toBe(0);
    }
    await run(['cards', 'list', '--game', game]);
    expect((await run(['watch', '--game', game, '--day', '2', '--delay-ms', '0'])).code).toBe(0);
    // the outputs are real (so the checks below are not vacuous)
    expect(printed.map((p) => p.out).join('\n')).toContain('[url=');
    expect(fs.readFileSync(path.join(dir, 'report-day2.html'), 'utf8')).toContain('<svg');
  });

  test('errors: login expiring mid-crawl, a readable session file, a corrupt one', async () => {
    srv.setFault({ fault: { kind: 'session-expiry', afterRequests: 3 } });
    const expired = await run(['crawl', '--game', game, '--full', '--delay-ms', '0', '--no-progress', '--verbose']);
    expect(expired.code).toBe(4);
    srv.setFault();
    fs.chmodSync(session, 0o644);
    const readable = await run(['crawl', '--game', game, '--delay-ms', '0', '--no-progress']);
    expect(readable.code).toBe(4);
    expect(readable.out).toContain('chmod 600');
    fs.chmodSync(session, 0o600);
    const corrupt = path.join(dir, 'corrupt');
    fs.mkdirSync(corrupt);
    const g2 = path.join(corrupt, 'game.yaml');
    fs.copyFileSync(game, g2);
    fs.writeFileSync(path.join(corrupt, 'game.session.json'), `{"cookies":[{"name":"x","value":"${CANARY}"`, { mode: 0o600 });
    const bad = await run(['crawl', '--game', g2, '--delay-ms', '0', '--no-progress']);
    expect(bad.code).toBe(4);
  });

  test.skipIf(!fs.existsSync(chromiumExe))('login in real Chromium: wrong password, then the right one', async () => {
    const wrong = await run(['login', '--game', game, '--timeout-ms', '3000'], { BANSHA_USERNAME: '导演A', BANSHA_PASSWORD: `${PASSWORD}-wrong` });
    expect(wrong.code).toBe(4);
    expect(wrong.out).not.toContain(`${PASSWORD}-wrong`);
    const right = await run(['login', '--game', game], { BANSHA_USERNAME: '导演A', BANSHA_PASSWORD: PASSWORD });
    expect(right.code, right.out).toBe(0);
    expect(fs.statSync(session).mode & 0o777).toBe(0o600);
    // the new session's cookies are secrets too, and the password is never written anywhere
    const fresh = JSON.parse(fs.readFileSync(session, 'utf8')) as StorageState;
    secrets.push(...fresh.cookies.map((c) => c.value).filter((v) => v.length >= 6), fs.readFileSync(session, 'utf8'));
    expect(fs.readFileSync(session, 'utf8')).not.toContain(PASSWORD);
    expect((await run(['tally', '--game', game, '--day', '2'])).code).toBe(0);
  });

  test('demo (its own replay site and login): output and every file it writes but the session', async () => {
    const out = path.join(dir, 'demo');
    const r = await run(['demo', '--preset', '120b', '--no-browser', '--out', out]);
    expect(r.code, r.out).toBe(0);
    const demoSession = JSON.parse(fs.readFileSync(path.join(out, 'game.session.json'), 'utf8')) as StorageState;
    expect(fs.statSync(path.join(out, 'game.session.json')).mode & 0o777).toBe(0o600);
    const demoSecrets = demoSession.cookies.map((c) => c.value).filter((v) => v.length >= 6);
    expect(demoSecrets.length).toBeGreaterThan(0);
    for (const f of writtenFiles(out)) {
      const text = fs.readFileSync(f, 'utf8');
      for (const s of demoSecrets) expect(text.includes(s), `${f} holds a demo cookie value`).toBe(false);
    }
    for (const s of demoSecrets) expect(r.out).not.toContain(s);
  });

  test('nothing printed and no file written holds a secret', () => {
    expect(printed.length).toBeGreaterThan(20);
    for (const p of printed) {
      for (const s of secrets) expect(p.out.includes(s), `\`bansha ${p.args}\` printed a secret`).toBe(false);
      expect(p.out).not.toMatch(/auth=|saltkey=|lastrequest=/);
    }
    const files = writtenFiles(dir).filter((f) => !f.includes(`${path.sep}demo${path.sep}`));
    expect(files.some((f) => f.endsWith('game.store.json'))).toBe(true);
    expect(files.some((f) => f.endsWith('.html'))).toBe(true);
    for (const f of files) {
      const text = fs.readFileSync(f, 'utf8');
      for (const s of secrets) expect(text.includes(s), `${path.relative(dir, f)} holds a secret`).toBe(false);
    }
  });
});
