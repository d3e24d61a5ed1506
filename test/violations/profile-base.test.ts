/**
 * The avatar/signature check over posts summed up (profile.ts profileBase, as a report keeps its earlier
 * threads: src/derived/look-back.ts) beside posts given: the same changes, naming the same posts, as from
 * all the posts given — over random games of accounts, values, refetches and substitutes, every way the
 * threads split between the two.
 */
import { describe, expect, test } from 'vitest';
import type { DigestPost, Sighting } from '../../src/store/slice.js';
import { rng } from '../../src/replay/synth.js';
import { postUrl } from '../../src/store/slice.js';
import { profileBase, profileChanges, type ProfileChange, type ProfileRef } from '../../src/violations/profile.js';

const FORUM = 'https://bbs.example.com/';
const PLAYERS = ['甲', '乙', '丙'];

/** Threads of posts as digests read back: a page's posts share one list of sightings, as thread-digest.ts makes them. */
function game(seed: number): DigestPost[][] {
  const r = rng(seed); // (the same game for a seed)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const iso = (ms: number) => new Date(ms).toISOString();
  const t0 = Date.parse('2026-11-20T00:00:00Z');
  let pid = 1;
  const threads: DigestPost[][] = [];
  for (let tid = 10; tid < 10 + 2 + Math.floor(r() * 4); tid++) {
    const posts: DigestPost[] = [];
    for (let page = 0; page < 1 + Math.floor(r() * 4); page++) {
      // what this page's fetches showed each account: one or two fetches, values from a few (null: none)
      const fetches = 1 + Math.floor(r() * 2);
      const shown = new Map<string, Sighting[]>();
      const listOf = (who: string): Sighting[] => {
        let list = shown.get(who);
        if (!list) {
          list = [];
          for (let f = 0; f < fetches; f++) {
            const at = t0 + Math.floor(r() * 40) * 3_600_000;
            list.push(Object.freeze({ avatar: pick(['a1', 'a2', 'a3', null]), signature: pick(['s1', 's2', null]), firstSeen: iso(at), lastSeen: iso(at + Math.floor(r() * 3) * 3_600_000) }));
          }
          shown.set(who, Object.freeze(list) as Sighting[]);
        }
        return list;
      };
      for (let i = 0; i < 2 + Math.floor(r() * 6); i++) {
        const author = pick([...PLAYERS, '路人']);
        const authorId = author === '甲' && r() < 0.3 ? 99 : PLAYERS.indexOf(author) + 1; // 甲's seat played by a substitute's account too
        const at = t0 + Math.floor(r() * 40) * 3_600_000 + (r() < 0.2 ? 0 : Math.floor(r() * 60) * 1000);
        const p = pid++;
        posts.push({ pid: p, tid, floor: posts.length + 1, at, url: postUrl(FORUM, tid, p), author, authorId, deleted: r() < 0.05, sightings: listOf(`${author}#${authorId}`) });
      }
    }
    threads.push(posts);
  }
  return threads;
}

const ref = (p: ProfileRef) => ({ pid: p.pid, tid: p.tid, floor: p.floor, at: p.at, url: p.url, author: p.author });
const named = (c: ProfileChange) => ({ ...c, beforePost: ref(c.beforePost), post: ref(c.post) });

describe('profile changes with earlier threads summed up', () => {
  test.each(Array.from({ length: 60 }, (_, i) => i + 1))('random game %i: every split of its threads gives the changes of all of them', (seed) => {
    const threads = game(seed);
    const whole = profileChanges(threads, PLAYERS).map(named);
    for (let mask = 0; mask < 1 << threads.length; mask++) {
      const summed = threads.filter((_, i) => mask & (1 << i));
      const given = threads.filter((_, i) => !(mask & (1 << i)));
      const base = profileBase(summed, PLAYERS);
      expect(profileChanges(given, PLAYERS, { profile: base, forum: FORUM }).map(named), `seed ${seed}, summed ${mask.toString(2)}`).toEqual(whole);
    }
  });

  test('the random games have changes to find', () => {
    const found = Array.from({ length: 60 }, (_, i) => profileChanges(game(i + 1), PLAYERS).length);
    expect(found.filter((n) => n > 0).length).toBeGreaterThan(40);
  });

  test('a summary read back from JSON reads the same', () => {
    const threads = game(7);
    const base = JSON.parse(JSON.stringify(profileBase(threads.slice(0, 2), PLAYERS)));
    expect(profileChanges(threads.slice(2), PLAYERS, { profile: base, forum: FORUM }).map(named)).toEqual(profileChanges(threads, PLAYERS).map(named));
  });
});
