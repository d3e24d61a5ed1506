/**
 * `bansha tally` wired end to end in-process: a store file written from the captured pages, the game
 * file beside it, the command's output for --json / --bbcode / terminal, 120b, and the refusals.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { register } from '../../src/cli/commands/tally.js';
import { FIXTURES } from '../helpers/captured.js';
import { captureStore } from './fixtures.js';

let dir: string;
let gameFile: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-tally-'));
  gameFile = path.join(dir, 'public.yaml');
  fs.writeFileSync(gameFile, fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8'));
  fs.writeFileSync(path.join(dir, 'public.store.json'), JSON.stringify(captureStore('public')));
});
afterEach(() => vi.restoreAllMocks());

async function run(...args: string[]): Promise<string> {
  const program = new Command().exitOverride();
  register(program);
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
    out += String(s);
    return true;
  });
  await program.parseAsync(['node', 'bansha', 'tally', ...args]);
  return out;
}

describe('bansha tally', () => {
  test('--json', async () => {
    const j = JSON.parse(await run('--game', gameFile, '--day', '2', '--json'));
    expect(j).toMatchObject({ day: 2, kind: 'elimination', sheriff: '包子', accelerated: false, result: { name: '月饼', tie: [] } });
  });
  test('--bbcode and terminal', async () => {
    expect(await run('--game', gameFile, '--day', '1', '--bbcode')).toContain('[b]第1日警长竞选结果[/b]');
    expect(await run('--game', gameFile, '--day', '1')).toContain('结果：包子');
  });
  test('--at a forum-local time', async () => {
    const j = JSON.parse(await run('--game', gameFile, '--day', '2', '--json', '--at', '2026-11-22 12:00'));
    expect(j.ballots.every((b: { at: string }) => b.at <= '2026-11-22T12:00:00+08:00')).toBe(true);
  });
  test('120b: says there is no public vote thread (exit 0, no store needed)', async () => {
    const g = path.join(dir, 'g120b.yaml');
    fs.writeFileSync(g, fs.readFileSync(gameFile, 'utf8').replace('ruleset: m107', 'ruleset: 120b').concat('store: nowhere.json\n'));
    expect(JSON.parse(await run('--game', g, '--day', '1', '--json'))).toEqual({ day: 1, kind: 'none', reason: expect.stringContaining('没有公开投票帖'), code: 'no-public-vote' });
    expect(fs.existsSync(path.join(dir, 'nowhere.json'))).toBe(false);
  });
  test('an incomplete store is refused with exit code 3 unless --allow-incomplete', async () => {
    const store = captureStore('public');
    delete store.threads['5'].pages['2'];
    const g = path.join(dir, 'gap.yaml');
    fs.writeFileSync(g, fs.readFileSync(gameFile, 'utf8').concat('store: gap.store.json\n'));
    fs.writeFileSync(path.join(dir, 'gap.store.json'), JSON.stringify(store));
    await expect(run('--game', g, '--day', '2', '--json')).rejects.toMatchObject({ exitCode: 3 });
    expect(JSON.parse(await run('--game', g, '--day', '2', '--json', '--allow-incomplete')).kind).toBe('elimination');
  });
  test('a day not in the game file, a bad --at: exit code 2', async () => {
    await expect(run('--game', gameFile, '--day', '9')).rejects.toMatchObject({ exitCode: 2 });
    await expect(run('--game', gameFile, '--day', '2', '--at', 'tomorrow')).rejects.toMatchObject({ exitCode: 2 });
  });
});
