/**
 * What a report rerun prints when nothing it is made from changed: the view's text as a run before
 * printed it, kept under the day's key (kept-closing.ts reportKey) and the view asked for, not the kept
 * day read back (megabytes of JSON at 50,000 posts) and drawn again. After the day closes its threads
 * stop changing, and the director reruns the report every minute.
 *
 * Kept only by a run that found the day itself kept (a rerun, not the run right after new posts: that
 * one writes the day, and a view it kept would be read by no one before the next posts), and only when
 * its ledger step left the ledger as the key read it: the same proposals over the same ledger change
 * nothing again (proposals.ts), so a run that finds the view skips that step and prints what it would
 * draw. An HTML page says when it was made: it is kept as the texts on either side of that time, which
 * each run writes anew (src/render/html-made.ts).
 */
import { memoKey, readDerivedBytes, writeDerivedBytes, type MemoKey } from '../store/memo.js';

/** A view of the report: its format, and what else changes its text (the terminal's colours, the ledger's ids). */
export interface ViewSpec {
  view: 'json' | 'bbcode' | 'markdown' | 'terminal' | 'html';
  color: boolean;
  ledger: boolean;
}

const fileName = (day: number, spec: ViewSpec): string => `closing-view-day${day}-${spec.view}`;
const viewKey = (dayKey: string, spec: ViewSpec): MemoKey => memoKey({ view: spec, day: dayKey });

/** The view's texts kept under `dayKey` (one, or an HTML page's two around its time), or undefined. */
export function readKeptView(storePath: string, day: number, spec: ViewSpec, dayKey: string): string[] | undefined {
  const bytes = readDerivedBytes(storePath, fileName(day, spec), viewKey(dayKey, spec));
  if (!bytes || bytes.byteLength < 8) return undefined;
  // (the texts' count and byte lengths, padded to 8 bytes, then the texts)
  const head = new Uint32Array(bytes.buffer, bytes.byteOffset, 1);
  const n = head[0];
  const headBytes = Math.ceil(((n + 1) * 4) / 8) * 8;
  if (bytes.byteLength < headBytes) return undefined;
  const lengths = new Uint32Array(bytes.buffer, bytes.byteOffset + 4, n);
  const texts: string[] = [];
  let at = headBytes;
  for (const len of lengths) {
    if (at + len > bytes.byteLength) return undefined;
    texts.push(Buffer.from(bytes.buffer, bytes.byteOffset + at, len).toString('utf8'));
    at += len;
  }
  return at === bytes.byteLength ? texts : undefined;
}

/** Keep the view's texts under `dayKey` (a failure is ignored: the next run draws it again). */
export function keepView(storePath: string, day: number, spec: ViewSpec, dayKey: string, texts: readonly string[]): void {
  const parts = texts.map((t) => Buffer.from(t, 'utf8'));
  const head = new Uint32Array(Math.ceil(((parts.length + 1) * 4) / 8) * 2);
  head[0] = parts.length;
  parts.forEach((p, i) => (head[i + 1] = p.byteLength));
  writeDerivedBytes(storePath, fileName(day, spec), viewKey(dayKey, spec), [head, ...parts]);
}
