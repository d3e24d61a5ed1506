/**
 * Post times as the tally needs them (rules-spec §3 "on time"): the interval a post's shown time allows
 * (a minute-precision stamp covers the whole minute; a relative "3 小时前" covers [timeEarliest,
 * postedAt]), deadline tests on that interval, and forum-local display. The machine's zone never matters.
 */
import { DateTime } from 'luxon';
import type { SlicePost } from '../store/slice.js';

export interface TimeSpan {
  /** Earliest and latest instant the page's time allows (epoch ms). */
  lo: number;
  hi: number;
  precision: 'second' | 'minute' | 'relative';
}

/** The interval a post's time allows. */
export function timeSpan(p: Pick<SlicePost, 'at' | 'timePrecision' | 'timeEarliest'>): TimeSpan {
  if (p.timeEarliest) {
    const lo = Date.parse(p.timeEarliest);
    if (Number.isFinite(lo) && lo < p.at) return { lo, hi: p.at, precision: 'relative' };
  }
  if (p.timePrecision === 'minute') return { lo: p.at, hi: p.at + 59_999, precision: 'minute' };
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

/** "11-22 20:15" (":ss" added when not zero) in the forum's zone. */
export function forumTime(ms: number, zone: string): string {
  const dt = DateTime.fromMillis(ms, { zone });
  return dt.toFormat(dt.second ? 'MM-dd HH:mm:ss' : 'MM-dd HH:mm');
}

/** ISO 8601 with the forum's offset ("2026-11-22T13:00:00+08:00"). */
export function forumIso(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true }) ?? new Date(ms).toISOString();
}
