/**
 * The synthetic page builder must reproduce what Discuz serves: rebuild every captured thread page of
 * both sites from the scenario (fixtures/scenarios) + ids.json (pids, floors, uids, times) and compare
 * the posts read off the synthetic page with those read off the real one — by a structural reading of
 * the markup here, and by the project's parser when it is present.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import * as cheerio from 'cheerio';
import iconv from 'iconv-lite';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  buildBoardPage,
  buildThreadPage,
  buildThreadPages,
  floorLabel,
  formatForumTime,
  forumTimeMs,
  renderBoardPageHtml,
  renderPager,
  type SynthFamily,
  type SynthPost,
  type SynthThread,
} from '../../src/replay/synth.js';

const root = path.resolve(__dirname, '../..');
const fx = (...p: string[]): string => path.join(root, 'fixtures', ...p);

interface IdsPost { tid: number; pid: number; floor: number; author: string; authorid: number; dateline: number; threadKey: string }
interface Ids { relative?: Array<{ pid: number }>; base: string; users: Record<string, number>; threads: Record<string, { tid: number; title: string; author: string; first_pid: number }>; posts: Record<string, IdsPost> }
interface ScenarioPost { id: string; author: string; body: string; quote?: string; edit?: { at: string; body: string } }
interface ScenarioThread { key: string; title: string; author: string; body: string; posts: ScenarioPost[] }
interface ManifestEntry { file: string; url: string; content_type: string; charset: string; thread?: string; page?: number; status: number }

const FAMILIES: Array<{ family: SynthFamily; dir: string; scenario: string; charset: string }> = [
  { family: 'utf8', dir: 'public', scenario: 'public.yaml', charset: 'utf-8' },
  { family: 'gbk', dir: 'public-gbk', scenario: 'public-gbk.yaml', charset: 'gbk' },
];

/**
 * Posts whose times the scenario gave relative to the capture ("@now-05:00"): ids.json's dateline for
 * them can be one second off what the page shows (the capture ran a second later), so they compare
 * within a second.
 */
function relativePids(dir: string): Set<number> {
  const ids = JSON.parse(readFileSync(fx('discuz', dir, 'ids.json'), 'utf8')) as Ids;
  return new Set((ids.relative ?? []).map((r) => r.pid));
}

/** Copy `real`'s time into `built` where they are the same relative-time post and at most 1 s apart. */
function alignRelative<T extends { pid: number | null }>(built: T[], real: T[], rel: Set<number>, ms: (p: T) => number, set: (p: T, from: T) => T): T[] {
  return built.map((b, i) => {
    const r = real[i];
    if (r && b.pid !== null && rel.has(b.pid) && b.pid === r.pid && Math.abs(ms(b) - ms(r)) <= 1000) return set(b, r);
    return b;
  });
}

/** Every thread of a captured site as a SynthThread: bodies from the scenario, ids/times from ids.json. */
function siteThreads(dir: string, scenarioFile: string): Map<string, SynthThread & { family: SynthFamily }> {
  const ids = JSON.parse(readFileSync(fx('discuz', dir, 'ids.json'), 'utf8')) as Ids;
  const site = JSON.parse(readFileSync(fx('discuz', dir, 'site.json'), 'utf8')) as { ppp: number; charset: string };
  const scenario = parseYaml(readFileSync(fx('scenarios', scenarioFile), 'utf8')) as { threads: ScenarioThread[] };
  const family: SynthFamily = site.charset === 'utf-8' ? 'utf8' : 'gbk';
  const out = new Map<string, SynthThread & { family: SynthFamily }>();
  // bodies may name other posts' ids as @PID:key / @TID:key (filled in when the scenario was played)
  const fillIds = (body: string): string =>
    body.replace(/@PID:([\w#-]+)/g, (_m, k: string) => String(ids.posts[k].pid)).replace(/@TID:([\w-]+)/g, (_m, k: string) => String(ids.threads[k].tid));
  for (const th of scenario.threads) {
    const meta = ids.threads[th.key];
    const opening = ids.posts[`${th.key}#0`];
    const posts: Array<SynthPost & { floor: number }> = [
      { pid: opening.pid, author: opening.author, uid: opening.authorid, at: opening.dateline * 1000, body: th.body, floor: opening.floor },
    ];
    for (const p of th.posts) {
      const id = ids.posts[p.id];
      posts.push({
        pid: id.pid,
        author: id.author,
        uid: id.authorid,
        at: id.dateline * 1000,
        body: fillIds(p.edit ? p.edit.body : p.body),
        edited: p.edit ? { by: id.author, at: p.edit.at } : undefined,
        quote: p.quote ? ids.posts[p.quote].pid : undefined,
        floor: id.floor,
      });
    }
    posts.sort((a, b) => a.floor - b.floor);
    out.set(th.key, { family, tid: meta.tid, title: meta.title, ppp: site.ppp, posts });
  }
  return out;
}

interface ReadPost { pid: number; floorLabel: string; author: string; uid: number; time: string; text: string; quotePid: number | null; quoteHead: string | null; fonts: string[]; edited: string | null }

/** Decode a page by its charset and read each post block structurally (jammer filler removed). */
function readPosts(bytes: Uint8Array, charset: string): { title: string; pageCount: number; current: number; posts: ReadPost[] } {
  const html = charset === 'utf-8' ? Buffer.from(bytes).toString('utf8') : iconv.decode(Buffer.from(bytes), 'gbk');
  const $ = cheerio.load(html);
  const posts: ReadPost[] = [];
  $('div[id^="post_"] > table[id^="pid"]').each((_i, el) => {
    const t = $(el);
    const pid = Number(t.attr('id')!.slice(3));
    const link = t.find(`#favatar${pid} .authi a`).first();
    const timeEm = t.find(`#authorposton${pid}`);
    const span = timeEm.find('span[title]');
    const time = span.length ? span.attr('title')! : timeEm.text().replace(/^发表于\s*/, '').trim();
    const msg = t.find(`#postmessage_${pid}`).clone();
    msg.find('.jammer, span[style="display:none"]').remove();
    const quote = msg.find('div.quote');
    const qa = quote.find('a[href*="findpost"]').attr('href') ?? null;
    const quoteHead = quote.length ? quote.find('font[color="#999999"]').text() : null;
    quote.remove();
    const edited = msg.find('i.pstatus').text().trim() || null;
    msg.find('i.pstatus').remove();
    const fonts = msg.find('font').map((_j, f) => `${$(f).attr('color') ?? ''}|${$(f).attr('size') ?? ''}|${$(f).text()}`).get();
    posts.push({
      pid,
      floorLabel: t.find(`#postnum${pid}`).text().trim(),
      author: link.text(),
      uid: Number(/uid[=-](\d+)/.exec(link.attr('href') ?? '')?.[1]),
      // the page shows "Y-n-j H:i:s" (public) or a relative time titled "Y-m-d H:i:s" (gbk): compare instants
      time: formatForumTime(forumTimeMs(time.replace(/^(\d{4})-0?(\d+)-0?(\d+)/, '$1-$2-$3'))),
      text: msg.text().replace(/\s+/g, ' ').trim(),
      quotePid: qa ? Number(/pid=(\d+)/.exec(qa)?.[1]) : null,
      quoteHead,
      fonts,
      edited,
    });
  });
  const pgTitle = $('div.pg span[title]').first().attr('title');
  return {
    title: $('#thread_subject').text(),
    pageCount: pgTitle ? Number(/共 (\d+) 页/.exec(pgTitle)?.[1]) : 1,
    current: Number($('div.pg strong').first().text() || 1),
    posts,
  };
}

/** Captured desktop thread pages of a site, with their thread key and page number from the manifest. */
function capturedThreadPages(dir: string): ManifestEntry[] {
  const manifest = JSON.parse(readFileSync(fx('discuz', dir, 'manifest.json'), 'utf8')) as ManifestEntry[];
  return manifest.filter((m) => /^(viewthread-t\d+-p\d+|thread-\d+-\d+-\d+)\.html$/.test(m.file) && m.thread && m.page);
}

describe('synthetic Discuz pages', () => {
  for (const { family, dir, scenario, charset } of FAMILIES) {
    const threads = siteThreads(dir, scenario);
    const pages = capturedThreadPages(dir);

    it(`${family}: rebuilds every captured thread page (${dir}) with the same posts, floors, authors, times and text`, () => {
      expect(pages.length).toBeGreaterThan(1);
      for (const entry of pages) {
        const thread = threads.get(entry.thread!)!;
        const real = readPosts(readFileSync(fx('discuz', dir, entry.file)), charset);
        const synth = buildThreadPage(thread, entry.page!);
        expect(synth.contentType).toBe(entry.content_type);
        const built = readPosts(synth.bytes, charset);
        expect(built.title, entry.file).toBe(real.title);
        expect(built.pageCount, entry.file).toBe(real.pageCount);
        expect(built.current, entry.file).toBe(real.current);
        expect(built.posts.length, entry.file).toBe(real.posts.length);
        // the quote excerpt may differ in text (Discuz quotes what the post said at reply time): compare its link and header
        const aligned = alignRelative(built.posts, real.posts, relativePids(dir), (p) => forumTimeMs(p.time), (p, r) => ({ ...p, time: r.time }));
        expect(aligned, entry.file).toEqual(real.posts);
      }
    });
  }

  /** The header cell above the posts (#postlist's first td.pls), its 查看 count blanked (ours is plausible, not the capture's). */
  function headerCell(bytes: Uint8Array, charset: string): string {
    const html = charset === 'utf-8' ? Buffer.from(bytes).toString('utf8') : iconv.decode(Buffer.from(bytes), 'gbk');
    const $ = cheerio.load(html);
    const td = $('#postlist > table').first().find('td.pls').first();
    expect(td.length).toBe(1);
    return td.html()!.replace(/(查看:<\/span> <span class="xi1">)\d+/, '$1N');
  }

  for (const { family, dir, scenario, charset } of FAMILIES) {
    it(`${family}: the header shows the real 查看/回复 counts on page 1 and "楼主: NAME" on later pages, as captured (${dir})`, () => {
      const threads = siteThreads(dir, scenario);
      const pages = capturedThreadPages(dir);
      expect(pages.some((e) => e.page === 1) && pages.some((e) => e.page! > 1)).toBe(true);
      for (const entry of pages) {
        const thread = threads.get(entry.thread!)!;
        const real = headerCell(readFileSync(fx('discuz', dir, entry.file)), charset);
        const built = buildThreadPage(thread, entry.page!);
        const synth = headerCell(built.bytes, charset);
        expect(synth, entry.file).toBe(real);
        if (entry.page === 1) {
          expect(synth, entry.file).toContain(`回复:</span> <span class="xi1">${thread.posts.length - 1}</span>`);
          const html = charset === 'utf-8' ? Buffer.from(built.bytes).toString('utf8') : iconv.decode(Buffer.from(built.bytes), 'gbk');
          const views = Number(/查看:<\/span> <span class="xi1">(\d+)/.exec(html)![1]);
          expect(views).toBeGreaterThanOrEqual(thread.posts.length - 1);
        } else {
          expect(synth, entry.file).toContain(`楼主: `);
          expect(synth, entry.file).not.toContain('回复:');
        }
      }
      // a thread's views never show below its replies, and later pages name the opener whoever it is
      const t = [...threads.values()].sort((a, b) => b.posts.length - a.posts.length)[0];
      const small = buildThreadPage({ ...t, views: 0 }, 1);
      const smallHtml = charset === 'utf-8' ? Buffer.from(small.bytes).toString('utf8') : iconv.decode(Buffer.from(small.bytes), 'gbk');
      expect(/查看:<\/span> <span class="xi1">(\d+)<\/span><span class="pipe">\|<\/span><span class="xg1">回复:<\/span> <span class="xi1">(\d+)</.exec(smallHtml)!.slice(1).map(Number))
        .toEqual([t.posts.length - 1, t.posts.length - 1]);
      const renamed = { ...t, posts: [{ ...t.posts[0], author: '新楼主<&>', uid: 777 }, ...t.posts.slice(1)] };
      const later = headerCell(buildThreadPage(renamed, 2).bytes, charset);
      expect(later).toContain('楼主: ');
      expect(later).toContain('新楼主&lt;&amp;&gt;</a>');
      expect(later).toMatch(/uid[=-]777\b/);
      expect(later).not.toMatch(new RegExp(`uid[=-]${t.posts[0].uid}\\b`));
    });
  }

  it('uses the captured URL schemes and page counts', () => {
    const gbk = siteThreads('public-gbk', 'public-gbk.yaml').get('d1talk')!;
    const pages = buildThreadPages(gbk);
    expect(pages.map((p) => p.path)).toEqual(pages.map((_p, i) => `thread-${gbk.tid}-${i + 1}-1.html`));
    const utf = siteThreads('public', 'public.yaml').get('d1talk')!;
    const upages = buildThreadPages(utf);
    expect(upages[2].url).toBe(`http://127.0.0.1:8081/forum.php?mod=viewthread&tid=${utf.tid}&page=3`);
    expect(upages.length).toBe(Math.ceil(utf.posts.length / 10));
  });

  it('renders long pagers the way Discuz multi() does (first/last jumps) and floors by label', () => {
    const pg = renderPager('utf8', 9, 20, 40);
    expect(pg).toContain('class="first">1 ...</a>');
    expect(pg).toContain('class="last">... 40</a>');
    expect(pg).toContain('<strong>20</strong>');
    expect(pg).toContain('<span title="共 40 页"> / 40 页</span>');
    expect(renderPager('utf8', 9, 1, 1)).toBe('');
    expect([1, 2, 3, 4, 5].map(floorLabel)).toEqual(['楼主', '沙发', '板凳', '地板', '<em>5</em><sup>#</sup>']);
  });

  it('puts jammer filler on gbk line breaks only, and encodes gbk pages as GBK', () => {
    const posts: SynthPost[] = [
      { pid: 5001, author: '导演C', uid: 18, at: '2026-1-5 09:00:00', body: '开门' },
      { pid: 5002, author: '赵一', uid: 20, at: '2026-01-05 09:05:07', body: '第一行\n[color=Red]第二行[/color]\n[size=5]第三行[/size]' },
    ];
    const g = buildThreadPage({ family: 'gbk', tid: 99, title: '[G]测试', posts }, 1);
    const text = iconv.decode(Buffer.from(g.bytes), 'gbk');
    expect(Buffer.from(g.bytes).toString('utf8')).not.toContain('第一行');
    const msg = /id="postmessage_5002">\r?\n([\s\S]*?)<\/td>/.exec(text)![1];
    expect(msg.split('<br />').length).toBe(3);
    expect(msg).toMatch(/class="jammer"|display:none/);
    const u = buildThreadPage({ family: 'utf8', tid: 99, title: '[G]测试', posts }, 1);
    const umsg = /id="postmessage_5002">\r?\n([\s\S]*?)<\/td>/.exec(Buffer.from(u.bytes).toString('utf8'))![1];
    expect(umsg).toBe('第一行<br />\n<font color="Red">第二行</font><br />\n<font size="5">第三行</font>');
    const read = readPosts(g.bytes, 'gbk').posts[1];
    expect(read).toMatchObject({ pid: 5002, floorLabel: '沙发', author: '赵一', uid: 20, time: '2026-1-5 09:05:07', text: '第一行 第二行 第三行' });
  });

  const parserPath = ['parse-page.ts', 'parsePage.ts', 'parse.ts'].map((f) => path.join(root, 'src', 'discuz', f)).find((f) => existsSync(f));
  it.runIf(parserPath !== undefined)('the project parser reads the same posts from a rebuilt page as from the real one', async () => {
    const mod = (await import(parserPath!)) as Record<string, unknown>;
    const parsePage = (mod.parsePage ?? mod.parse) as (p: { bytes: Uint8Array; url: string; fetchedAt: Date; contentType?: string }) => { page: { kind: string; page: number | null; pageCount: number | null; title: string | null }; posts: Array<Record<string, unknown>> };
    expect(typeof parsePage).toBe('function');
    const keep = (p: Record<string, unknown>) => ({
      pid: p.pid, floor: p.floor, floorLabel: p.floorLabel, author: p.author, authorId: p.authorId, postedAt: p.postedAt,
      text: p.text, quotes: p.quotes, colors: p.colors, sizes: p.sizes, deleted: p.deleted,
      edited: p.edited,
    });
    for (const { family, dir, scenario } of FAMILIES) {
      const threads = siteThreads(dir, scenario);
      for (const entry of capturedThreadPages(dir)) {
        const thread = threads.get(entry.thread!)!;
        const ids = JSON.parse(readFileSync(fx('discuz', dir, 'ids.json'), 'utf8')) as Ids;
        const fetchedAt = new Date();
        const real = parsePage({ bytes: readFileSync(fx('discuz', dir, entry.file)), url: ids.base + entry.url, fetchedAt, contentType: entry.content_type });
        const synth = buildThreadPage(thread, entry.page!);
        const built = parsePage({ bytes: synth.bytes, url: ids.base + entry.url, fetchedAt, contentType: synth.contentType });
        expect(built.page.kind, `${family} ${entry.file}`).toBe(real.page.kind);
        expect([built.page.title, built.page.page, built.page.pageCount]).toEqual([real.page.title, real.page.page, real.page.pageCount]);
        // the reply count: page 1's header only (later pages show the thread author there)
        expect((built.page as { replies?: number | null }).replies, `${family} ${entry.file}`).toBe((real.page as { replies?: number | null }).replies);
        if (entry.page === 1) expect((real.page as { replies?: number | null }).replies).toBe(thread.posts.length - 1);
        else expect((real.page as { replies?: number | null }).replies).toBeNull();
        // times: the gbk captures show relative times whose title carries seconds; ours are absolute
        const aligned = alignRelative(
          built.posts.map(keep) as Array<ReturnType<typeof keep> & { pid: number | null }>,
          real.posts.map(keep) as Array<ReturnType<typeof keep> & { pid: number | null }>,
          relativePids(dir),
          (p) => Date.parse(String(p.postedAt)),
          (p, r) => ({ ...p, postedAt: r.postedAt }),
        );
        expect(aligned, `${family} ${entry.file}`).toEqual(real.posts.map(keep));
      }
    }
  });

  it('lists every captured fixture directory it relies on', () => {
    for (const { dir } of FAMILIES) expect(readdirSync(fx('discuz', dir))).toContain('ids.json');
  });
});

describe('synthetic board listing', () => {
  const capturedHtml = readFileSync(fx('discuz', 'public', 'forumdisplay-f3.html'), 'utf8');
  const rowOf = (html: string, tid: number): string => new RegExp(`<tbody id="normalthread_${tid}">[\\s\\S]*?</tbody>\\r?\\n`).exec(html)?.[0] ?? '';
  /** Every captured row's values, read off the real page, as a thread with that many posts. */
  const captured = (() => {
    const $ = cheerio.load(capturedHtml);
    return $('tbody[id^="normalthread_"]').toArray().map((el) => {
      const row = $(el);
      const tid = Number(row.attr('id')!.split('_')[1]);
      const [by, last] = [row.find('td.by').first(), row.find('td.by').last()];
      const when = (em: ReturnType<typeof $>) => em.find('span[title]').attr('title') ?? em.text().trim();
      const author = by.find('cite a').text().trim();
      const uid = Number(/uid=(\d+)/.exec(by.find('cite a').attr('href')!)![1]);
      const replies = Number(row.find('td.num a').text());
      const lastPoster = last.find('cite a').text().trim();
      const lastAt = when(last.find('em'));
      const posts: SynthPost[] = [{ pid: tid * 1000, author, uid, at: `${when(by.find('em'))} 00:00`, body: 'x' }];
      for (let i = 1; i <= replies; i++) posts.push({ pid: tid * 1000 + i, author: lastPoster, uid: 99, at: lastAt, body: 'x' });
      if (replies === 0) expect(lastPoster).toBe(author); // the opening post is the last post
      else posts[posts.length - 1].at = lastAt;
      const thread: SynthThread = { family: 'utf8', tid, title: row.find('a.s.xst').text(), views: Number(row.find('td.num em').text()), posts };
      return { tid, thread, raw: rowOf(capturedHtml, tid), plain: !/class="xi1">New<\/a>|static\/image\/stamp\//.test(rowOf(capturedHtml, tid)) };
    });
  })();

  it('re-renders every captured plain thread row byte for byte from its values, in the captured order', () => {
    const html = renderBoardPageHtml({ family: 'utf8', threads: [...captured.map((c) => c.thread)].reverse(), todayPosts: 173 });
    const plain = captured.filter((c) => c.plain);
    expect(plain.length).toBeGreaterThanOrEqual(3);
    expect(plain.some((c) => c.raw.includes('..<a'))).toBe(true); // a thread past 6 pages: "2 … 6 ..N"
    for (const c of plain) expect(rowOf(html, c.tid), `thread ${c.tid}`).toBe(c.raw);
    // Discuz's order (last post, newest first) and the head with the board's counts
    expect([...html.matchAll(/<tbody id="normalthread_(\d+)">/g)].map((m) => Number(m[1]))).toEqual(captured.map((c) => c.tid));
    const outside = (h: string) => h.replace(/<tbody id="normalthread_\d+">[\s\S]*?<\/tbody>\r?\n/g, '');
    expect(outside(html)).toBe(outside(capturedHtml));
  });

  it('lists any threads, page links only for multi-page ones, and refuses more than one page of threads', () => {
    const post = (pid: number, at: string): SynthPost => ({ pid, author: '甲<乙>', uid: 5, at, body: 'x' });
    const long: SynthThread = { family: 'utf8', tid: 90, title: 'A & B', posts: Array.from({ length: 25 }, (_, i) => post(900 + i, '2027-1-2 10:00')) };
    const short: SynthThread = { family: 'utf8', tid: 91, title: 'C', posts: [post(950, '2027-1-3 09:00')] };
    const page = buildBoardPage({ family: 'utf8', threads: [long, short] });
    expect(page.path).toBe('forum.php?mod=forumdisplay&fid=3');
    const html = Buffer.from(page.bytes).toString('utf8');
    const $ = cheerio.load(html);
    expect($('tbody[id^="normalthread_"]').toArray().map((e) => $(e).attr('id'))).toEqual(['normalthread_91', 'normalthread_90']);
    expect($('#normalthread_90 a.s.xst').text()).toBe('A & B');
    expect($('#normalthread_90 span.tps a').toArray().map((a) => $(a).text())).toEqual(['2', '3']);
    expect($('#normalthread_91 span.tps').length).toBe(0);
    expect($('#normalthread_90 td.num').text()).toBe('2424');
    expect($('#normalthread_90 td.by').last().find('cite a').attr('href')).toBe('home.php?mod=space&username=%E7%94%B2%3C%E4%B9%99%3E');
    expect(html).toContain('主题: <strong class="xi1">2</strong>');
    const many = Array.from({ length: 21 }, (_, i) => ({ ...short, tid: 100 + i }));
    expect(() => renderBoardPageHtml({ family: 'utf8', threads: many })).toThrow(RangeError);
  });
});
