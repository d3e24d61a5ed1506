/**
 * Test helper for the reliability tests: a small game played on pages rendered from the REAL captured
 * Discuz markup (src/replay/synth.ts), with any player names and post bodies — hostile ones included —
 * parsed by the real parser and recorded by the real store code, exactly as a crawl would.
 *
 * Layout (m107, like fixtures/games/public.yaml): process thread 6; day 1 discussion 2 / vote 3
 * (2026-11-20 10:00 – 2026-11-21 21:00, +08:00); day 2 discussion 4 / vote 5.
 * `html` hooks let a test change a rendered page before it is parsed (inject a signature, a [quote]
 * typed by the player...), always on the real markup.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseGame } from '../../src/game/game-file.js';
import type { Game } from '../../src/game/types.js';
import { familyBase, familyContentType, renderThreadPageHtml, threadPagePath, type SynthPost, type SynthThread } from '../../src/replay/synth.js';
import { emptyStore } from '../../src/store/index.js';
import type { StoreData } from '../../src/store/types.js';
import { recordFetched } from '../helpers/captured.js';

export const FORUM = familyBase('utf8');
export const DIRECTOR = '导演A';
export const TID = { process: 6, d1talk: 2, d1vote: 3, d2talk: 4, d2vote: 5 } as const;

/** A post of the world: author by name (uids are assigned), time as forum-local "YYYY-MM-DD HH:mm:ss". */
export interface WorldPost {
  pid: number;
  author: string;
  at: string;
  body: string;
  quote?: number;
}

export interface WorldSpec {
  players: string[];
  /** Posts by thread id; each thread gets a director's opening post first. */
  threads: Partial<Record<number, WorldPost[]>>;
  /** Change a rendered page's HTML before it is parsed. */
  html?: (tid: number, page: number, html: string) => string;
}

export interface World {
  game: Game;
  store: StoreData;
  /** Game file source (YAML) and the uid of every name. */
  yaml: string;
  uids: Record<string, number>;
}

/** The game file text for `players` (names JSON-quoted: YAML double-quoted strings). */
export function gameYaml(players: string[], forum = FORUM): string {
  const q = (s: string) => JSON.stringify(s);
  return [
    `forum: ${forum}`,
    'timezone: Asia/Shanghai',
    'ruleset: m107',
    `directors: [${q(DIRECTOR)}]`,
    `players: [${players.map(q).join(', ')}]`,
    `process: ${TID.process}`,
    'days:',
    `  - {day: 1, discussion: ${TID.d1talk}, vote: ${TID.d1vote}, opens: "2026-11-20 10:00", closes: "2026-11-21 21:00"}`,
    `  - {day: 2, discussion: ${TID.d2talk}, vote: ${TID.d2vote}, opens: "2026-11-22 10:00", closes: "2026-11-22 21:00"}`,
    '',
  ].join('\n');
}

const OPENING: Record<number, string> = { 6: '[M901]进程帖', 2: '[M901]第一日讨论', 3: '[M901]第一日投票', 4: '[M901]第二日讨论', 5: '[M901]第二日投票' };
const OPEN_AT: Record<number, string> = { 6: '2026-11-20 09:00:00', 2: '2026-11-20 10:00:00', 3: '2026-11-20 10:00:00', 4: '2026-11-22 10:00:00', 5: '2026-11-22 10:00:00' };

/** Builds the world: renders, parses and records every page of every thread. */
export function buildWorld(spec: WorldSpec, file = path.join(os.tmpdir(), 'bansha-world', 'game.yaml')): World {
  const uids: Record<string, number> = { [DIRECTOR]: 2 };
  spec.players.forEach((p, i) => (uids[p] = 100 + i));
  const uid = (name: string) => uids[name] ?? (uids[name] = 500 + Object.keys(uids).length);
  const yaml = gameYaml(spec.players);
  const game = parseGame(yaml, file);
  const store = emptyStore(FORUM);
  let opener = 90_000;
  for (const tid of [TID.process, TID.d1talk, TID.d1vote, TID.d2talk, TID.d2vote]) {
    const posts: SynthPost[] = [
      { pid: opener++, author: DIRECTOR, uid: 2, at: OPEN_AT[tid], body: `${OPENING[tid]}：请按格式发言。` },
      ...(spec.threads[tid] ?? []).map((p) => ({ pid: p.pid, author: p.author, uid: uid(p.author), at: p.at, body: p.body, quote: p.quote })),
    ];
    const thread: SynthThread = { family: 'utf8', tid, title: OPENING[tid], posts, base: FORUM };
    const pages = Math.max(1, Math.ceil(posts.length / 10));
    for (let page = 1; page <= pages; page++) {
      let html = renderThreadPageHtml(thread, page);
      if (spec.html) html = spec.html(tid, page, html);
      recordFetched(store, {
        bytes: new Uint8Array(Buffer.from(html, 'utf8')),
        url: FORUM + threadPagePath('utf8', tid, page),
        fetchedAt: new Date('2026-11-23T00:00:00Z'),
        status: 200,
        contentType: familyContentType('utf8'),
      });
    }
  }
  return { game, store, yaml, uids };
}

/** Writes the world to `dir` as a game file and its store (what the CLI reads); returns the game file. */
export function writeWorld(world: World, dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'game.yaml');
  fs.writeFileSync(file, world.yaml);
  fs.writeFileSync(path.join(dir, 'game.store.json'), JSON.stringify(world.store));
  return file;
}

/** Injects `inner` into post `pid`'s message, right at its start (real markup: td.t_f#postmessage_PID). */
export function injectIntoMessage(html: string, pid: number, inner: string): string {
  const open = `id="postmessage_${pid}">`;
  const at = html.indexOf(open);
  if (at < 0) throw new Error(`post ${pid} has no message on this page`);
  return html.slice(0, at + open.length) + inner + html.slice(at + open.length);
}

/** Adds a signature block (div.sign, as Discuz's viewthread_node.htm renders it) to post `pid`. */
export function injectSignature(html: string, pid: number, signatureHtml: string): string {
  const anchor = `<div id="comment_${pid}" class="cm">`;
  const at = html.indexOf(anchor);
  if (at < 0) throw new Error(`post ${pid} has no comment anchor on this page`);
  return html.slice(0, at) + `<div class="sign" style="max-height:100px;maxHeightIE:100px;">${signatureHtml}</div>\n` + html.slice(at);
}
