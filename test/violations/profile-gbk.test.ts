/**
 * Avatar/signature changes found across fetches of the real captured pages, and the GBK capture
 * (jammer on, rewrite URLs) read through the same checks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseGame } from '../../src/game/game-file.js';
import { buildDayReport } from '../../src/report/day-report.js';
import { emptyStore } from '../../src/store/index.js';
import { digestPost, threadPosts } from '../../src/store/slice.js';
import { profileBase, profileChanges, type ProfileChange, type ProfileRef } from '../../src/violations/profile.js';
import { FIXTURES, ids as readIds, recordFetched, storeFromFixture, publicGame } from '../helpers/captured.js';
import { flagDetail, publicFlagDetail } from '../../src/violations/details.js';
import { withLanguage } from '../../src/i18n/index.js';

function record(data: ReturnType<typeof emptyStore>, dir: string, file: string, url: string, fetchedAt: Date, edit?: (html: string) => string) {
  let html = fs.readFileSync(path.join(FIXTURES, 'discuz', dir, file), 'latin1');
  if (edit) html = edit(html);
  recordFetched(data, { bytes: new Uint8Array(Buffer.from(html, 'latin1')), url, fetchedAt, status: 200, contentType: dir === 'public' ? 'text/html; charset=utf-8' : 'text/html; charset=gbk' });
}

describe('avatar and signature changed during the game (real markup, a later fetch)', () => {
  const game = publicGame();
  const data = emptyStore(game.forum);
  record(data, 'public', 'viewthread-t4-p1.html', `${game.forum}forum.php?mod=viewthread&tid=4&page=1`, new Date('2026-11-22T04:00:00Z'));
  // The next page fetched an hour later: 花卷 (uid 11, on both pages) has uploaded a new avatar (Discuz adds &ts=) and a signature.
  const sigHtml = Buffer.from('<div class="sign" style="max-height:100px;maxHeightIE:100px;">我是预言家</div>', 'utf8').toString('latin1');
  record(data, 'public', 'viewthread-t4-p2.html', `${game.forum}forum.php?mod=viewthread&tid=4&page=2`, new Date('2026-11-22T05:00:00Z'), (h) =>
    h
      .replace(/avatar\.php\?uid=11&size=middle"/g, 'avatar.php?uid=11&size=middle&ts=2"')
      .replace(/(<td class="t_f" id="postmessage_(\d+)">[\s\S]*?<\/td><\/tr><\/table>)/g, (m, _all, pid) => (['97', '103'].includes(pid) ? `${m}${sigHtml}` : m)),
  );
  const posts = new Map([[4, threadPosts(data, 4)]]);
  const report = buildDayReport(game, posts, 2, { accelerated: false });

  test('the first post fetched after the change carries the flag, once per change', () => {
    const changes = report.flags.filter((f) => f.kind === 'avatar-changed' || f.kind === 'signature-changed');
    const baozi = threadPosts(data, 4).filter((p) => p.author === '花卷' && p.avatar?.includes('ts=2'));
    expect(threadPosts(data, 4).some((p) => p.author === '花卷' && !p.avatar?.includes('ts=2'))).toBe(true);
    expect(baozi.length).toBeGreaterThan(0);
    expect(changes.map((f) => [f.kind, f.player, f.pid])).toEqual([
      ['avatar-changed', '花卷', baozi[0].pid],
      ['signature-changed', '花卷', baozi[0].pid],
    ]);
    expect(changes[0].snippet).toBe(''); // an avatar is a URL: the detail says it changed
    expect(changes[1].snippet).toContain('我是预言家');
    for (const c of changes) {
      expect(JSON.stringify(c.facts)).not.toMatch(/https?:|avatar\.php/);
      expect(withLanguage('en', () => flagDetail(c, report.timezone))).toMatch(/^(avatar|signature) changed during the game: (the old one|no signature) in thread 4 floor \d+ \(.*\), the new one in thread 4 floor \d+ \(/);
      expect(publicFlagDetail(c, report.timezone)).toMatch(/原.*见帖 4 的 \d+ 楼.*新.*见帖 4 的 \d+ 楼/);
      expect(c.related?.length).toBe(1);
    }
  });
});

describe('avatar changes across recrawls (issue #15): one flag, kept history, the right day', () => {
  const game = publicGame();
  const url = (p: number) => `${game.forum}forum.php?mod=viewthread&tid=4&page=${p}`;
  const newAvatar = (h: string) => h.replace(/avatar\.php\?uid=11&size=middle"/g, 'avatar.php?uid=11&size=middle&ts=2"');
  const avatarFlags = (data: ReturnType<typeof emptyStore>, day: number) =>
    buildDayReport(game, new Map([[4, threadPosts(data, 4)]]), day, { accelerated: false }).flags.filter((f) => f.kind === 'avatar-changed');

  test('a full recrawl showing the new avatar on old posts keeps the old sighting and adds no flag', () => {
    const data = emptyStore(game.forum);
    record(data, 'public', 'viewthread-t4-p1.html', url(1), new Date('2026-11-22T04:00:00Z'));
    record(data, 'public', 'viewthread-t4-p2.html', url(2), new Date('2026-11-22T05:00:00Z'), newAvatar);
    const once = avatarFlags(data, 2);
    record(data, 'public', 'viewthread-t4-p1.html', url(1), new Date('2026-11-22T12:00:00Z'), newAvatar);
    record(data, 'public', 'viewthread-t4-p2.html', url(2), new Date('2026-11-22T12:00:01Z'), newAvatar);
    const stored = Object.values(data.posts).filter((p) => p.tid === 4 && p.versions[0].post.author === '花卷');
    const refetched = stored.filter((p) => p.profiles?.length === 2);
    expect(refetched.length).toBeGreaterThan(0);
    for (const p of refetched) expect([p.profiles![0].avatar?.includes('ts=2'), p.profiles![1].avatar?.includes('ts=2')]).toEqual([false, true]);
    const after = avatarFlags(data, 2);
    expect(once.length).toBe(1);
    expect(after.map((f) => [f.player, f.pid, f.related])).toEqual(once.map((f) => [f.player, f.pid, f.related]));
    expect(avatarFlags(data, 1)).toEqual([]);
  });

  test('a change only a later recrawl shows is reported on the day of that fetch, not on the old posts\' day', () => {
    const data = emptyStore(game.forum);
    record(data, 'public', 'viewthread-t4-p1.html', url(1), new Date('2026-11-22T14:00:00Z'));
    record(data, 'public', 'viewthread-t4-p2.html', url(2), new Date('2026-11-22T14:00:01Z'));
    expect(avatarFlags(data, 2)).toEqual([]);
    record(data, 'public', 'viewthread-t4-p2.html', url(2), new Date('2026-11-22T15:00:00Z'), newAvatar);
    const flags = avatarFlags(data, 2);
    expect(flags.length).toBe(1);
    expect(publicFlagDetail(flags[0], game.timezone)).toContain('两次抓取之间');
    expect(flags[0].at).toBe(Date.parse('2026-11-22T15:00:00Z'));
    expect(avatarFlags(data, 1)).toEqual([]);
  });
});

describe('a day\'s own posts read in full, earlier threads as digests (the report\'s look-back): the same changes', () => {
  const game = publicGame();
  const url = (p: number) => `${game.forum}forum.php?mod=viewthread&tid=4&page=${p}`;
  const newAvatar = (h: string) => h.replace(/avatar\.php\?uid=11&size=middle"/g, 'avatar.php?uid=11&size=middle&ts=2"');
  const data = emptyStore(game.forum);
  record(data, 'public', 'viewthread-t4-p1.html', url(1), new Date('2026-11-22T04:00:00Z'));
  record(data, 'public', 'viewthread-t4-p2.html', url(2), new Date('2026-11-22T05:00:00Z'), newAvatar);
  // a recrawl showing the new avatar on the old posts too: those posts keep their sightings (StoredPost.profiles)
  record(data, 'public', 'viewthread-t4-p1.html', url(1), new Date('2026-11-22T12:00:00Z'), newAvatar);
  const posts = threadPosts(data, 4);
  const half = Math.ceil(posts.length / 2);
  const changes = (threads: Parameters<typeof profileChanges>[0]) =>
    profileChanges(threads, game.players).map((c) => ({ ...c, beforePost: c.beforePost.pid, post: c.post.pid }));

  test('full posts, with and without kept sightings, read as their digests do', () => {
    expect(posts.some((p) => p.profiles) && posts.some((p) => !p.profiles)).toBe(true);
    const digests = changes([posts.map(digestPost)]);
    expect(digests.length).toBe(1);
    expect(changes([posts])).toEqual(digests);
    // the thread split in two, one half in full and one as digests, as a report reads the day beside the earlier days
    expect(changes([posts.slice(0, half).map(digestPost), posts.slice(half)])).toEqual(digests);
    expect(changes([posts.slice(0, half), posts.slice(half).map(digestPost)])).toEqual(digests);
  });

  test('earlier posts summed up (profileBase: the report\'s kept look-back), the rest given: the same changes, naming the same posts', () => {
    const named = (c: ProfileChange) => ({ ...c, beforePost: ref(c.beforePost), post: ref(c.post) });
    const ref = (p: ProfileRef) => ({ pid: p.pid, tid: p.tid, floor: p.floor, at: p.at, url: p.url, author: p.author });
    const whole = profileChanges([posts.map(digestPost)], game.players).map(named);
    expect(whole.length).toBe(1);
    for (let k = 0; k <= posts.length; k++) {
      const base = profileBase([posts.slice(0, k).map(digestPost)], game.players);
      expect(profileChanges([posts.slice(k)], game.players, { profile: base, forum: game.forum }).map(named), `split at ${k}`).toEqual(whole);
    }
  });
});

describe('the GBK capture (jammer, rewrite URLs): fonts and counts through the same code', () => {
  const ids = readIds('public-gbk');
  const game = parseGame(
    `forum: ${ids.base}
ruleset: m107
directors: [导演C]
players: [赵一, 钱二, 孙三, 李四, 周五, 吴六, 郑七, 王八]
days:
  - {day: 1, discussion: 13, vote: 14, opens: "2026-11-25 09:00", closes: "2026-11-25 21:00"}
`,
    'gbk.yaml',
  );
  const data = storeFromFixture('public-gbk', ['thread-13-1-1.html', 'thread-13-2-1.html', 'thread-14-1-1.html'], new Date('2026-11-26T00:00:00Z'));
  const report = buildDayReport(game, new Map([[13, threadPosts(data, 13)], [14, threadPosts(data, 14)]]), 1, { accelerated: false });

  test('counts per player agree with ids.json', () => {
    for (const row of report.activity) {
      const n = Object.values(ids.posts).filter((p) => p.tid === 13 && p.author === row.player && p.dateline * 1000 >= game.days[0].opens && p.dateline * 1000 < game.days[0].closes).length;
      expect(row.posts, row.player).toBe(n);
    }
  });
  test('钱二\'s Red line and size 5 line, 吴六\'s #FF0000 ballot reason', () => {
    const red = report.flags.filter((f) => f.kind === 'red-font').map((f) => `${f.player}:${f.snippet}`);
    expect(red).toEqual(['钱二:第一行', '吴六:就他了']);
    expect(report.flags.filter((f) => f.kind === 'enlarged-font').map((f) => `${f.player}:${f.snippet}`)).toEqual(['钱二:第三行']);
  });
  test('王八 never posted: fewer than 5 and no ballot', () => {
    expect(report.flags.filter((f) => f.player === '王八').map((f) => f.kind).sort()).toEqual(['few-posts', 'no-ballot']);
  });
});
