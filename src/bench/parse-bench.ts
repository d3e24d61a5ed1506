/**
 * Parse throughput: bansha's decode + parsePage over the captured fixture pages repeated to at least
 * 20 MB, against a bare htmlparser2 parseDocument and a bare parse5 parse (htmlparser2 adapter, the
 * HTML5 tree bansha builds: src/discuz/tree.ts) of the same bytes (decoded with their known charset),
 * measured in the same run.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { parseDocument } from 'htmlparser2';
import { packagePath } from '../paths.js';
import { parsePage } from '../discuz/parse-page.js';
import { buildTree } from '../discuz/tree.js';
import type { FetchedPage } from '../discuz/types.js';

/** Options for runParseBench. */
export interface ParseBenchOptions {
  /** Total bytes to parse per side; default 20 MB. */
  targetBytes?: number;
  /** Fixture directories holding manifest.json and the pages; default the bundled public + public-gbk. */
  dirs?: string[];
  /** Timed repetitions per side (the best is kept); default 3. */
  rounds?: number;
}

/** What one bench run measured. */
export interface ParseBenchResult {
  postsPerSecond: number;
  baselinePostsPerSecond: number;
  /** bansha time / htmlparser2 time (lower is better). */
  ratio: number;
  /** bansha time / bare parse5 time. */
  ratioVsParse5: number;
  /** Bytes parsed per side per round. */
  bytes: number;
  posts: number;
  pages: number;
}

interface BenchPage {
  fetched: FetchedPage;
  charset: string;
}

/** The fixture thread pages (desktop, mobile, only-author, printable) with their manifest metadata. */
function loadPages(dirs: string[]): BenchPage[] {
  const out: BenchPage[] = [];
  for (const dir of dirs) {
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as {
      file: string;
      url: string;
      status: number;
      content_type?: string;
      charset?: string;
    }[];
    const files = new Set(readdirSync(dir));
    for (const e of manifest) {
      if (!e.file.endsWith('.html') || !files.has(e.file) || e.status !== 200) continue;
      if (!/^(viewthread|thread-|authorid|mobile2-t|printable)/.test(e.file)) continue;
      out.push({
        fetched: {
          bytes: readFileSync(path.join(dir, e.file)),
          url: `http://127.0.0.1/${e.url}`,
          fetchedAt: new Date('2026-11-30T08:02:10Z'),
          status: e.status,
          contentType: e.content_type,
        },
        charset: /gbk|gb2312|gb18030/i.test(e.content_type ?? e.charset ?? '') ? 'gb18030' : 'utf-8',
      });
    }
  }
  return out;
}

const utf8 = new TextDecoder('utf-8');

const decoded = (p: BenchPage): string => (p.charset === 'utf-8' ? utf8.decode(p.fetched.bytes) : iconv.decode(Buffer.from(p.fetched.bytes), p.charset));
const baselineOne = (p: BenchPage): number => parseDocument(decoded(p)).children.length;
const parse5One = (p: BenchPage): number => buildTree(decoded(p)).children.length;

/** Run the bench. Pages that hold no posts are left out; every page must parse. */
export async function runParseBench(opts: ParseBenchOptions = {}): Promise<ParseBenchResult> {
  const target = opts.targetBytes ?? 20 * 1024 * 1024;
  const rounds = opts.rounds ?? 3;
  const dirs = opts.dirs ?? [packagePath('fixtures', 'discuz', 'public'), packagePath('fixtures', 'discuz', 'public-gbk')].filter(existsSync);
  const pages = loadPages(dirs).filter((p) => parsePage(p.fetched).posts.length > 0);
  if (!pages.length) throw new Error('parse bench: no fixture pages with posts found');
  const run: BenchPage[] = [];
  let bytes = 0;
  while (bytes < target) {
    for (const p of pages) {
      run.push(p);
      bytes += p.fetched.bytes.length;
    }
  }
  let posts = 0;
  for (const p of run) posts += parsePage(p.fetched).posts.length; // also warms up
  for (const p of pages) {
    baselineOne(p);
    parse5One(p);
  }

  let best = Infinity;
  let bestBase = Infinity;
  let best5 = Infinity;
  let sink = 0;
  for (let r = 0; r < rounds; r++) {
    // Alternate sides so neither gets a systematically warmer machine.
    let t = process.hrtime.bigint();
    for (const p of run) sink += baselineOne(p);
    bestBase = Math.min(bestBase, Number(process.hrtime.bigint() - t) / 1e9);
    t = process.hrtime.bigint();
    for (const p of run) sink += parse5One(p);
    best5 = Math.min(best5, Number(process.hrtime.bigint() - t) / 1e9);
    t = process.hrtime.bigint();
    for (const p of run) sink += parsePage(p.fetched).posts.length;
    best = Math.min(best, Number(process.hrtime.bigint() - t) / 1e9);
  }
  if (sink < 0) throw new Error('unreachable');
  return {
    postsPerSecond: posts / best,
    baselinePostsPerSecond: posts / bestBase,
    ratio: best / bestBase,
    ratioVsParse5: best / best5,
    bytes,
    posts,
    pages: run.length,
  };
}
