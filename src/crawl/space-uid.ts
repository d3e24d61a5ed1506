/**
 * A forum uid from the member's profile page (issue 14: uids up front, so the elevator links a player who
 * has not posted yet): `home.php?mod=space&username=NAME&do=profile`, fetched with the session through
 * the crawler's HTTP client (same host scope, same cookies). The page names the member and the uid in
 * its profile heading (Discuz X3.5 space_profile_body.htm: `.u_profile h2.mbn` → "NAME (UID: N)"); the
 * uid is taken only when that heading names exactly the account asked for — the header's links hold the
 * viewer's own uid, never read. A GBK forum reads the username in the query as GBK bytes: when the answer
 * is a GBK page, the name is asked again GBK-encoded. No such account → null with the forum's message; a
 * login or no-permission page → exit 4; a challenge or server error → exit 5.
 */
import { selectOne } from 'css-select';
import { parseDocument } from 'htmlparser2';
import { innerText } from 'domutils';
import iconv from 'iconv-lite';
import { UserError } from '../errors.js';
import { decodeBody } from '../discuz/decode.js';
import { parsePage } from '../discuz/parse-page.js';
import type { FetchedPage } from '../discuz/types.js';
import { unknownUids, withKnownUids } from '../game/roster.js';
import type { Game } from '../game/types.js';
import { openStore } from '../store/index.js';
import { HostScope, httpGet } from './http.js';
import { CookieJar, readSession } from './session.js';
import { t } from '../i18n/index.js';

/** What the profile page says about one name. */
export type SpaceUid = { name: string; uid: number } | { name: string; uid: null; why: string };

/** The profile URL of `name`; `gbk` percent-encodes it as a GBK forum expects. */
export function spaceUrl(forum: string, name: string, gbk = false): string {
  const q = gbk ? [...iconv.encode(name, 'gbk')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('') : encodeURIComponent(name);
  return `${forum}home.php?mod=space&username=${q}&do=profile`;
}

const HEADING = /^([\s\S]*?)\s*\(UID:\s*(\d+)/;

/** Reads the uid of `name` from a fetched profile page (see the module comment for what is refused). */
export function readSpaceUid(fetched: FetchedPage, name: string): SpaceUid {
  const page = parsePage(fetched).page;
  if (page.kind === 'login' || page.kind === 'no-permission') {
    throw new UserError(t('err.profileLogin', name, page.message ?? null), 4);
  }
  if (page.kind === 'challenge' || page.kind === 'server-error') throw new UserError(t('err.profileAnswered', name, page.kind, page.message ?? ''), 5);
  if (page.kind === 'not-found') return { name, uid: null, why: page.message ?? '没有这个用户' };
  const doc = parseDocument(decodeBody(fetched.bytes, fetched.contentType, fetched.url).text);
  const heading = selectOne('.u_profile h2.mbn', doc);
  const m = heading ? HEADING.exec(innerText(heading).trim()) : null;
  if (!m) return { name, uid: null, why: `个人资料页没有“(UID: N)”标题（${page.message ?? page.kind}）` };
  if (m[1].trim() !== name) return { name, uid: null, why: `个人资料页是 ${m[1].trim()} 的，不是 ${name} 的` };
  return { name, uid: Number(m[2]) };
}

/** Looks `name` up: a UTF-8 query first, then GBK when the forum answered in GBK. */
export async function lookUpSpaceUid(forum: string, name: string, get: (url: string) => Promise<FetchedPage>): Promise<SpaceUid> {
  const first = await get(spaceUrl(forum, name));
  const gbk = decodeBody(first.bytes, first.contentType, first.url).charset === 'gb18030';
  if (!gbk || /^[\x00-\x7f]*$/.test(name)) return readSpaceUid(first, name);
  return readSpaceUid(await get(spaceUrl(forum, name, true)), name);
}

export interface FillUidsOptions {
  /** Minimum ms between requests (the crawl's politeness; default 1000). */
  delayMs?: number;
  timeoutMs?: number;
  /** Largest response accepted, bytes (the crawl's --max-response-mb). */
  maxResponseBytes?: number;
  /** Injected fetch (tests). */
  fetchImpl?: typeof fetch;
}

/**
 * For every account of the game whose uid neither the game file nor the store knows, asks its profile
 * page and records what it finds in the store's users (name → uid, as crawled posts do), under the
 * store's lock. Returns what each lookup said, in seat order.
 */
export async function fillUidsFromSpaces(game: Game, opts: FillUidsOptions = {}): Promise<SpaceUid[]> {
  const reading = await openStore(game.storePath, { forum: game.forum, lock: false, threads: [] }); // the index holds the users
  const names = unknownUids(withKnownUids(game, reading.data.users));
  await reading.close();
  if (names.length === 0) return [];
  const jar = new CookieJar((await readSession(game.sessionPath, game.file)).cookies);
  const scope = new HostScope(game.forum);
  let last = 0;
  const get = async (url: string): Promise<FetchedPage> => {
    const wait = last + (opts.delayMs ?? 1000) - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    last = Date.now();
    return httpGet(url, { jar, scope, timeoutMs: opts.timeoutMs ?? 30_000, fetchImpl: opts.fetchImpl, maxBytes: opts.maxResponseBytes });
  };
  const found: SpaceUid[] = [];
  for (const name of names) found.push(await lookUpSpaceUid(game.forum, name, get));
  if (found.some((f) => f.uid !== null)) {
    const store = await openStore(game.storePath, { forum: game.forum, threads: [] });
    try {
      for (const f of found) if (f.uid !== null) store.data.users[f.name] = f.uid;
      await store.write();
    } finally {
      await store.close();
    }
  }
  return found;
}
