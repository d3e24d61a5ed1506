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
import { selectorSetsWith } from '../../discuz/selectors.js';
import type { FetchedPage, Page } from '../../discuz/types.js';
import { terminalSafe } from '../../text/safe-text.js';
import { UserError } from '../../errors.js';
import { t } from '../../i18n/index.js';
import { cutDisplay, padDisplay } from '../../text/width.js';

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
  if (!existsSync(abs)) throw new UserError(t('parse.noFile', file), 2);
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

/** A page piped in (`parse -`): its bytes as they come, so the page's own charset declaration decides the decoding. */
export async function fetchedFromStdin(fetchedAt?: Date, input: NodeJS.ReadableStream = process.stdin): Promise<FetchedPage> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return { bytes: new Uint8Array(Buffer.concat(chunks)), url: 'stdin:', fetchedAt: fetchedAt ?? new Date() };
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
    throw new UserError(t('parse.cannotFetch', url, (e as Error).message), 5);
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

/** `s` cut and padded to exactly `n` columns. */
function pad(s: string, n: number): string {
  return padDisplay(cutDisplay(s, n), n);
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
  const pages = i.page !== null ? t('parse.pageOf', i.page, i.pageCount) : '';
  lines.push(s(source));
  lines.push(
    `  ${t('parse.kind', i.kind)}${i.template === 'mobile' ? t('parse.mobile') : ''}  tid ${i.tid ?? '-'}${pages}  ${s(i.title ?? '')}${i.authorFilter !== null ? t('parse.onlyUid', i.authorFilter) : ''}  ${t('parse.postCount', p.posts.length)}  [${i.charset}]`,
  );
  if (i.message) lines.push(`  ${s(i.message)}`);
  for (const w of i.warnings ?? []) lines.push(t('parse.warning', s(w)));
  if (p.posts.length) {
    lines.push(`  ${pad(t('parse.col.floor'), 6)} ${pad('pid', 7)} ${pad(t('parse.col.author'), 16)} ${pad(t('parse.col.posted'), 26)} ${pad(t('parse.col.flags'), 8)} ${t('parse.col.text')}`);
    for (const x of p.posts) {
      const flags =
        (x.quotes.length ? 'Q' : '') +
        (x.replyTo !== null ? 'R' : '') +
        (x.edited ? 'E' : '') +
        (x.colors.length ? 'C' : '') +
        (x.sizes.length ? 'S' : '') +
        (x.deleted ? 'D' : x.locked ? 'L' : '') +
        (x.readable === false ? 'U' : x.hiddenParts?.length ? 'H' : '') +
        (x.timeSource === 'relative' ? '~' : '');
      const who = s(x.authorId !== null ? `${x.author}(${x.authorId})` : x.author);
      lines.push(
        // A newest-first page's labels are off by one: show the true floor (issue #12).
        `  ${pad(p.page.reversed ? `${x.floor}#` : s(x.floorLabel ?? '-'), 6)} ${pad(String(x.pid ?? '-'), 7)} ${pad(who, 16)} ${pad(s(x.postedAt), 26)} ${pad(flags, 8)} ${cutDisplay(s(x.text).replace(/\n/g, ' ⏎ '), 60)}`,
      );
    }
    lines.push(t('parse.legend'));
  }
  for (const v of i.vanished ?? []) lines.push(t('parse.vanished', v.floor, v.pid, s(v.notice)));
  return lines.join('\n');
}

export function register(program: Command): void {
  program
    .command('parse')
    .description(t('parse.description'))
    .argument('<fileOrUrl...>', t('parse.inputs'))
    .option('--json', t('parse.json'))
    .option('--timezone <zone>', t('parse.timezone'), 'Asia/Shanghai')
    .option('--fetched-at <time>', t('parse.fetchedAt'))
    .option('--selectors <file>', t('parse.selectors'), (f: string, all: string[]) => [...all, f], [] as string[])
    .action(async (inputs: string[], o: { json?: boolean; timezone: string; fetchedAt?: string; selectors: string[] }) => {
      let fetchedAt: Date | undefined;
      if (o.fetchedAt) {
        fetchedAt = new Date(o.fetchedAt);
        if (Number.isNaN(fetchedAt.getTime())) throw new UserError(t('parse.badTime', o.fetchedAt), 2);
      }
      if (inputs.filter((x) => x === '-').length > 1) throw new UserError(t('parse.stdinTwice'), 2);
      // The director's own template first, as the crawl reads it (a missing or broken file: exit 2, named).
      const selectors = o.selectors.length ? selectorSetsWith(o.selectors) : undefined;
      const results: { source: string; page: Page }[] = [];
      for (const input of inputs) {
        const fetched = input === '-' ? await fetchedFromStdin(fetchedAt) : /^https?:\/\//i.test(input) ? await fetchUrl(input) : fetchedFromFile(input, fetchedAt);
        results.push({ source: input, page: parsePage(fetched, { timezone: o.timezone, selectors }) });
      }
      if (o.json) {
        const out = results.map((r) => pageJson(r.page));
        process.stdout.write(JSON.stringify(out.length === 1 ? out[0] : out, null, 2) + '\n');
      } else {
        process.stdout.write(results.map((r) => pageTable(r.page, r.source)).join('\n\n') + '\n');
      }
    });
}
