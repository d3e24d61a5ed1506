/**
 * The forum zone's offsets over a span, read from Intl (src/game/zone-offsets.ts keeps them): when the
 * game file is read, never on a warm command.
 */
import { DateTime } from 'luxon';
import { intlClock } from './forum-time.js';
import { FIRST, LAST, type ZoneOffsets } from './zone-offsets.js';

/**
 * How far apart the offsets are sampled; a change between two samples is then found to the second.
 * Two changes within one step that cancel out would be missed: the zone data has none (rules change
 * months apart; the shortest-lived offsets held for days).
 */
const STEP = 3_600_000;
/** Kept beyond the game's first and last day: sign-up posts before it, a report run after it. */
const MARGIN = 40 * 86_400_000;
/** A longer span (a mistyped year in the game file) keeps nothing: reading it hour by hour would cost more than Intl saves. */
const LONGEST = 3 * 366 * 86_400_000;

/** The zone's offsets over [lo − 40 days, hi + 40 days], or null when Intl does not know the zone (or the span is too long). */
export function zoneOffsets(zone: string, lo: number, hi: number): ZoneOffsets | null {
  if (!intlClock(0, zone)) return null;
  const from = Math.max(FIRST, Math.floor((lo - MARGIN) / STEP) * STEP);
  const to = Math.min(LAST, Math.ceil((hi + MARGIN) / STEP) * STEP);
  if (!(from < to && to - from <= LONGEST)) return null;
  /** The offset at `t`, a whole second: the zone's clock read as UTC, minus `t`. */
  const offsetAt = (t: number): number => {
    const c = intlClock(t, zone)!;
    const n = (part: string): number => (part === '' ? NaN : Number(part)); // (a part this ICU did not write: unreadable)
    return Date.UTC(n(c.year), n(c.month) - 1, n(c.day), n(c.hour), n(c.minute), n(c.second)) - t;
  };
  const starts = [from];
  const offsets = [offsetAt(from)];
  let known = from;
  for (let next = Math.min(from + STEP, to); ; next = Math.min(next + STEP, to)) {
    const atNext = offsetAt(next);
    if (!Number.isInteger(atNext) || !Number.isInteger(offsets[0])) return null; // a clock this code cannot read: Intl's own
    while (atNext !== offsets[offsets.length - 1]) {
      // a change in (known, next]: halve to its first second
      let same = known;
      let changed = next;
      while (changed - same > 1000) {
        const mid = same + Math.floor((changed - same) / 2000) * 1000;
        if (offsetAt(mid) === offsets[offsets.length - 1]) same = mid;
        else changed = mid;
      }
      const offset = offsetAt(changed);
      if (!Number.isInteger(offset)) return null;
      starts.push(changed);
      offsets.push(offset);
      known = changed;
    }
    known = next;
    if (next === to) break;
  }
  return { zone, fixed: DateTime.fromMillis(0, { zone }).zone.isUniversal, to, starts, offsets };
}

