/**
 * Every captured thread page in fixtures/discuz (lab captures UTF-8 and GBK, demo games, defense
 * pages, the real-world pages): bansha's posts against the independent browser reading of the same
 * bytes (browser-reading.ts: parse5's own tree, a walk written in the test) — the same pids in the
 * same order (oldest first), each with the browser's author, uid, floor label and characters. The
 * differential issue #12 asks for, over every page, between bansha and the HTML5 algorithm.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parsePage } from '../../src/discuz/index.js';
import type { Page } from '../../src/discuz/types.js';
import { DISCUZ } from '../helpers/captured.js';
import { readLikeBrowser } from './browser-reading.js';

interface Row {
  file: string;
  url: string;
  content_type?: string;
  status?: number;
}
const pages: { name: string; html: string; page: Page }[] = [];
for (const dir of fs.readdirSync(DISCUZ)) {
  const manifest = path.join(DISCUZ, dir, 'manifest.json');
  if (!fs.existsSync(manifest)) continue;
  for (const e of JSON.parse(fs.readFileSync(manifest, 'utf8')) as Row[]) {
    if (!e.file.endsWith('.html')) continue;
    const bytes = fs.readFileSync(path.join(DISCUZ, dir, e.file));
    let page: Page;
    try {
      page = parsePage({ bytes, url: new URL(e.url, 'http://127.0.0.1:8081/').href, fetchedAt: new Date('2026-11-30T08:00:00Z'), status: e.status, contentType: e.content_type });
    } catch {
      continue; // refused pages are tested where they are made
    }
    if (!page.posts.length || page.posts[0].pid === null) continue; // printable: no pids to compare
    pages.push({ name: `${dir}/${e.file}`, html: new TextDecoder(page.page.charset === 'utf-8' ? 'utf-8' : 'gb18030').decode(bytes), page });
  }
}

describe('every fixture thread page: bansha and the browser reading agree', () => {
  test('there are many', () => expect(pages.length).toBeGreaterThan(60));
  test.each(pages.map((p) => [p.name, p] as const))('%s', (_name, { html, page }) => {
    const browser = readLikeBrowser(html);
    const copies = new Set(browser.posts.filter((b) => b.label && /^(推荐|来自)/.test(b.label)).map((b) => b.pid));
    const originals = browser.posts.filter((b) => !(copies.has(b.pid) && /^(推荐|来自)/.test(b.label ?? '')));
    const order = page.page.reversed ? [originals[0], ...originals.slice(1).reverse()] : originals;
    const seen = new Set<number>();
    const expected = order.filter((b) => !seen.has(b.pid) && seen.add(b.pid));
    expect(page.posts.map((p) => p.pid)).toEqual(expected.map((b) => b.pid));
    expect(page.page.wholeBy).toMatch(/^html-end\+footer/); // every captured page ends with its template's footer
    for (const [i, b] of expected.entries()) {
      const p = page.posts[i];
      expect([p.author, p.authorId], String(b.pid)).toEqual([b.author, b.uid]);
      if (!page.page.reversed) expect(p.floorLabel, String(b.pid)).toBe(b.label);
      if (!p.deleted) expect(p.text.replace(/\s+/g, ''), String(b.pid)).toBe(b.chars);
    }
  });
});
