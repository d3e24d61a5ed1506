/**
 * Each command loads only what it uses: `bansha --version` no command at all, the closing commands
 * neither the browser (playwright-core) nor the HTML parser (cheerio, htmlparser2), and only `report`
 * the wording folder's pinyin tables (pinyin-pro), only when it has a text to scan. Checked in a real child process, from the packages it
 * resolves.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import { describe, expect, test } from 'vitest';
import { runDemo } from '../../src/cli/commands/demo.js';
import { loadGame } from '../../src/game/game-file.js';
import { derivedDir } from '../../src/store/memo.js';

const root = path.resolve(__dirname, '../..');

/** What `bansha ARGS…` loads, in order (the hooks print it on stderr): npm packages imported or required (cjs), and bansha's own modules. */
function loads(args: string[]): Record<'package' | 'module' | 'cjs', string[]> {
  const r = spawnSync(
    process.execPath,
    ['--require', path.join(__dirname, 'cjs-hook.cjs'), '--import', path.join(root, 'test/store/register-ts.mjs'), '--import', path.join(__dirname, 'packages-hook.mjs'), path.join(root, 'src/cli/main.ts'), ...args],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`bansha ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const lines = (what: string) => r.stderr.split('\n').flatMap((l) => new RegExp(`^\\[${what}\\] (.+)$`).exec(l)?.[1] ?? []);
  return { package: lines('package'), module: lines('module'), cjs: lines('cjs') };
}
const loaded = (args: string[], what: 'package' | 'module' = 'package'): string[] => loads(args)[what];
const packagesLoaded = (args: string[]): string[] => loaded(args);

describe('lazy imports', () => {
  test('--version loads no command module and no package but commander', () => {
    expect(packagesLoaded(['--version'])).toEqual(['commander']);
  }, 60_000);

  for (const cmd of ['tally', 'elevator', 'report']) {
    test(`${cmd} loads neither the browser nor the HTML parser`, () => {
      const pkgs = packagesLoaded([cmd, '--help']);
      expect(pkgs).not.toContain('playwright-core');
      expect(pkgs).not.toContain('cheerio');
      expect(pkgs).not.toContain('htmlparser2');
      // (opencc-js is the tally's too: acceleration requests are read in traditional characters as well)
      if (cmd !== 'report') expect(pkgs).not.toContain('pinyin-pro');
    }, 60_000);
  }

  test("a report whose texts were scanned before loads no pinyin tables, nor one scanning texts of known characters; one with lists to compile does", async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-lazy-'));
    const { gameFile } = await runDemo({ preset: 'public', out, browser: false }); // its closes scanned every day's texts
    const report = () => {
      const l = loads(['report', '--day', '2', '--json', '--no-ledger', '--game', gameFile]);
      return [...l.package, ...l.cjs];
    };
    expect(report()).not.toContain('pinyin-pro');
    const derived = derivedDir(loadGame(gameFile).storePath);
    const remove = (...prefixes: string[]) => {
      for (const f of fs.readdirSync(derived)) if (prefixes.some((p) => f.startsWith(p))) fs.rmSync(path.join(derived, f));
    };
    remove('wording-');
    // every text scanned again, with the compiled lists and the characters' readings kept (src/derived/wording-hits.ts)
    expect(report()).not.toContain('pinyin-pro');
    remove('wording-', 'word-lists', 'char-readings');
    expect(report()).toContain('pinyin-pro');
    expect(report()).not.toContain('pinyin-pro'); // kept again
  }, 120_000);

  test('report loads its views only for the one asked for (the HTML renderers only with --html)', () => {
    const modules = loaded(['report', '--help'], 'module');
    expect(modules).toContain('src/cli/commands/report.ts');
    for (const view of ['day/day-html', 'render/html-report', 'render/html-day', 'render/report-json', 'render/report-bbcode', 'render/report-markdown', 'render/report-terminal']) {
      expect(modules).not.toContain(`src/${view}.ts`);
    }
  }, 60_000);
});
