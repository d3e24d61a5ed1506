/**
 * Fuzzing the ballot reader (src/votes/ballot.ts, rules-spec §2) with fast-check: 100,000 generated
 * post bodies — arbitrary Unicode, and ballot-shaped texts built from the real heads with full-width
 * punctuation, zero-width characters, bidi controls and look-alike letters mixed in.
 *
 * Invariants:
 * - total: readBallot returns a ballot or a failure with a reason; it never throws;
 * - sound: a ballot's target is one of the candidates (a player of the game, 弃权, or 规则1..N);
 * - invisible characters and character width never change what a ballot names (what the forum shows
 *   is what counts): inserting zero-width characters, or writing the heads' colon full-width,
 *   gives the same reading;
 * - a look-alike is not the name: "Bоb" with a Cyrillic о never counts for Bob (it is rejected as an
 *   unknown target, with Bob only as a hint the director sees).
 */
import fc from 'fast-check';
import { describe, test } from 'vitest';
import { ABSTAIN, readBallot, type BallotContext } from '../../src/votes/ballot.js';
import type { BallotReading } from '../../src/votes/types.js';

/** Names of the captured public game plus hostile forum names (Discuz allows [ ] : / in names). */
const PLAYERS = ['饺子', '包子', '馒头', '烧卖', 'Bob', 'alice', '[url]x', 'a]b', '阿狸', '狸阿'];
const CTX: BallotContext = { kind: 'players', players: PLAYERS };
const RULES: BallotContext = { kind: 'rules', players: PLAYERS, ruleCount: 6 };
const PROBLEMS = new Set(['no-ballot', 'malformed', 'unknown-target', 'ambiguous-target']);

const ZERO_WIDTH = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'];
const ODD = [...ZERO_WIDTH, '\u202e', '\u202d', '\u2066', '\u2069', '\u00ad', '：', ':', '\n', '\r\n', '　', ' ', '\t', '，', '。', '[', ']', '[url]', '[/url]', '[quote]', '@'];
/** Cyrillic/Greek letters that look like Latin ones. */
const LOOKALIKE: Record<string, string> = { o: 'о', a: 'а', e: 'е', B: 'В', p: 'р', c: 'с', i: 'і', O: 'Ο' };

const piece = fc.oneof(
  fc.constantFrom('投票对象', '投票理由', '改票对象', '改票理由', '投票', '对象', '理由', ABSTAIN, '规则3', '3号规则'),
  fc.constantFrom(...PLAYERS),
  fc.constantFrom(...ODD),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: 'grapheme', maxLength: 4 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
);
/** Ballot-shaped noise: heads, names, punctuation and junk in any order. */
const ballotish = fc.array(piece, { maxLength: 14 }).map((xs) => xs.join(''));

/** A well-formed ballot: head + colon (either width) + target + reason, on one or two lines. */
const wellFormed = fc.record({
  head: fc.constantFrom('投票', '改票'),
  colon: fc.constantFrom(':', '：', ' ：', '： '),
  target: fc.constantFrom(...PLAYERS, ABSTAIN),
  sep: fc.constantFrom('\n', ' ', '\n\n', '，'),
  reason: fc.string({ minLength: 1, maxLength: 12 }).filter((s) => /[\p{L}\p{N}]/u.test(s)),
});

/** The reading is well-shaped: a ballot naming a candidate, or a failure with a known problem and a reason. */
function wellShaped(r: BallotReading, ctx: BallotContext): boolean {
  if (r.ok) {
    if (r.head !== 'vote' && r.head !== 'change') return false;
    if (typeof r.reason !== 'string' || r.reason.trim() === '') return false;
    if (r.target.kind === 'player') return ctx.kind === 'players' && ctx.players.includes(r.target.name);
    if (r.target.kind === 'rule') return ctx.kind === 'rules' && r.target.rule >= 1 && r.target.rule <= (ctx.ruleCount ?? 6);
    return r.target.kind === 'abstain';
  }
  return PROBLEMS.has(r.problem) && typeof r.reason === 'string' && r.reason.length > 0;
}

/** What a reading decides (the written form may differ in invisible characters only). */
const verdict = (r: BallotReading) => (r.ok ? { ok: true, head: r.head, target: r.target } : { ok: false, problem: r.problem, head: r.head });

function insertAt(s: string, inserts: Array<[number, string]>): string {
  const cps = [...s];
  for (const [pos, ch] of inserts) cps.splice(pos % (cps.length + 1), 0, ch);
  return cps.join('');
}

describe('ballot reader fuzz (100,000 bodies)', () => {
  test('total on arbitrary Unicode: a ballot or a reason, never an exception (40,000 runs)', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'binary', maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ maxLength: 80 })),
        (s) => wellShaped(readBallot(s, CTX), CTX) && wellShaped(readBallot(s, RULES), RULES),
      ),
      { numRuns: 40_000 },
    );
  });

  test('total on ballot-shaped noise with zero-width, bidi, full-width and bracket pieces (30,000 runs)', () => {
    fc.assert(
      fc.property(ballotish, (s) => {
        const a = readBallot(s, CTX);
        // deterministic: the same text reads the same way twice
        return wellShaped(a, CTX) && wellShaped(readBallot(s, RULES), RULES) && JSON.stringify(readBallot(s, CTX)) === JSON.stringify(a);
      }),
      { numRuns: 30_000 },
    );
  });

  test('zero-width characters anywhere never change what a well-formed ballot names (20,000 runs)', () => {
    fc.assert(
      fc.property(
        wellFormed,
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...ZERO_WIDTH)), { minLength: 1, maxLength: 6 }),
        (b, inserts) => {
          const text = `${b.head}对象${b.colon}${b.target}${b.sep}${b.head}理由${b.colon}${b.reason}`;
          const plain = readBallot(text, CTX);
          const want = b.target === ABSTAIN ? { kind: 'abstain' } : { kind: 'player', name: b.target };
          if (!plain.ok || JSON.stringify(plain.target) !== JSON.stringify(want)) return false;
          const same = (r: BallotReading) => JSON.stringify(verdict(r)) === JSON.stringify(verdict(plain));
          // width: the full-width colon and the ASCII one are the same head
          return same(readBallot(insertAt(text, inserts), CTX)) && same(readBallot(text.replaceAll(':', '：'), CTX));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  test('a look-alike letter (Cyrillic/Greek) in the target never counts for the real name (10,000 runs)', () => {
    const latin = PLAYERS.filter((p) => /[a-zA-Z]/.test(p) && [...p].some((c) => LOOKALIKE[c]));
    fc.assert(
      fc.property(fc.constantFrom(...latin), fc.nat(), fc.constantFrom(...ZERO_WIDTH, ''), (name, k, zw) => {
        const spots = [...name].map((c, i) => (LOOKALIKE[c] ? i : -1)).filter((i) => i >= 0);
        const i = spots[k % spots.length];
        const fake = [...name].map((c, j) => (j === i ? LOOKALIKE[c] + zw : c)).join('');
        const r = readBallot(`投票对象：${fake}\n投票理由：是他`, CTX);
        // rejected as an unknown target; the real name is only a hint shown to the director
        return !r.ok && r.problem === 'unknown-target' && r.hint === name;
      }),
      { numRuns: 10_000 },
    );
  });
});
