/**
 * Acceleration (rules-spec §5) from the process thread (进程帖): distinct alive players who posted a
 * request word (申请加速) during the day's window and strictly before the cut-off (closing − the
 * ruleset's minutes: 062 l.246 讨论日结束三个小时前; m107 closing), against the threshold (m107 l.202
 * 超过所有存活玩家的二分之一: more than half; 062 l.246 大于等于存活人数的一半: at least half).
 * 062's delay (申请延时) meeting the same threshold cancels acceleration (l.248 延迟成功时，不再视为“执行加速”).
 * Pure; the director's `accelerated:` in the game file overrides the count (062 l.245 导演将自动执行加速).
 *
 * Decisions where the spec is silent: a request counts from a player in the game at its post time and
 * still in it at the cut-off (players voted out at closing are in); a later post with 取消/撤销/撤回/不
 * before the request word withdraws that player's request; asking again counts once (the first request
 * stands); quoted text is never read (the parser drops it); traditional wording (申請加速) is the same
 * request. Requests follow the seat (a substitute's request is the seat's); a replaced account's is not.
 *
 * Every request post of the day is in `audit` — counted, or why not — so a director can check who asked
 * (name, time, floor, link); with `at` (tally --at), the count and the audit are as of that moment.
 *
 * A post whose text this account cannot read (banned, shielded, pending, hidden: select.ts readText) may be
 * a request or a withdrawal: listed in `unreadable` unless the director ruled it is neither (`bansha rule
 * reject PID`: a ruling on the post, subject 'request'), then listed as ignored with the ruling.
 */
import type { Game, GameDay } from '../game/types.js';
import { alivePlayers, exitTime, isDirector, seatPosts } from '../game/roster.js';
import type { SlicePost } from '../store/slice.js';
import { foldWidth } from '../text/normalize.js';
import { toSimplified } from '../text/simplified.js';
import { accelerationIgnoreText, accelerationText, type AccelerationIgnore } from './reasons.js';
import { SPAN_END_AFTER_MS, strictlyBefore, timeSpan } from '../game/forum-time.js';
import type { AccelerationRequest, AccelerationResult } from './types.js';
import { readText } from './select.js';
import { rulingsByPid } from '../game/rulings/active.js';

const WITHDRAW = /(取消|撤销|撤回|收回|不)\s*$/;

/** Whether day `day` was accelerated, as of `at` (default: its cut-off). */
export function accelerationFor(game: Game, day: GameDay, processPosts: readonly SlicePost[], at?: number): AccelerationResult {
  const acc = game.rules.acceleration;
  const cutoff = day.closes - acc.cutoffMinutesBeforeClose * 60_000;
  const until = Math.min(cutoff, at ?? cutoff);
  // Alive just before the moment judged: a vote-out at closing has not happened yet.
  const alive = alivePlayers(game, until - 1);
  const needed = acc.threshold === 'more-than-half' ? Math.floor(alive.length / 2) + 1 : Math.ceil(alive.length / 2);
  const result: AccelerationResult = {
    accelerated: false, explanation: '', declared: day.accelerated ?? null, requests: [], delays: [], ignored: [], audit: [],
    alive: alive.length, needed, cutoff, asOf: until,
  };
  const zone = game.timezone;
  const seated = seatPosts(game, processPosts);
  const entry = (p: SlicePost) => ({ player: p.author, pid: p.pid, floor: p.floor, at: p.at, url: p.url });
  // Every request post of the day in the audit, in time order; `skip` gives it the reason it did not count.
  const listed = new Map<number, AccelerationRequest>();
  const skip = (p: SlicePost, kind: 'request' | 'delay' | 'withdraw', why: AccelerationIgnore) => {
    const reason = accelerationIgnoreText(why, zone);
    result.ignored.push({ author: p.author, pid: p.pid, floor: p.floor, at: p.at, reason, code: why.code });
    if (kind === 'request') listed.set(p.pid, { ...entry(p), counted: false, reason, code: why.code });
  };
  const mine = (p: SlicePost) => strictlyBefore(timeSpan(p), day.opens) !== 'yes' && (at === undefined || timeSpan(p).lo <= at);
  for (const r of seated.replaced) {
    if (!mine(r.post) || strictlyBefore(timeSpan(r.post), day.closes) !== 'yes') continue;
    const text = readText(r.post);
    const kind = text === null ? null : requestKind(text, acc.requestWords, acc.delayWords);
    if (kind) skip(r.post, kind, { code: 'replaced', author: r.post.author, seat: r.seat, by: r.by });
  }

  // Each player's standing request: the first since their last withdrawal; asking again changes nothing.
  const active = new Map<string, { kind: 'request' | 'delay'; post: SlicePost }>();
  const unread: number[] = [];
  const ruled = rulingsByPid(game.rulings, 'request', day.day);
  const sorted = [...seated.posts].sort((a, b) => a.at - b.at || a.pid - b.pid);
  for (const p of sorted) {
    // Another day's post (or, with --at, one not yet posted) is not this count's business: not even read.
    // (One not strictly before closing, were it a request, would be after the cut-off `until` ≤ closing too.)
    if (outsideDay(p, day)) continue;
    const span = timeSpan(p);
    if (!mine(p) || strictlyBefore(span, day.closes) !== 'yes') continue;
    // (the words read before a post became unreadable count; one never read may be a request or a withdrawal)
    const text = readText(p);
    if (text === null) {
      if (strictlyBefore(span, until) === 'yes' && game.players.includes(p.author) && !isDirector(game, p.author) && !(exitTime(game, p.author) !== null && exitTime(game, p.author)! < until)) {
        const ruling = ruled.get(p.pid);
        if (ruling?.verb === 'reject') {
          result.ignored.push({ author: p.author, pid: p.pid, floor: p.floor, at: p.at, reason: accelerationIgnoreText({ code: 'ruled', id: ruling.id, why: ruling.why }, zone), code: 'ruled' });
        } else unread.push(p.pid);
      }
      continue;
    }
    const kind = requestKind(text, acc.requestWords, acc.delayWords);
    if (!kind) continue;
    if (strictlyBefore(span, until) !== 'yes') {
      if (strictlyBefore(span, day.closes) === 'yes') skip(p, kind, { code: 'after-cutoff', at: p.at, cutoff: until, atMoment: at !== undefined && at < cutoff });
      continue;
    }
    if (isDirector(game, p.author)) {
      skip(p, kind, { code: 'director' });
      continue;
    }
    if (!game.players.includes(p.author)) {
      skip(p, kind, { code: 'not-a-player', author: p.author });
      continue;
    }
    const out = exitTime(game, p.author);
    if (out !== null && out <= span.lo) {
      skip(p, kind, { code: 'out', author: p.author, since: out });
      continue;
    }
    if (out !== null && out < until) {
      skip(p, kind, { code: 'left-before-cutoff', author: p.author, since: out });
      continue;
    }
    const key = `${kind === 'delay' ? 'd' : 'a'}:${p.author}`;
    const standing = active.get(key);
    if (kind === 'withdraw') {
      if (standing) {
        const reason = accelerationIgnoreText({ code: 'withdrew' }, zone);
        result.ignored.push({ author: p.author, pid: p.pid, floor: p.floor, at: p.at, reason, code: 'withdrew' });
        listed.set(standing.post.pid, { ...entry(standing.post), counted: false, reason, code: 'withdrew' });
        active.delete(key);
      }
      continue;
    }
    if (standing) {
      skip(p, kind, { code: 'repeat', first: standing.post.floor, at: standing.post.at });
      continue;
    }
    active.set(key, { kind, post: p });
    if (kind === 'request') listed.set(p.pid, { ...entry(p), counted: true, reason: null, code: null });
  }
  for (const v of active.values()) (v.kind === 'request' ? result.requests : result.delays).push(entry(v.post));
  result.requests.sort((a, b) => a.at - b.at);
  result.delays.sort((a, b) => a.at - b.at);
  result.audit = [...listed.values()].sort((a, b) => a.at - b.at || a.pid - b.pid);

  const asked = result.requests.length;
  const accelMet = asked >= needed;
  const delayMet = acc.delayWords.length > 0 && result.delays.length >= needed;
  let how: 'declared' | 'disabled' | 'cancelled' | 'counted';
  if (result.declared !== null) {
    result.accelerated = result.declared;
    how = 'declared';
  } else if (!acc.enabled) {
    how = 'disabled';
  } else if (accelMet && delayMet) {
    how = 'cancelled';
  } else {
    result.accelerated = accelMet;
    how = 'counted';
  }
  if (unread.length) result.unreadable = unread;
  result.explanation = accelerationText(
    { asked, alive: alive.length, needed, cutoff: until, threshold: acc.threshold, how, accelerated: result.accelerated, delays: result.delays.length },
    game.timezone,
  );
  return result;
}

/**
 * Whether a post's time alone puts it outside the day, without making its span (the process thread holds
 * every day's posts, and every day is counted): before `opens` even at its span's latest end (time.ts),
 * or at or after `closes` (a span never ends before the time).
 */
function outsideDay(p: Pick<SlicePost, 'at'>, day: Pick<GameDay, 'opens' | 'closes'>): boolean {
  return p.at + SPAN_END_AFTER_MS < day.opens || p.at >= day.closes;
}

/** Which request a process-thread post makes, if any. */
export function requestKind(text: string, requestWords: readonly string[], delayWords: readonly string[]): 'request' | 'delay' | 'withdraw' | null {
  // 申請加速 is 申请加速: traditional characters read as simplified (opencc), width folded.
  const s = toSimplified(foldWidth(text));
  for (const w of requestWords) {
    const i = s.indexOf(w);
    if (i >= 0) return WITHDRAW.test(s.slice(0, i)) ? 'withdraw' : 'request';
  }
  for (const w of delayWords) {
    const i = s.indexOf(w);
    if (i >= 0) return WITHDRAW.test(s.slice(0, i)) ? null : 'delay';
  }
  return null;
}
