/** Shared loaders for the captured Discuz fixtures (manifest.json, ids.json, site.json, scenarios). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { FetchedPage } from '../../src/discuz/types.js';

export const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures');
export const DISCUZ = path.join(FIXTURES, 'discuz');

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
export interface Ids {
  base: string;
  users: Record<string, number>;
  threads: Record<string, { tid: number; title: string; author: string; first_pid: number }>;
  posts: Record<string, IdsPost>;
  relative: { pid: number; at: string; key: string }[];
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
  site: { charset: string; ppp: number; jammer: boolean; rewrite: boolean; timezone: string };
  threads: { key: string; title: string; author: string; at: string; body: string; posts: ScenarioPost[] }[];
}

export function json<T>(...p: string[]): T {
  return JSON.parse(readFileSync(path.join(...p), 'utf8')) as T;
}
export const manifest = (dir: string) => json<ManifestEntry[]>(DISCUZ, dir, 'manifest.json');
export const ids = (dir: string) => json<Ids>(DISCUZ, dir, 'ids.json');
export const site = (dir: string) => json<Record<string, unknown> & { ppp: number; mobile_api_ppp?: number }>(DISCUZ, dir, 'site.json');
export function scenario(name: 'public' | 'public-gbk'): Scenario {
  return parseYaml(readFileSync(path.join(FIXTURES, 'scenarios', `${name}.yaml`), 'utf8')) as Scenario;
}

/**
 * The capture time of a fixture directory: Discuz puts the server's TIMESTAMP into the footer's
 * `rand=` script URLs of every desktop page (the footer itself shows "GMT+8, … 16:02", minutes only).
 */
export function captureTime(dir: string, anyDesktopPage: string): Date {
  const html = readFileSync(path.join(DISCUZ, dir, anyDesktopPage), 'latin1');
  const m = /rand=(\d{9,})/.exec(html);
  if (!m) throw new Error(`no rand= timestamp in ${anyDesktopPage}`);
  return new Date(+m[1] * 1000);
}

/** A fixture page as the crawler would hand it over (URL absolute against the site base). */
export function fetched(dir: string, e: ManifestEntry, fetchedAt: Date, bytes?: Uint8Array, base?: string): FetchedPage {
  return {
    bytes: bytes ?? readFileSync(path.join(DISCUZ, dir, e.file)),
    url: new URL(e.url, base ?? ids(dir).base).href,
    fetchedAt,
    status: e.status,
    contentType: e.content_type,
  };
}

export function entry(dir: string, file: string): ManifestEntry {
  const e = manifest(dir).find((x) => x.file === file);
  if (!e) throw new Error(`${file} not in ${dir}/manifest.json`);
  return e;
}

/** Thread posts of ids.json in floor order. */
export function threadPosts(i: Ids, tid: number): IdsPost[] {
  return Object.values(i.posts)
    .filter((p) => p.tid === tid)
    .sort((a, b) => a.floor - b.floor);
}

/** The ids.json key of each post → its scenario post (thread first posts are "<key>#0"). */
export function scenarioById(sc: Scenario): Map<string, { body: string; edit?: { body: string }; quote?: string; reply?: string; title?: string }> {
  const m = new Map<string, { body: string; edit?: { body: string }; quote?: string; reply?: string }>();
  for (const t of sc.threads) {
    m.set(`${t.key}#0`, { body: t.body });
    for (const p of t.posts) m.set(p.id, p);
  }
  return m;
}

/** What the author's own text should read as, from the scenario BBCode (tags dropped, reply header dropped). */
export function expectedText(body: string): string {
  return body
    .replace(/^\[b\]回复 .*?\[\/b\]/s, '')
    .replace(/\[\/?(?:color|size|font|b|i|u|s)(?:=[^\]]*)?\]/g, '')
    .replace(/\[url=[^\]]*\]|\[\/url\]/g, '')
    .trim();
}

/** White space removed: for comparing text across line-break conventions. */
export const squash = (s: string) => s.replace(/\s+/g, '');
