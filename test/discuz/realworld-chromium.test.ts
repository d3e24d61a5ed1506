/**
 * The independent reading the real-world tests trust (browser-reading.ts, parse5's own tree) checked
 * against Chromium itself: the same bytes through page.setContent (JavaScript off, no network), the
 * post list as Chromium's DOM holds it and each message's innerText (what Chromium shows, with
 * display:none honoured, spoiler boxes opened as a reader opens them), leaving out the same
 * non-author chrome. So "as a browser reads it" is
 * what a browser reads.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { chromiumPath, launchChromium } from '../../src/crawl/login.js';
import { REALWORLD, REALWORLD_PAGES, describeRealworld, realworldPath } from '../helpers/realworld.js';
import { readLikeBrowser } from './browser-reading.js';

/** The chrome browser-reading.ts leaves out (its notAuthors), as CSS for Chromium's DOM. */
const CHROME =
  'script, style, rt, rp, blockquote, .quote, .pstatus, .tip, .aimg_tip, .attach_nopermission, .guestviewthumb, .locked, .jammer, .a_pr, .a_pt, .a_pb, .mbn, .showcollapse_gather, em[onclick^="copycode"]';

let browser: Browser;
beforeAll(async () => {
  if (REALWORLD) browser = await launchChromium(chromiumPath(), true, []);
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

describeRealworld.each(REALWORLD_PAGES)('%s in Chromium', (file) => {
  test('same posts in the list, same characters shown per post as the parse5 reading', async () => {
    const html = fs.readFileSync(realworldPath(file), 'utf8');
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await ctx.newPage();
      await page.route('**/*', (r) => r.abort());
      await page.setContent(html, { waitUntil: 'domcontentloaded' });
      const shown = await page.evaluate((chrome) => {
        const list = document.getElementById('postlist');
        const blocks = list
          ? Array.from(list.children).filter((e) => /^post_\d+$/.test(e.id)).map((e) => [+e.id.slice(5), document.getElementById(`postmessage_${e.id.slice(5)}`)] as const)
          : Array.from(document.querySelectorAll('div.plc')).filter((e) => /^pid\d+$/.test(e.id)).map((e) => [+e.id.slice(3), e.querySelector('div.message')] as const);
        return blocks.map(([pid, msg]) => {
          if (!msg) return [pid, ''] as const;
          for (const el of Array.from(msg.querySelectorAll(chrome))) el.remove();
          // A reader opens a spoiler box (百合会's showcollapse plugin): its content is the author's.
          for (const el of Array.from(msg.querySelectorAll<HTMLElement>('.showcollapse_content'))) el.style.display = 'block';
          const text = (msg as HTMLElement).innerText.replace(/来自群组[:：][^\n]*\s*$/, '');
          return [pid, text.replace(/\s+/g, '')] as const;
        });
      }, CHROME);
      const reading = readLikeBrowser(html);
      expect(shown.map(([pid]) => pid)).toEqual(reading.posts.map((p) => p.pid));
      expect(Object.fromEntries(shown)).toEqual(Object.fromEntries(reading.posts.map((p) => [p.pid, p.chars])));
    } finally {
      await ctx.close();
    }
  }, 60_000);
});
