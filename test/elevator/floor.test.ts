import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadGame, parseGame } from '../../src/game/game-file.js';
import { elevatorFloor, forumLinkStyle } from '../../src/elevator/index.js';
import { BRACKET_GUARD, neutraliseBBCode, renderElevatorBBCode } from '../../src/render/elevator-bbcode.js';
import { UserError } from '../../src/errors.js';
import { isOut } from '../../src/game/roster.js';
import { storeFromSynth } from '../auction/synth-store.js';
import { FIXTURES, ids as readIds, manifest, storeFromFixture, threadPageFiles } from '../helpers/captured.js';

const ids = readIds('public');
const store = storeFromFixture('public', threadPageFiles('public'));
const game = loadGame(path.join(FIXTURES, 'games', 'public.yaml'));

/** A Discuz-like reading of the floor: every [url=…]…[/url] and [s]…[/s] as discuzcode would pair them. */
function readFloor(bbcode: string): Array<{ url: string | null; name: string; struck: boolean }> {
  const out: Array<{ url: string | null; name: string; struck: boolean }> = [];
  for (const line of bbcode.trim().split('\n').slice(1)) {
    const url = [...line.matchAll(/\[url=([^\]]+)\](.*?)\[\/url\]/g)];
    const struck = [...line.matchAll(/\[s\](.*?)\[\/s\]/g)];
    expect(url.length + struck.length, line).toBe(1);
    const m = url[0] ?? struck[0];
    out.push({ url: url[0] ? m[1] : null, name: (url[0] ? m[2] : m[1]).split(BRACKET_GUARD).join(''), struck: !url[0] });
  }
  return out;
}

describe('elevatorFloor on the captured public game', () => {
  it('links every living player, in game order, to the only-author view with the uid the forum gave them', () => {
    const floor = elevatorFloor(store, game, 2);
    const day2 = game.days.find((d) => d.day === 2)!;
    const read = readFloor(renderElevatorBBCode(floor));
    expect(read.map((r) => r.name)).toEqual(game.players);
    for (const r of read) {
      if (isOut(game, r.name, day2.opens)) {
        expect(r.struck).toBe(true);
        continue;
      }
      expect(r.url).toBe(`${ids.base}forum.php?mod=viewthread&tid=${day2.discussion!.tid}&page=1&authorid=${ids.users[r.name]}`);
    }
    // 馒头 died the night before day 2; 月饼 was voted out at day 2's close and is still in on floor 2.
    expect(read.filter((r) => r.struck).map((r) => r.name)).toEqual(['馒头']);
    expect(renderElevatorBBCode(floor)).toContain('[s]馒头[/s] (出局)');
    expect(floor.linkStyle).toBe('query');
  });

  it('the links open the real only-author pages of the captured forum', () => {
    // The capture holds a few only-author pages; their URLs are exactly what the floor links to.
    const captured = new Set(manifest('public').map((m) => ids.base + m.url));
    const floor = elevatorFloor(store, game, 2);
    const hits = floor.entries.filter((e) => e.url && captured.has(e.url));
    expect(hits.length).toBeGreaterThan(0);
  });

  it('leaves out players who are out when the ruleset says omit', () => {
    const omit = { ...game, rules: { ...game.rules, elevator: { outPlayers: 'omit' as const } } };
    const floor = elevatorFloor(store, omit, 2);
    expect(floor.entries.map((e) => e.player)).toEqual(game.players.filter((p) => p !== '馒头'));
    expect(renderElevatorBBCode(floor)).not.toContain('馒头');
    // seats keep the game order numbering
    expect(floor.entries.find((e) => e.player === '烧卖')!.seat).toBe(game.players.indexOf('烧卖') + 1);
  });

  it('writes everybody else when a uid is unknown, marking that one and warning with its name', () => {
    const partial = { ...store, users: Object.fromEntries(Object.entries(store.users).filter(([n]) => n !== '包子')) };
    const floor = elevatorFloor(partial, game, 2);
    expect(floor.warnings).toHaveLength(1);
    expect(floor.warnings[0]).toMatch(/^包子 的论坛 uid 尚不知道.*bansha crawl/);
    const lines = renderElevatorBBCode(floor).trim().split('\n');
    expect(lines[2]).toBe('2. 包子（暂无链接）');
    expect(floor.entries[1]).toMatchObject({ player: '包子', uid: null, url: null });
    // Every other line is exactly as with every uid known.
    const full = renderElevatorBBCode(elevatorFloor(store, game, 2)).trim().split('\n');
    expect(lines.filter((_, i) => i !== 2)).toEqual(full.filter((_, i) => i !== 2));
  });

  it('a uid from the game file needs no crawl', () => {
    const partial = { ...store, users: Object.fromEntries(Object.entries(store.users).filter(([n]) => n !== '包子')) };
    const withUid = parseGame(fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8').replace('包子,', `{name: 包子, uid: ${ids.users['包子']}},`), path.join(FIXTURES, 'games', 'public.yaml'));
    const floor = elevatorFloor(partial, withUid, 2);
    expect(floor.warnings).toEqual([]);
    expect(renderElevatorBBCode(floor)).toBe(renderElevatorBBCode(elevatorFloor(store, game, 2)));
  });

  it('fails clearly for a day that is not in the game file', () => {
    expect(() => elevatorFloor(store, game, 9)).toThrowError(UserError);
  });
});

describe('names that would break BBCode', () => {
  const nasty = ['a]b', '[url]x', 'y[/url]', '[s]z[/s]', '[url=http://evil/]w', ']]['];
  const forum = 'http://127.0.0.1:9/';
  const players = ['普通', ...nasty];
  // The posts come through the real markup and parser, so the names are what a crawl would learn.
  const data = storeFromSynth(forum, [{
    family: 'gbk', tid: 40, title: '[T01]第一日讨论帖',
    posts: [{ pid: 400, author: '导演A', uid: 2, at: '2026-11-20 10:00:00', body: '开门' },
      ...players.map((p, i) => ({ pid: 401 + i, author: p, uid: 30 + i, at: `2026-11-20 11:0${i}:00`, body: '我来了' }))],
  }]);
  const g = parseGame(
    `forum: ${forum}\nruleset: m107\ndirectors: [导演A]\nplayers: ${JSON.stringify(players)}\n` +
      'days:\n  - {day: 1, discussion: 40, opens: "2026-11-20 10:00", closes: "2026-11-21 21:00"}\n' +
      `events:\n  - {player: "${nasty[3]}", out: "2026-11-20 09:00", how: night}\n`,
    'nasty.yaml',
  );

  it('every line still holds exactly one tag, with the right link and the name as written', () => {
    const floor = elevatorFloor(data, g, 1);
    const read = readFloor(renderElevatorBBCode(floor));
    expect(read.map((r) => r.name)).toEqual(players);
    read.forEach((r, i) => {
      if (players[i] === nasty[3]) expect(r.struck).toBe(true);
      else expect(r.url).toBe(`${forum}forum.php?mod=viewthread&tid=40&page=1&authorid=${30 + i}`);
    });
  });

  it('neutralised text never contains a bracket that can open or close a tag', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('[', ']', '/', 'u', 'r', 'l', 's', '=', 'a', '饺') }), (name) => {
        const safe = neutraliseBBCode(name);
        expect(/\[[^\u200B]/.test(safe) || /\[$/.test(safe)).toBe(false);
        expect(/[^\u200B]\]|^\]/.test(safe)).toBe(false);
        expect(safe.split(BRACKET_GUARD).join('')).toBe(name);
      }),
    );
  });
});

describe('forumLinkStyle', () => {
  it('sees the rewrite URLs of the GBK capture, and keeps the query form its own 只看该作者 links use', () => {
    const gbk = storeFromFixture('public-gbk', ['thread-13-1-1.html', 'thread-13-2-1.html']);
    expect(forumLinkStyle(gbk)).toBe('rewrite');
    expect(forumLinkStyle(store)).toBe('query');
    // Discuz has no rewrite rule for the only-author view: the rewrite forum itself links the query form.
    const html = fs.readFileSync(path.join(FIXTURES, 'discuz', 'public-gbk', 'thread-13-1-1.html'), 'latin1');
    expect(html).toMatch(/href="forum\.php\?mod=viewthread&amp;tid=13&amp;page=1&amp;authorid=\d+"/);
    expect(html).not.toMatch(/authorid-\d+|thread-13-1-1-\d+\.html/);
  });
});
