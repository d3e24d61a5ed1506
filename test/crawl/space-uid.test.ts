/**
 * uids from the members' profile pages (src/crawl/space-uid.ts, issue 14): the uid is read only from the
 * profile heading naming the account asked for (never the viewer's own uid in the captured header), a GBK
 * forum is asked again with the name GBK-encoded, no account is "unknown" with the forum's message, a login
 * page is exit 4 — and `fillUidsFromSpaces` records what it finds so the elevator links a player who has
 * not posted. Pages: src/replay/space-page.ts (the captured desktop page around Discuz X3.5's profile block).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, test } from 'vitest';
import { fillUidsFromSpaces, lookUpSpaceUid, readSpaceUid, spaceUrl } from '../../src/crawl/space-uid.js';
import { saveSession } from '../../src/crawl/session.js';
import { elevatorFloor } from '../../src/elevator/index.js';
import { loadGame } from '../../src/game/game-file.js';
import { spaceMissingHtml, spaceProfileHtml } from '../../src/replay/space-page.js';
import { FIXTURES } from '../helpers/captured.js';
import { openStore } from '../../src/store/index.js';
import { FORUM, seatsWorld, UID, writeSeatsWorld } from '../game/seats-world.js';
import { renderElevatorBBCode } from '../../src/render/elevator-bbcode.js';

const page = (html: string | Uint8Array, url = `${FORUM}home.php`, contentType = 'text/html; charset=utf-8') => ({
  bytes: typeof html === 'string' ? new Uint8Array(Buffer.from(html, 'utf8')) : html, url, fetchedAt: new Date(), status: 200, contentType,
});

/** A Discuz-like server for profile pages: reads `username` as the forum's charset does. */
function profileServer(accounts: Record<string, number>, charset: 'utf-8' | 'gbk' = 'utf-8') {
  const asked: string[] = [];
  const fetchImpl = (async (input: string | URL) => {
    const url = new URL(String(input));
    asked.push(url.toString());
    const raw = /[?&]username=([^&]*)/.exec(url.search)?.[1] ?? '';
    const bytes = Buffer.from(raw.replace(/%([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1');
    const name = charset === 'gbk' ? iconv.decode(bytes, 'gbk') : bytes.toString('utf8');
    let html = accounts[name] !== undefined ? spaceProfileHtml(name, accounts[name]) : spaceMissingHtml();
    if (charset === 'gbk') html = html.replace(/charset="?utf-8"?/gi, 'charset=gbk').replace(/charset = 'utf-8'/, "charset = 'gbk'");
    const body = charset === 'gbk' ? iconv.encode(html, 'gbk') : Buffer.from(html, 'utf8');
    return new Response(new Uint8Array(body), { status: 200, headers: { 'content-type': `text/html; charset=${charset}` } });
  }) as typeof fetch;
  return { asked, fetchImpl };
}

describe('reading a profile page', () => {
  test('the uid of the account asked for — not the viewer\'s own uid in the header', () => {
    const html = spaceProfileHtml('豆浆', 108);
    expect(html).toContain("discuz_uid = '2'"); // the captured header is 导演A's (uid 2)
    expect(readSpaceUid(page(html), '豆浆')).toEqual({ name: '豆浆', uid: 108 });
  });
  test('a profile of another name, a missing account, a login page', () => {
    expect(readSpaceUid(page(spaceProfileHtml('豆浆2', 5)), '豆浆')).toMatchObject({ uid: null, why: '个人资料页是 豆浆2 的，不是 豆浆 的' });
    expect(readSpaceUid(page(spaceMissingHtml()), '豆浆')).toEqual({ name: '豆浆', uid: null, why: '抱歉，您指定的用户空间不存在' });
    const login = fs.readFileSync(path.join(FIXTURES, 'discuz', 'public', 'login.html'));
    expect(() => readSpaceUid(page(new Uint8Array(login)), '豆浆')).toThrow(expect.objectContaining({ exitCode: 4 }));
  });
  test('a GBK forum is asked again with the name GBK-encoded', async () => {
    const server = profileServer({ 豆浆: 108 }, 'gbk');
    const get = async (url: string) => page(new Uint8Array(await (await server.fetchImpl(url)).arrayBuffer()), url, 'text/html; charset=gbk');
    expect(await lookUpSpaceUid(FORUM, '豆浆', get)).toEqual({ name: '豆浆', uid: 108 });
    expect(server.asked).toEqual([spaceUrl(FORUM, '豆浆'), spaceUrl(FORUM, '豆浆', true)]);
    expect(spaceUrl(FORUM, '豆浆', true)).toBe(`${FORUM}home.php?mod=space&username=%B6%B9%BD%AC&do=profile`);
  });
});

describe('fillUidsFromSpaces: the crawl fills the uids posts could not give', () => {
  test('the player who never posted is looked up and recorded; the elevator then links everybody', async () => {
    const world = seatsWorld();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-space-'));
    const file = writeSeatsWorld(world, dir);
    await saveSession(path.join(dir, 'game.session.json'), { cookies: [], origins: [] });
    const game = loadGame(file);
    const server = profileServer({ 豆浆: UID['豆浆'] });
    const found = await fillUidsFromSpaces(game, { delayMs: 0, fetchImpl: server.fetchImpl });
    expect(found).toEqual([{ name: '豆浆', uid: UID['豆浆'] }]);
    expect(server.asked).toEqual([spaceUrl(FORUM, '豆浆')]); // only the unknown one, only on the forum
    const opened = await openStore(game.storePath, { lock: false });
    const store = opened.data;
    await opened.close();
    expect(store.users['豆浆']).toBe(UID['豆浆']);
    expect(Object.keys(store.posts)).toHaveLength(Object.keys(world.store.posts).length); // nothing else changed
    const floor = elevatorFloor(store, game, 2);
    expect(floor.warnings).toEqual([]);
    expect(renderElevatorBBCode(floor)).toContain(`8. [url=${FORUM}forum.php?mod=viewthread&tid=4&page=1&authorid=${UID['豆浆']}]豆浆[/url]`);
    expect(await fillUidsFromSpaces(game, { delayMs: 0, fetchImpl: server.fetchImpl })).toEqual([]); // nothing left to ask
  });
});
