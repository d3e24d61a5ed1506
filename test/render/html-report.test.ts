import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { renderHtmlReport, reportCsp, type HtmlReportInput } from '../../src/render/html-report.js';
import { htmlDayInput } from '../../src/render/html-day.js';
import { FLAG_KIND_NAMES } from '../../src/violations/flag.js';
import { closingDay, storedPostLinks } from '../../src/day/closing-day.js';
import { publicGame } from '../helpers/captured.js';
import { publicStore } from '../activity/captured.js';
import { voteTimeline } from '../../src/render/vote-timeline.js';
import type { BallotRecord, TallyResult } from '../../src/votes/types.js';

const TMP = path.resolve(import.meta.dirname, '../.tmp');
const CHROMIUM = process.env.BANSHA_CHROMIUM ?? '/usr/bin/chromium';
const EVIL = '<script>alert(1)</script>"><img src=x onerror=alert(2)>';

const opens = Date.parse('2026-11-22T10:00:00+08:00');
const closes = Date.parse('2026-11-22T21:00:00+08:00');
const forum = 'http://127.0.0.1:8081/';
let pid = 140;
function ballot(voter: string, target: string, hhmm: string, status: BallotRecord['status'], head: 'vote' | 'change' = 'vote', reason: string | null = null): BallotRecord {
  const p = pid++;
  return {
    voter, target, weight: status === 'counted' ? 1 : 0, status, reason, pid: p, floor: p - 138,
    at: Date.parse(`2026-11-22T${hhmm}:00+08:00`), url: `${forum}forum.php?mod=redirect&goto=findpost&ptid=5&pid=${p}`,
    head, proxyBy: null, edit: null, flags: [], parsed: { kind: 'player', name: target },
  };
}

/** A day-2 elimination with a change (包子 → 月饼) and an invalid ballot carrying hostile text. */
function tally(): TallyResult {
  const ballots = [
    ballot('饺子', '月饼', '11:00', 'counted'),
    ballot('包子', '麻花', '11:30', 'superseded'),
    ballot('烧卖', '月饼', '12:00', 'counted'),
    ballot('汤圆', '麻花', '13:00', 'counted'),
    ballot('包子', '月饼', '15:00', 'counted', 'change'),
    ballot('春卷', EVIL, '16:00', 'rejected', 'vote', `未知的投票对象 ${EVIL}`),
  ];
  ballots[5].parsed = null;
  const counted = ballots.filter((b) => b.status === 'counted');
  const totals = ['月饼', '麻花'].map((name) => ({ name, votes: counted.filter((b) => b.target === name).length, voters: counted.filter((b) => b.target === name).map((b) => b.voter) }));
  return {
    day: 2, kind: 'elimination', reason: null, tid: 5, closes, countedAt: closes, running: false, timezone: 'Asia/Shanghai',
    sheriff: null, sheriffSource: '无警长', sheriffFrom: { code: 'none' }, sheriffWeight: 1.5, accelerated: false, acceleration: null,
    totals, abstentions: [], result: { name: '月饼', tie: [], rule: '票数最多者出局' }, ballots,
    players: ['饺子', '包子', '烧卖', '汤圆', '春卷'].map((p) => ({ player: p, counted: counted.find((b) => b.voter === p) ?? null, others: [], state: p === '春卷' ? 'none' : 'voted' })),
    notes: [`检查 ${EVIL}`],
  };
}

function input(): HtmlReportInput {
  return {
    title: `M901 饺子馆 ${EVIL}`, day: 2, timezone: 'Asia/Shanghai', opens, closes, generatedAt: closes + 60_000,
    tally: tally(),
    activity: { columns: ['讨论帖', '投票帖'], rows: [{ player: '饺子', cells: [12, 1] }, { player: EVIL, cells: [1, 0], warn: true }] },
    flags: [
      { player: '春卷', kind: '红字', detail: EVIL, at: Date.parse('2026-11-22T14:00:00+08:00'), url: `${forum}forum.php?mod=redirect&goto=findpost&ptid=4&pid=120` },
      { player: '汤圆', kind: '贴证', detail: 'link', at: null, url: 'javascript:alert(3)' },
    ],
  };
}

describe('voteTimeline', () => {
  it('moves a changed vote from its old target to the new one at the change time', () => {
    const tl = voteTimeline(tally());
    expect(tl.events.map((e) => [e.voter, e.kind, e.from, e.to])).toEqual([
      ['饺子', 'vote', null, '月饼'], ['包子', 'vote', null, '麻花'], ['烧卖', 'vote', null, '月饼'],
      ['汤圆', 'vote', null, '麻花'], ['包子', 'change', '麻花', '月饼'],
    ]);
    const final = tl.totals[tl.totals.length - 1];
    for (const line of tally().totals) expect(final[line.name]).toBe(line.votes);
    expect(tl.totals[3]).toEqual({ 月饼: 2, 麻花: 2 });
  });
});

/** Day 2 of the public captured game, assembled once (tally + day report) as `bansha report --html` does. */
function publicDay2() {
  const game = publicGame();
  const store = publicStore();
  const day = closingDay(game, store, 2, { ledgerFile: null });
  return { game, store, day, input: htmlDayInput(day.report, day.tally, { title: 'M901 饺子馆', now: closes, postUrl: storedPostLinks(game, store) }) };
}

describe('htmlDayInput: the HTML report draws the day report and the tally, nothing recomputed', () => {
  const { game, store, day, input } = publicDay2();
  const { report, tally } = day;

  it('passes the tally through and takes the day\'s window from the report', () => {
    expect(input.tally).toBe(tally);
    expect(input).toMatchObject({ day: 2, opens: report.opens, closes: report.closes, timezone: report.timezone, notes: report.notes });
    expect(tally!.accelerated).toBe(report.accelerated);
  });

  it('shows the report\'s activity table, marking exactly the players the report flagged as lurkers', () => {
    const col = report.table.days.indexOf(2);
    expect(input.activity!.rows.map((r) => r.player)).toEqual(report.table.rows.map((r) => r.player));
    for (const row of input.activity!.rows) {
      const a = report.activity.find((x) => x.player === row.player)!;
      expect(row.cells[col], row.player).toBe(a.exempt ? '—' : a.posts);
      expect(row.cells.at(-1), row.player).toBe(a.exempt ? '出局' : a.voted ? '✓' : '✗');
      const flagged = report.flags.some((f) => f.player === row.player && ['few-posts', 'low-streak', 'no-ballot'].includes(f.kind));
      expect(Boolean(row.warn), row.player).toBe(flagged);
    }
    expect(input.activity!.rows.some((r) => r.warn)).toBe(true); // the scenario has day-2 lurkers
  });

  it('lists every flag and every proposed card, evidence linked to the stored post', () => {
    expect(input.flags.map((f) => [f.player, f.kind, f.url])).toEqual(report.flags.map((f) => [f.player, FLAG_KIND_NAMES[f.kind].short, f.url]));
    expect(input.cards!.map((c) => c.player)).toEqual(report.cards.map((c) => c.player));
    for (const c of input.cards!) {
      for (const e of c.evidence) {
        const pid = Number(e.label.replace('pid ', ''));
        expect(e.url).toBe(`${game.forum}forum.php?mod=redirect&goto=findpost&ptid=${store.posts[String(pid)].tid}&pid=${pid}`);
      }
    }
  });

  it('refuses a tally of another day', () => {
    const day1 = closingDay(game, store, 1, { ledgerFile: null });
    expect(() => htmlDayInput(report, day1.tally)).toThrow(/day 1/);
  });
});

describe('renderHtmlReport', () => {
  it('escapes every piece of player text and loads nothing', () => {
    const html = renderHtmlReport(input());
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('javascript:');
    expect(html).not.toMatch(/\sstyle="/);
    // links go to the forum, or (a chart dot) to a ballot's row on the page itself
    expect(html).not.toMatch(/(src|href)="(?!http:\/\/127\.0\.0\.1:8081\/|#ballot-\d+")/);
    expect(html).toContain(`content="${reportCsp()}"`);
  });

  describe.skipIf(!fs.existsSync(CHROMIUM))('in real Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      });
    });
    afterAll(async () => browser?.close());

    it('renders the chart and the tables offline, with no CSP violation, and takes a screenshot', async () => {
      fs.mkdirSync(TMP, { recursive: true });
      const file = path.join(TMP, 'report-day2.html');
      fs.writeFileSync(file, renderHtmlReport(input()));
      const page = await browser.newPage({ viewport: { width: 1040, height: 900 } });
      const requests: string[] = [];
      const problems: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()); });
      page.on('dialog', (d) => { problems.push(`dialog ${d.message()}`); void d.dismiss(); });
      await page.goto(`file://${file}`);

      expect(requests).toEqual([`file://${file}`]);
      expect(problems).toEqual([]);
      expect(await page.locator('script, img, iframe').count()).toBe(0);
      // the stylesheet applied (its hash matched the CSP): the outcome box has its background
      expect(await page.locator('p.outcome').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(243, 247, 255)');

      const tl = voteTimeline(tally());
      const svg = page.locator('svg.timeline.wide');
      expect(await svg.count()).toBe(1);
      const box = await svg.boundingBox();
      expect(box!.width).toBeGreaterThan(400);
      expect(await page.locator('svg.timeline.wide path.series').count()).toBe(tl.candidates.length);
      // one dot per change of a candidate's total: 月饼 +1 ×3, 麻花 +1 ×2 and −1 once (the change)
      expect(await page.locator('svg.timeline.wide circle.mark.gain').count()).toBe(5);
      expect(await page.locator('svg.timeline.wide circle.mark.loss').count()).toBe(1);
      expect(await page.locator('svg.timeline.wide circle.mark.loss title').textContent()).toContain('包子: 改票 麻花 → 月饼');
      const pathBox = await page.locator('svg.timeline.wide path.series').first().boundingBox();
      expect(pathBox!.height).toBeGreaterThan(20);

      expect(await page.locator('table.totals tbody tr').count()).toBe(tally().totals.length);
      expect(await page.locator('table.ballots tbody tr').count()).toBe(tally().ballots.length);
      expect(await page.locator('table.activity tbody tr').count()).toBe(2);
      expect(await page.locator('table.flags tbody tr').count()).toBe(2);
      expect(await page.locator('table.flags a').count()).toBe(1);
      // hostile text shows as text
      expect(await page.locator('table.activity tbody tr.warn td').first().textContent()).toBe(EVIL);
      expect(await page.locator('h1').textContent()).toContain(EVIL);

      const shot = path.join(TMP, 'report-day2.png');
      await page.screenshot({ path: shot, fullPage: true });
      expect(fs.statSync(shot).size).toBeGreaterThan(10_000);
      await page.close();
    });

    it('renders a real day (the public game\'s day 2): every tally ballot, activity row, flag and card', async () => {
      const { day, input: real } = publicDay2();
      fs.mkdirSync(TMP, { recursive: true });
      const file = path.join(TMP, 'public-day2.html');
      fs.writeFileSync(file, renderHtmlReport(real));
      const page = await browser.newPage({ viewport: { width: 1040, height: 900 } });
      const problems: string[] = [];
      page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()); });
      await page.goto(`file://${file}`);
      expect(problems).toEqual([]);
      expect(await page.locator('p.outcome').textContent()).toContain(day.tally!.result.name!);
      expect(await page.locator('table.ballots tbody tr').count()).toBe(day.tally!.ballots.length);
      expect(await page.locator('table.ballots tbody tr.rejected').count()).toBe(day.tally!.ballots.filter((b) => b.status === 'rejected').length);
      expect(await page.locator('svg.timeline.wide path.series').count()).toBeGreaterThan(0);
      expect(await page.locator('table.activity tbody tr').count()).toBe(day.report.table.rows.length);
      expect(await page.locator('table.activity tbody tr.warn').count()).toBe(real.activity!.rows.filter((r) => r.warn).length);
      expect(await page.locator('table.flags tbody tr').count()).toBe(day.report.flags.length);
      expect(await page.locator('table.cards tbody tr').count()).toBe(day.report.cards.length);
      await page.screenshot({ path: path.join(TMP, 'public-day2.png'), fullPage: true });
      await page.close();
    });
  });
});
