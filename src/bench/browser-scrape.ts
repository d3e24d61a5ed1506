/**
 * The alternative a director might use instead of bansha: a browser userscript that reads the posts off
 * each page's DOM. Real Chromium (playwright-core, the system's /usr/bin/chromium) loads each synthetic
 * page's bytes as the forum would serve them (its own charset decoding; every subresource blocked, as
 * if cached), then one evaluate() walks the post blocks with querySelectorAll and pulls out what bansha
 * extracts: pid, floor, author, uid, time, own text without jammer or quotes, quoted pids, fonts.
 */
import type { Browser } from 'playwright-core';
import { chromiumPath, launchChromium } from '../crawl/login.js';
import type { SynthPage } from '../replay/synth.js';

/** What the browser side measured. */
export interface BrowserScrapeResult {
  pages: number;
  posts: number;
  /** Launch + first page (not counted in msPerPage). */
  startupMs: number;
  /** Navigation + DOM scrape, per page. */
  msPerPage: number;
}

/** The userscript's extraction, run inside the page. */
function scrapeInPage(): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  document.querySelectorAll('#postlist > div[id^="post_"]').forEach((div) => {
    const pid = Number(div.id.slice(5));
    const a = div.querySelector('.favatar .authi a[href*="uid"]') as HTMLAnchorElement | null;
    const time = div.querySelector(`#authorposton${pid}`);
    const titled = time?.querySelector('span[title]');
    const msg = div.querySelector('td.t_f')?.cloneNode(true) as HTMLElement | undefined;
    const quotes: number[] = [];
    const colors: string[] = [];
    const sizes: string[] = [];
    if (msg) {
      msg.querySelectorAll('font.jammer, span[style*="display:none"], i.pstatus').forEach((e) => e.remove());
      msg.querySelectorAll('div.quote').forEach((q) => {
        const href = q.querySelector('a[href*="findpost"]')?.getAttribute('href') ?? '';
        const m = /pid=(\d+)/.exec(href);
        if (m) quotes.push(Number(m[1]));
        q.remove();
      });
      msg.querySelectorAll('font[color]').forEach((f) => colors.push(f.getAttribute('color') ?? ''));
      msg.querySelectorAll('font[size]').forEach((f) => sizes.push(f.getAttribute('size') ?? ''));
    }
    out.push({
      pid,
      floor: div.querySelector(`#postnum${pid}`)?.textContent?.trim() ?? null,
      author: a?.textContent ?? null,
      uid: a ? Number(/uid[=-](\d+)/.exec(a.getAttribute('href') ?? '')?.[1]) : null,
      time: titled?.getAttribute('title') ?? time?.textContent?.replace(/^发表于\s*/, '').trim() ?? null,
      text: msg?.innerText ?? '',
      quotes,
      colors,
      sizes,
    });
  });
  return out;
}

/** Scrape `pages` in one Chromium tab, one after the other (a userscript sees one page at a time). */
export async function runBrowserScrape(pages: SynthPage[], opts: { executablePath?: string } = {}): Promise<BrowserScrapeResult> {
  const t0 = performance.now();
  let browser: Browser | null = null;
  try {
    browser = await launchChromium(chromiumPath(opts.executablePath), true, []);
    const context = await browser.newContext({ javaScriptEnabled: true });
    const page = await context.newPage();
    let current: SynthPage | null = null;
    await page.route('**/*', async (route) => {
      const req = route.request();
      if (current && req.isNavigationRequest() && req.url() === current.url) {
        await route.fulfill({ status: 200, headers: { 'content-type': current.contentType }, body: Buffer.from(current.bytes) });
      } else {
        await route.abort();
      }
    });
    const visit = async (p: SynthPage): Promise<number> => {
      current = p;
      await page.goto(p.url, { waitUntil: 'domcontentloaded' });
      const posts = await page.evaluate(scrapeInPage);
      return posts.length;
    };
    await visit(pages[0]);
    const startupMs = performance.now() - t0;
    let posts = 0;
    const t1 = performance.now();
    for (const p of pages) posts += await visit(p);
    const ms = performance.now() - t1;
    return { pages: pages.length, posts, startupMs, msPerPage: ms / pages.length };
  } finally {
    await browser?.close();
  }
}
