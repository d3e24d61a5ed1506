/**
 * A kept answer never outlives the code or the data that computed it (issue #32): in a copy of the
 * package, run as a director runs it (bin/bansha.js, which bundles src/ when it changed), the closing
 * commands are run until their derived files are warm; then a vote rule (the election's first-to-reach
 * order, src/votes/count.ts), a lurking rule (src/activity/lurking.ts) and a bundled word list are
 * changed, one at a time, and the next run in the warm folder must print exactly what a run with no
 * derived files prints — and that must differ from what it printed before the change (else the change
 * tested nothing). Before src/store/memo.ts keyed every derived file on the code's identity, day 2's
 * tally kept printing day 1's old sheriff from `closed-day-1`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FIXTURES, storeFromFixture, threadPageFiles } from '../helpers/captured.js';
import { loadGame } from '../../src/game/game-file.js';
import { openStore } from '../../src/store/index.js';

const root = path.join(FIXTURES, '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-stale-'));
/** The package's copy whose code the test changes. */
const pkg = path.join(tmp, 'pkg');
/** The director's folder: the game file, its store with thread logs, the derived files the runs keep. */
const warm = path.join(tmp, 'game');

beforeAll(async () => {
  fs.mkdirSync(pkg);
  for (const d of ['src', 'scripts', 'bin', 'selectors']) fs.cpSync(path.join(root, d), path.join(pkg, d), { recursive: true });
  for (const f of ['package.json', 'tsconfig.json']) fs.copyFileSync(path.join(root, f), path.join(pkg, f));
  fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules')), path.join(pkg, 'node_modules'));
  fs.mkdirSync(warm);
  fs.copyFileSync(path.join(FIXTURES, 'games', 'public.yaml'), path.join(warm, 'public.yaml'));
  const game = loadGame(path.join(warm, 'public.yaml'));
  const store = await openStore(game.storePath, { forum: game.forum });
  Object.assign(store.data, { ...storeFromFixture('public', threadPageFiles('public')), version: store.data.version });
  await store.write();
  await store.close();
}, 120_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** `bansha ARGS…` run from the copy in `folder` (its game file public.yaml), its output with the folder's path made `<game>`. */
function run(folder: string, args: string[]): string {
  const r = spawnSync(process.execPath, [path.join(pkg, 'bin', 'bansha.js'), ...args, '--game', path.join(folder, 'public.yaml')], {
    encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', LANG: 'C.UTF-8' },
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.replaceAll(folder, '<game>');
}

/** What `args` print with nothing kept: the warm folder copied without its derived files and cached game. */
function cold(args: string[]): string {
  const folder = fs.mkdtempSync(path.join(tmp, 'cold-'));
  fs.cpSync(warm, folder, { recursive: true, filter: (src) => !/\.derived$|\.game-cache\.json$/.test(src) });
  try {
    return run(folder, args);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** Replaces `from` by `to` in the copy's `file` (which must hold it), dated after the bundle so bin/bansha.js bundles again. */
function edit(file: string, from: string, to: string): void {
  const p = path.join(pkg, file);
  const text = fs.readFileSync(p, 'utf8');
  expect(text).toContain(from);
  fs.writeFileSync(p, text.replace(from, to));
  const later = new Date(Date.now() + 5_000);
  fs.utimesSync(p, later, later);
}

const tally2 = ['tally', '--day', '2', '--json'];
const report2 = ['report', '--day', '2', '--json', '--no-ledger'];

/** Runs the closing commands until what they keep is warm; returns what each printed. (Each test changes
 *  the copy further: they run in order.) */
function warmUp(): { tally: string; report: string } {
  run(warm, ['tally', '--day', '1', '--json']);
  run(warm, tally2);
  run(warm, report2);
  return { tally: run(warm, tally2), report: run(warm, report2) };
}

describe('a changed rule or word list: the next run prints the new answer, not the kept one', () => {
  test('the election’s first-to-reach order (src/votes/count.ts): day 2’s tally names the new sheriff', () => {
    const before = warmUp();
    expect(fs.readdirSync(path.join(warm, 'public.store.derived'))).toContain('closed-day-1.json');
    // (the tied candidates ranked by when each first reached the top: the last one now wins)
    const ranked = '.filter((r): r is Reach => r !== null)\n      .sort((a, b) => a.at - b.at || a.pid - b.pid);';
    edit('src/votes/count.ts', ranked, ranked.replace('a.at - b.at || a.pid - b.pid', 'b.at - a.at || b.pid - a.pid'));
    const after = run(warm, tally2);
    const fresh = cold(tally2);
    expect(fresh).not.toBe(before.tally);
    expect(after).toBe(fresh);
  }, 120_000);

  test('a lurking rule (src/activity/lurking.ts): day 2’s report flags by the new rule', () => {
    const before = warmUp();
    edit('src/activity/lurking.ts', 'row.posts < rules.minPostsPerDay)', 'row.posts < rules.minPostsPerDay + 100)');
    const after = run(warm, report2);
    const fresh = cold(report2);
    expect(fresh).not.toBe(before.report);
    expect(after).toBe(fresh);
  }, 120_000);

  test('a bundled word list (src/violations/words): day 2’s report finds the new word', () => {
    const before = warmUp();
    const list = path.join(pkg, 'src', 'violations', 'words', '提及导演.txt');
    fs.appendFileSync(list, '@m107:284\n投票\n');
    const after = run(warm, report2);
    const fresh = cold(report2);
    expect(fresh).not.toBe(before.report);
    expect(after).toBe(fresh);
  }, 120_000);
});
