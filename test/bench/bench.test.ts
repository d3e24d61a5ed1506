/**
 * Smoke test of `npm run bench`: a tiny synthetic game (500 posts, no browser, no fixture parse bench),
 * checking that every page of the game is read back into exactly the posts it was built from, that the
 * JSON interface has its stable names, and that the crawl and recrawl counts hold.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { derivedDir } from '../../src/store/memo.js';
import { parsePage } from '../../src/discuz/parse-page.js';
import { synthGame, gamePage } from '../../src/bench/synth-game.js';
import { gameOf, runPipeline } from '../../src/bench/pipeline.js';
import { threadsThroughDay } from '../../src/day/closing-day.js';
import { reportThreads } from '../../src/derived/closing-inputs.js';
import { parseArgs, renderTable, runBench } from '../../src/bench/main.js';
import { forumTimeMs } from '../../src/replay/synth.js';

describe('bench', () => {
  const game = synthGame({ posts: 500 });

  it('builds a game of the asked size over 10 days, 20 players, UTF-8 and GBK pages', () => {
    expect(game.posts).toBe(500);
    expect(game.players).toHaveLength(20);
    expect(new Set(game.threads.map((t) => t.day).filter((d) => d !== null)).size).toBe(10);
    expect(new Set(game.threads.map((t) => t.family))).toEqual(new Set(['utf8', 'gbk']));
    expect(synthGame({ posts: 500 }).gameYaml).toBe(game.gameYaml); // deterministic
  });

  it('every synthetic page parses back into the posts it was built from', () => {
    const fetchedAt = new Date('2026-12-20T00:00:00Z');
    let seen = 0;
    for (const ref of game.pages) {
      const page = gamePage(ref);
      const parsed = parsePage({ bytes: page.bytes, url: page.url, fetchedAt, contentType: page.contentType });
      expect(parsed.page.kind).toBe('thread');
      expect([parsed.page.tid, parsed.page.page, parsed.page.pageCount]).toEqual([ref.thread.tid, ref.page, page.pageCount]);
      expect(parsed.posts.length).toBeGreaterThan(0);
      for (const post of parsed.posts) {
        const src = ref.thread.posts.find((p) => p.pid === post.pid)!;
        expect(src, `pid ${post.pid}`).toBeDefined();
        expect([post.author, post.authorId, Date.parse(post.postedAt)]).toEqual([src.author, src.uid, forumTimeMs(src.at)]);
        expect(post.quotes).toEqual(src.quote !== undefined ? [src.quote] : []);
        seen++;
      }
    }
    expect(seen).toBe(game.posts);
  });

  it('runs the bench at a tiny size and reports the stable JSON names', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-bench-'));
    const pipe = await runPipeline(game, { checkpoints: [100, 250, 500], dir });
    expect([pipe.parsedPosts, pipe.storedPosts, pipe.days]).toEqual([500, 500, 10]);
    // day 10 read as report reads it: the earlier threads it does not open in full, through their digests (made
    // here) — day 1's vote thread too, vouched for by the outcome the tally before it saved
    const g = gameOf(game, dir);
    const { load } = reportThreads(g, 10);
    const d1vote = g.days[0].vote!.tid;
    const digested = threadsThroughDay(g, 10).filter((tid) => !load.includes(tid) || tid === d1vote);
    expect(digested.length).toBeGreaterThan(0);
    expect(fs.readdirSync(derivedDir(g.storePath)).filter((f) => f.startsWith('thread-')).sort()).toEqual(digested.map((tid) => `thread-${tid}.json`).sort());
    expect(pipe.reportBytes).toBeGreaterThan(0);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(pipe.checkpoints.map((c) => c.posts)).toEqual([...pipe.checkpoints.map((c) => c.posts)].sort((x, y) => x - y));

    const opts = { ...parseArgs(['--posts', '500', '--no-browser', '--no-parse-bench', '--latency', '2', '--crawl-pages', '12', '--no-closing']), inProcess: true, concurrencies: [1, 2] };
    const report = await runBench(opts);
    const json = JSON.parse(JSON.stringify(report)) as Record<string, unknown>;
    for (const k of ['posts', 'pipelineVsHtmlparser2', 'pipelineVsParse5', 'browserVsPipeline', 'crawl', 'recrawlRequests', 'peakMemoryMB', 'storeBytesPer1kPosts']) {
      expect(json, k).toHaveProperty(k);
    }
    expect(json.posts).toBe(500);
    expect(json.browserVsPipeline).toBeNull();
    const crawl = json.crawl as Array<Record<string, number>>;
    expect(crawl.map((c) => c.concurrency)).toEqual([1, 2]);
    for (const c of crawl) {
      expect(c.requests).toBe(c.pages);
      expect(c.wallVsMinimum).toBeGreaterThan(0);
    }
    expect(json.recrawlRequests).toBe(report.recrawl!.expected);
    expect(report.peakMemoryMB).toBeGreaterThan(0);
    expect(report.storeBytesPer1kPosts).toBeGreaterThan(0);
    // writes proportional to change: nothing for a recrawl that finds nothing new
    expect(report.noChangeRecrawlBytes).toBe(0);
    expect(report.storeWriteAmplification).toBeGreaterThan(0);
    expect(renderTable(report)).toContain('offline pipeline vs htmlparser2');
  });

  it('reads its options', () => {
    expect(parseArgs(['--json', '--posts', '500', '--no-browser'])).toMatchObject({ json: true, posts: 500, browser: false });
    expect(() => parseArgs(['--bogus'])).toThrow(/unknown option/);
  });
});
