/**
 * forumFormat is luxon's toFormat without luxon's per-call cost: it must write the same text for every
 * pattern the reports use, in zones with half-hour offsets and daylight saving, across transitions.
 */
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { forumFormat, type ForumPattern } from '../../src/votes/time.js';

const PATTERNS: ForumPattern[] = ['yyyy-MM-dd HH:mm', 'yyyy-MM-dd HH:mm:ss', 'MM-dd HH:mm', 'MM-dd HH:mm:ss', 'MM-dd', 'HH:mm'];
const ZONES = ['Asia/Shanghai', 'UTC', 'America/New_York', 'Europe/London', 'Asia/Kolkata', 'Australia/Lord_Howe', 'America/St_Johns', 'Pacific/Chatham'];

describe('forumFormat', () => {
  it('writes what luxon writes, every pattern, zone and instant tried', () => {
    // A seeded walk over 2000–2040 in uneven steps (seconds and milliseconds included), plus each
    // zone's daylight-saving edges in 2026 a second either side.
    let seed = 20261201;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const instants: number[] = [];
    for (let i = 0; i < 400; i++) instants.push(Date.UTC(2000, 0, 1) + Math.floor(next() * 40 * 365.25 * 86_400_000));
    for (const zone of ZONES) {
      let t = DateTime.fromObject({ year: 2026 }, { zone });
      for (let h = 0; h < 366 * 24; h++) {
        const later = t.plus({ hours: 1 });
        if (later.offset !== t.offset) instants.push(later.toMillis() - 1000, later.toMillis(), later.toMillis() + 1000);
        t = later;
      }
    }
    for (const zone of ZONES) {
      for (const ms of instants) {
        for (const f of PATTERNS) expect(forumFormat(ms, zone, f), `${zone} ${ms} ${f}`).toBe(DateTime.fromMillis(ms, { zone }).toFormat(f));
      }
    }
  });

  it('falls back to luxon for a zone Intl does not know', () => {
    expect(forumFormat(0, 'Not/AZone', 'yyyy-MM-dd HH:mm')).toBe(DateTime.fromMillis(0, { zone: 'Not/AZone' }).toFormat('yyyy-MM-dd HH:mm'));
  });
});
