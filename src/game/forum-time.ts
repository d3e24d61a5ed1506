/**
 * Forum-local times as directors write them ("2026-11-22 21:00", seconds optional, no zero padding
 * needed) in the game's zone — whatever the machine's own zone is.
 */
import { DateTime } from 'luxon';

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
