/**
 * The forum zone's UTC offsets over the game's span, read from Intl once and kept with the checked game
 * (src/game/game-cache.ts, keyed on Node's version and zone data): the first Intl call of a process sets
 * up ICU's locale data (~12 ms, more than a warm tally's count of a day), so a warm command that finds
 * the offsets kept writes its forum times (src/votes/time.ts forumClock) by arithmetic and never touches
 * Intl. An instant outside the kept span, or a zone with nothing kept, is Intl's as before.
 */
import { DateTime } from 'luxon';

/** The offsets of one zone: `offsets[i]` (ms to add to UTC) holds from `starts[i]` until `starts[i + 1]`, the last one until `to`. */
export interface ZoneOffsets {
  zone: string;
  /** luxon holds the zone as a fixed offset ("UTC"; it then writes a zero offset as "Z"). */
  fixed: boolean;
  /** The span covered, [starts[0], to] in epoch ms. */
  to: number;
  starts: number[];
  offsets: number[];
}

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
/** Years the arithmetic is held to Intl over (forumClock's Intl path writes the year as it is). */
const FIRST = Date.UTC(1000, 0, 1);
const LAST = Date.UTC(9999, 11, 1);

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
      starts.push(changed);
      offsets.push(offsetAt(changed));
      known = changed;
    }
    known = next;
    if (next === to) break;
  }
  return { zone, fixed: DateTime.fromMillis(0, { zone }).zone.isUniversal, to, starts, offsets };
}

/** The game's span: its days' windows and its events' times. */
export function gameSpan(game: { days: ReadonlyArray<{ opens: number; closes: number }>; events: ReadonlyArray<{ out?: number; idiot?: number }> }): [number, number] | null {
  const times = [...game.days.flatMap((d) => [d.opens, d.closes]), ...game.events.flatMap((e) => [e.out, e.idiot])].filter((t): t is number => Number.isFinite(t));
  return times.length ? [Math.min(...times), Math.max(...times)] : null;
}

/** The kept offsets by zone (one span each: the last game's). */
const kept = new Map<string, ZoneOffsets>();

/** Keeps `z` for this process when it is well-formed (it comes from a cache file); says whether it was kept. */
export function keepZoneOffsets(z: unknown): boolean {
  const ok = typeof z === 'object' && z !== null && typeof (z as ZoneOffsets).zone === 'string' && typeof (z as ZoneOffsets).fixed === 'boolean' && wellFormed(z as ZoneOffsets);
  if (ok) kept.set((z as ZoneOffsets).zone, z as ZoneOffsets);
  return ok;
}

function wellFormed({ to, starts, offsets }: ZoneOffsets): boolean {
  if (!Array.isArray(starts) || !Array.isArray(offsets) || starts.length === 0 || starts.length !== offsets.length || !Number.isInteger(to)) return false;
  for (let i = 0; i < starts.length; i++) {
    if (!Number.isInteger(starts[i]) || starts[i] < FIRST || starts[i] > to || !Number.isInteger(offsets[i]) || offsets[i] % 1000 !== 0 || Math.abs(offsets[i]) > 86_400_000) return false;
    if (i > 0 && starts[i] <= starts[i - 1]) return false;
  }
  return to <= LAST;
}

/** Whether luxon holds `zone` as a fixed offset, when its offsets are kept. */
export function keptFixed(zone: string): boolean | undefined {
  return kept.get(zone)?.fixed;
}

/** The kept offset of `zone` at `ms`, or undefined when nothing kept covers it. */
export function keptOffset(zone: string, ms: number): number | undefined {
  const z = kept.get(zone);
  if (!z || !(ms >= z.starts[0] && ms <= z.to)) return undefined;
  let i = z.starts.length - 1;
  while (z.starts[i] > ms) i--;
  return z.offsets[i];
}

/** Forgets every kept offset (tests). */
export function forgetZoneOffsets(): void {
  kept.clear();
}
