/**
 * The alternative a director might use instead of bansha: a browser userscript that reads the posts off
 * each page's DOM. Real Chromium (playwright-core, the system's /usr/bin/chromium) loads each synthetic
 * page's bytes as the forum would serve them (its own charset decoding; every subresource blocked, as
 * if cached), then one evaluate() walks the post blocks with querySelectorAll and pulls out what bansha
 * extracts: pid, floor, author, uid, time, own text without jammer or quotes, quoted pids, fonts.
 *
 * Two ways, measured in the same browser and the same run, alternating: navigating the tab to each page
 * (what a scrape by navigation costs: navigation, parse, style and layout), and what a userscript
 * reading a thread would rather do — stay on one page, fetch() each page and read it with DOMParser
 * (parse only: a parsed document is never laid out).
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
  /** fetch() + DOMParser + the same extraction in one tab, per page. */
  domParserMsPerPage: number;
}

/** The userscript's extraction, run inside the page on a document (the tab's own, or one DOMParser made). */
function scrapeDocument(doc: Document): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  doc.querySelectorAll('#postlist > div[id^="post_"]').forEach((div) => {
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
      if (current && req.url() === current.url) {
        await route.fulfill({ status: 200, headers: { 'content-type': current.contentType }, body: Buffer.from(current.bytes) });
      } else {
        await route.abort();
      }
    });
    const scrape = scrapeDocument.toString();
    const visit = async (p: SynthPage): Promise<number> => {
      current = p;
      await page.goto(p.url, { waitUntil: 'domcontentloaded' });
      return page.evaluate<number>(`(${scrape})(document).length`);
    };
    /** The userscript's way: from the page the tab is on, fetch each page and parse it with DOMParser. */
    const viaDomParser = async (list: SynthPage[]): Promise<number> => {
      const urls = list.map((p) => ({ url: p.url, charset: /charset=([\w-]+)/i.exec(p.contentType)?.[1] ?? 'utf-8' }));
      let n = 0;
      for (const [i, u] of urls.entries()) {
        current = list[i]; // fetch() goes through the same route as a navigation
        n += await page.evaluate<number>(
          `(async (u) => { const scrape = ${scrape}; const r = await fetch(u.url); const html = new TextDecoder(u.charset).decode(await r.arrayBuffer()); ` +
            `return scrape(new DOMParser().parseFromString(html, 'text/html')).length; })(${JSON.stringify(u)})`,
        );
      }
      return n;
    };
    await visit(pages[0]);
    await viaDomParser(pages.slice(0, 2)); // warm both paths
    const startupMs = performance.now() - t0;
    let posts = 0;
    let domPosts = 0;
    let navMs = 0;
    let domMs = 0;
    // halves, alternating the two ways, so neither always runs on a warmer browser
    const halves = [pages.slice(0, pages.length >> 1), pages.slice(pages.length >> 1)];
    for (const [i, half] of halves.entries()) {
      for (const way of i % 2 === 0 ? ['nav', 'dom'] : ['dom', 'nav']) {
        const t = performance.now();
        if (way === 'nav') {
          for (const p of half) posts += await visit(p);
          navMs += performance.now() - t;
        } else {
          domPosts += await viaDomParser(half);
          domMs += performance.now() - t;
        }
      }
    }
    if (domPosts !== posts) throw new Error(`bench: DOMParser read ${domPosts} posts, navigation ${posts}`);
    return { pages: pages.length, posts, startupMs, msPerPage: navMs / pages.length, domParserMsPerPage: domMs / pages.length };
  } finally {
    await browser?.close();
  }
}
