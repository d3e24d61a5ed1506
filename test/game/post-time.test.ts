/**
 * forumFormat is luxon's toFormat without luxon's per-call cost: it must write the same text for every
 * pattern the reports use, in zones with half-hour offsets and daylight saving, across transitions.
 */
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { forumFormat, forumIso, type ForumPattern } from '../../src/game/forum-time.js';

const PATTERNS: ForumPattern[] = ['yyyy-MM-dd HH:mm', 'yyyy-MM-dd HH:mm:ss', 'MM-dd HH:mm', 'MM-dd HH:mm:ss', 'MM-dd', 'HH:mm'];
const ZONES = ['Asia/Shanghai', 'UTC', 'America/New_York', 'Europe/London', 'Asia/Kolkata', 'Australia/Lord_Howe', 'America/St_Johns', 'Pacific/Chatham'];

/**
 * A seeded walk over 2000–2040 in uneven steps (seconds and milliseconds included), whole seconds and
 * minutes, plus each zone's daylight-saving edges in 2026 a second either side.
 */
function instants(): number[] {
  let seed = 20261201;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const out: number[] = [];
  for (let i = 0; i < 60; i++) {
    const ms = Date.UTC(2000, 0, 1) + Math.floor(next() * 40 * 365.25 * 86_400_000);
    out.push(ms, ms - (ms % 1000), ms - (ms % 60_000));
  }
  for (const zone of ZONES) {
    const z = DateTime.fromMillis(0, { zone }).zone;
    // a day at a time through 2026, then to the quarter hour (transitions fall on one)
    for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 86_400_000) {
      if (z.offset(t) === z.offset(t + 86_400_000)) continue;
      let at = t;
      while (z.offset(at) === z.offset(t)) at += 900_000;
      out.push(at - 1000, at, at + 1000);
    }
  }
  return out;
}

describe('forumFormat', () => {
  it('writes what luxon writes, every pattern, zone and instant tried', () => {
    const all = [...instants(), Date.UTC(999, 11, 31, 23), Date.UTC(12000, 0, 1)];
    for (const zone of ZONES) {
      for (const ms of all) {
        for (const f of PATTERNS) expect(forumFormat(ms, zone, f), `${zone} ${ms} ${f}`).toBe(DateTime.fromMillis(ms, { zone }).toFormat(f));
      }
    }
  });

  it('falls back to luxon for a zone Intl does not know', () => {
    expect(forumFormat(0, 'Not/AZone', 'yyyy-MM-dd HH:mm')).toBe(DateTime.fromMillis(0, { zone: 'Not/AZone' }).toFormat('yyyy-MM-dd HH:mm'));
  });
});

describe('forumIso', () => {
  it("writes what luxon's toISO writes, every zone and instant tried (UTC's Z, milliseconds only when not zero)", () => {
    const all = [...instants(), Date.UTC(1890, 0, 1), Date.UTC(1000, 0, 1, 12), Date.UTC(12000, 0, 1)];
    for (const zone of [...ZONES, 'Etc/UTC', 'Asia/Kathmandu', 'Etc/GMT+5', 'UTC+8']) {
      for (const ms of all) expect(forumIso(ms, zone), `${zone} ${ms}`).toBe(DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true }));
    }
  });
});
