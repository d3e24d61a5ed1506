/**
 * "A quoted ballot never counts" (issue 8, rules-spec §2), end to end: the ballot sits inside a real
 * Discuz quote block (div.quote > blockquote, rendered from the captured markup by src/replay/synth.ts),
 * the page is parsed by the real parser, recorded by the real store and tallied by tallyDay.
 *
 * Three ways a ballot can sit in someone's post without being theirs:
 * - a 引用 (quote) of another player's ballot post — Discuz's quote block with its findpost link;
 * - a [quote] the player typed themselves, with a ballot inside (same div.quote > blockquote, no link);
 * - a ballot in the player's signature (div.sign, outside the message).
 * None of them may count for the quoting player, and the quoted voter's own ballot counts once.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { readBallot } from '../../src/votes/ballot.js';
import { postsFromStore, tallyDay } from '../../src/votes/tally.js';
import { buildWorld, injectIntoMessage, injectSignature, TID, type WorldPost } from '../reliability/world.js';

const PLAYERS = ['饺子', '包子', '馒头', '烧卖', '汤圆', '春卷', 'Bob', 'a]b[url]'];
const CTX = { kind: 'players' as const, players: PLAYERS };

/** Text that is no ballot of its own (the quoting player's words around the quote). */
const ownWords = fc
  .array(fc.oneof(fc.constantFrom('同意', '支持', '+1', '楼上说得对', '？', '投票', '对象', '理由', ' ', '\n'), fc.string({ maxLength: 8 })), { maxLength: 6 })
  .map((xs) => xs.join('').replace(/[[\]]/g, ''))
  .filter((s) => {
    const r = readBallot(s, CTX);
    return !r.ok && r.problem === 'no-ballot';
  });

const reason = fc.string({ minLength: 1, maxLength: 10 }).map((s) => `理由${s.replace(/[[\]\n]/g, '')}`);

function ballot(target: string, why: string, head = '投票'): string {
  return `${head}对象：${target}\n${head}理由：${why}`;
}

const scenario = fc.record({
  voter: fc.constantFrom(...PLAYERS),
  target: fc.constantFrom(...PLAYERS),
  quoter: fc.constantFrom(...PLAYERS),
  why: reason,
  words: ownWords,
  forged: fc.constantFrom(...PLAYERS),
  head: fc.constantFrom('投票', '改票'),
}).filter((s) => s.voter !== s.quoter);

describe('a ballot inside a quote or a signature never counts', () => {
  test('引用 of another player\'s ballot, a typed [quote] ballot and a signature ballot (150 runs, real markup)', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const posts: WorldPost[] = [
          { pid: 2001, author: s.voter, at: '2026-11-20 12:00:00', body: ballot(s.target, s.why) },
          // the quoter quotes the voter's ballot post (Discuz 引用: div.quote > blockquote with a findpost link)
          { pid: 2002, author: s.quoter, at: '2026-11-20 12:05:00', body: s.words || '嗯', quote: 2001 },
          // and, in a later post, types a [quote] holding a ballot of their own making
          { pid: 2003, author: s.quoter, at: '2026-11-20 12:10:00', body: s.words || '嗯' },
          // and a post whose signature carries a ballot
          { pid: 2004, author: s.quoter, at: '2026-11-20 12:15:00', body: '签名档里有票' },
        ];
        const world = buildWorld({
          players: PLAYERS,
          threads: { [TID.d1vote]: posts },
          html: (tid, _page, html) => {
            if (tid !== TID.d1vote) return html;
            const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, '<br />\n');
            html = injectIntoMessage(html, 2003, `<div class="quote"><blockquote>${esc(ballot(s.forged, s.why, s.head))}</blockquote></div>`);
            return injectSignature(html, 2004, esc(ballot(s.forged, s.why, s.head)));
          },
        });
        const stored = world.store.posts;
        // the parser kept the quote and the signature out of the player's own text
        for (const pid of [2002, 2003, 2004]) {
          const text = stored[String(pid)].versions.at(-1)!.post.text;
          expect(readBallot(text, CTX).ok, `pid ${pid}: ${JSON.stringify(text)}`).toBe(false);
        }
        expect(stored['2002'].versions.at(-1)!.post.quotes).toEqual([2001]);
        expect(stored['2004'].versions.at(-1)!.post.signature).toContain('对象');

        const t = tallyDay(world.game, postsFromStore(world.store), 1);
        const quoter = t.players.find((p) => p.player === s.quoter)!;
        expect(quoter.counted, JSON.stringify(quoter)).toBeNull();
        expect(t.ballots.filter((b) => b.voter === s.quoter && b.status === 'counted')).toEqual([]);
        // the only counted ballot is the voter's own, once
        const counted = t.ballots.filter((b) => b.status === 'counted');
        expect(counted.map((b) => [b.voter, b.target, b.pid])).toEqual([[s.voter, s.target, 2001]]);
        expect(t.totals.reduce((n, l) => n + l.votes, 0)).toBe(1);
      }),
      { numRuns: 150 },
    );
  });
});
