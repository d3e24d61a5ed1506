/**
 * Forum-local time, the game's one clock: times as directors write them in the game file
 * ("2026-11-22 21:00", seconds optional, no zero padding needed), and post times as the tally needs
 * them (rules-spec §3 "on time") — the interval a post's shown time allows (a minute-precision stamp
 * covers the whole minute; a relative "3 小时前" covers [timeEarliest, postedAt]), deadline tests on that
 * interval, and forum-local display. All in the game's zone; the machine's own zone never matters.
 */
import { DateTime } from 'luxon';
import type { SlicePost } from '../store/slice.js';
import { keptFixed, keptOffset } from './zone-offsets.js';
export const FORUM_TIME = /^(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/** Epoch ms of a forum-local time in `zone`, or null when `s` is not such a time (or no such instant). */
export function parseForumTime(s: string, zone: string): number | null {
  const m = FORUM_TIME.exec(s.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((x) => Number(x ?? 0));
  const dt = DateTime.fromObject({ year, month, day, hour, minute, second }, { zone });
  return dt.isValid ? dt.toMillis() : null;
}

/** A time as the game file writes it ("2026-11-22 21:00"), in `zone`: for messages about the file. */
export function formatForumTime(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toFormat('yyyy-MM-dd HH:mm');
}

// Post times: the span a shown time allows, deadline tests on it, forum-local display.

export interface TimeSpan {
  /** Earliest and latest instant the page's time allows (epoch ms). */
  lo: number;
  hi: number;
  precision: 'second' | 'minute' | 'relative';
}

/** How far after a post's time its span may end (a minute-precision stamp covers its whole minute). */
export const SPAN_END_AFTER_MS = 59_999;

/** The interval a post's time allows. */
export function timeSpan(p: Pick<SlicePost, 'at' | 'timePrecision' | 'timeEarliest'>): TimeSpan {
  if (p.timeEarliest) {
    const lo = Date.parse(p.timeEarliest);
    if (Number.isFinite(lo) && lo < p.at) return { lo, hi: p.at, precision: 'relative' };
  }
  if (p.timePrecision === 'minute') return { lo: p.at, hi: p.at + SPAN_END_AFTER_MS, precision: 'minute' };
  return { lo: p.at, hi: p.at, precision: 'second' };
}

export type Certainty = 'yes' | 'no' | 'uncertain';

/** Strictly before `deadline` (closing: 关门 is the first late instant). */
export function strictlyBefore(span: TimeSpan, deadline: number): Certainty {
  if (span.hi < deadline) return 'yes';
  if (span.lo >= deadline) return 'no';
  return 'uncertain';
}

/** At or before `deadline` ("at least 60 minutes before closing" = at or before closing − 60 min). */
export function atOrBefore(span: TimeSpan, deadline: number): Certainty {
  if (span.hi <= deadline) return 'yes';
  if (span.lo > deadline) return 'no';
  return 'uncertain';
}

/** An instant's forum-local date and clock, two digits each (the year as written). */
export interface ForumClock {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

/** One Intl formatter per zone: luxon's toFormat parses its format string on every call, and a tally writes times per ballot. */
const clocks = new Map<string, Intl.DateTimeFormat>();

const two = (n: number): string => String(n).padStart(2, '0');

/** The instant's date and clock in `zone`, or null when Intl does not know the zone. */
export function forumClock(ms: number, zone: string): ForumClock | null {
  // The zone's offsets kept with the checked game (src/game/zone-offsets.ts): Intl's answer without Intl
  // (which, as Date, drops a fraction of a millisecond towards zero first).
  const whole = Math.trunc(ms);
  const offset = keptOffset(zone, whole);
  if (offset !== undefined) {
    const d = new Date(whole + offset);
    return { month: two(d.getUTCMonth() + 1), day: two(d.getUTCDate()), year: String(d.getUTCFullYear()), hour: two(d.getUTCHours()), minute: two(d.getUTCMinutes()), second: two(d.getUTCSeconds()) };
  }
  return intlClock(ms, zone);
}

/** forumClock as Intl reads it (what the kept offsets are read from: src/game/zone-table.ts). */
export function intlClock(ms: number, zone: string): ForumClock | null {
  let clock = clocks.get(zone);
  if (!clock) {
    try {
      clock = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    } catch {
      return null;
    }
    clocks.set(zone, clock);
  }
  // "11/22/2026, 20:15:07" (format is 2× formatToParts' speed); the parts when this ICU writes it otherwise
  const m = /^(\d{2})\/(\d{2})\/(\d+),? (\d{2}):(\d{2}):(\d{2})$/.exec(clock.format(ms));
  if (m) return { month: m[1], day: m[2], year: m[3], hour: m[4], minute: m[5], second: m[6] };
  const parts = clock.formatToParts(ms);
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  return { year: `${part('era') === 'BC' ? '-' : ''}${part('year')}`, month: part('month'), day: part('day'), hour: part('hour'), minute: part('minute'), second: part('second') };
}

/** "20:15" (":07" added when the seconds are not zero). */
export function clockText(c: ForumClock): string {
  return `${c.hour}:${c.minute}${c.second !== '00' ? `:${c.second}` : ''}`;
}

/** "11-22 20:15" (":ss" added when not zero) in the forum's zone. */
export function forumTime(ms: number, zone: string): string {
  const c = forumClock(ms, zone);
  if (!c) {
    // a zone Intl does not know: luxon says so its own way ("Invalid DateTime")
    const dt = DateTime.fromMillis(ms, { zone });
    return dt.toFormat(dt.second ? 'MM-dd HH:mm:ss' : 'MM-dd HH:mm');
  }
  return `${c.month}-${c.day} ${clockText(c)}`;
}

/** The forum-local patterns the reports write (luxon tokens: yyyy year, MM month, dd day, HH hour, mm minute, ss second). */
export type ForumPattern = 'yyyy-MM-dd HH:mm' | 'yyyy-MM-dd HH:mm:ss' | 'MM-dd HH:mm' | 'MM-dd HH:mm:ss' | 'MM-dd' | 'HH:mm';

/**
 * `DateTime.fromMillis(ms, { zone }).toFormat(pattern)` without luxon's per-call cost (a report writes a
 * time per flag and per ballot): the same text; luxon's own when Intl does not know the zone or the year
 * is outside 1000–9999.
 */
export function forumFormat(ms: number, zone: string, pattern: ForumPattern): string {
  const c = forumClock(ms, zone);
  const year = c ? Number(c.year) : NaN;
  if (!c || !(year >= 1000 && year <= 9999)) return DateTime.fromMillis(ms, { zone }).toFormat(pattern);
  return WRITE[pattern](c);
}

/** Each pattern written from the clock's fields (a report writes a few thousand times: no token scan per call). */
const WRITE: Record<ForumPattern, (c: ForumClock) => string> = {
  'yyyy-MM-dd HH:mm': (c) => `${c.year}-${c.month}-${c.day} ${c.hour}:${c.minute}`,
  'yyyy-MM-dd HH:mm:ss': (c) => `${c.year}-${c.month}-${c.day} ${c.hour}:${c.minute}:${c.second}`,
  'MM-dd HH:mm': (c) => `${c.month}-${c.day} ${c.hour}:${c.minute}`,
  'MM-dd HH:mm:ss': (c) => `${c.month}-${c.day} ${c.hour}:${c.minute}:${c.second}`,
  'MM-dd': (c) => `${c.month}-${c.day}`,
  'HH:mm': (c) => `${c.hour}:${c.minute}`,
};

/** The kept offset of `zone` at `ms` in whole minutes (luxon's arithmetic is then exact), else undefined. */
function keptMinuteOffset(zone: string, ms: number): number | undefined {
  const offset = keptOffset(zone, ms);
  return offset !== undefined && offset % 60_000 === 0 ? offset : undefined;
}

const HOUR = 3_600_000;

/**
 * The forum clock's hour at `ms` (0–23), as luxon's `DateTime.fromMillis(ms, { zone }).hour` gives it: from
 * the kept offsets when kept (a report's chart writes one per hour tick: no luxon, no Intl), else luxon's.
 */
export function forumHour(ms: number, zone: string): number {
  const offset = keptMinuteOffset(zone, ms);
  return offset === undefined ? DateTime.fromMillis(ms, { zone }).hour : new Date(ms + offset).getUTCHours();
}

/**
 * The instant the forum clock's hour at `ms` began, as luxon's `DateTime.fromMillis(ms, { zone })
 * .startOf('hour').toMillis()` gives it — its offset guess and correction across a change (fixOffset)
 * done on the kept offsets when they hold every instant it asks about, else luxon's own.
 */
export function forumHourStart(ms: number, zone: string): number {
  const o = keptMinuteOffset(zone, ms);
  if (o !== undefined) {
    const local = ms + o;
    const localStart = local - (((local % HOUR) + HOUR) % HOUR);
    const guess = localStart - o;
    const o2 = keptMinuteOffset(zone, guess);
    if (o2 === o) return guess;
    const corrected = o2 === undefined ? NaN : guess - (o2 - o);
    const o3 = keptMinuteOffset(zone, corrected);
    if (o2 !== undefined && o3 !== undefined) return o3 === o2 ? corrected : localStart - Math.min(o2, o3); // (in a skipped hour)
  }
  return DateTime.fromMillis(ms, { zone }).startOf('hour').toMillis();
}

/** Zones luxon holds as a fixed offset ("UTC"): it writes their zero offset as "Z". */
const fixedZones = new Map<string, boolean>();
const isFixedZone = (zone: string): boolean => {
  let fixed = fixedZones.get(zone);
  // luxon's answer costs an Intl call (it checks the zone name): the kept one, when kept
  if (fixed === undefined) fixedZones.set(zone, (fixed = keptFixed(zone) ?? DateTime.fromMillis(0, { zone }).zone.isUniversal));
  return fixed;
};

/**
 * ISO 8601 with the forum's offset ("2026-11-22T13:00:00+08:00"), as luxon's toISO({ suppressMilliseconds })
 * writes it — from the forum clock (a report writes one per post it lists); luxon's own for a fixed-offset
 * zone, a year outside 1000–9999 or an offset of odd seconds (local mean time before 1900).
 */
export function forumIso(ms: number, zone: string): string {
  const c = Number.isFinite(ms) && !isFixedZone(zone) ? forumClock(ms, zone) : null;
  const year = c ? Number(c.year) : NaN;
  if (c && year >= 1000 && year <= 9999) {
    const milli = ((ms % 1000) + 1000) % 1000;
    // the offset as luxon takes it: the clock read as UTC minus the instant's whole second
    const offset = (Date.UTC(year, Number(c.month) - 1, Number(c.day), Number(c.hour), Number(c.minute), Number(c.second)) - (ms - milli)) / 60_000;
    if (Number.isInteger(offset)) {
      const abs = Math.abs(offset);
      return `${c.year}-${c.month}-${c.day}T${c.hour}:${c.minute}:${c.second}${milli ? `.${String(milli).padStart(3, '0')}` : ''}` +
        `${offset < 0 ? '-' : '+'}${two(Math.trunc(abs / 60))}:${two(abs % 60)}`;
    }
  }
  return DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true }) ?? new Date(ms).toISOString();
}
