/**
 * The forum zone's offsets over a span, read from Intl (src/game/zone-offsets.ts keeps them): when the
 * game file is read, never on a warm command.
 */
import { DateTime } from 'luxon';
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
  let clock: Intl.DateTimeFormat;
  try {
    clock = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
  } catch {
    return null;
  }
  const from = Math.max(FIRST, Math.floor((lo - MARGIN) / STEP) * STEP);
  const to = Math.min(LAST, Math.ceil((hi + MARGIN) / STEP) * STEP);
  if (!(from < to && to - from <= LONGEST)) return null;
  /** The offset at `t`, a whole second: the zone's clock read as UTC, minus `t`. */
  const offsetAt = (t: number): number => {
    // "1/22/2026, 20:15:07" (format is 2× formatToParts' speed); the parts when this ICU writes it otherwise
    const m = /^(\d+)\/(\d+)\/(\d+),? (\d+):(\d+):(\d+)$/.exec(clock.format(t));
    const n: Record<string, number> = m ? { month: +m[1], day: +m[2], year: +m[3], hour: +m[4], minute: +m[5], second: +m[6] } : {};
    if (!m) for (const p of clock.formatToParts(t)) if (p.type !== 'literal') n[p.type] = Number(p.value);
    return Date.UTC(n.year, n.month - 1, n.day, n.hour, n.minute, n.second) - t;
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

