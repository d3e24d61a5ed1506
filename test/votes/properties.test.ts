/**
 * Properties of the tally (fast-check), on the real day-1 and day-2 threads of the public capture:
 * the order posts arrive in never matters; a post whose ballot is only quoted never changes the count;
 * a post after closing never changes it.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { SlicePost } from '../../src/store/slice.js';
import { tallyDay } from '../../src/votes/tally.js';
import type { TallyResult } from '../../src/votes/types.js';
import { publicGame } from '../helpers/captured.js';
import { capturePosts, publicPostsWith, readIds, variant } from './fixtures.js';

const ids = readIds('public');
const game = publicGame();
const days = [
  { day: 1, key: 'd1vote', posts: capturePosts('public', 'd1vote') },
  { day: 2, key: 'd2vote', posts: capturePosts('public', 'd2vote') },
];
/** A real post whose only own text is chatter and that quotes (引用) another post: 麻花's 同意楼上。 */
const quoting = capturePosts('public', 'd1talk').find((p) => p.pid === ids.posts['d1talk-5'].pid)!;

/** What a count is: totals, result, and which ballot counts for whom. */
const essence = (r: TallyResult) => ({
  totals: r.totals.map((l) => [l.name, l.votes, [...l.voters].sort()]),
  result: r.result,
  counted: r.ballots.filter((b) => b.status === 'counted').map((b) => [b.voter, b.pid, b.target, b.weight]).sort(),
  sheriff: r.sheriff,
  accelerated: r.accelerated,
});
const count = (day: number, key: string, posts: SlicePost[]) => tallyDay(game, publicPostsWith(key, posts), day);

describe.each(days)('day $day', ({ day, key, posts }) => {
  const baseline = essence(count(day, key, posts));
  const closes = game.days.find((d) => d.day === day)!.closes;
  const opens = game.days.find((d) => d.day === day)!.opens;
  const ballotPids = posts.filter((p) => /对象/.test(p.text)).map((p) => p.pid);

  test('the result does not depend on the order the posts are given in', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(posts, { minLength: posts.length, maxLength: posts.length }), (shuffled) => {
        const r = count(day, key, shuffled);
        expect(essence(r)).toEqual(baseline);
        expect(r.ballots.map((b) => [b.pid, b.status, b.reason])).toEqual(count(day, key, posts).ballots.map((b) => [b.pid, b.status, b.reason]));
      }),
      { numRuns: 40 },
    );
  });

  test('adding a post that only quotes a ballot never changes the count', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...game.players),
        fc.integer({ min: opens, max: closes - 1 }),
        fc.constantFrom(...ballotPids),
        (author, time, quoted) => {
          const extra = variant(quoting, { pid: 9900, tid: posts[0].tid, floor: 99, author, at: time, postedAt: new Date(time).toISOString(), quotes: [quoted] });
          expect(essence(count(day, key, [...posts, extra]))).toEqual(baseline);
        },
      ),
      { numRuns: 60 },
    );
  });

  test('adding a post after closing never changes the count', () => {
    const ballots = posts.filter((p) => ballotPids.includes(p.pid));
    fc.assert(
      fc.property(
        fc.constantFrom(...ballots),
        fc.constantFrom(...game.players, '弃权'),
        fc.constantFrom(...game.players),
        fc.integer({ min: closes, max: closes + 2 * 86_400_000 }),
        fc.boolean(),
        (template, target, author, time, minute) => {
          const text = template.text.replace(/(对象[:：]\s*)[^\n ]+/, `$1${target}`);
          const extra = variant(template, {
            pid: 9901, floor: 99, author, text, at: time, postedAt: new Date(time).toISOString(), timePrecision: minute ? 'minute' : 'second',
          });
          const r = count(day, key, [...posts, extra]);
          expect(essence(r)).toEqual(baseline);
          expect(r.ballots.find((b) => b.pid === 9901)!.status).toBe('rejected');
        },
      ),
      { numRuns: 60 },
    );
  });
});
