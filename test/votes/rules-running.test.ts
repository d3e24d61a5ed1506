/**
 * wuhui's morning duel-rule vote (`tally --rules`) before the day's close (issue 31): a running count as
 * of now — 截至 HH:MM, who leads, no result wording — exactly as the day's own vote is, and `--post`
 * refuses (exit 7). The wuhui demo game (fixtures/discuz/demo-wuhui, pages rendered from Discuz's markup
 * by src/demo/synth-games.ts), day 1: the rule vote thread closes with the day (无回之城 l.129 当天21点结束计票).
 * Who leads at 13:50 is read here from the thread's posts as the demo site wrote them: 规则3 by 阿狸
 * (10:30), 饿虎 (12:00), 海棠 (13:40) — and 苍龙's 3号规则 (11:05), however it is read — against 规则1 by
 * 白泽 (10:42) and 丹青 (11:20); 火凤's 规则1 (14:10) and 孤鸿's change (14:15) come after 13:50.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ExitCode } from '../../src/errors.js';
import { FIXTURES, storeFromFixture, threadPageFiles } from '../helpers/captured.js';
import { bansha } from '../helpers/cli.js';

/** Forum time is +08:00 (the game file's Asia/Shanghai). */
const at = (local: string) => `${local.replace(' ', 'T')}:00+08:00`;
const NOW = { BANSHA_NOW: at('2026-12-01 13:50') };

let file: string;

beforeAll(() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-rules-open-'));
  file = path.join(dir, 'wuhui.yaml');
  fs.copyFileSync(path.join(FIXTURES, 'games', 'wuhui.yaml'), file);
  fs.writeFileSync(path.join(dir, 'wuhui.store.json'), JSON.stringify(storeFromFixture('demo-wuhui', threadPageFiles('demo-wuhui'), new Date(at('2026-12-01 13:50')))));
});

describe('tally --rules before the day closes', () => {
  test('terminal, BBCode and JSON: a running count as of 13:50 with who leads, never a result', async () => {
    const term = await bansha(['tally', '--game', file, '--day', '1', '--rules'], NOW);
    expect(term.code, term.stderr).toBe(0);
    expect(term.stdout).toContain('截至 12-01 13:50');
    expect(term.stdout).toContain('领先：规则3');
    expect(term.stdout).not.toMatch(/^结果：/m);
    // 火凤's 规则1 at 14:10 is not in a count as of 13:50
    expect(term.stdout).toMatch(/规则1\s+2\s/);

    const bb = await bansha(['tally', '--game', file, '--day', '1', '--rules', '--bbcode'], NOW);
    expect(bb.code, bb.stderr).toBe(0);
    expect(bb.stdout.split('\n')[0]).toContain('截至 12-01 13:50');
    expect(bb.stdout).toContain('[b]领先[/b]：规则3');
    expect(bb.stdout).not.toContain('为今日对战规则');
    expect(bb.stdout).not.toContain('[b]结果[/b]');

    const json = JSON.parse((await bansha(['tally', '--game', file, '--day', '1', '--rules', '--json'], NOW)).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ running: true, asOf: '2026-12-01T13:50:00+08:00', closes: '2026-12-01T21:00:00+08:00', result: { name: '规则3' } });
    // An open count is not as of any close: no thread is called stale.
    expect(json).not.toHaveProperty('stale');
  });

  test('--post refuses (exit 7): the day has not closed', async () => {
    const r = await bansha(['tally', '--game', file, '--day', '1', '--rules', '--post'], NOW);
    expect(r.code).toBe(ExitCode.notFinal);
    expect(r.stderr).toContain('第 1 日还没关门');
  });

  test('close: the rule vote\'s file and summary line are a running count too', async () => {
    const out = path.join(path.dirname(file), 'open-close');
    const r = await bansha(['close', '--game', file, '--day', '1', '--no-crawl', '--out', out], NOW);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('第 1 日对战规则投票（截至 12-01 13:50，还没关门）：领先 规则3');
    expect(r.stdout).not.toContain('第 1 日：对战规则');
    const rules = fs.readFileSync(path.join(out, 'rules-day1.txt'), 'utf8');
    expect(rules).toContain('截至 12-01 13:50');
    expect(rules).not.toMatch(/^结果：/m);
  });

  test('after the close the same command gives the result (the control)', async () => {
    const r = await bansha(['tally', '--game', file, '--day', '1', '--rules'], { BANSHA_NOW: at('2026-12-01 21:30') });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('领先');
    expect(r.stdout).toMatch(/^结果：规则3/m);
    // (the store was fetched at 13:50: after the close the count says it is as of then)
    expect(r.stdout).toContain('只抓到截至 12-01 13:50 的状态');
  });
});
