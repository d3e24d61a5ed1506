/**
 * A partial count is never published unmarked (issue 13): with --allow-incomplete over a store missing
 * a page of the day-2 vote thread, every view of the tally and the report starts with what is missing
 * (BBCode: 不完整 and the pages), JSON carries `incomplete: [...]` first, and --post refuses (exit 3).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { FIXTURES } from '../helpers/captured.js';
import { bansha } from '../helpers/cli.js';
import { captureStore } from '../votes/fixtures.js';

let game: string;

beforeAll(() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-incomplete-'));
  game = path.join(dir, 'public.yaml');
  fs.writeFileSync(game, fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8'));
  const store = captureStore('public');
  expect(store.threads['5'].pageCount).toBeGreaterThan(1);
  delete store.threads['5'].pages['2'];
  fs.writeFileSync(path.join(dir, 'public.store.json'), JSON.stringify(store));
});

const MISSING = /帖子 5：共 \d+ 页，第 2 页未抓取/;

describe('--allow-incomplete marks every output', () => {
  test('tally: terminal, BBCode and JSON start with what is missing', async () => {
    const term = await bansha(['tally', '--game', game, '--day', '2', '--allow-incomplete']);
    expect(term.code).toBe(0);
    expect(term.stdout.split('\n')[0]).toContain('不完整');
    expect(term.stdout.split('\n')[1]).toMatch(MISSING);
    const bb = (await bansha(['tally', '--game', game, '--day', '2', '--allow-incomplete', '--bbcode'])).stdout.split('\n');
    expect(bb[0]).toBe('[b]不完整：以下页面或楼层缺失，本统计可能不准确[/b]');
    expect(bb[1]).toMatch(MISSING);
    const json = JSON.parse((await bansha(['tally', '--game', game, '--day', '2', '--allow-incomplete', '--json'])).stdout);
    expect(Object.keys(json)[0]).toBe('incomplete');
    expect(json.incomplete).toEqual([expect.objectContaining({ tid: 5, missingPages: [2], text: expect.stringMatching(MISSING) })]);
  });

  test('report: terminal, BBCode, Markdown, JSON and HTML start with it too', async () => {
    const run = async (...extra: string[]) => {
      const r = await bansha(['report', '--game', game, '--day', '2', '--allow-incomplete', '--no-ledger', ...extra]);
      expect(r.code, r.stderr).toBe(0);
      return r.stdout;
    };
    expect((await run()).split('\n')[0]).toContain('不完整');
    expect((await run('--bbcode')).split('\n')[0]).toContain('[b]不完整');
    expect((await run('--markdown')).split('\n')[0]).toContain('不完整');
    expect(Object.keys(JSON.parse(await run('--json')))[0]).toBe('incomplete');
    const html = fs.readFileSync((await run('--html')).trim(), 'utf8');
    const body = html.slice(html.indexOf('<body>'));
    expect(body.indexOf('id="incomplete"')).toBeGreaterThan(0);
    expect(body.indexOf('id="incomplete"')).toBeLessThan(body.indexOf('id="tally"'));
    expect(body).toMatch(MISSING);
  });

  test('a complete count carries no mark and no incomplete key', async () => {
    const dir = path.dirname(game);
    const whole = path.join(dir, 'whole.yaml');
    fs.writeFileSync(path.join(dir, 'whole.store.json'), JSON.stringify(captureStore('public')));
    fs.writeFileSync(whole, fs.readFileSync(game, 'utf8'));
    const json = JSON.parse((await bansha(['tally', '--game', whole, '--day', '2', '--allow-incomplete', '--json'])).stdout);
    expect(json.incomplete).toBeUndefined();
    expect((await bansha(['tally', '--game', whole, '--day', '2', '--bbcode'])).stdout).not.toContain('不完整');
  });

  test('--post refuses a partial count (exit 3), before any browser is started', async () => {
    const r = await bansha(['tally', '--game', game, '--day', '2', '--allow-incomplete', '--post', '--yes']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('--post 拒绝发布不完整的计票');
    expect(r.stderr).toMatch(MISSING);
  });
});
