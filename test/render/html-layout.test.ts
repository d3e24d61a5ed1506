/**
 * The HTML report as directors and players read it, in real Chromium: the public game's day 2 (as
 * `bansha report --html` writes it) at 1280 px and on a 390 px phone — no horizontal overflow, no
 * text cut off, chart labels at a readable size, tables stacked with their column names, a tap on a
 * chart dot showing its ballot; the page title names the game and day; the footer says the version,
 * the crawl time and the store's completeness; printed, link URLs show.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closingDay } from '../../src/day/closing-day.js';
import { dayHtml } from '../../src/day/day-page.js';
import { findBrowser } from '../../src/browser/discover.js';
import { launchChromium } from '../../src/crawl/login.js';
import { CJK_FONT_STACK } from '../../src/render/html-report.js';
import { VERSION } from '../../src/version.js';
import { publicGame } from '../helpers/captured.js';
import { publicStore } from '../activity/captured.js';

const TMP = path.resolve(import.meta.dirname, '../.tmp/html-layout');
const FILE = path.join(TMP, 'report-day2.html');
let browser: Browser;

beforeAll(async () => {
  fs.mkdirSync(TMP, { recursive: true });
  const game = publicGame();
  const store = publicStore();
  fs.writeFileSync(FILE, dayHtml(game, store, closingDay(game, store, 2, { ledgerFile: null }), Date.parse('2026-11-22T21:05:00+08:00')));
  browser = await launchChromium(findBrowser(undefined).path, true, []);
});
afterAll(async () => browser?.close());

async function open(width: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 }, isMobile: width < 600, hasTouch: width < 600 });
  await page.goto(`file://${FILE}`);
  return page;
}

/** Elements whose content is wider than their box (text cut or spilling), and the page's own overflow. */
async function overflow(page: Page): Promise<{ page: number; viewport: number; spilling: string[] }> {
  return page.evaluate(() => {
    const spilling: string[] = [];
    for (const el of Array.from(document.querySelectorAll('h1,h2,p,li,td,th,footer'))) {
      const e = el as HTMLElement;
      if (e.offsetParent === null) continue; // hidden
      if (e.scrollWidth > e.clientWidth + 1) spilling.push(`${e.tagName.toLowerCase()}: ${e.textContent!.slice(0, 40)}`);
    }
    return { page: document.documentElement.scrollWidth, viewport: window.innerWidth, spilling };
  });
}

describe.each([1280, 390])('at %i px', (width) => {
  it('nothing overflows the page or its box', async () => {
    const page = await open(width);
    const o = await overflow(page);
    expect(o.page).toBeLessThanOrEqual(o.viewport);
    expect(o.spilling).toEqual([]);
    // The phone's first screen (the whole page is a long scroll), the desktop's whole page.
    await page.screenshot({ path: path.join(TMP, `report-day2-${width}.png`), fullPage: width >= 600 });
    await page.close();
  });

  it('every column heading is one line (投票者 never breaks into a column of characters)', async () => {
    const page = await open(width);
    const broken = await page.evaluate(() =>
      Array.from(document.querySelectorAll('th'))
        .filter((th) => th.offsetParent !== null)
        .filter((th) => {
          const range = document.createRange();
          range.selectNodeContents(th);
          return new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size > 1;
        })
        .map((th) => th.textContent),
    );
    expect(broken).toEqual([]);
    await page.close();
  });

  it('the chart drawn for this width shows, with labels of at least 10 px', async () => {
    const page = await open(width);
    const shown = width < 600 ? 'narrow' : 'wide';
    const hidden = width < 600 ? 'wide' : 'narrow';
    expect(await page.locator(`svg.timeline.${shown}`).isVisible()).toBe(true);
    expect(await page.locator(`svg.timeline.${hidden}`).isVisible()).toBe(false);
    const svgBox = (await page.locator(`svg.timeline.${shown}`).boundingBox())!;
    expect(svgBox.x + svgBox.width).toBeLessThanOrEqual(width);
    const heights = await page.locator(`svg.timeline.${shown} text`).evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
    expect(heights.length).toBeGreaterThan(3);
    expect(Math.min(...heights)).toBeGreaterThanOrEqual(10);
    await page.close();
  });
});

describe('on a phone', () => {
  it('tables stack into rows with their column names; a tapped chart dot shows its ballot', async () => {
    const page = await open(390);
    const cell = page.locator('table.ballots tbody tr').first().locator('td').first();
    expect(await cell.evaluate((e) => getComputedStyle(e).display)).toBe('block');
    expect(await cell.evaluate((e) => getComputedStyle(e, '::before').content)).toBe('"时间："');
    expect(await page.locator('table.ballots thead').isVisible()).toBe(false);
    const dot = page.locator('svg.timeline.narrow a').first();
    const href = await dot.getAttribute('href');
    expect(href).toMatch(/^#ballot-\d+$/);
    await dot.tap();
    await page.waitForFunction((h) => location.hash === h, href);
    const row = page.locator(`tr${href}`);
    expect(await row.isVisible()).toBe(true);
    expect(await row.locator('td').first().evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(255, 243, 176)');
    await page.close();
  });
});

describe('what the page says about itself', () => {
  it('title: the game and the day; fonts: the CJK stack; footer: version, crawl time, completeness', async () => {
    const page = await open(1280);
    expect(await page.title()).toBe('[M901] 第2日');
    expect(await page.locator('body').evaluate((e) => getComputedStyle(e).fontFamily)).toBe(CJK_FONT_STACK.replace(/,/g, ', '));
    const footer = (await page.locator('footer').textContent())!;
    expect(footer).toContain(`bansha ${VERSION}`);
    expect(footer).toMatch(/数据抓取于 2026-11-2\d \d\d:\d\d:\d\d/);
    expect(footer).toContain('存档完整');
    await page.close();
  });

  it('printed, every http(s) link shows its URL', async () => {
    const page = await open(1280);
    await page.emulateMedia({ media: 'print' });
    const link = page.locator('table.ballots a').first();
    const href = await link.getAttribute('href');
    expect(await link.evaluate((e) => getComputedStyle(e, '::after').content)).toContain(href!);
    await page.close();
  });
});
