/**
 * Gathers one day's HTML report input from the store: the tally (src/votes), the day's post counts
 * (src/activity), and the violation and lurker flags (src/violations, src/activity) — each computed by
 * its own module; this file only assembles them into the plain value renderHtmlReport draws.
 */
import path from 'node:path';
import { countDayPosts, type DayPosts } from '../activity/count.js';
import { playersWithBallot } from '../activity/ballots.js';
import { lurkingFlags } from '../activity/lurking.js';
import type { PostsByThread } from '../activity/threads.js';
import { findDay } from '../game/roster.js';
import type { Game } from '../game/types.js';
import { threadPosts, type SlicePost } from '../store/slice.js';
import type { StoreData } from '../store/types.js';
import type { Flag } from '../violations/flag.js';
import { violationFlags } from '../violations/scan.js';
import { loadWordLists } from '../violations/word-lists.js';
import { postsFromStore, tallyDay } from '../votes/tally.js';
import type { TallyResult } from '../votes/types.js';
import type { HtmlActivityTable, HtmlFlag, HtmlReportInput } from './html-report.js';

/** Every stored thread's posts, by tid. */
export function postsByThread(store: StoreData): PostsByThread {
  const map = new Map<number, SlicePost[]>();
  for (const key of Object.keys(store.threads)) map.set(Number(key), threadPosts(store, Number(key)));
  return map;
}

/** The activity columns of one day: posts counted, posts after closing, whether a ballot was posted. */
export function activityOfDay(game: Game, counts: DayPosts, ballots: ReadonlySet<string> | null): HtmlActivityTable {
  const minPosts = game.rules.lurking.enabled ? game.rules.lurking.minPostsPerDay : null;
  return {
    columns: ['发言数', '关门后', ...(ballots ? ['投票帖'] : [])],
    rows: counts.players.map((p) => ({
      player: p.player,
      cells: p.exempt ? ['已出局', '', ...(ballots ? [''] : [])] : [p.posts, p.late.length, ...(ballots ? [ballots.has(p.player) ? '✓' : '✗'] : [])],
      warn: !p.exempt && ((minPosts !== null && p.posts < minPosts) || (ballots !== null && !ballots.has(p.player))),
    })),
  };
}

/** A flag as the HTML report lists it. */
export function htmlFlag(f: Flag): HtmlFlag {
  return { player: f.player, kind: f.kind, detail: f.snippet ? `${f.detail} — “${f.snippet}”` : f.detail, at: f.at, url: f.url };
}

/** Everything the HTML report of day `day` shows, computed from the store. */
export function htmlDayInput(store: StoreData, game: Game, day: number, opts: { tally?: TallyResult; now?: number } = {}): HtmlReportInput {
  const d = findDay(game, day);
  const posts = postsByThread(store);
  const tally = opts.tally ?? tallyDay(game, postsFromStore(store), day);
  const postsByDay = new Map<number, DayPosts>();
  for (const g of game.days) if (g.day <= day) postsByDay.set(g.day, countDayPosts(game, g, posts));
  const ballots = d.vote ? playersWithBallot(game, d, posts.get(d.vote.tid) ?? []) : null;
  const accelerated: Record<number, boolean> = { [day]: tally.accelerated };
  const flags = [
    ...lurkingFlags({ game, day, postsByDay, accelerated, ballots }),
    ...violationFlags({ game, day: d, posts, lists: loadWordLists(game.rules.bannedCategories) }),
  ];
  return {
    title: path.basename(game.file).replace(/\.ya?ml$/i, ''),
    day,
    timezone: game.timezone,
    opens: d.opens,
    closes: d.closes,
    generatedAt: opts.now ?? Date.now(),
    tally,
    activity: activityOfDay(game, postsByDay.get(day)!, ballots),
    flags: flags.map(htmlFlag),
  };
}
