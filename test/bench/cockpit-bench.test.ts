/**
 * The cockpit bench (src/bench/cockpit-bench.ts) measures what it says: after each round's new posts
 * reach the store through the crawler's write path, the resident cockpit's redrawn view holds every one
 * of them (the day's posts per player grow by exactly the discussion's new posts) and its count reads every
 * new post of the vote thread.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCockpitBench } from '../../src/bench/cockpit-bench.js';
import { gameOf, runPipeline } from '../../src/bench/pipeline.js';
import { synthGame } from '../../src/bench/synth-game.js';
import { Cockpit, type CockpitView } from '../../src/cockpit/state.js';
import { renderTallyJson } from '../../src/render/tally-json.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-cockpit-bench-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('each redraw holds the posts that arrived before it', async () => {
  const synth = synthGame({ posts: 500 });
  await runPipeline(synth, { dir });
  const g = gameOf(synth, dir);
  fs.writeFileSync(g.file, synth.gameYaml);
  const views: CockpitView[] = [];
  const r = await runCockpitBench(g, 10, synth, { rounds: 3, postsPerRun: 20, floor: false, onView: (v) => views.push(v) });
  expect(views).toHaveLength(4);
  const posts = views.map((v) => v.report!.activity.reduce((n, a) => n + a.posts, 0));
  // 10 of each round's 20 in the discussion thread (the posts per player), 10 in the vote thread (ballots)
  expect(posts.slice(1).map((n, i) => n - posts[i])).toEqual([10, 10, 10]);
  const ballots = views.map((v) => v.tally!.ballots.length);
  expect(ballots.slice(1).map((n, i) => n - ballots[i])).toEqual([10, 10, 10]);
  expect(views.every((v) => v.open && v.countError === null)).toBe(true);
  expect(r.redrawMs).toBeGreaterThan(0);
  expect(r.postsPerRun).toBe(20);
  expect(r.fullRedrawMs).toBeGreaterThanOrEqual(r.redrawMs);

  // the count drawn first (as watch makes it) is the count of the whole view that follows
  const d = g.days.find((x) => x.day === 10)!;
  const cockpit = new Cockpit({ game: g, day: 10, clock: { now: () => d.closes - 1 } });
  const seen: CockpitView[] = [];
  cockpit.subscribe((v) => seen.push(v));
  await cockpit.round(false);
  await cockpit.round(false);
  expect(seen).toHaveLength(3);
  expect(renderTallyJson(seen[1].tally!)).toBe(renderTallyJson(seen[2].tally!));
  expect(seen[1].report).toBe(seen[0].report); // drawn before the report is made again
}, 120_000);
