/**
 * Real captured pages of the public capture as the crawler would hand them over — FetchedPage + parsed
 * Page — by thread and page number, optionally with their HTML edited, and its ids.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parsePage } from '../../src/discuz/parse-page.js';
import type { FetchedPage, Page } from '../../src/discuz/types.js';
import { DISCUZ, ids as readIds, idsThreadPosts } from '../helpers/captured.js';

/** fixtures/discuz/public: the capture these helpers read. */
export const PUBLIC = path.join(DISCUZ, 'public');

/** The public capture's ids.json. */
export const ids = readIds('public');

/** Posts of a thread from ids.json, by floor. */
export function idsPosts(tid: number) {
  return idsThreadPosts(ids, tid);
}

/** Captured page count of a thread (from the files present). */
export function capturedPages(tid: number): number {
  return fs.readdirSync(PUBLIC).filter((f) => new RegExp(`^viewthread-t${tid}-p\\d+\\.html$`).test(f)).length;
}

export function pageHtml(tid: number, page: number, dir = PUBLIC): string {
  return fs.readFileSync(path.join(dir, `viewthread-t${tid}-p${page}.html`), 'utf8');
}

/** A FetchedPage of a captured (or edited) thread page, fetched at `at`. */
export function fetchedPage(tid: number, page: number, opts: { html?: string; at?: Date; file?: string; status?: number } = {}): FetchedPage {
  const bytes = opts.html !== undefined ? Buffer.from(opts.html, 'utf8')
    : fs.readFileSync(path.join(PUBLIC, opts.file ?? `viewthread-t${tid}-p${page}.html`));
  return {
    bytes,
    url: `${ids.base}forum.php?mod=viewthread&tid=${tid}&page=${page}`,
    fetchedAt: opts.at ?? new Date('2026-11-23T00:00:00Z'),
    status: opts.status ?? 200,
    contentType: 'text/html; charset=utf-8',
  };
}

/** Fetched and parsed together. */
export function capture(tid: number, page: number, opts: Parameters<typeof fetchedPage>[2] = {}): { fetched: FetchedPage; parsed: Page } {
  const fetched = fetchedPage(tid, page, opts);
  return { fetched, parsed: parsePage(fetched) };
}
