/**
 * Usage errors are bad input (exit 2, as the README says), not internal errors: an unknown option or
 * command, a missing --day, a bad number, a bad --lang, no game file. Help and --version exit 0, and
 * `-g` / ./game.yaml stand for --game.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bansha } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/captured.js';
import { translateUsageError } from '../../src/cli/program.js';
import { setLanguage } from '../../src/i18n/index.js';

const TMP = path.resolve(import.meta.dirname, '../.tmp/usage');
const ZH = { LANG: 'zh_CN.UTF-8', LC_ALL: '', LC_MESSAGES: '' };
let cwd: string;

beforeAll(() => {
  fs.rmSync(TMP, { recursive: true, force: true });
  fs.mkdirSync(path.join(TMP, 'empty'), { recursive: true });
  fs.copyFileSync(path.join(FIXTURES, 'games', 'public.yaml'), path.join(TMP, 'game.yaml'));
  cwd = process.cwd();
});
afterAll(() => process.chdir(cwd));

describe('exit 2 for usage errors, in Chinese', () => {
  test.each([
    [['tally', '--day', '1', '--bogus'], '未知选项 --bogus'],
    [['tally', '-g', 'x.yaml'], '缺少必填选项 --day'],
    [['report', '-g', 'x.yaml', '--day', 'two'], '--day 必须是 ≥ 1 的整数'],
    [['crawl', '-g', 'x.yaml', '--delay-ms', '-3'], '--delay-ms 必须是 ≥ 0 的整数'],
    [['talley'], '未知命令 talley（是不是 tally？）'],
    [['parse'], '缺少参数 fileOrUrl'],
    [['tally', '--lang', 'fr', '-g', 'x.yaml', '--day', '1'], '--lang 只能是 zh 或 en'],
    [['cards', 'confirm'], '缺少参数 id'],
  ])('bansha %j → exit 2: %s', async (args, message) => {
    const r = await bansha(args, ZH);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/internal error|内部错误/);
  });

  test('help and --version exit 0', async () => {
    expect((await bansha(['--help'], ZH)).code).toBe(0);
    expect((await bansha(['tally', '--help'], ZH)).code).toBe(0);
    const v = await bansha(['--version'], ZH);
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toBe(JSON.parse(fs.readFileSync(path.join(FIXTURES, '..', 'package.json'), 'utf8')).version);
  });

  test('English usage errors with --lang en', () => {
    setLanguage('en');
    expect(translateUsageError("error: unknown option '--dya'\n(Did you mean --day?)\n")).toBe('error: unknown option --dya (did you mean --day?)\n');
    setLanguage('zh');
    expect(translateUsageError("error: unknown option '--dya'\n(Did you mean --day?)\n")).toBe('错误：未知选项 --dya（是不是 --day？）\n');
  });
});

describe('-g and ./game.yaml', () => {
  test('without --game, ./game.yaml is the game file; -g names another', async () => {
    process.chdir(TMP);
    try {
      // No store yet: the refusal names the default game file, so it was read.
      const r = await bansha(['tally', '--day', '1'], ZH);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('bansha crawl --game game.yaml');
      const g = await bansha(['tally', '-g', 'game.yaml', '--day', '1'], ZH);
      expect(g.stderr).toBe(r.stderr);
    } finally {
      process.chdir(cwd);
    }
  });

  test('without --game and without ./game.yaml: exit 2 naming -g', async () => {
    process.chdir(path.join(TMP, 'empty'));
    try {
      const r = await bansha(['tally', '--day', '1'], ZH);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('缺少 --game（-g）');
    } finally {
      process.chdir(cwd);
    }
  });
});
