/**
 * Pages other real Discuz! forums served (issue 37): third parties' data, saved by other people in their
 * own public repositories, read where they are — ../shared/discuz/realworld beside the checkout (README
 * there says where each came from) — and never copied into this project. Where that folder is absent
 * the tests that read them are skipped (test/setup/shared-pages.ts says so once a run); the rest of the
 * suite runs as it is.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe } from 'vitest';
import type { FetchedPage } from '../../src/discuz/types.js';

/** ../shared/discuz/realworld beside the checkout, or null where it is not there. */
export const REALWORLD: string | null = (() => {
  const dir = path.resolve(import.meta.dirname, '../../../shared/discuz/realworld');
  return fs.existsSync(path.join(dir, 'README.md')) ? dir : null;
})();

/** describe where the real pages are; skipped where they are not. */
export const describeRealworld: ReturnType<typeof describe.skipIf> = describe.skipIf(!REALWORLD);

/** The HTML thread pages among them. */
export const REALWORLD_PAGES = ['talkop-x34-t107596.html', 'talkop-x34-t112530.html', 'mcbbs-x34-t857907.html', 'yamibo-touch-x35-t556787.html'] as const;

/**
 * The request each file answered, as its source repository records it (see the README beside them):
 * the parser needs the absolute URL, and the status and Content-Type a crawl would have handed over.
 */
const REQUESTS: Record<string, { url: string; contentType: string }> = {
  'talkop-x34-t107596.html': { url: 'http://bbs.talkop.com/forum.php?mod=viewthread&tid=107596', contentType: 'text/html; charset=utf-8' },
  'talkop-x34-t112530.html': { url: 'http://bbs.talkop.com/forum.php?mod=viewthread&tid=112530', contentType: 'text/html; charset=utf-8' },
  'mcbbs-x34-t857907.html': { url: 'https://www.mcbbs.net/thread-857907-1-1.html', contentType: 'text/html; charset=utf-8' },
  'mcbbs-x34-t857907.original-input.txt': { url: 'https://www.mcbbs.net/thread-857907-1-1.html', contentType: 'text/html; charset=utf-8' },
  'yamibo-touch-x35-t556787.html': { url: 'https://bbs.yamibo.com/forum.php?mod=viewthread&tid=556787&mobile=2', contentType: 'text/html; charset=utf-8' },
  'keylol-mobileapi-viewthread-t888430.json': { url: 'https://keylol.com/api/mobile/index.php?version=4&module=viewthread&tid=888430', contentType: 'application/json; charset=utf-8' },
};

/** A real page's path; throws where the folder is absent (call it only under describeRealworld). */
export function realworldPath(file: string): string {
  if (!REALWORLD) throw new Error('../shared/discuz/realworld is not beside this checkout');
  return path.join(REALWORLD, file);
}

/** A real page's bytes. */
export const realworldBytes = (file: string): Buffer => fs.readFileSync(realworldPath(file));

/** The URL a real page was served from. */
export function realworldUrl(file: string): string {
  const r = REQUESTS[file];
  if (!r) throw new Error(`${file}: no request recorded for it in test/helpers/realworld.ts`);
  return r.url;
}

/** A real page as the crawler would hand it over: its bytes (or these), its URL, fetched at `fetchedAt`. */
export function realworldFetched(file: string, fetchedAt: Date, bytes?: Uint8Array): FetchedPage {
  return { bytes: bytes ?? new Uint8Array(realworldBytes(file)), url: realworldUrl(file), fetchedAt, status: 200, contentType: REQUESTS[file].contentType };
}
