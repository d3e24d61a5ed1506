/**
 * `bansha demo --live` (issue 33): the bundled public game's day 2 lived again. Its vote thread and its
 * process thread are read from the captured pages (fixtures/discuz/public, parsed by the real parser)
 * and served by the replay server as synthetic pages (src/replay/synth.ts, the captured markup) holding
 * only the posts made by the forum time of a clock that runs fast — so the ballots, the change, the
 * acceleration requests arrive in order over a few minutes, and after the close one late ballot (a
 * change posted at 21:00:40, which the count rejects as late). The cockpit (src/cockpit) watches it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { runCockpit, type RunningCockpit } from '../cockpit/index.js';
import { parsePage } from '../discuz/parse-page.js';
import { loadGame } from '../game/game-file.js';
import { findDay } from '../game/roster.js';
import { packagePath } from '../paths.js';
import { startReplayServer, synthPageSource } from '../replay/server.js';
import { forumTimeMs, type SynthPost, type SynthThread } from '../replay/synth.js';
import { formLogin } from './form-login.js';

/** The threads of the public game replayed live: day 2's vote thread and the process thread. */
export interface LiveGame {
  /** The threads as captured (every post). */
  threads: SynthThread[];
  /** The threads as the forum shows them at forum time `at` (epoch ms): the posts made by then. */
  at(at: number): SynthThread[];
}

/** A captured thread's posts, in floor order, from its pages in `site` (viewthread-t<tid>-p<n>.html). */
export function capturedThread(site: string, tid: number): SynthThread {
  const posts: SynthPost[] = [];
  let title = '';
  for (let page = 1; fs.existsSync(path.join(site, `viewthread-t${tid}-p${page}.html`)); page++) {
    const file = path.join(site, `viewthread-t${tid}-p${page}.html`);
    const parsed = parsePage({ bytes: fs.readFileSync(file), url: `http://127.0.0.1:8081/forum.php?mod=viewthread&tid=${tid}&page=${page}`, fetchedAt: new Date('2026-11-23T00:00:00Z') });
    title ||= parsed.page.title ?? '';
    for (const p of parsed.posts) {
      if (p.pid === null) throw new Error(`${file}: a post without a pid`);
      posts.push({
        pid: p.pid, author: p.author, uid: p.authorId ?? 0, at: Date.parse(p.postedAt), body: p.text,
        ...(p.quotes[0] ?? p.replyTo ? { quote: p.quotes[0] ?? p.replyTo ?? undefined } : {}),
        ...(p.edited ? { edited: { by: p.edited.by, at: Date.parse(p.edited.at) } } : {}),
      });
    }
  }
  if (!posts.length) throw new Error(`no captured page of thread ${tid} in ${site}`);
  return { family: 'utf8', tid, title, posts };
}

/**
 * The live day: the vote thread `voteTid` and the process thread `processTid` of the captured `site`, and
 * one late ballot after the close `closes` (the last voter's change, 40 s after it, quoting their ballot).
 */
export function liveGame(site: string, voteTid: number, processTid: number, closes: number): LiveGame {
  const vote = capturedThread(site, voteTid);
  const processThread = capturedThread(site, processTid);
  const last = vote.posts.at(-1)!;
  const topPid = Math.max(...[vote, processThread].flatMap((t) => t.posts.map((p) => p.pid)));
  const late: SynthPost = { pid: topPid + 1, author: last.author, uid: last.uid, at: closes + 40_000, body: '改票对象：花卷\n改票理由：关门前最后一刻改票', quote: last.pid };
  vote.posts.push(late);
  const threads = [vote, processThread];
  return {
    threads,
    // The opening post is always there (the thread exists); replies by their time.
    at: (at) => threads.map((t) => ({ ...t, posts: t.posts.filter((p, i) => i === 0 || forumTimeMs(p.at) <= at) })),
  };
}

/** The demo director's account on the replay server (the captured site's director). */
const DEMO_USER = { username: '导演A', password: 'lab123456' };

export interface LiveDemoOptions {
  /** The folder the game file, store and rulings go in (created; its earlier files replaced). */
  out: string;
  /** How long the replay of the day takes, real minutes (default 3). */
  minutes?: number;
  port?: number;
  log?: (line: string) => void;
}

export interface LiveDemo {
  running: RunningCockpit;
  /** The replay server's forum address. */
  forum: string;
  /** Forum ms per real ms. */
  rate: number;
  stop(): Promise<void>;
}

/**
 * Starts the live demo: the replay server holding the captured public game with day 2's vote and process
 * threads growing as a fast forum clock runs from 10:50 to two minutes past the 21:00 close, a game file
 * pointing at it, a session (the replay's login form), and the cockpit watching day 2 (a round every 2 s).
 */
export async function startLiveDemo(o: LiveDemoOptions): Promise<LiveDemo> {
  const site = packagePath('fixtures', 'discuz', 'public');
  const template = fs.readFileSync(packagePath('fixtures', 'games', 'public.yaml'), 'utf8');
  fs.mkdirSync(o.out, { recursive: true });
  for (const f of fs.readdirSync(o.out)) if (/^game\./.test(f)) fs.rmSync(path.join(o.out, f), { recursive: true, force: true });
  const gameFile = path.join(o.out, 'game.yaml');
  // The day's times, from the bundled game file before the forum is known.
  fs.writeFileSync(gameFile, template);
  const shape = loadGame(gameFile);
  const day = findDay(shape, 2);
  if (!day.vote || !shape.process) throw new Error('the public game has no day-2 vote thread or process thread');
  const start = day.closes - (10 * 60 + 10) * 60_000;
  const end = day.closes + 2 * 60_000;
  const rate = (end - start) / ((o.minutes ?? 3) * 60_000);
  const began = Date.now();
  const clock = { now: () => Math.min(end + (Date.now() - began), start + (Date.now() - began) * rate) };
  const live = liveGame(site, day.vote.tid, shape.process.tid, day.closes);
  const server = await startReplayServer({ root: site, users: { [DEMO_USER.username]: DEMO_USER.password }, pages: synthPageSource(() => live.at(clock.now())) });
  try {
    fs.writeFileSync(gameFile, template.replace(/^forum: .*$/m, `forum: ${server.url}`));
    const game = loadGame(gameFile);
    await formLogin(game.forum, game.sessionPath, DEMO_USER);
    const running = await runCockpit({ game, day: 2, clock, rate, intervalMs: 2000, port: o.port, crawl: { delayMs: 20, concurrency: 4, progress: false }, log: o.log });
    return {
      running, forum: server.url, rate,
      stop: async () => {
        await running.stop();
        await server.close();
      },
    };
  } catch (err) {
    await server.close();
    throw err;
  }
}
