/**
 * Test helper for the report tests: the public captured game (fixtures/discuz/public) recorded into a
 * store by the real parser and store code, its game file, and the facts ids.json and the scenario
 * give, so expectations are derived rather than copied.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { loadGame } from '../../src/game/game-file.js';
import type { Game } from '../../src/game/types.js';
import { threadPosts, type SlicePost } from '../../src/store/slice.js';
import type { StoreData } from '../../src/store/types.js';
import { storeFromFixture, FIXTURES } from '../auction/synth-store.js';

export { FIXTURES };

export interface IdsPost {
  tid: number;
  pid: number;
  floor: number;
  author: string;
  dateline: number;
  threadKey: string;
}

export interface ScenarioPost {
  id: string;
  author: string;
  at: string;
  body: string;
}

/** fixtures/discuz/public/ids.json */
export function publicIds(): { users: Record<string, number>; threads: Record<string, { tid: number }>; posts: Record<string, IdsPost> } {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, 'discuz', 'public', 'ids.json'), 'utf8'));
}

/** fixtures/scenarios/public.yaml threads by key. */
export function publicScenario(): Record<string, ScenarioPost[]> {
  const doc = parse(fs.readFileSync(path.join(FIXTURES, 'scenarios', 'public.yaml'), 'utf8')) as { threads: Array<{ key: string; posts: ScenarioPost[] }> };
  return Object.fromEntries(doc.threads.map((t) => [t.key, t.posts]));
}

/** The pid of a scenario post id. */
export function pidOf(id: string): number {
  const p = publicIds().posts[id];
  if (!p) throw new Error(`${id} not in ids.json`);
  return p.pid;
}

/** The public game file (fixtures/games/public.yaml). */
export function publicGame(): Game {
  return loadGame(path.join(FIXTURES, 'games', 'public.yaml'));
}

let cached: StoreData | null = null;
/** Every viewthread page of the public capture recorded into one store. */
export function publicStore(): StoreData {
  if (!cached) {
    const files = fs.readdirSync(path.join(FIXTURES, 'discuz', 'public')).filter((f) => /^viewthread-t\d+-p\d+\.html$/.test(f));
    cached = storeFromFixture('public', files);
  }
  return cached;
}

/** Posts by thread, as the CLI hands them to the report. */
export function postsByThread(store: StoreData, tids: number[]): Map<number, SlicePost[]> {
  return new Map(tids.map((t) => [t, threadPosts(store, t)]));
}
