/**
 * Test fixtures for the tally: the captured Discuz pages run through the real parser and store
 * (parsePage → applyPage → threadPosts), the scenario each capture was played from, and the game
 * files — so every ballot the tests count carries the real Discuz markup.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseGame } from '../../src/game/game-file.js';
import type { Game } from '../../src/game/types.js';
import { threadPosts, type SlicePost } from '../../src/store/slice.js';
import type { StoreData } from '../../src/store/types.js';
import {
  FIXTURES,
  ids as readIds,
  scenario as readScenario,
  storeFromFixture,
  threadPageFiles,
  type Capture,
} from '../helpers/captured.js';

/** The capture's ids.json and its scenario, under the names the tally tests use (their locals are `ids`). */
export { readIds, readScenario };

const FETCHED_AT: Record<Capture, Date> = {
  public: new Date('2026-11-30T08:02:00Z'),
  'public-gbk': new Date('2026-11-30T08:07:00Z'),
};

const storeCache = new Map<string, StoreData>();

/**
 * A store holding the capture's desktop thread pages (query-form URLs), parsed and recorded exactly as
 * a crawl would record them.
 */
export function captureStore(capture: Capture): StoreData {
  return structuredClone(sharedStore(capture));
}

/** The same store, shared (read-only use). */
function sharedStore(capture: Capture): StoreData {
  const cached = storeCache.get(capture);
  if (cached) return cached;
  const store = storeFromFixture(capture, threadPageFiles(capture), FETCHED_AT[capture]);
  storeCache.set(capture, store);
  return store;
}

/** The parsed posts of one thread of a capture, by the scenario's thread key. */
export function capturePosts(capture: Capture, threadKey: string): SlicePost[] {
  const ids = readIds(capture);
  return threadPosts(sharedStore(capture), ids.threads[threadKey].tid);
}

/** A game file for the GBK capture, built from its scenario's users and threads (preset m107). */
export function gbkGame(extra = ''): Game {
  const sc = readScenario('public-gbk');
  const ids = readIds('public-gbk');
  const players = sc.users.filter((u) => u.role === 'player').map((u) => u.name);
  const directors = sc.users.filter((u) => u.role === 'director').map((u) => u.name);
  const yaml = [
    `forum: ${ids.base}`,
    'ruleset: m107',
    `directors: [${directors.join(', ')}]`,
    `players: [${players.join(', ')}]`,
    'days:',
    `  - {day: 1, discussion: ${ids.threads.d1talk.tid}, vote: ${ids.threads.d1vote.tid}, opens: "2026-11-25 09:00", closes: "2026-11-25 21:00"}`,
    extra,
  ].join('\n');
  return parseGame(yaml, 'gbk-game.yaml');
}

/** A game built from YAML text (for rule variants: another preset, events, a named sheriff...). */
export function gameFrom(yaml: string): Game {
  return parseGame(yaml, 'test-game.yaml');
}

/** A copy of a real parsed post with some fields changed (a variant the captures do not hold). */
export function variant(post: SlicePost, change: Partial<SlicePost> & { pid?: number }): SlicePost {
  const copy = structuredClone(post);
  Object.assign(copy, change);
  const current = { ...copy.versions[copy.versions.length - 1]?.post, ...stripSlice(copy) };
  copy.versions = [{ hash: `v-${copy.pid}-${copy.text}`, firstSeen: copy.postedAt, lastSeen: copy.postedAt, post: current }];
  return copy;
}

/** Sets a post's time ("2026-11-22 20:30:00" in +08:00). */
export function at(local: string): { at: number; postedAt: string } {
  const iso = `${local.replace(' ', 'T')}+08:00`;
  return { at: Date.parse(iso), postedAt: iso };
}

function stripSlice(p: SlicePost) {
  const { at: _a, url: _u, versions: _v, missing: _m, ...post } = p;
  return post;
}

/** The public game file with its text changed (another preset, more events, a named sheriff...). */
export function publicGameWith(edit: (yaml: string) => string): Game {
  const file = path.join(FIXTURES, 'games', 'public.yaml');
  return parseGame(edit(fs.readFileSync(file, 'utf8')), file);
}

/** A PostsOf for the public capture with one thread's posts replaced. */
export function publicPostsWith(threadKey: string, posts: SlicePost[]): (tid: number) => SlicePost[] {
  const ids = readIds('public');
  const store = sharedStore('public');
  const tid = ids.threads[threadKey].tid;
  return (t) => (t === tid ? posts : threadPosts(store, t));
}
