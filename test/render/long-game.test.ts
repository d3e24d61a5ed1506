/**
 * A long game stays readable (issue 14): 10 days, 20 players, pages rendered from the real captured markup
 * (src/bench/synth-game.ts, the benchmark's game at a small size), parsed and stored as a crawl would.
 * The activity table is one row per player whatever the number of days — wrapped into blocks that fit
 * an 80-column terminal, a scrolling table in HTML — and the BBCode notice is one line per player.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { synthGame, gamePage } from '../../src/bench/synth-game.js';
import { closingDay, storedPostLinks } from '../../src/day/closing-day.js';
import { dayHtmlOf, writeDayHtml } from '../../src/day/day-html.js';
import { dayHtml, dayPage } from '../../src/day/day-page.js';
import { parseGame } from '../../src/game/game-file.js';
import { renderDayReportBBCode } from '../../src/render/report-bbcode.js';
import { renderDayReportTerminal } from '../../src/render/report-terminal.js';
import { emptyStore } from '../../src/store/index.js';
import { recordFetched } from '../helpers/captured.js';

const synth = synthGame({ posts: 3000, players: 20, days: 10 });
const game = parseGame(synth.gameYaml, '/tmp/bansha-long/long.yaml');
const store = emptyStore(synth.forum);
for (const ref of synth.pages) {
  const page = gamePage(ref);
  recordFetched(store, { bytes: page.bytes, url: page.url, fetchedAt: new Date('2027-01-01T00:00:00Z'), status: 200, contentType: page.contentType });
}

/** Display width: CJK characters take two columns. */
const width = (s: string) => [...s].reduce((n, ch) => n + (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(ch) ? 2 : 1), 0);

describe('a 10-day, 20-player game', () => {
  const closing = closingDay(game, store, 10, { ledgerFile: null });
  test('the report counts every day for every player', () => {
    expect(game.days).toHaveLength(10);
    expect(closing.report.table.days).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(closing.report.table.rows).toHaveLength(20);
  });
  test('terminal: the activity table fits 80 columns, one row per player per block', () => {
    const text = renderDayReportTerminal(closing.report);
    const table = text.split('\n\n违规')[0].split('\n').slice(3);
    expect(Math.max(...table.map(width))).toBeLessThanOrEqual(80);
    expect(table.filter((l) => /^ {2}玩家/.test(l))).toHaveLength(1);
    expect(table.filter((l) => l.trim() && !/^ {2}玩家/.test(l))).toHaveLength(20);
  });
  test('terminal: a longer game wraps the days into blocks, totals in the last', () => {
    const wide = { ...closing.report, table: { ...closing.report.table, days: [...Array(25).keys()].map((d) => d + 1), rows: closing.report.table.rows.map((r) => ({ ...r, counts: [...Array(25).keys()].map((d) => d) })) } };
    const table = renderDayReportTerminal(wide).split('\n\n违规')[0].split('\n').slice(3);
    const heads = table.filter((l) => /^ {2}玩家/.test(l));
    expect(heads.length).toBeGreaterThan(1);
    expect(heads.flatMap((h) => [...h.matchAll(/D(\d+)/g)].map((m) => Number(m[1])))).toEqual([...Array(25).keys()].map((d) => d + 1));
    expect(heads.map((h) => /合计 +投票$/.test(h))).toEqual(heads.map((_, i) => i === heads.length - 1));
    expect(table.filter((l) => l.startsWith('  饺子'))).toHaveLength(heads.length);
    expect(Math.max(...table.map(width))).toBeLessThanOrEqual(80);
  });
  test('HTML: one activity table with a column per day, in a scrolling box', () => {
    const html = dayHtml(game, store, closing, 0);
    const table = /<div class="scroll"><table class="activity"><thead><tr>(.*?)<\/tr><\/thead><tbody>(.*?)<\/tbody><\/table><\/div>/s.exec(html);
    expect(table).not.toBeNull();
    expect([...table![1].matchAll(/<th>第\d+日<\/th>/g)]).toHaveLength(10);
    expect([...table![2].matchAll(/<tr/g)]).toHaveLength(20);
  });
  test('HTML written as it is drawn (a batch of rows at a time) is the page as one text, byte for byte', () => {
    const page = dayPage(game, store, 10);
    const links = storedPostLinks(game, store);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-long-')), 'day10.html');
    fs.writeFileSync(file, 'an older, longer page '.repeat(100_000));
    writeDayHtml(file, closing, page, links, 0);
    const html = dayHtmlOf(closing, page, links, 0);
    expect(html.length).toBeGreaterThan(4 * 32 * 1024); // (several batches)
    expect(fs.readFileSync(file, 'utf8')).toBe(html);
    expect(html).toBe(dayHtml(game, store, closing, 0));
  });
  test('HTML that fails half-way leaves the earlier page as it was, and no temporary file', () => {
    const page = dayPage(game, store, 10);
    const links = storedPostLinks(game, store);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-long-'));
    const file = path.join(dir, 'day10.html');
    fs.writeFileSync(file, 'the page of the run before');
    // the disk fills after the first batch of rows
    const write = fs.writeFileSync;
    let batches = 0;
    const full = vi.spyOn(fs, 'writeFileSync').mockImplementation((...args: Parameters<typeof fs.writeFileSync>) => {
      if (++batches > 1) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      write(...args);
    });
    try {
      expect(() => writeDayHtml(file, closing, page, links, 0)).toThrow('ENOSPC');
    } finally {
      full.mockRestore();
    }
    expect(batches).toBe(2);
    expect(fs.readFileSync(file, 'utf8')).toBe('the page of the run before');
    expect(fs.readdirSync(dir)).toEqual(['day10.html']);
  });
  test('BBCode: the notice is one line per player, not per day', () => {
    const notice = renderDayReportBBCode(closing.report);
    const counts = notice.split('[b]发言数[/b]\n')[1].split('\n\n')[0].split('\n');
    expect(counts).toHaveLength(20);
  });
});
