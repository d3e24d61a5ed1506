/**
 * The forum zone's UTC offsets over the game's span, read from Intl once and kept with the checked game
 * (src/game/game-cache.ts, keyed on Node's version and zone data): the first Intl call of a process sets
 * up ICU's locale data (more than a warm tally's count of a day costs), so a warm command that finds
 * the offsets kept writes its forum times (src/game/forum-time.ts forumClock) by arithmetic and never touches
 * Intl. An instant outside the kept span, or a zone with nothing kept, is Intl's as before. They are read
 * (src/game/zone-table.ts) only when the game is: a warm command loads neither that nor luxon.
 */
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

/** The game's span: its days' windows and its events' times. */
export function gameSpan(game: { days: ReadonlyArray<{ opens: number; closes: number }>; events: ReadonlyArray<{ out?: number; idiot?: number }> }): [number, number] | null {
  const times = [...game.days.flatMap((d) => [d.opens, d.closes]), ...game.events.flatMap((e) => [e.out, e.idiot])].filter((t): t is number => Number.isFinite(t));
  return times.length ? [Math.min(...times), Math.max(...times)] : null;
}

/** Years the arithmetic is held to Intl over (forumClock's Intl path writes the year as it is). */
export const FIRST = Date.UTC(1000, 0, 1);
export const LAST = Date.UTC(9999, 11, 1);

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
