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
import { parsePage } from '../discuz/parse-page.js';
import { forumTimeMs, type SynthPost, type SynthThread } from '../replay/synth.js';

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
