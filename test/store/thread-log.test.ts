import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { applyPage } from '../../src/store/record.js';
import { fullEntry, lineBytes, logLine, logReplay, pidsReplay, recordReplay, replayLog, replayPids, replayThreadRecord, type LogEntry, type MakeReplay } from '../../src/store/thread-log.js';
import type { StoreData, StoredPost } from '../../src/store/types.js';
import { capture, capturedPages, ids } from './fixture-pages.js';

const tid = ids.threads.d1talk.tid;

/** The line as one string: what the log format is (JSON, a space, 16 hex of its sha256, a newline). */
function oneString(e: LogEntry): Buffer {
  const json = JSON.stringify(e);
  return Buffer.from(`${json} ${createHash('sha256').update(json).digest('hex').slice(0, 16)}\n`, 'utf8');
}

/** A real thread, every captured page recorded, its posts repeated under fresh pids until it is `n` posts. */
function bigThread(n: number): { entry: LogEntry; posts: StoredPost[] } {
  const data: StoreData = { version: 1, forum: ids.base, threads: {}, posts: {}, users: {} };
  for (let p = 1; p <= capturedPages(tid); p++) {
    const c = capture(tid, p);
    applyPage(data, c.fetched, c.parsed);
  }
  const real = Object.values(data.posts);
  const posts = Array.from({ length: n }, (_, i) => ({ ...real[i % real.length], pid: 1_000_000 + i }));
  return { entry: fullEntry({ thread: data.threads[String(tid)], posts }), posts };
}

describe('thread log lines', () => {
  test('a line made in chunks is byte for byte the one-string line, and replays to the same thread', () => {
    const { entry, posts } = bigThread(600);
    const line = logLine(entry);
    expect(line.length).toBeGreaterThan(3); // cut into chunks: the whole line was never one string
    const whole = Buffer.concat(line);
    expect(whole.equals(oneString(entry))).toBe(true);
    expect(lineBytes(line)).toBe(whole.length);
    const log = replayLog(whole);
    expect(log.damage).toBeNull();
    expect(log.posts).toEqual(posts);
    expect(log.thread).toEqual(JSON.parse(JSON.stringify(entry.t && { ...entry.t, pages: entry.pg })));
  });

  test("replayed posts share one frozen empty list for every empty list field; a list with items is the post's own", () => {
    const { entry, posts } = bigThread(600);
    const log = replayLog(Buffer.concat(logLine(entry)));
    expect(log.posts).toEqual(posts);
    const fields = ['quotes', 'colors', 'sizes', 'links', 'images', 'attachments'] as const;
    const lists = log.posts.flatMap((sp) => sp.versions.flatMap((v) => fields.map((k) => v.post[k] as readonly unknown[])));
    const empty = lists.filter((l) => l.length === 0);
    expect(empty.length).toBeGreaterThan(600);
    expect(new Set(empty).size).toBe(1);
    expect(Object.isFrozen(empty[0])).toBe(true);
    const full = lists.filter((l) => l.length > 0);
    expect(full.length).toBeGreaterThan(0); // the captured thread has links, quotes or colours
    expect(new Set(full).size).toBe(full.length);
    expect(full.some((l) => Object.isFrozen(l))).toBe(false);
  });

  test('small and empty entries, and one with page records dropped, are the one-string line too', () => {
    const { entry } = bigThread(1);
    for (const e of [{}, { rm: ['3', '4'] }, { t: entry.t }, { p: [] }, entry]) {
      expect(Buffer.concat(logLine(e)).equals(oneString(e))).toBe(true);
    }
  });
});

describe('a thread record read without its posts', () => {
  const { entry, posts } = bigThread(60);
  const { pages, ...meta } = { ...entry.t!, pages: entry.pg! };

  test('is the replayed thread, over a log of whole, partial and record-only lines', () => {
    const later = { ...meta, title: '标题改了 "p":[{"pid":1}]}', replies: 99 };
    const lines: LogEntry[] = [
      entry,
      { p: posts.slice(0, 3) },
      { t: later, pg: { 2: { ...pages['1'], page: 2 } } },
      { rm: ['2'], p: posts.slice(5, 6) },
      { t: { ...later, title: '\\"p":' } },
      {},
    ];
    const log = Buffer.concat(lines.flatMap(logLine));
    const full = replayLog(log);
    const rec = replayThreadRecord(log);
    expect(rec.thread).toEqual(full.thread);
    expect(rec.thread!.title).toBe('\\"p":');
    expect({ ...rec, thread: null }).toEqual({ ...full, thread: null, posts: undefined });
  });

  test('a line not written posts-last (a key after them) is read whole, not cut at them', () => {
    const odd = `{"p":${JSON.stringify(posts.slice(0, 2))},"t":${JSON.stringify(meta)}}`;
    const line = Buffer.from(`${odd} ${createHash('sha256').update(odd).digest('hex').slice(0, 16)}\n`);
    expect(replayThreadRecord(line).thread).toEqual(replayLog(line).thread);
    expect(replayThreadRecord(line).thread!.title).toBe(meta.title);
  });

  test('damage among the posts it does not parse is still refused, at the same line, and a torn tail ignored', () => {
    const good = Buffer.concat(logLine(entry));
    const bad = Buffer.concat([good, Buffer.from(Buffer.concat(logLine({ p: posts.slice(0, 2) })).toString().replace('"pid":', '"pjd":'))]);
    expect(replayThreadRecord(bad).damage).toEqual(replayLog(bad).damage);
    expect(replayThreadRecord(bad).damage).toMatchObject({ line: 2, offset: good.length });
    const torn = Buffer.concat([good, good.subarray(0, 100)]);
    expect(replayThreadRecord(torn)).toMatchObject({ torn: true, damage: null, goodBytes: good.length });
  });
});

describe("a log's pids read without parsing its posts (what a crawl learns of threads it has not opened)", () => {
  test('are the replayed posts\' pids, over several lines; a pid written in a post\'s text is no post', () => {
    // (each version's post carries its stored post's pid, as record.ts stores them)
    const posts = bigThread(40).posts.map((sp) => ({ ...sp, versions: sp.versions.map((v) => ({ ...v, post: { ...v.post, pid: sp.pid } })) }));
    const entry = { ...bigThread(1).entry, p: posts };
    const [a, b] = posts;
    const quoting = { ...b, pid: 42, versions: b.versions.map((v) => ({ ...v, post: { ...v.post, pid: 42, text: '{"pid":7,"tid":1} ,"pid":8' } })) };
    const log = Buffer.concat([entry, { p: [quoting] }, { t: entry.t }, { p: [{ ...a, missingSince: '2026-11-30T00:00:00.000Z' }] }].flatMap(logLine));
    const read = replayPids(log);
    expect([...read.pids].sort((x, y) => x - y)).toEqual(replayLog(log).posts.map((p) => p.pid).sort((x, y) => x - y));
    expect(read.pids.has(7) || read.pids.has(8)).toBe(false);
    expect(read.damage).toBeNull();
  });

  test('damage is refused at the same line as a full replay finds it', () => {
    const { entry, posts } = bigThread(5);
    const good = Buffer.concat(logLine(entry));
    const bad = Buffer.concat([good, Buffer.from(Buffer.concat(logLine({ p: posts.slice(0, 1) })).toString().replace('"pid":1', '"pid":9'))]);
    expect(replayPids(bad).damage).toEqual(replayLog(bad).damage);
    expect(replayPids(bad).damage).toMatchObject({ line: 2 });
  });
});

describe('a log read a chunk at a time (never whole: issue #16)', () => {
  const { entry, posts } = bigThread(50);
  const { pages, ...meta } = { ...entry.t!, pages: entry.pg! };
  const odd = `{"p":${JSON.stringify(posts.slice(0, 2))},"t":${JSON.stringify({ ...meta, title: '"p":[{"pid":3}] \\\\' })}}`;
  const oddLine = Buffer.from(`${odd} ${createHash('sha256').update(odd).digest('hex').slice(0, 16)}\n`);
  // posts holding objects that begin with a pid themselves: where one ends and the next begins looks like two posts' seam
  const seamy = bigThread(400).posts.map((sp, i) => ({ ...sp, pid: 2_000_000 + i, quirk: [{ pid: 1, x: '},{"pid":' }, { pid: 2 }] }) as StoredPost);
  const good = Buffer.concat([
    ...[entry, { p: seamy }, { p: posts.slice(3, 5) }, { t: { ...meta, title: '新 \\"p\\":[' }, pg: { 2: { ...pages['1'], page: 2 } } }, {}].flatMap(logLine),
    oddLine,
    ...logLine({ rm: ['2'], p: [{ ...posts[7], missingSince: '2026-11-30T00:00:00.000Z' }] }),
  ]);
  const notObject = `{"p":[${JSON.stringify(posts[0])},7]}`;
  const logs = {
    good,
    torn: Buffer.concat([good, good.subarray(0, 300)]),
    'bad checksum': Buffer.concat([good, Buffer.from(Buffer.concat(logLine({ p: posts.slice(0, 2) })).toString().replace('"pid":', '"pjd":')), good]),
    'a post not an object': Buffer.concat([good, Buffer.from(`${notObject} ${createHash('sha256').update(notObject).digest('hex').slice(0, 16)}\n`)]),
  };
  const replays = { replayLog, replayThreadRecord, replayPids };

  /** The replay fed `log` in pieces of `size` bytes. */
  function inPieces<R>(make: MakeReplay<R>, log: Buffer, size: number): R {
    const r = make((start, end) => log.subarray(start, end));
    for (let at = 0; at < log.length; at += size) r.push(log.subarray(at, at + size));
    return r.end();
  }

  test.each(Object.entries(logs))('%s: every replay reads it in pieces of any size as it reads it whole', (_, log) => {
    const makers = { replayLog: logReplay, replayThreadRecord: recordReplay(), replayPids: pidsReplay };
    for (const [name, whole] of Object.entries(replays)) {
      const expected = whole(log);
      for (const size of [3, 7, 17, 18, 19, 64, 1000, 65536]) expect(inPieces(makers[name as keyof typeof makers] as MakeReplay<unknown>, log, size)).toEqual(expected);
    }
  });

  test('what the pieces make is the thread as a parse of each whole line makes it; damage and torn tails as before', () => {
    const read = replayLog(good);
    const lines = good.toString('utf8').split('\n').slice(0, -1).map((l) => JSON.parse(l.slice(0, l.lastIndexOf(' '))) as LogEntry);
    const byPid = new Map<number, StoredPost>();
    for (const e of lines) for (const sp of e.p ?? []) byPid.set(sp.pid, sp);
    expect(read).toMatchObject({ damage: null, torn: false, lines: 7, goodBytes: good.length });
    expect(read.posts).toEqual([...byPid.values()]);
    expect(read.thread!.title).toBe('"p":[{"pid":3}] \\\\');
    expect(read.thread!.pages['2']).toBeUndefined();
    expect(replayLog(logs.torn)).toMatchObject({ torn: true, damage: null, goodBytes: good.length, posts: read.posts });
    expect(replayLog(logs['bad checksum'])).toMatchObject({ damage: { line: 8, offset: good.length }, lines: 7, posts: read.posts });
    const pids = replayPids(good).pids;
    expect(read.posts.every((p) => pids.has(p.pid))).toBe(true);
  });
});
