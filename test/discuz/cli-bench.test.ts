/** `bansha parse` on the bundled fixtures, and the parse bench on a small budget. */
import path from 'node:path';
import { Command } from 'commander';
import { describe, expect, test, vi } from 'vitest';
import { register, fetchedFromFile } from '../../src/cli/commands/parse.js';
import { runParseBench } from '../../src/bench/parse-bench.js';
import { DISCUZ, ids } from '../helpers/captured.js';

async function run(args: string[]): Promise<string> {
  const program = new Command().exitOverride();
  register(program);
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
    out += String(s);
    return true;
  });
  try {
    await program.parseAsync(['node', 'bansha', 'parse', ...args]);
  } finally {
    spy.mockRestore();
  }
  return out;
}

describe('bansha parse', () => {
  const file = path.join(DISCUZ, 'public-gbk', 'viewthread-t14-p1.html');
  test('--json prints the documented shape with the URL from the sibling manifest', async () => {
    const j = JSON.parse(await run(['--json', '--fetched-at', '2026-11-30T08:07:11Z', file]));
    expect(Object.keys(j.page).slice(0, 6)).toEqual(['kind', 'tid', 'title', 'page', 'pageCount', 'url']);
    expect(j.page.url).toBe(new URL('forum.php?mod=viewthread&tid=14&page=1', ids('public-gbk').base).href);
    expect(Object.keys(j.posts[0]).slice(0, 16)).toEqual([
      'pid', 'tid', 'floor', 'author', 'authorId', 'postedAt', 'timePrecision', 'text',
      'quotes', 'replyTo', 'edited', 'colors', 'sizes', 'links', 'images', 'deleted',
    ]);
    expect(j.posts.find((p: { replyTo: number | null }) => p.replyTo !== null).replyTo).toBe(ids('public-gbk').posts['d1vote-2'].pid);
  });
  test('several inputs give an array; the table is readable', async () => {
    const other = path.join(DISCUZ, 'public', 'notfound.html');
    const arr = JSON.parse(await run(['--json', file, other]));
    expect(arr.map((x: { page: { kind: string } }) => x.page.kind)).toEqual(['thread', 'not-found']);
    const table = await run([file]);
    expect(table).toContain('[G01]第一日投票帖');
    expect(table).toContain('钱二(21)');
  });
  test('a file without a manifest gets a file:// URL and its mtime', () => {
    const f = fetchedFromFile(path.resolve('package.json'));
    expect(f.url).toMatch(/^file:\/\//);
    expect(f.fetchedAt).toBeInstanceOf(Date);
  });
});

describe('parse bench', () => {
  test('measures bansha, the htmlparser2 baseline and the bare parse5 tree on the same bytes', async () => {
    const r = await runParseBench({ targetBytes: 1_000_000, rounds: 1 });
    expect(r.bytes).toBeGreaterThanOrEqual(1_000_000);
    expect(r.postsPerSecond).toBeGreaterThan(0);
    expect(r.baselinePostsPerSecond).toBeGreaterThan(0);
    expect(r.ratio).toBeCloseTo(r.baselinePostsPerSecond / r.postsPerSecond, 6);
    expect(r.ratioVsParse5).toBeGreaterThan(0);
  });
});
