/**
 * Fault matrix, charset row: the GBK capture (jammer, rewrite URLs) served with a wrong or missing charset
 * declaration. Whatever the server declares, the store afterwards holds exactly the posts of a fault-free
 * crawl — decoded right, never mojibake — or the crawl refuses; it never stores a misread page.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { crawlThreads, type CrawlOptions } from '../../src/crawl/crawler.js';
import { openStore, type Store } from '../../src/store/store-file.js';
import { startReplayServer, type Fault, type ReplayServer } from '../../src/replay/server.js';
import { DISCUZ, ids } from '../helpers/captured.js';

const gbk = ids('public-gbk');
const tids = Object.values(gbk.threads).map((t) => t.tid);
const fast: Partial<CrawlOptions> = { delayMs: 0, backoffMs: 5, maxBackoffMs: 20, retries: 1, progress: false };

const open: Array<{ srv: ReplayServer; store: Store; dir: string }> = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.store.close();
    await o.srv.close();
    fs.rmSync(o.dir, { recursive: true, force: true });
  }
});

/** Crawls the GBK capture, with the fault on every thread page when one is given; the posts it stored by pid. */
async function crawl(fault?: Fault) {
  const srv = await startReplayServer({ root: path.join(DISCUZ, 'public-gbk'), users: { 观众乙: 'lab123456' } });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-charset-'));
  const store = await openStore(path.join(dir, 'game.store.json'), { forum: srv.url });
  open.push({ srv, store, dir });
  if (fault) srv.setFault({ fault });
  const result = await crawlThreads(store, srv.url, tids, { ...fast, session: srv.sessionState('观众乙'), gameFile: 'game.yaml' }).then(
    (r) => ({ ok: true as const, r }),
    (e: Error) => ({ ok: false as const, e }),
  );
  const posts = Object.values(store.data.posts)
    .map((p) => ({ pid: p.pid, versions: p.versions.length, post: p.versions.at(-1)!.post }))
    .sort((a, b) => a.pid - b.pid);
  return { result, posts };
}

describe('a wrong or missing charset declaration', () => {
  test.each<[string, Fault]>([
    ['header says UTF-8, the page still declares GBK', { kind: 'charset', contentType: 'text/html; charset=utf-8' }],
    ['header says UTF-8 and the meta tag is gone', { kind: 'charset', contentType: 'text/html; charset=utf-8', stripMeta: true }],
    ['no charset anywhere', { kind: 'charset', contentType: 'text/html', stripMeta: true }],
    ['header says ISO-8859-1, no meta', { kind: 'charset', contentType: 'text/html; charset=iso-8859-1', stripMeta: true }],
  ])('%s: the same posts as a fault-free crawl, or a refusal', async (_name, fault) => {
    const clean = await crawl();
    expect(clean.result.ok).toBe(true);
    expect(clean.posts.length).toBe(Object.keys(gbk.posts).length);

    const faulty = await crawl(fault);
    if (faulty.result.ok) {
      // Decoded right: every post, text and author exactly as the fault-free crawl read them.
      expect(faulty.posts.map((p) => p.pid)).toEqual(clean.posts.map((p) => p.pid));
      for (const [i, p] of faulty.posts.entries()) {
        expect(p.versions).toBe(1);
        expect({ author: p.post.author, text: p.post.text, colors: p.post.colors }).toEqual({
          author: clean.posts[i].post.author,
          text: clean.posts[i].post.text,
          colors: clean.posts[i].post.colors,
        });
      }
    } else {
      // Refused: a clear message naming the charset, and nothing misread was stored.
      expect(faulty.result.e.message).toMatch(/charset|encoding|decode/i);
      for (const p of faulty.posts) expect(p.post.text).not.toMatch(/[\u00c0-\u00ff]{3}/);
    }
  });
});
