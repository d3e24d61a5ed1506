/**
 * A forum with its own template (issue #12, README "adapting selectors/"): the director writes one
 * selector file for it and names it — `bansha parse --selectors FILE`, the game file's `selectors:` for
 * the crawl — and it is tried before the bundled sets (the first whose `detect` fits reads the page). The page here is one the
 * project captured from its lab forum (fixtures/discuz/public: a real Discuz! X3.5) with its message cell renamed as a custom theme would: the bundled sets refuse it (exit 3, never a short
 * list); the director's file reads it exactly as the bundled sets read the original.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadGame } from '../../src/game/game-file.js';
import { bansha } from '../helpers/cli.js';
import { DISCUZ, FIXTURES } from '../helpers/captured.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-selectors-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const original = path.join(DISCUZ, 'public', 'viewthread-t2-p1.html');
const themed = path.join(dir, 'page.html');
fs.writeFileSync(themed, fs.readFileSync(original, 'utf8').replaceAll('class="t_f"', 'class="pmsg"'));
const mine = path.join(dir, 'my-forum.json');
const desktop = JSON.parse(fs.readFileSync(path.resolve(FIXTURES, '../selectors/discuz-x3-desktop.json'), 'utf8'));
fs.writeFileSync(mine, JSON.stringify({ ...desktop, post: { ...desktop.post, message: 'td.pmsg' } }));

const at = ['--fetched-at', '2026-11-30T08:00:00Z'];
const posts = (out: string) => (JSON.parse(out) as { posts: { pid: number; floor: number; author: string; text: string }[] }).posts.map(({ pid, floor, author, text }) => ({ pid, floor, author, text }));

describe('a custom template read with the director\'s own selector file', () => {
  test('the bundled selectors refuse the themed page (exit 3)', async () => {
    const r = await bansha(['parse', themed, '--json', ...at]);
    expect(r.code).toBe(3);
  });

  test('parse --selectors reads it as the bundled sets read the original page', async () => {
    const want = await bansha(['parse', original, '--json', ...at]);
    const got = await bansha(['parse', '--selectors', mine, themed, '--json', ...at]);
    expect(got.code, got.out).toBe(0);
    expect(posts(got.stdout)).toEqual(posts(want.stdout));
    expect(posts(got.stdout)).toHaveLength(10);
    // The first set whose `detect` fits reads the page, with no silent switch to another: a page the
    // director's file does not read is refused naming that file.
    const other = await bansha(['parse', '--selectors', mine, original, ...at]);
    expect(other.code).toBe(3);
    expect(other.out).toContain('my-forum.json');
  });

  test('a selector file that does not exist is a usage error naming it', async () => {
    const r = await bansha(['parse', '--selectors', path.join(dir, 'nope.json'), original]);
    expect(r.code).toBe(2);
    expect(r.out).toContain('nope.json');
  });

  test('the game file\'s selectors: are resolved beside it, for the crawl', async () => {
    const game = path.join(dir, 'game.yaml');
    const yaml = fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8');
    fs.writeFileSync(game, `${yaml.trimEnd()}\nselectors: my-forum.json\n`);
    expect(loadGame(game).selectorFiles).toEqual([mine]);
  });
});
