/**
 * The bundled CLI (scripts/bundle-cli.mjs → bundle/cli.js, what bin/bansha.js runs) says exactly what
 * the CLI from its modules says: the same stdout, stderr and exit code for the closing commands over a
 * captured game, an HTML page parsed (cheerio, the GBK decoder, the selector files), help, --version and
 * a broken game file's errors (the modules' side runs in-process through the same program: helpers/cli.ts).
 * Built for real, as bin/bansha.js builds it on a fresh clone.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { FIXTURES, storeFromFixture, threadPageFiles } from '../helpers/captured.js';
import { bansha } from '../helpers/cli.js';
import { loadGame } from '../../src/game/game-file.js';
import { derivedDir } from '../../src/store/memo.js';
import { openStore } from '../../src/store/index.js';

const root = path.join(FIXTURES, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-bundle-'));

beforeAll(() => {
  const built = spawnSync(process.execPath, [path.join(root, 'scripts/bundle-cli.mjs')], { encoding: 'utf8' });
  expect(built.status, built.stderr).toBe(0);
  fs.copyFileSync(path.join(FIXTURES, 'games', 'public.yaml'), path.join(dir, 'public.yaml'));
  fs.writeFileSync(path.join(dir, 'public.store.json'), JSON.stringify(storeFromFixture('public', threadPageFiles('public'))));
  fs.copyFileSync(path.join(FIXTURES, 'games', '120b.yaml'), path.join(dir, '120b.yaml'));
  fs.writeFileSync(path.join(dir, 'bad-yaml.yaml'), 'forum: http://example.com/\nplayers: [a, b\n');
  fs.writeFileSync(path.join(dir, 'bad-field.yaml'), fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8') + 'colour: red\n');
}, 120_000);

const g = ['--game', path.join(dir, 'public.yaml')];
const file = (name: string) => path.join(dir, name);
const cases: Array<[string, string[], number]> = [
  ['--version', ['--version'], 0],
  ['help', ['--help'], 0],
  ['tally --help in English', ['tally', '--help', '--lang', 'en'], 0],
  ['tally', ['tally', ...g, '--day', '1', '--json'], 0],
  ['tally, terminal', ['tally', ...g, '--day', '2'], 0],
  ['report', ['report', ...g, '--day', '1', '--json', '--no-ledger'], 0],
  ['report --html', ['report', ...g, '--day', '2', '--html', '--no-ledger', '--out', file('day.html')], 0],
  ['elevator', ['elevator', ...g, '--day', '2'], 0],
  ['elevator --arbiter-from (no store)', ['elevator', '--game', file('120b.yaml'), '--day', '1', '--arbiter-from', '马里奥', '--json'], 0],
  ['parse a GBK page', ['parse', path.join(FIXTURES, 'discuz', 'public-gbk', fs.readdirSync(path.join(FIXTURES, 'discuz', 'public-gbk')).find((f) => f.endsWith('.html'))!)], 0],
  ['a game file that is not YAML', ['tally', '--game', file('bad-yaml.yaml'), '--day', '1'], 2],
  ['a game file with an unknown field', ['tally', '--game', file('bad-field.yaml'), '--day', '1'], 2],
  ['an unknown option', ['tally', ...g, '--day', '1', '--jsno'], 2],
];

/** The captured public game in `folder`, its store with thread logs (the kept results are keyed on them; a version-1 file keeps nothing). */
async function withThreadLogs(folder: string) {
  fs.mkdirSync(folder, { recursive: true });
  fs.copyFileSync(file('public.yaml'), path.join(folder, 'public.yaml'));
  const game = loadGame(path.join(folder, 'public.yaml'));
  const store = await openStore(game.storePath, { forum: game.forum });
  Object.assign(store.data, { ...storeFromFixture('public', threadPageFiles('public')), version: store.data.version });
  await store.write();
  await store.close();
  return game;
}

describe('the bundled CLI', () => {
  test.each(cases)('%s: the same output and exit code as from the modules', async (_, args, code) => {
    const a = await bansha(args, { NO_COLOR: '1' });
    const b = spawnSync(process.execPath, [path.join(root, 'bundle/cli.js'), ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect({ stdout: b.stdout, stderr: b.stderr, code: b.status }).toEqual({ stdout: a.stdout, stderr: a.stderr, code: a.code });
    expect(a.code).toBe(code);
    expect(a.stdout.length + a.stderr.length).toBeGreaterThan(0);
  }, 60_000);

  test('the checked game it keeps (src/game/game-cache.ts): warm, the same answer without a write; after a change, the new answer', async () => {
    fs.copyFileSync(file('public.yaml'), file('warm.yaml'));
    fs.copyFileSync(file('public.store.json'), file('warm.store.json'));
    const args = ['tally', '--game', file('warm.yaml'), '--day', '2', '--json'];
    const cache = file('warm.game-cache.json');
    const same = async () => {
      const a = await bansha(args);
      const b = spawnSync(process.execPath, [path.join(root, 'bundle/cli.js'), ...args], { encoding: 'utf8' });
      expect({ stdout: b.stdout, code: b.status }).toEqual({ stdout: a.stdout, code: 0 });
      const st = fs.statSync(cache);
      return { out: a.stdout, stamp: `${st.ino}:${st.mtimeMs}` };
    };
    const cold = await same();
    const warm = await same();
    expect(warm).toEqual(cold);
    // 馒头 is out from day 2's night in the file: without that event 馒头 is one more voter.
    fs.writeFileSync(file('warm.yaml'), fs.readFileSync(file('warm.yaml'), 'utf8').replace(/^.*player: 馒头.*\n/m, ''));
    const changed = await same();
    expect(changed.out).not.toBe(cold.out);
    expect(changed.stamp).not.toBe(cold.stamp);
  }, 60_000);

  test('warm, the closing commands load no zod (its checks are the game file\'s, kept in the cache) and no YAML parser (the package\'s data is in the bundle)', async () => {
    // Every module the process loads (load-hook.mjs); zod's code is the one naming "$ZodType", yaml's "yaml.alias".
    const hook = path.join(import.meta.dirname, 'load-hook.mjs');
    for (const args of [['tally', ...g, '--day', '2', '--json'], ['elevator', ...g, '--day', '2'], ['report', ...g, '--day', '2', '--json', '--no-ledger']]) {
      spawnSync(process.execPath, [path.join(root, 'bundle/cli.js'), ...args]); // the cache filled
      const r = spawnSync(process.execPath, ['--import', hook, path.join(root, 'bundle/cli.js'), ...args], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const loaded = [...r.stderr.matchAll(/^\[load\] (file:.+)$/gm)].map((m) => fileURLToPath(m[1]));
      expect(loaded.length).toBeGreaterThan(3);
      for (const marker of ['"$ZodType"', '"yaml.alias"']) expect(loaded.filter((f) => fs.readFileSync(f, 'utf8').includes(marker)), `${args[0]}: ${marker}`).toEqual([]);
    }
    // …while the cold read (no cache) does check with zod and parse YAML, so the markers are the right ones.
    for (const marker of ['"$ZodType"', '"yaml.alias"']) expect(fs.readdirSync(path.join(root, 'bundle')).filter((f) => f.endsWith('.js')).some((f) => fs.readFileSync(path.join(root, 'bundle', f), 'utf8').includes(marker)), marker).toBe(true);
  }, 60_000);

  test('warm, report (every view) and tally over threads that did not change print what they kept: the modules\' output, no analysis loaded', async () => {
    const kept = path.join(dir, 'kept');
    const game = await withThreadLogs(kept);
    const hook = path.join(import.meta.dirname, 'load-hook.mjs');
    const kg = ['--game', game.file, '--day', '2'];
    // The analyses' code: what a kept result is rendered without.
    const markers = ['function buildDayReport(', 'function tallyDay(', 'function closingDayFromStore('];
    const chunks = fs.readdirSync(path.join(root, 'bundle')).filter((f) => f.endsWith('.js')).map((f) => fs.readFileSync(path.join(root, 'bundle', f), 'utf8'));
    // The report's renderers: what a kept view is printed without (src/derived/kept-view.ts).
    const renderers = ['function renderDayReportJson(', 'function renderDayReportTerminal(', 'function renderDayReportMarkdown(', 'function renderDayReportBBCode(', 'function*htmlReportLines('];
    for (const m of [...markers, ...renderers]) expect(chunks.some((c) => c.includes(m)), m).toBe(true);
    const runs: string[][] = [
      ...[['--json'], [], ['--bbcode'], ['--markdown']].map((v) => ['report', ...kg, '--no-ledger', ...v]),
      ['report', ...kg, '--html', '--no-ledger', '--out', path.join(kept, 'day.html')],
      ['tally', ...kg, '--json'],
      ['tally', ...kg, '--bbcode'],
      ['tally', ...kg],
    ];
    // (the page says when it was made: the rest is the same)
    const page = () => fs.readFileSync(path.join(kept, 'day.html'), 'utf8').replace(/生成于 [\d-]+ [\d:]+/, '生成于 …');
    for (const args of runs) {
      const want = await bansha(args, { NO_COLOR: '1' });
      expect(want.code, want.out).toBe(0);
      const wantPage = args.includes('--html') ? page() : null;
      const env = { ...process.env, NO_COLOR: '1' };
      // the first computes the day and keeps it; the second draws it as kept and (a report) keeps the view; the third prints that
      const first = spawnSync(process.execPath, [path.join(root, 'bundle/cli.js'), ...args], { encoding: 'utf8', env });
      const r = spawnSync(process.execPath, ['--import', hook, path.join(root, 'bundle/cli.js'), ...args], { encoding: 'utf8', env });
      const third = spawnSync(process.execPath, ['--import', hook, path.join(root, 'bundle/cli.js'), ...args], { encoding: 'utf8', env });
      expect([first.status, r.status, third.status], r.stderr).toEqual([0, 0, 0]);
      expect([first.stdout, r.stdout, third.stdout], args.join(' ')).toEqual([want.stdout, want.stdout, want.stdout]);
      if (wantPage !== null) expect(page()).toBe(wantPage);
      const loaded = (run: typeof r, code: string[]) =>
        [...run.stderr.matchAll(/^\[load\] (file:.+)$/gm)].map((m) => fileURLToPath(m[1])).filter((f) => code.some((m) => fs.readFileSync(f, 'utf8').includes(m)));
      for (const run of [r, third]) expect(loaded(run, markers), args.join(' ')).toEqual([]);
      // a report's third run prints the view kept by the second: no renderer loaded either
      if (args[0] === 'report') expect(loaded(third, renderers), args.join(' ')).toEqual([]);
    }
    const views = ['bbcode', 'html', 'json', 'markdown', 'terminal'].map((v) => `closing-view-day2-${v}.bin`);
    expect(fs.readdirSync(derivedDir(game.storePath)).filter((f) => f.startsWith('closing-')).sort()).toEqual(['closing-report-day2.json', 'closing-tally-day2.json', ...views]);
  }, 120_000);

  test('warm, a report that records its proposals in the ledger: its view kept once that step changes nothing, and drawn anew after a card is decided', async () => {
    const game = await withThreadLogs(path.join(dir, 'ledger'));
    const args = ['report', '--game', game.file, '--day', '2', '--json'];
    const env = { ...process.env, NO_COLOR: '1' };
    const run = () => spawnSync(process.execPath, [path.join(root, 'bundle/cli.js'), ...args], { encoding: 'utf8', env });
    const view = path.join(derivedDir(game.storePath), 'closing-view-day2-json.bin');
    // the first records the proposals (the ledger changes: the second counts again), the third keeps the view, the fourth prints it
    const runs = [run(), run(), run()];
    expect(fs.existsSync(view)).toBe(true);
    runs.push(run());
    const want = await bansha(args, { NO_COLOR: '1' }); // (the ledger already holds what it proposes)
    expect(runs.map((r) => [r.status, r.stdout])).toEqual(runs.map(() => [0, want.stdout]));
    const cards = JSON.parse(want.stdout).cards as Array<{ status: string }>;
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.every((c) => c.status === 'proposed')).toBe(true);
    // a card decided: the ledger is not what the view was kept under
    const ledger = JSON.parse(fs.readFileSync(path.join(path.dirname(game.file), 'public.cards.json'), 'utf8'));
    const id = ledger.cards[0].id;
    expect((await bansha(['cards', 'dismiss', id, '--game', game.file])).code).toBe(0);
    const after = run();
    expect(after.status).toBe(0);
    expect(after.stdout).toBe((await bansha(args, { NO_COLOR: '1' })).stdout);
    expect(after.stdout).not.toBe(want.stdout);
    expect((JSON.parse(after.stdout).cards as Array<{ status: string }>).map((c) => c.status)).toContain('dismissed');
  }, 120_000);

  test("warm, tally, elevator and report --json set up no Intl date formatter (the forum zone's offsets are kept with the game)", () => {
    const hook = path.join(import.meta.dirname, 'intl-hook.mjs');
    for (const args of [['tally', ...g, '--day', '2', '--json'], ['elevator', ...g, '--day', '2'], ['report', ...g, '--day', '2', '--json', '--no-ledger']]) {
      const plain = spawnSync(process.execPath, [path.join(root, 'bundle/cli.js'), ...args], { encoding: 'utf8' }); // the cache filled
      const r = spawnSync(process.execPath, ['--import', hook, path.join(root, 'bundle/cli.js'), ...args], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe(plain.stdout);
      expect(r.stderr.match(/^\[intl\].*$/gm), args[0]).toBeNull();
    }
    // …while the hook does see one where the offsets are not kept (the modules, no cache)
    const cold = spawnSync(process.execPath, ['--import', hook, '-e', "new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Shanghai' })"], { encoding: 'utf8' });
    expect(cold.stderr).toMatch(/^\[intl\] DateTimeFormat$/m);
  }, 60_000);

  test("warm, tally, elevator and report --html run none of luxon (bundled lazily: scripts/bundle-cli.mjs)", () => {
    /** How often luxon's module body ran in a process, from V8's coverage of it. */
    const luxonRuns = (args: string[]): number => {
      const cov = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-coverage-'));
      const r = spawnSync(process.execPath, [path.join(root, 'bundle/cli.js'), ...args], { encoding: 'utf8', env: { ...process.env, NODE_V8_COVERAGE: cov } });
      expect(r.status, r.stderr).toBe(0);
      let runs = 0;
      for (const f of fs.readdirSync(cov)) {
        for (const script of (JSON.parse(fs.readFileSync(path.join(cov, f), 'utf8')) as { result: Array<{ functions: Array<{ functionName: string; ranges: Array<{ count: number }> }> }> }).result) {
          for (const fn of script.functions) if (fn.functionName === 'node_modules/luxon/build/node/luxon.js') runs += fn.ranges[0].count;
        }
      }
      return runs;
    };
    const html = ['report', ...g, '--day', '2', '--html', '--no-ledger', '--out', file('luxon.html')];
    for (const args of [['tally', ...g, '--day', '2', '--json'], ['elevator', ...g, '--day', '2'], html]) {
      spawnSync(process.execPath, [path.join(root, 'bundle/cli.js'), ...args]); // the cache filled
      expect(luxonRuns(args), args.join(' ')).toBe(0);
    }
  }, 60_000);

  // Node ≥ 22.1 only (module.enableCompileCache): on Node 20 there is nothing to keep.
  test.runIf(typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function')('bin/bansha.js keeps V8\'s compiled code in bundle/.compile-cache', () => {
    const bin = path.join(root, 'bin/bansha.js');
    for (let i = 0; i < 2; i++) expect(spawnSync(process.execPath, [bin, 'tally', ...g, '--day', '2', '--json'], { encoding: 'utf8' }).status).toBe(0);
    expect(fs.readdirSync(path.join(root, 'bundle', '.compile-cache'), { recursive: true }).length).toBeGreaterThan(0);
  }, 60_000);

  test('bin/bansha.js runs the bundle, and bundles again when src/ (its code or its YAML data) is newer than it', () => {
    const bin = path.join(root, 'bin/bansha.js');
    const version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version as string;
    const fresh = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
    expect({ stdout: fresh.stdout, stderr: fresh.stderr, code: fresh.status }).toEqual({ stdout: `${version}\n`, stderr: '', code: 0 });
    const cli = path.join(root, 'bundle/cli.js');
    fs.utimesSync(cli, new Date(0), new Date(0)); // older than every source file
    const stale = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
    expect(stale.status, stale.stderr).toBe(0);
    expect(stale.stdout).toBe(`${version}\n`);
    expect(stale.stderr).toMatch(/bundling the CLI/);
    expect(fs.statSync(cli).mtimeMs).toBeGreaterThan(Date.now() - 60_000);
    // A package YAML data file edited after the bundle was built (its data is parsed into the bundle).
    const data = path.join(root, 'src', 'votes', 'citations.yaml');
    const now = Date.now();
    fs.utimesSync(cli, new Date(now - 1000), new Date(now - 1000));
    fs.utimesSync(data, new Date(now), new Date(now));
    const edited = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
    expect(edited.status, edited.stderr).toBe(0);
    expect(edited.stderr).toMatch(/bundling the CLI/);
  }, 60_000);
});
