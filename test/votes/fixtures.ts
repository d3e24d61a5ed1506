/**
 * Test fixtures for the tally: the captured Discuz pages run through the real parser and store
 * (parsePage → applyPage → threadPosts), the scenario each capture was played from, and the game
 * files — so every ballot the tests count carries the real Discuz markup.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { parsePage } from '../../src/discuz/parse-page.js';
import { parseGame } from '../../src/game/game-file.js';
import type { Game } from '../../src/game/types.js';
import { emptyStore } from '../../src/store/store-file.js';
import { applyPage } from '../../src/store/record.js';
import { threadPosts, type SlicePost } from '../../src/store/slice.js';
import type { StoreData } from '../../src/store/types.js';

export const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures');

interface ManifestEntry {
  file: string;
  url: string;
  thread: string;
  page: number;
}

export interface IdsPost {
  tid: number;
  pid: number;
  floor: number;
  author: string;
  dateline: number;
  threadKey: string;
}

export interface Ids {
  base: string;
  users: Record<string, number>;
  threads: Record<string, { tid: number; title: string }>;
  posts: Record<string, IdsPost>;
}

export interface ScenarioPost {
  id: string;
  author: string;
  at: string;
  body: string;
  quote?: string;
  reply?: string;
  edit?: { at: string; body: string };
}

export interface Scenario {
  users: Array<{ name: string; role: string }>;
  threads: Array<{ key: string; title: string; author: string; at: string; body: string; posts: ScenarioPost[] }>;
}

export function readIds(capture: 'public' | 'public-gbk'): Ids {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, 'discuz', capture, 'ids.json'), 'utf8')) as Ids;
}

export function readScenario(capture: 'public' | 'public-gbk'): Scenario {
  return parse(fs.readFileSync(path.join(FIXTURES, 'scenarios', `${capture}.yaml`), 'utf8')) as Scenario;
}

const FETCHED_AT: Record<string, Date> = {
  public: new Date('2026-11-30T08:02:00Z'),
  'public-gbk': new Date('2026-11-30T08:07:00Z'),
};

const storeCache = new Map<string, StoreData>();

/**
 * A store holding the capture's desktop thread pages (query-form URLs), parsed and recorded exactly as
 * a crawl would record them.
 */
export function captureStore(capture: 'public' | 'public-gbk'): StoreData {
  return structuredClone(sharedStore(capture));
}

/** The same store, shared (read-only use). */
function sharedStore(capture: 'public' | 'public-gbk'): StoreData {
  const cached = storeCache.get(capture);
  if (cached) return cached;
  const dir = path.join(FIXTURES, 'discuz', capture);
  const ids = readIds(capture);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as ManifestEntry[];
  const store = emptyStore(ids.base);
  for (const e of manifest) {
    if (!e.file.startsWith('viewthread-t')) continue;
    const fetched = { bytes: fs.readFileSync(path.join(dir, e.file)), url: ids.base + e.url, fetchedAt: FETCHED_AT[capture], status: 200 };
    applyPage(store, fetched, parsePage(fetched));
  }
  storeCache.set(capture, store);
  return store;
}

/** The parsed posts of one thread of a capture, by the scenario's thread key. */
export function capturePosts(capture: 'public' | 'public-gbk', threadKey: string): SlicePost[] {
  const ids = readIds(capture);
  return threadPosts(sharedStore(capture), ids.threads[threadKey].tid);
}

/** The public captured game (fixtures/games/public.yaml). */
export function publicGame(): Game {
  const file = path.join(FIXTURES, 'games', 'public.yaml');
  return parseGame(fs.readFileSync(file, 'utf8'), file);
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

/** The scenario post with this id, and its pid/floor from ids.json. */
export function scenarioPost(capture: 'public' | 'public-gbk', id: string): ScenarioPost & IdsPost {
  const sc = readScenario(capture);
  const ids = readIds(capture);
  for (const t of sc.threads) {
    const p = t.posts.find((x) => x.id === id);
    if (p) return { ...p, ...ids.posts[id] };
  }
  throw new Error(`no scenario post ${id}`);
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

/** The real posts of a capture thread with some replaced, dropped or added (by pid). */
export function editedThread(capture: 'public' | 'public-gbk', threadKey: string, edit: (posts: SlicePost[]) => SlicePost[]): SlicePost[] {
  return edit(capturePosts(capture, threadKey));
}

/** A PostsOf for the public capture with one thread's posts replaced. */
export function publicPostsWith(threadKey: string, posts: SlicePost[]): (tid: number) => SlicePost[] {
  const ids = readIds('public');
  const store = sharedStore('public');
  const tid = ids.threads[threadKey].tid;
  return (t) => (t === tid ? posts : threadPosts(store, t));
}
