/**
 * The forum zone's offsets read from Intl (src/game/zone-table.ts) and kept with the checked game
 * (src/game/zone-offsets.ts) give forumClock exactly Intl's answer — and so forumTime, forumFormat and
 * forumIso exactly what they wrote from Intl, forumHour and forumHourStart what luxon gives (a chart's hour ticks) — in zones with daylight saving, historical changes (China's summer time 1986–91, Britain's all-year
 * summer time 1968–71, Moscow 2011/2014, Samoa's skipped day), half- and quarter-hour offsets and local
 * mean time; outside the kept span it is Intl's own again, and a kept table that is not well-formed is
 * not kept.
 */
import { DateTime } from 'luxon';
import { afterEach, describe, expect, test } from 'vitest';
import { forgetZoneOffsets, gameSpan, keepZoneOffsets, keptOffset, type ZoneOffsets } from '../../src/game/zone-offsets.js';
import { zoneOffsets } from '../../src/game/zone-table.js';
import { forumClock, forumFormat, forumHour, forumHourStart, forumIso, forumTime } from '../../src/game/forum-time.js';

afterEach(forgetZoneOffsets);

const SPANS: Array<[string, string, string]> = [
  ['Asia/Shanghai', '1985-06-01', '1988-03-01'],
  ['Asia/Shanghai', '1988-06-01', '1991-03-01'],
  ['Asia/Shanghai', '1899-06-01', '1901-06-01'],
  ['Asia/Shanghai', '2025-11-01', '2026-12-31'],
  ['America/New_York', '2024-10-01', '2026-12-01'],
  ['Europe/London', '1967-10-01', '1970-04-01'],
  ['Europe/London', '1969-10-01', '1972-04-01'],
  ['Europe/London', '2025-01-01', '2026-12-31'],
  ['Europe/Moscow', '2010-09-01', '2012-01-01'],
  ['Europe/Moscow', '2014-01-01', '2015-01-01'],
  ['Pacific/Apia', '2011-06-01', '2012-06-01'],
  ['Asia/Kolkata', '2025-01-01', '2026-06-01'],
  ['Asia/Kathmandu', '1985-06-01', '1986-06-01'],
  ['Australia/Lord_Howe', '2025-01-01', '2026-12-31'],
  ['America/St_Johns', '2025-01-01', '2026-12-31'],
  ['UTC', '2026-01-01', '2026-03-01'],
];

/** What the functions write from Intl alone (nothing kept). */
function intlAnswers(zone: string, instants: number[]): string[] {
  forgetZoneOffsets();
  return instants.map((ms) => JSON.stringify([forumClock(ms, zone), forumTime(ms, zone), forumFormat(ms, zone, 'yyyy-MM-dd HH:mm:ss'), forumIso(ms, zone)]));
}

/**
 * Every 3 hours and 7 minutes over the kept span (odd seconds, milliseconds and fractions included), every 15 minutes
 * for a day either side of each kept change and a second and a millisecond either side of it, the span's ends.
 */
function instantsOver(z: ZoneOffsets): number[] {
  const out: number[] = [z.to];
  for (let t = z.starts[0]; t <= z.to; t += 11_220_000) out.push(t, t + 61_237, t - 1000.5);
  for (const s of z.starts) {
    for (let t = s - 86_400_000; t <= s + 86_400_000; t += 900_000) out.push(t);
    out.push(s - 1000, s - 1, s - 0.5, s, s + 0.5, s + 1, s + 999, s + 1000);
  }
  return out.filter((t) => t >= z.starts[0] && t <= z.to);
}

describe('kept zone offsets', () => {
  test.each(SPANS)('%s %s – %s: the same clock, times and ISO text as Intl at every instant tried', (zone, from, to) => {
    const z = zoneOffsets(zone, Date.parse(`${from}T00:00:00Z`), Date.parse(`${to}T00:00:00Z`))!;
    expect(z).not.toBeNull();
    const instants = instantsOver(z);
    const expected = intlAnswers(zone, instants);
    expect(keepZoneOffsets(z)).toBe(true);
    expect(instants.every((t) => keptOffset(zone, t) !== undefined)).toBe(true);
    const kept = instants.map((ms) => JSON.stringify([forumClock(ms, zone), forumTime(ms, zone), forumFormat(ms, zone, 'yyyy-MM-dd HH:mm:ss'), forumIso(ms, zone)]));
    expect(kept).toEqual(expected);
  });

  test.each(SPANS)("%s %s – %s: the hour and the hour's start luxon gives, at every instant tried (a chart's hour ticks)", (zone, from, to) => {
    const z = zoneOffsets(zone, Date.parse(`${from}T00:00:00Z`), Date.parse(`${to}T00:00:00Z`))!;
    // around each change every 5 minutes (the hour after a skipped or repeated one), and the hours themselves
    const instants = instantsOver(z).filter((t) => Number.isInteger(t));
    for (const s of z.starts) for (let t = s - 3 * 3_600_000; t <= s + 3 * 3_600_000; t += 300_000) if (t >= z.starts[0] && t <= z.to) instants.push(t);
    const luxon = instants.map((ms) => [DateTime.fromMillis(ms, { zone }).hour, DateTime.fromMillis(ms, { zone }).startOf('hour').toMillis()]);
    expect(keepZoneOffsets(z)).toBe(true);
    expect(instants.map((ms) => [forumHour(ms, zone), forumHourStart(ms, zone)])).toEqual(luxon);
  });

  test("the hour is the kept table's where it holds whole minutes (no luxon), luxon's where not", () => {
    const from = Date.UTC(2026, 11, 1);
    keepZoneOffsets({ zone: 'Asia/Shanghai', fixed: false, to: from + 86_400_000, starts: [from], offsets: [9 * 3_600_000] }); // (not Shanghai's)
    expect([forumHour(from, 'Asia/Shanghai'), forumHourStart(from + 1_800_000, 'Asia/Shanghai')]).toEqual([9, from]);
    keepZoneOffsets({ zone: 'Asia/Shanghai', fixed: false, to: from + 86_400_000, starts: [from], offsets: [9 * 3_600_000 + 1000] });
    expect([forumHour(from, 'Asia/Shanghai'), forumHourStart(from + 1_800_000, 'Asia/Shanghai')]).toEqual([8, from]);
  });

  test('the changes are found to the second (New York 2026, China 1986–88)', () => {
    const ny = zoneOffsets('America/New_York', Date.UTC(2026, 0, 1), Date.UTC(2026, 11, 1))!;
    expect(ny.starts.slice(1).map((t) => new Date(t).toISOString())).toEqual(['2026-03-08T07:00:00.000Z', '2026-11-01T06:00:00.000Z']);
    expect(ny.offsets).toEqual([-5, -4, -5].map((h) => h * 3_600_000));
    const cn = zoneOffsets('Asia/Shanghai', Date.UTC(1986, 2, 1), Date.UTC(1988, 10, 1))!;
    expect(cn.starts.length).toBe(1 + 2 * 3); // summer time each year 1986–1988
    expect(cn.fixed).toBe(false);
    expect(zoneOffsets('UTC', Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 2))!.fixed).toBe(true);
  });

  test('outside the kept span, or another zone, is not answered from it: Intl answers', () => {
    const z = zoneOffsets('Asia/Shanghai', Date.UTC(2026, 11, 1), Date.UTC(2026, 11, 10))!;
    keepZoneOffsets(z);
    const before = z.starts[0] - 1;
    const after = z.to + 1;
    expect(keptOffset('Asia/Shanghai', before)).toBeUndefined();
    expect(keptOffset('Asia/Shanghai', after)).toBeUndefined();
    expect(keptOffset('Asia/Tokyo', Date.UTC(2026, 11, 5))).toBeUndefined();
    // China's summer time, long before the kept span, still right
    const summer1988 = Date.UTC(1988, 6, 1, 4);
    expect(forumClock(summer1988, 'Asia/Shanghai')).toMatchObject({ hour: '13' });
  });

  test('a zone Intl does not know, or a span of years (a mistyped year), has no offsets; a table that is not well-formed is not kept', () => {
    expect(zoneOffsets('Mars/Olympus_Mons', Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 2))).toBeNull();
    expect(zoneOffsets('Asia/Shanghai', Date.UTC(2026, 0, 1), Date.UTC(2062, 0, 2))).toBeNull();
    const good = zoneOffsets('Asia/Shanghai', Date.UTC(2026, 11, 1), Date.UTC(2026, 11, 10))!;
    const bad: unknown[] = [
      null,
      'Asia/Shanghai',
      { ...good, fixed: undefined },
      { ...good, starts: [] , offsets: [] },
      { ...good, offsets: [28_800_000, 0] },
      { ...good, offsets: [28_800_500] },
      { ...good, starts: [good.to + 1] },
      { ...good, starts: [good.starts[0], good.starts[0]], offsets: [0, 0] },
      { ...good, to: 1e20 },
    ];
    for (const z of bad) expect(keepZoneOffsets(z), JSON.stringify(z)).toBe(false);
    expect(keptOffset('Asia/Shanghai', Date.UTC(2026, 11, 5))).toBeUndefined();
  });

  test("the game's span: its days' windows and its events' times", () => {
    expect(gameSpan({ days: [{ opens: 10, closes: 20 }, { opens: 30, closes: 40 }], events: [{ out: 5 }, { idiot: 45 }, {}] })).toEqual([5, 45]);
    expect(gameSpan({ days: [], events: [] })).toBeNull();
  });
});
