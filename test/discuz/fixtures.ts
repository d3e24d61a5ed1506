/**
 * What the parser tests read off the captured fixtures beyond the shared loaders (test/helpers/captured.ts):
 * the capture time, scenario posts by id, the text a post should read as.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DISCUZ, type Scenario } from '../helpers/captured.js';

/**
 * The capture time of a fixture directory: Discuz puts the server's TIMESTAMP into the footer's
 * `rand=` script URLs of every desktop page (the footer itself shows "GMT+8, … 16:02", minutes only).
 */
export function captureTime(dir: string, anyDesktopPage: string): Date {
  const html = readFileSync(path.join(DISCUZ, dir, anyDesktopPage), 'latin1');
  const m = /rand=(\d{9,})/.exec(html);
  if (!m) throw new Error(`no rand= timestamp in ${anyDesktopPage}`);
  return new Date(+m[1] * 1000);
}

/** The ids.json key of each post → its scenario post (thread first posts are "<key>#0"). */
export function scenarioById(sc: Scenario): Map<string, { body: string; edit?: { body: string }; quote?: string; reply?: string; title?: string }> {
  const m = new Map<string, { body: string; edit?: { body: string }; quote?: string; reply?: string }>();
  for (const t of sc.threads) {
    m.set(`${t.key}#0`, { body: t.body });
    for (const p of t.posts) m.set(p.id, p);
  }
  return m;
}

/** What the author's own text should read as, from the scenario BBCode (tags dropped, reply header dropped). */
export function expectedText(body: string): string {
  return body
    .replace(/^\[b\]回复 .*?\[\/b\]/s, '')
    .replace(/\[\/?(?:color|size|font|b|i|u|s)(?:=[^\]]*)?\]/g, '')
    .replace(/\[url=[^\]]*\]|\[\/url\]/g, '')
    .trim();
}

/** White space removed: for comparing text across line-break conventions. */
export const squash = (s: string) => s.replace(/\s+/g, '');
