/**
 * `bansha parse FILE_OR_URL... [--json] [--timezone Z] [--fetched-at T]`: read saved or live Discuz
 * pages into posts. The JSON shape ({page: {kind, tid, title, page, pageCount, url}, posts: [...]})
 * is an interface others script against: one object for one input, an array for several.
 */
import { readFileSync, statSync, existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { parsePage } from '../../discuz/parse-page.js';
import type { FetchedPage, Page } from '../../discuz/types.js';
import { terminalSafe } from '../../render/safe-text.js';
import { UserError } from '../errors.js';

/** A browser User-Agent: Discuz drops the floor block for robot-looking agents (discuz-notes.md). */
export const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

interface ManifestEntry {
  file: string;
  url: string;
  status?: number;
  content_type?: string;
}

/** A saved page as a FetchedPage: URL/status/Content-Type from a sibling manifest.json when present. */
export function fetchedFromFile(file: string, fetchedAt?: Date): FetchedPage {
  const abs = path.resolve(file);
  if (!existsSync(abs)) throw new UserError(`no such file: ${file}`, 2);
  const bytes = readFileSync(abs);
  const dir = path.dirname(abs);
  let url = pathToFileURL(abs).href;
  let status: number | undefined;
  let contentType: string | undefined;
  const manifestPath = path.join(dir, 'manifest.json');
  if (existsSync(manifestPath)) {
    try {
      const entries = JSON.parse(readFileSync(manifestPath, 'utf8')) as ManifestEntry[];
      const e = Array.isArray(entries) ? entries.find((x) => x.file === path.basename(abs)) : undefined;
      if (e) {
        status = e.status;
        contentType = e.content_type;
        url = absoluteFromSite(dir, e.url);
      }
    } catch {
      // An unreadable manifest only costs the URL: keep file://.
    }
  }
  return { bytes, url, fetchedAt: fetchedAt ?? statSync(abs).mtime, status, contentType };
}

/** A manifest URL made absolute with the sibling site.json/ids.json base, when it is relative. */
function absoluteFromSite(dir: string, u: string): string {
  if (/^[a-z]+:/i.test(u)) return u;
  for (const [f, key] of [
    ['site.json', 'base_url'],
    ['ids.json', 'base'],
  ] as const) {
    const p = path.join(dir, f);
    if (!existsSync(p)) continue;
    try {
      const base = (JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>)[key];
      if (typeof base === 'string' && base) return new URL(u, base).href;
    } catch {
      // try the next
    }
  }
  return u;
}

/** One plain GET (the crawler does the real work: sessions, pacing, retries). */
export async function fetchUrl(url: string): Promise<FetchedPage> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { 'User-Agent': BROWSER_UA }, redirect: 'follow' });
  } catch (e) {
    throw new UserError(`cannot fetch ${url}: ${(e as Error).message}`, 5);
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  return {
    bytes,
    url: res.url || url,
    fetchedAt: new Date(),
    status: res.status,
    contentType: res.headers.get('content-type') ?? undefined,
  };
}

/** The JSON view of a parsed page (the documented fields first; extra fields are kept). */
export function pageJson(p: Page): unknown {
  const { kind, tid, title, page, pageCount, url, ...restInfo } = p.page;
  return {
    page: { kind, tid, title, page, pageCount, url, ...restInfo },
    posts: p.posts.map((x) => {
      const { pid, tid, floor, author, authorId, postedAt, timePrecision, text, quotes, replyTo, edited, colors, sizes, links, images, deleted, ...rest } = x;
      return { pid, tid, floor, author, authorId, postedAt, timePrecision, text, quotes, replyTo, edited, colors, sizes, links, images, deleted, ...rest };
    }),
  };
}

/** Display width: CJK and full-width characters take two columns. */
function width(s: string): number {
  let w = 0;
  for (const ch of s) w += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch) ? 2 : 1;
  return w;
}
function cut(s: string, max: number): string {
  let out = '';
  let w = 0;
  for (const ch of s) {
    const cw = width(ch);
    if (w + cw > max - 1) return out + '…';
    out += ch;
    w += cw;
  }
  return out;
}
function pad(s: string, n: number): string {
  const c = cut(s, n);
  return c + ' '.repeat(Math.max(0, n - width(c)));
}

/**
 * The readable table for one page, printed to a terminal: everything read from the page (title,
 * messages, authors, post text) goes through terminalSafe, so no escape sequence, control or bidi
 * character a poster wrote reaches the terminal (the JSON view keeps the text as data).
 */
export function pageTable(p: Page, source: string): string {
  const i = p.page;
  const s = terminalSafe;
  const lines: string[] = [];
  const pages = i.page !== null ? ` page ${i.page}/${i.pageCount}` : '';
  lines.push(s(source));
  lines.push(
    `  ${i.kind}${i.template === 'mobile' ? ' (mobile)' : ''}  tid ${i.tid ?? '-'}${pages}  ${s(i.title ?? '')}${i.authorFilter !== null ? `  only uid ${i.authorFilter}` : ''}  ${p.posts.length} post(s)  [${i.charset}]`,
  );
  if (i.message) lines.push(`  ${s(i.message)}`);
  for (const w of i.warnings ?? []) lines.push(`  warning: ${s(w)}`);
  if (p.posts.length) {
    lines.push(`  ${pad('floor', 6)} ${pad('pid', 7)} ${pad('author', 16)} ${pad('posted', 26)} ${pad('flags', 8)} text`);
    for (const x of p.posts) {
      const flags =
        (x.quotes.length ? 'Q' : '') +
        (x.replyTo !== null ? 'R' : '') +
        (x.edited ? 'E' : '') +
        (x.colors.length ? 'C' : '') +
        (x.sizes.length ? 'S' : '') +
        (x.deleted ? 'D' : x.locked ? 'L' : '') +
        (x.timeSource === 'relative' ? '~' : '');
      const who = s(x.authorId !== null ? `${x.author}(${x.authorId})` : x.author);
      lines.push(
        // A newest-first page's labels are off by one: show the true floor (issue #12).
        `  ${pad(p.page.reversed ? `${x.floor}#` : s(x.floorLabel ?? '-'), 6)} ${pad(String(x.pid ?? '-'), 7)} ${pad(who, 16)} ${pad(s(x.postedAt), 26)} ${pad(flags, 8)} ${cut(s(x.text).replace(/\n/g, ' ⏎ '), 60)}`,
      );
    }
    lines.push('  flags: Q quotes, R reply-to, E edited, C colour, S size, D deleted, L locked, ~ relative time');
  }
  return lines.join('\n');
}

export function register(program: Command): void {
  program
    .command('parse')
    .description('read saved or live Discuz! pages into posts (kind, floors, authors, times, text, fonts)')
    .argument('<fileOrUrl...>', 'saved page files (URL from a sibling manifest.json) or http(s) URLs')
    .option('--json', 'print JSON: one {page, posts} object per input (an array for several inputs)')
    .option('--timezone <zone>', 'forum time zone (IANA name or UTC+8)', 'Asia/Shanghai')
    .option('--fetched-at <time>', 'when the files were fetched (ISO 8601); default: file modification time')
    .action(async (inputs: string[], o: { json?: boolean; timezone: string; fetchedAt?: string }) => {
      let fetchedAt: Date | undefined;
      if (o.fetchedAt) {
        fetchedAt = new Date(o.fetchedAt);
        if (Number.isNaN(fetchedAt.getTime())) throw new UserError(`--fetched-at: not a time: ${o.fetchedAt}`, 2);
      }
      const results: { source: string; page: Page }[] = [];
      for (const input of inputs) {
        const fetched = /^https?:\/\//i.test(input) ? await fetchUrl(input) : fetchedFromFile(input, fetchedAt);
        results.push({ source: input, page: parsePage(fetched, { timezone: o.timezone }) });
      }
      if (o.json) {
        const out = results.map((r) => pageJson(r.page));
        process.stdout.write(JSON.stringify(out.length === 1 ? out[0] : out, null, 2) + '\n');
      } else {
        process.stdout.write(results.map((r) => pageTable(r.page, r.source)).join('\n\n') + '\n');
      }
    });
}
