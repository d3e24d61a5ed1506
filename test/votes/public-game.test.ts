/**
 * The public captured game (fixtures/discuz/public, played from fixtures/scenarios/public.yaml, preset
 * m107): days 1 and 2 tallied from the real pages through parser → store → tally. The expected outcome
 * is derived here from the scenario with simple rules stated in the test — not copied from the tool.
 */
import { describe, expect, test } from 'vitest';
import { postsFromStore, tallyDay } from '../../src/votes/tally.js';
import type { ScenarioPost } from '../helpers/captured.js';
import { publicGame } from '../helpers/captured.js';
import { captureStore, readIds, readScenario } from './fixtures.js';

const scenario = readScenario('public');
const ids = readIds('public');
const game = publicGame();
const posts = postsFromStore(captureStore('public'));
const thread = (key: string) => scenario.threads.find((t) => t.key === key)!;
const ms = (local: string) => Date.parse(`${local.replace(' ', 'T')}+08:00`);

/**
 * An independent count by the rules as the test states them:
 * - a ballot is `投票对象：X` + `投票理由：Y` (or 改票…) with X a player or 弃权 (anything else: no ballot);
 * - only players in the game when posting, strictly before closing;
 * - the first ballot is the vote; a later 改票 counts only if it is the first change, quotes the vote
 *   post (a scenario `quote:`; a `reply:` leaves no trace), and is ≥ 60 min before closing, and the day
 *   is not accelerated;
 * - the sheriff's vote weighs 1.5.
 */
function independentCount(key: string, closes: number, outBefore: Set<string>, sheriff: string | null, accelerated: boolean) {
  const players = scenario.users.filter((u) => u.role === 'player').map((u) => u.name);
  const votes = new Map<string, { id: string; target: string }>();
  const changed = new Set<string>();
  for (const p of thread(key).posts as ScenarioPost[]) {
    if (!players.includes(p.author) || outBefore.has(p.author) || ms(p.at) >= closes) continue;
    const body = p.body; // the first version: an edit is not a change (m107 l.206)
    const m = /(投票|改票)对象[:：]\s*(\S+?)[\s。，,.!！]*(?:\n|(?=(?:投票|改票)理由)|$)/.exec(body);
    const r = /(投票|改票)理由[:：]\s*\S/.exec(body);
    if (!m || !r || !(players.includes(m[2]) || m[2] === '弃权')) continue;
    const prev = votes.get(p.author);
    if (!prev) {
      if (m[1] === '投票') votes.set(p.author, { id: p.id, target: m[2] });
      continue;
    }
    const firstVoteId = [...(thread(key).posts as ScenarioPost[])].find((x) => x.author === p.author && /投票对象[:：]/.test(x.body) && ms(x.at) < closes)!.id;
    if (m[1] === '改票' && !changed.has(p.author) && p.quote === firstVoteId && ms(p.at) <= closes - 3_600_000 && !accelerated) {
      votes.set(p.author, { id: p.id, target: m[2] });
      changed.add(p.author);
    }
  }
  const totals = new Map<string, number>();
  for (const [voter, v] of votes) if (v.target !== '弃权') totals.set(v.target, (totals.get(v.target) ?? 0) + (voter === sheriff ? 1.5 : 1));
  return { votes, totals };
}

describe('public game, day 1 (sheriff election, thread 3)', () => {
  const closes = ms('2026-11-21 21:00');
  const r = tallyDay(game, posts, 1);
  const expected = independentCount('d1vote', closes, new Set(), null, false);

  test('the totals are the independent count of the scenario', () => {
    expect(r.kind).toBe('election');
    expect(r.tid).toBe(ids.threads.d1vote.tid);
    expect(Object.fromEntries(r.totals.map((l) => [l.name, l.votes]))).toEqual(Object.fromEntries(expected.totals));
    expect(r.abstentions).toEqual([...expected.votes].filter(([, v]) => v.target === '弃权').map(([k]) => k));
  });

  test('a tie on the top total goes to the candidate who reached it first (replayed in time)', () => {
    const top = Math.max(...expected.totals.values());
    const tied = [...expected.totals].filter(([, v]) => v === top).map(([k]) => k);
    expect(tied.length).toBeGreaterThan(1); // the scenario scripts a tie
    // Replay: the time each tied candidate's running total reached `top` (no counted changes on day 1).
    const counted = [...expected.votes.values()].map((v) => ({ ...v, at: ms((thread('d1vote').posts as ScenarioPost[]).find((p) => p.id === v.id)!.at) }));
    const reachAt = (name: string) => counted.filter((v) => v.target === name).sort((a, b) => a.at - b.at)[top - 1].at;
    const first = [...tied].sort((a, b) => reachAt(a) - reachAt(b))[0];
    expect(r.result.name).toBe(first);
    expect(r.result.tie.sort()).toEqual(tied.sort());
    expect(r.result.detail).toMatchObject({ code: 'tie-first-reach', name: first });
    expect(r.result.rule).toContain('最先获得投票数最多');
    // …and it is the sheriff the day-2 thread announces (警长：包子).
    expect(thread('d2talk').body).toContain(`警长：${first}`);
  });

  test('each rejected ballot has its reason', () => {
    const rejected = r.ballots.filter((b) => b.status === 'rejected');
    const byFloor = (id: string) => r.ballots.find((b) => b.pid === ids.posts[id].pid)!;
    expect(rejected.map((b) => b.pid).sort()).toEqual(['d1vote-5', 'd1vote-13', 'd1vote-14'].map((id) => ids.posts[id].pid).sort());
    const codes = (id: string) => (byFloor(id).details ?? []).map((d) => d.code);
    expect(codes('d1vote-14')).toEqual(['late']); // 月饼
    expect(byFloor('d1vote-14').reason).toBe('迟到：21:10 发帖，关门时间 21:00');
    expect(codes('d1vote-5')).toEqual(['malformed-no-heads']); // 油条's 我投花卷
    expect(byFloor('d1vote-12').status).toBe('counted'); // …corrected by a new post: not a change
    expect(byFloor('d1vote-12').reason).toBeNull();
    expect(codes('d1vote-13')).toEqual(['change-too-late']); // 豆浆 at 20:15
    expect(byFloor('d1vote-13').reason).toContain('须在 20:00 前改票');
    expect(byFloor('d1vote-doujiang').status).toBe('counted');
  });

  test('every player has a line; nobody is listed twice', () => {
    expect(r.players.map((p) => p.player)).toEqual(game.players);
    const yuebing = r.players.find((p) => p.player === '月饼')!;
    expect(yuebing.counted).toBeNull();
    expect(yuebing.state).toBe('none');
  });
});

describe('public game, day 2 (elimination, thread 5)', () => {
  const closes = ms('2026-11-22 21:00');
  const r = tallyDay(game, posts, 2);
  const out = new Set(game.events.filter((e) => e.out !== undefined && e.out <= ms('2026-11-22 10:00')).map((e) => e.player));

  test('acceleration is derived from the process thread: distinct alive players against more than half', () => {
    const alive = game.players.filter((p) => !out.has(p));
    const askers = new Set(
      (thread('process').posts as ScenarioPost[])
        .filter((p) => p.body.includes('申请加速') && alive.includes(p.author) && ms(p.at) >= ms('2026-11-22 10:00') && ms(p.at) < closes)
        .map((p) => p.author),
    );
    const accelerated = askers.size * 2 > alive.length; // m107 l.202 超过所有存活玩家的二分之一
    expect(r.accelerated).toBe(accelerated);
    expect(r.acceleration!.requests.map((q) => q.player).sort()).toEqual([...askers].sort());
    expect(r.acceleration!.alive).toBe(alive.length);
    expect(r.acceleration!.ignored.map((i) => i.author)).toEqual(['馒头']); // out since the night
  });

  test('the sheriff comes from the day-1 election and weighs 1.5', () => {
    const d1 = tallyDay(game, posts, 1);
    expect(r.sheriff).toBe(d1.result.name);
    expect(r.sheriffSource).toContain('第 1 日竞选当选');
    expect(r.ballots.find((b) => b.voter === r.sheriff && b.status === 'counted')!.weight).toBe(1.5);
  });

  test('the totals and the result are the independent count of the scenario', () => {
    const expected = independentCount('d2vote', closes, out, r.sheriff, r.accelerated);
    expect(Object.fromEntries(r.totals.map((l) => [l.name, l.votes]))).toEqual(Object.fromEntries(expected.totals));
    const top = [...expected.totals].sort((a, b) => b[1] - a[1]);
    expect(top[0][1]).toBeGreaterThan(top[1][1]);
    expect(r.result).toMatchObject({ name: top[0][0], tie: [] });
    expect(thread('d3talk').body).toContain(`放逐出局：${top[0][0]}`);
  });

  test('each rejected or superseded ballot has its reason', () => {
    const b = (id: string) => r.ballots.find((x) => x.pid === ids.posts[id].pid)!;
    expect(b('d2vote-jiaozi')).toMatchObject({ status: 'superseded', weight: 0 });
    expect(b('d2vote-jiaozi').details).toEqual([{ code: 'superseded-by-change', target: '月饼', floor: ids.posts['d2vote-jiaozi-2'].floor, at: b('d2vote-jiaozi-2').at }]);
    expect(b('d2vote-jiaozi').reason).toBe(`已改票为 月饼（${ids.posts['d2vote-jiaozi-2'].floor}#，11-22 17:00）`);
    expect(b('d2vote-jiaozi-2')).toMatchObject({ status: 'counted', target: '月饼' });
    const codes = (id: string) => (b(id).details ?? []).map((d) => d.code);
    expect(codes('d2vote-14')[0]).toBe('second-change'); // 饺子 again
    expect(codes('d2vote-13')).toEqual(['change-not-quoting-vote']); // 春卷's 回复: no trace in X3.5
    expect(b('d2vote-13').reason).toContain(`改票未引用原投票帖 ${ids.posts['d2vote-chunjuan'].floor}#`);
    expect(b('d2vote-13').reason).not.toContain('导演');
    expect(b('d2vote-13').note).toContain('不在帖子里留痕迹');
    expect(b('d2vote-chunjuan').status).toBe('counted');
    expect(codes('d2vote-15')).toEqual(['voter-out']); // voting while out
    // 豆浆 edited a typo: the store never saw the first version, so it counts as shown and is flagged.
    expect(b('d2vote-7')).toMatchObject({ status: 'counted', target: '花卷' });
    expect(codes('d2vote-7')).toEqual(['edited-no-earlier-version']);
    expect(b('d2vote-7').flags.join()).toContain('存档中没有更早的版本');
    expect(b('d2vote-9')).toMatchObject({ status: 'counted', target: '月饼' }); // one line, half-width colons
    expect(r.ballots.filter((x) => x.status === 'rejected')).toHaveLength(3);
  });
});
