/**
 * The public captured game's day reports (days 1 and 2) against counts derived from ids.json (posts
 * per author per thread with their datelines), the game file's windows and exits, and the scenario's
 * ballots — never hand-copied numbers.
 */
import { describe, expect, test } from 'vitest';
import { isOut } from '../../src/game/roster.js';
import { buildDayReport } from '../../src/report/day-report.js';
import { accelerationFor } from '../../src/votes/acceleration.js';
import { threadPosts } from '../../src/store/slice.js';
import { publicGame } from '../helpers/captured.js';
import { pidOf, postsByThread, publicIds, publicScenario, publicStore } from './captured.js';
import { publicFlagDetail } from '../../src/violations/details.js';

const game = publicGame();
const store = publicStore();
const posts = postsByThread(store, [2, 3, 4, 5, 6, 7]);
const ids = publicIds();
const scenario = publicScenario();

function accelerated(day: number): boolean {
  const d = game.days.find((x) => x.day === day)!;
  return accelerationFor(game, d, threadPosts(store, game.process!.tid)).accelerated;
}

describe.each([1, 2])('day %i of the public game', (dayNo) => {
  const day = game.days.find((d) => d.day === dayNo)!;
  const acc = { 1: accelerated(1), 2: accelerated(2) };
  const report = buildDayReport(game, posts, dayNo, { accelerated: acc });

  test('post counts per player match ids.json in [opens, closes), directors never counted', () => {
    for (const row of report.activity) {
      const expected = Object.values(ids.posts).filter(
        (p) => p.tid === day.discussion!.tid && p.author === row.player && p.dateline * 1000 >= day.opens && p.dateline * 1000 < day.closes,
      ).length;
      expect(row.posts, row.player).toBe(expected);
    }
    expect(report.activity.map((r) => r.player)).toEqual(game.players);
    expect(report.activity.some((r) => game.directors.includes(r.player))).toBe(false);
  });

  test('players out before the day are exempt; one voted out at the close is not', () => {
    for (const row of report.activity) expect(row.exempt, row.player).toBe(isOut(game, row.player, day.opens));
    if (dayNo === 2) {
      expect(report.activity.find((r) => r.player === '馒头')!.exempt).toBe(true); // night death at opening
      expect(report.activity.find((r) => r.player === '月饼')!.exempt).toBe(false); // voted out at 21:00
    }
  });

  test('ballots: who posted 投票对象/改票对象 in the vote thread before closing while in the game (scenario)', () => {
    const key = `d${dayNo}vote`;
    const at = (p: { at: string }) => Date.parse(`${p.at.replace(' ', 'T')}+08:00`);
    const voters = new Set(
      scenario[key].filter((p) => /(投票|改票)对象/.test(p.body) && at(p) < day.closes && !isOut(game, p.author, at(p))).map((p) => p.author),
    );
    for (const row of report.activity) expect(row.voted, row.player).toBe(voters.has(row.player));
  });

  test('lurker flags follow the rules from the derived counts', () => {
    expect(report.accelerated).toBe(false);
    const few = report.activity.filter((r) => !r.exempt && r.posts < game.rules.lurking.minPostsPerDay).map((r) => r.player).sort();
    expect(report.flags.filter((f) => f.kind === 'few-posts').map((f) => f.player).sort()).toEqual(few);
    const noBallot = report.activity.filter((r) => !r.exempt && r.voted === false).map((r) => r.player).sort();
    expect(report.flags.filter((f) => f.kind === 'no-ballot').map((f) => f.player).sort()).toEqual(noBallot);
    // Only two days are stored: no three-day streak can be complete yet.
    expect(report.flags.filter((f) => f.kind === 'low-streak')).toEqual([]);
    // Every lurker flag proposes a yellow card with the counted posts as evidence.
    for (const f of report.flags.filter((x) => x.kind === 'few-posts')) {
      const card = report.cards.find((c) => c.player === f.player && c.kind === 'few-posts')!;
      expect(card.color).toBe('yellow');
      expect(card.evidence).toEqual(report.activity.find((r) => r.player === f.player)!.pids);
    }
  });

  test('the whole-game table agrees with the day rows', () => {
    const col = report.table.days.indexOf(dayNo);
    for (const row of report.activity) {
      const cell = report.table.rows.find((r) => r.player === row.player)!.counts[col];
      expect(cell).toBe(row.exempt ? null : row.posts);
    }
  });
});

describe('the scripted violations of the public game are flagged on their posts', () => {
  const acc = { 1: false, 2: false };
  const d1 = buildDayReport(game, posts, 1, { accelerated: acc });
  const d2 = buildDayReport(game, posts, 2, { accelerated: acc });
  const pidsOf = (r: typeof d1, kind: string) => r.flags.filter((f) => f.kind === kind).map((f) => f.pid);

  test('red fonts: Red, #FF0000, #E60012 — not Blue', () => {
    expect(pidsOf(d1, 'red-font').sort()).toEqual(['d1talk-6', 'd1talk-16', 'd1talk-25'].map(pidOf).sort());
    expect(pidsOf(d2, 'red-font')).toEqual([pidOf('d2talk-10')]);
  });

  test('enlarged fonts: size 6 and size 7 and size 4', () => {
    expect(pidsOf(d1, 'enlarged-font')).toEqual([pidOf('d1talk-7')]);
    expect(pidsOf(d2, 'enlarged-font').sort()).toEqual(['d2talk-3', 'd2talk-10'].map(pidOf).sort());
  });

  test('banned wording: 发誓, 你是猪, 马甲, 上一场, 去死吧', () => {
    const words = (r: typeof d1) => r.flags.filter((f) => f.kind === 'banned-wording').map((f) => `${f.pid}:${f.category}`);
    expect(words(d1).sort()).toEqual(
      [`${pidOf('d1talk-15')}:发誓与诅咒`, `${pidOf('d1talk-15')}:称谓与叹词`, `${pidOf('d1talk-42')}:马甲与场外`, `${pidOf('d1talk-42')}:马甲与场外`].sort(),
    );
    expect(d1.flags.filter((f) => f.pid === pidOf('d1talk-42')).map((f) => publicFlagDetail(f, d1.timezone))).toEqual(['马甲与场外：「马甲」（规则帖 l.265）', '马甲与场外：「上一场」（规则帖 l.266）']);
    expect(words(d2)).toEqual([`${pidOf('d2talk-21')}:发誓与诅咒`]);
  });

  test('贴证: the pasted link and the words around it, one flag and one yellow proposal', () => {
    expect(pidsOf(d1, 'pasted-evidence')).toEqual([pidOf('d1talk-2')]);
    const f = d1.flags.find((x) => x.kind === 'pasted-evidence')!;
    expect(f.snippet).toContain('https://example.com/qq-shot.png');
    expect(publicFlagDetail(f, d1.timezone)).toBe('贴证：网址、「聊天记录」');
    expect(f.facts).toEqual({ kind: 'pasted-evidence', carries: ['link'], words: [{ word: '聊天记录', matched: null }] });
    expect(d1.cards.filter((c) => c.player === '包子' && c.kind === 'pasted-evidence').map((c) => [c.color, c.evidence])).toEqual([['yellow', [pidOf('d1talk-2')]]]);
  });

  test('诈尸: 馒头 posting on day 2 after the night exit, in discussion, vote and process threads', () => {
    expect(pidsOf(d2, 'zombie-post').sort()).toEqual(['d2talk-57', 'd2vote-15', 'process-6'].map(pidOf).sort());
    expect(d2.flags.filter((f) => f.kind === 'zombie-post').every((f) => f.player === '馒头')).toBe(true);
    expect(pidsOf(d1, 'zombie-post')).toEqual([]);
  });

  test('a post after closing is shown, not counted', () => {
    expect(pidsOf(d1, 'late-post')).toEqual([pidOf('d1talk-66')]);
    expect(d1.activity.find((r) => r.player === '烧卖')!.pids).not.toContain(pidOf('d1talk-66'));
  });

  test('no avatar or signature changed in the capture', () => {
    expect([...d1.flags, ...d2.flags].filter((f) => f.kind === 'avatar-changed' || f.kind === 'signature-changed')).toEqual([]);
  });
});
