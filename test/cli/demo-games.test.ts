import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoSiteDir, demoSiteFiles, demoSites } from '../../src/demo/synth-games.js';
import { loadGame } from '../../src/game/game-file.js';
import { parsePage } from '../../src/discuz/index.js';
import { applyPage, emptyStore } from '../../src/store/index.js';
import { tallyDay, postsFromStore } from '../../src/votes/tally.js';
import { resolveAuction } from '../../src/auction/index.js';
import { threadPosts } from '../../src/store/slice.js';
import { arbiterRange, duelPairs, elevatorFloor } from '../../src/elevator/index.js';
import { renderElevatorBBCode } from '../../src/render/elevator-bbcode.js';
import { FIXTURES } from '../auction/synth-store.js';
import { demoStore } from '../helpers/captured.js';
import { completeness } from '../../src/store/completeness.js';
import { startReplayServer } from '../../src/replay/server.js';
import { forumTimeMs } from '../../src/replay/synth.js';
import { gamesOnBoard, parseBoardListing } from '../../src/init/board.js';
import { runInit } from '../../src/cli/commands/init.js';
import { saveSession } from '../../src/crawl/session.js';
import { parseGame } from '../../src/game/game-file.js';

/** The committed demo site, parsed and stored as a crawl would. */
const storeOf = demoStore;

describe('demo sites', () => {
  it.each(['wuhui', '120b'] as const)('the committed %s pages are exactly what the generator renders', (name) => {
    const dir = demoSiteDir(name);
    for (const [file, body] of demoSiteFiles(demoSites[name]())) {
      const want = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
      expect(fs.readFileSync(path.join(dir, file)).equals(want), `${file} (regenerate with writeDemoSite)`).toBe(true);
    }
  });

  it.each(['wuhui', '120b'] as const)('%s: page 1 shows each thread\'s real reply count, later pages the author, and every thread is complete', (name) => {
    const site = demoSites[name]();
    const data = storeOf(name);
    for (const t of site.threads) {
      expect(data.threads[t.tid]?.replies, `thread ${t.tid}`).toBe(t.posts.length - 1);
      const c = completeness(data, t.tid);
      expect(c.complete, `thread ${t.tid}: ${JSON.stringify(c.missingFloors)}`).toBe(true);
      expect(c.maxFloor).toBe(t.posts.length);
    }
    // at least one thread has a later page, and that page says whose thread it is instead of the counts
    const later = site.threads.find((t) => t.posts.length > 10)!;
    const p2 = fs.readFileSync(path.join(demoSiteDir(name), `viewthread-t${later.tid}-p2.html`), 'utf8');
    expect(p2).toContain(`楼主: <a href="home.php?mod=space&amp;uid=${later.posts[0].uid}" title="${later.posts[0].author}">${later.posts[0].author}</a>`);
    expect(p2).not.toContain('回复:</span>');
  });

  it('the replay server\'s reply endpoint raises page 1\'s reply count with the new floor, so the thread stays complete', async () => {
    const site = demoSites.wuhui();
    const thread = site.threads.find((t) => t.tid === 23)!;
    const server = await startReplayServer({ root: demoSiteDir('wuhui') });
    try {
      const cookie = server.sessionState().cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      const get = async (page: number) => {
        const url = `${server.url}forum.php?mod=viewthread&tid=${thread.tid}&page=${page}`;
        const res = await fetch(url, { headers: { cookie } });
        const fetched = { bytes: new Uint8Array(await res.arrayBuffer()), url, fetchedAt: new Date(), status: res.status, contentType: res.headers.get('content-type') ?? undefined };
        return { fetched, parsed: parsePage(fetched) };
      };
      const before = await get(1);
      expect(before.parsed.page.replies).toBe(thread.posts.length - 1);
      const formhash = /name="formhash" value="([0-9a-f]+)"/.exec(Buffer.from(before.fetched.bytes).toString('utf8'))![1];
      const res = await fetch(`${server.url}forum.php?mod=post&action=reply&fid=3&tid=${thread.tid}&extra=&replysubmit=yes`, {
        method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ formhash, message: '3号物品 出价25G' }).toString(),
      });
      expect(res.status).toBe(302);
      expect(server.posted).toHaveLength(1);

      const data = emptyStore(server.url);
      const pages = before.parsed.page.pageCount!;
      const after = await get(1);
      expect(after.parsed.page.replies).toBe(thread.posts.length);
      for (let p = 1; p <= pages; p++) {
        const { fetched, parsed } = await get(p);
        if (p > 1) expect(parsed.page.replies).toBeNull();
        applyPage(data, fetched, parsed);
      }
      const c = completeness(data, thread.tid);
      expect(c).toMatchObject({ complete: true, replies: thread.posts.length, maxFloor: thread.posts.length + 1 });
    } finally {
      await server.close();
    }
  });

  it('wuhui: the real parser reads every synthesised post, and the presets\' rules decide the days', () => {
    const game = loadGame(path.join(FIXTURES, 'games', 'wuhui.yaml'));
    const site = demoSites.wuhui();
    const data = storeOf('wuhui');
    for (const t of site.threads) expect(threadPosts(data, t.tid).map((p) => p.text)).toEqual(t.posts.map((p) => p.body));

    const posts = postsFromStore(data);
    expect(tallyDay(game, posts, 1).result.name).toBe('白泽');
    expect(tallyDay(game, posts, 1, { rules: true }).result.name).toBe('规则3');
    // day 2: 规则3 was used on day 1; 规则1 and 规则6 tie and the sheriff (白泽) voted 规则6
    const rules2 = tallyDay(game, posts, 2, { rules: true });
    expect(rules2.result.name).toBe('规则6');
    expect(rules2.ballots.find((b) => b.voter === '阿狸')!.status).toBe('rejected');
    // day 2 elimination: 饿虎 and 金蝉 tie; the sheriff's choice goes out — matching the game file's event
    const vote2 = tallyDay(game, posts, 2);
    expect(vote2.result.tie.sort()).toEqual(['金蝉', '饿虎'].sort());
    expect(vote2.result.name).toBe(game.events.find((e) => e.how === 'vote')!.player);

    const a1 = resolveAuction(threadPosts(data, 23), game, 1);
    expect(a1.items.find((i) => i.item === 3)!.winner).toBe('阿狸');
    expect(a1.items.find((i) => i.item === 6)!.winner).toBe('饿虎'); // 10G + a 35G pledge covers 40G
    expect(a1.items.find((i) => i.item === 4)!.bids.map((b) => b.status)).toEqual(['winning', 'rejected']); // 金蝉 at 21:00 is late
    expect(a1.items.find((i) => i.item === 4)!.bids.map((b) => [b.code, b.reason])).toEqual([[null, null], ['late', '拍卖已截止（21:00）后发帖（21:00 发帖）']]);
    expect(a1.items.find((i) => i.item === 6)!.bids.every((b) => b.code === null)).toBe(true);

    expect(duelPairs(game, 1)).toHaveLength(game.players.length / 2);
    expect(elevatorFloor(data, game, 2).entries).toHaveLength(game.players.length);
  });

  it('120b: no public vote, and the 仲裁者 range walks the ring of the living', () => {
    const game = loadGame(path.join(FIXTURES, 'games', '120b.yaml'));
    const data = storeOf('120b');
    const t = tallyDay(game, postsFromStore(data), 1);
    expect(t.kind).toBe('none');
    const range = arbiterRange(game, 2, '雷电');
    expect(range).toEqual(['雷电', '马里奥']); // ⌈11/6⌉ = 2, head and tail joined
    expect(renderElevatorBBCode(elevatorFloor(data, game, 2))).toContain('[s]卡比[/s] (出局)');
  });

  it.each(['wuhui', '120b'] as const)('%s: the board listing lists exactly the demo\'s threads, newest last post first, and the server serves it as the public site\'s', async (name) => {
    const site = demoSites[name]();
    const dir = demoSiteDir(name);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Array<{ file: string; url: string }>;
    const entry = manifest.find((e) => /^forumdisplay-f\d+\.html$/.test(e.file))!;
    const fid = Number(/fid=(\d+)/.exec(entry.url)![1]);
    const siteJson = JSON.parse(fs.readFileSync(path.join(dir, 'site.json'), 'utf8')) as { board: { fid: number } };
    expect(fid).toBe(siteJson.board.fid);
    expect(manifest.find((e) => e.file === `guest-forumdisplay-f${fid}.html`)?.url).toBe(entry.url);

    const listed = parseBoardListing(fs.readFileSync(path.join(dir, entry.file), 'utf8'));
    const lastAt = (t: (typeof site.threads)[number]) => forumTimeMs(t.posts[t.posts.length - 1].at);
    const want = [...site.threads].sort((a, b) => lastAt(b) - lastAt(a) || b.tid - a.tid).map((t) => ({ tid: t.tid, title: t.title, author: t.posts[0].author }));
    expect(listed).toEqual(want);
    const games = gamesOnBoard(listed);
    expect(games.map((g) => g.tag)).toEqual([/^\[[^\]]+\]/.exec(site.tag)![0]]);

    const server = await startReplayServer({ root: dir });
    try {
      const cookie = server.sessionState().cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      const text = async (url: string, headers: Record<string, string> = {}) => (await fetch(server.url + url, { headers })).text();
      // logged in: forum.php (what the browser login checks) and the board URL both answer the listing, with the uid
      for (const url of ['forum.php', entry.url]) {
        const html = await text(url, { cookie });
        expect(/discuz_uid = '(\d+)'/.exec(html)?.[1], url).toBe(String(site.users['导演A']));
        expect(parseBoardListing(html).map((t) => t.tid)).toEqual(want.map((t) => t.tid));
      }
      // a guest gets the captured login-required page, never the listing
      for (const url of ['forum.php', entry.url]) {
        const html = await text(url);
        expect(parseBoardListing(html), url).toEqual([]);
        expect(html).toContain(`discuz_uid = '0'`);
      }
    } finally {
      await server.close();
    }
  });

  it.each(['wuhui', '120b'] as const)('%s: `bansha init --board` drafts the demo game from its board listing', async (name) => {
    const site = demoSites[name]();
    const reference = loadGame(path.join(FIXTURES, 'games', `${name}.yaml`));
    const tmp = path.resolve(import.meta.dirname, `../.tmp/demo-init-${name}`);
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.mkdirSync(tmp, { recursive: true });
    const server = await startReplayServer({ root: demoSiteDir(name) });
    try {
      const session = path.join(tmp, 's.json');
      await saveSession(session, server.sessionState());
      const out = path.join(tmp, 'game.yaml');
      const r = await runInit({ board: `${server.url}forum.php?mod=forumdisplay&fid=3`, out, session, ruleset: name });
      const draft = parseGame(fs.readFileSync(out, 'utf8'), out);
      const days = (g: typeof draft) => g.days.map((d) => [d.day, d.discussion?.tid, d.vote?.tid, d.rules?.tid, d.auction?.tid]);
      expect(days(draft)).toEqual(days(reference));
      expect(draft.directors).toEqual(reference.directors);
      expect([...draft.players].sort()).toEqual([...reference.players].sort());
      expect(r.players.length).toBe(Object.keys(site.users).length - 1);
    } finally {
      await server.close();
    }
  });
});
