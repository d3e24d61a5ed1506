/**
 * Test helper for the report tests: the public captured game (fixtures/discuz/public) recorded into a
 * store by the real parser and store code, and the facts ids.json and the scenario give, so
 * expectations are derived rather than copied (its game file: publicGame in test/helpers/captured.ts).
 */
import { threadPosts, type SlicePost } from '../../src/store/slice.js';
import type { StoreData } from '../../src/store/types.js';
import { ids, scenario, storeFromFixture, threadPageFiles, type Ids, type ScenarioPost } from '../helpers/captured.js';

/** fixtures/discuz/public/ids.json */
export function publicIds(): Ids {
  return ids('public');
}

/** fixtures/scenarios/public.yaml threads by key. */
export function publicScenario(): Record<string, ScenarioPost[]> {
  return Object.fromEntries(scenario('public').threads.map((t) => [t.key, t.posts]));
}

/** The pid of a scenario post id. */
export function pidOf(id: string): number {
  const p = publicIds().posts[id];
  if (!p) throw new Error(`${id} not in ids.json`);
  return p.pid;
}

let cached: StoreData | null = null;
/** Every viewthread page of the public capture recorded into one store. */
export function publicStore(): StoreData {
  cached ??= storeFromFixture('public', threadPageFiles('public'));
  return cached;
}

/** Posts by thread, as the CLI hands them to the report. */
export function postsByThread(store: StoreData, tids: number[]): Map<number, SlicePost[]> {
  return new Map(tids.map((t) => [t, threadPosts(store, t)]));
}
