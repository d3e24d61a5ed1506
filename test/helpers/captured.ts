/**
 * The captured Discuz fixtures as the tests read them: the fixture folders, each capture's
 * manifest.json / ids.json / site.json and the scenario it was played from, a captured page as the
 * crawler would hand it over (FetchedPage), and captured pages parsed by the real parser and recorded
 * by the real store code (parsePage → applyPage), exactly as a crawl records them; and the public
 * capture's game file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { parsePage } from '../../src/discuz/parse-page.js';
import { loadGame } from '../../src/game/game-file.js';
import type { Game } from '../../src/game/types.js';
import type { FetchedPage } from '../../src/discuz/types.js';
import { applyPage } from '../../src/store/record.js';
import { emptyStore } from '../../src/store/store-file.js';
import { demoSiteDir } from '../../src/demo/synth-games.js';
import type { StoreData } from '../../src/store/types.js';

/** fixtures/ at the repository root. */
export const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures');
/** fixtures/discuz: one folder per capture (public, public-gbk, public-defense, …). */
export const DISCUZ = path.join(FIXTURES, 'discuz');

/** The captures that have a scenario (fixtures/scenarios/<name>.yaml). */
export type Capture = 'public' | 'public-gbk';

/** One row of a capture's manifest.json: a saved file and the request that fetched it. */
export interface ManifestEntry {
  file: string;
  url: string;
  status: number;
  content_type?: string;
  charset?: string;
  thread?: string | null;
  page?: number | null;
  as?: string;
  notes?: string;
}
/** A post of ids.json, keyed there by its scenario id. */
export interface IdsPost {
  tid: number;
  pid: number;
  floor: number;
  author: string;
  authorid: number;
  dateline: number;
  threadKey: string;
  quote?: string;
  reply?: string;
  edited?: { at: string; marker: string };
  first?: boolean;
}
/** A capture's ids.json: the site base and the ids Discuz gave the scenario's users, threads and posts. */
export interface Ids {
  base: string;
  users: Record<string, number>;
  threads: Record<string, { tid: number; title: string; author: string; first_pid: number }>;
  posts: Record<string, IdsPost>;
  relative: { pid: number; at: string; key: string }[];
}
/** A reply of a scenario thread. */
export interface ScenarioPost {
  id: string;
  author: string;
  at: string;
  body: string;
  quote?: string;
  reply?: string;
  edit?: { at: string; body: string };
}
/** fixtures/scenarios/<capture>.yaml: what was played on the forum to make the capture. */
export interface Scenario {
  site: { charset: string; ppp: number; jammer: boolean; rewrite: boolean; timezone: string };
  users: Array<{ name: string; role: string }>;
  threads: Array<{ key: string; title: string; author: string; at: string; body: string; posts: ScenarioPost[] }>;
}

/** A JSON file, parsed. */
function json<T>(...p: string[]): T {
  return JSON.parse(fs.readFileSync(path.join(...p), 'utf8')) as T;
}
/** The manifest.json of fixtures/discuz/<dir>. */
export const manifest = (dir: string) => json<ManifestEntry[]>(DISCUZ, dir, 'manifest.json');
/** The ids.json of fixtures/discuz/<dir>. */
export const ids = (dir: string) => json<Ids>(DISCUZ, dir, 'ids.json');
/** The site.json of fixtures/discuz/<dir>. */
export const site = (dir: string) => json<Record<string, unknown> & { ppp: number; mobile_api_ppp?: number }>(DISCUZ, dir, 'site.json');
/** The scenario a capture was played from. */
export function scenario(name: Capture): Scenario {
  return parseYaml(fs.readFileSync(path.join(FIXTURES, 'scenarios', `${name}.yaml`), 'utf8')) as Scenario;
}

/** The posts of thread `tid` in ids.json, in floor order. */
export function idsThreadPosts(i: Ids, tid: number): IdsPost[] {
  return Object.values(i.posts)
    .filter((p) => p.tid === tid)
    .sort((a, b) => a.floor - b.floor);
}

/** The manifest row of a saved file. */
export function entry(dir: string, file: string): ManifestEntry {
  const e = manifest(dir).find((x) => x.file === file);
  if (!e) throw new Error(`${file} not in ${dir}/manifest.json`);
  return e;
}

/** A fixture page as the crawler would hand it over: plain bytes (a copy: safe to mutate), the URL absolute against the site base. */
export function fetched(dir: string, e: ManifestEntry, fetchedAt: Date, bytes?: Uint8Array, base?: string): FetchedPage {
  return {
    bytes: bytes ?? new Uint8Array(fs.readFileSync(path.join(DISCUZ, dir, e.file))),
    url: new URL(e.url, base ?? ids(dir).base).href,
    fetchedAt,
    status: e.status,
    contentType: e.content_type,
  };
}

/** Parses a fetched page with the real parser and records it into `store` as a crawl does. */
export function recordFetched(store: StoreData, page: FetchedPage): void {
  applyPage(store, page, parsePage(page));
}

/** A fresh store (forum: the capture's base) holding the given captured files of fixtures/discuz/<dir>, fetched at `fetchedAt`. */
export function storeFromFixture(dir: string, files: string[], fetchedAt = new Date('2026-11-23T00:00:00Z')): StoreData {
  const rows = manifest(dir);
  const base = ids(dir).base;
  const store = emptyStore(base);
  for (const file of files) {
    const e = rows.find((x) => x.file === file);
    if (!e) throw new Error(`${file} is not in ${dir}/manifest.json`);
    recordFetched(store, fetched(dir, e, fetchedAt, undefined, base));
  }
  return store;
}

/** The saved desktop thread pages (viewthread-t<tid>-p<page>.html) of a capture, in manifest order. */
export function threadPageFiles(dir: string): string[] {
  return manifest(dir).map((e) => e.file).filter((f) => /^viewthread-t\d+-p\d+\.html$/.test(f));
}

/** The game file of the public capture (fixtures/games/public.yaml). */
export function publicGame(): Game {
  return loadGame(path.join(FIXTURES, 'games', 'public.yaml'));
}

/** The committed demo site's thread pages (fixtures/discuz/demo-<name>), parsed and stored as a crawl would. */
export function demoStore(name: 'wuhui' | '120b'): StoreData {
  const dir = demoSiteDir(name);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Array<{ file: string; url: string; content_type: string }>;
  const data = emptyStore('http://127.0.0.1:8081/');
  for (const m of manifest.filter((e) => e.file.startsWith('viewthread-'))) {
    const page = { bytes: new Uint8Array(fs.readFileSync(path.join(dir, m.file))), url: data.forum + m.url, fetchedAt: new Date('2027-01-01T00:00:00Z'), status: 200, contentType: m.content_type };
    applyPage(data, page, parsePage(page));
  }
  return data;
}
