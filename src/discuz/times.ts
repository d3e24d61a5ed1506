/**
 * Post times as Discuz prints them (discuz-notes.md "Time"): absolute "2026-11-22 13:00:27" (Y-n-j H:i:s,
 * no zero padding, seconds optional), or relative (刚刚, N 秒前, N 分钟前, 半小时前, N 小时前,
 * 昨天 HH:MM, 前天 HH:MM, N 天前) whose span title holds the full time when Discuz printed one.
 * Everything is read in the forum's zone (Asia/Shanghai unless configured), never the machine's.
 */
import { DateTime } from 'luxon';

/** The forum zone used when none is configured: Discuz's default timeoffset is +8. */
export const DEFAULT_FORUM_ZONE = 'Asia/Shanghai';

/** A resolved post time. */
export interface ResolvedTime {
  /** ISO 8601 with the forum offset. For a relative time: the latest instant the text allows. */
  iso: string;
  precision: 'minute' | 'second';
  source: 'absolute' | 'title' | 'relative';
  /** For a relative time without a title: the earliest instant the text allows (else null). */
  earliest: string | null;
}

const ABS = /(\d{4})-(\d{1,2})-(\d{1,2})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?/;

/** ISO 8601 with a numeric offset always ("+00:00", never "Z"), like the fast path below. */
function iso(dt: DateTime): string {
  const s = dt.toISO({ suppressMilliseconds: true })!;
  return s.endsWith('Z') ? s.slice(0, -1) + '+00:00' : s;
}

// Luxon resolves an IANA zone's offset through Intl on every call, which dominated the per-post cost.
// The offset of a wall-clock hour in a zone never changes, so it is cached per zone and hour.
const offsetCache = new Map<string, number | null>();

function zoneOffsetAt(zone: string, y: number, mo: number, d: number, h: number): number | null {
  const key = `${zone}|${y}-${mo}-${d}-${h}`;
  let off = offsetCache.get(key);
  if (off === undefined) {
    const dt = DateTime.fromObject({ year: y, month: mo, day: d, hour: h, minute: 30 }, { zone });
    off = dt.isValid && dt.hour === h ? dt.offset : null; // null: a DST gap or ambiguity, take the slow path
    if (offsetCache.size > 100_000) offsetCache.clear();
    offsetCache.set(key, off);
  }
  return off;
}

const p2 = (n: number) => (n < 10 ? '0' : '') + n;

/** ISO 8601 for a wall-clock time in a zone, fast path (cached offset), else luxon. */
export function wallIso(zone: string, y: number, mo: number, d: number, h: number, mi: number, s: number): string | null {
  const off = zoneOffsetAt(zone, y, mo, d, h);
  if (off !== null && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h < 24 && mi < 60 && s < 60) {
    const check = new Date(Date.UTC(y, mo - 1, d));
    if (check.getUTCDate() === d) {
      const a = Math.abs(off);
      const sign = off >= 0 ? '+' : '-';
      return `${y}-${p2(mo)}-${p2(d)}T${p2(h)}:${p2(mi)}:${p2(s)}${sign}${p2(Math.floor(a / 60))}:${p2(a % 60)}`;
    }
    return null;
  }
  const dt = DateTime.fromObject({ year: y, month: mo, day: d, hour: h, minute: mi, second: s }, { zone });
  return dt.isValid ? iso(dt) : null;
}

/** ISO string for an absolute Discuz time ("2026-11-22 20:30") in the zone, or null. */
export function absoluteIso(text: string, zone: string): string | null {
  return absoluteFast(text, zone)?.iso ?? null;
}

function absoluteFast(text: string, zone: string): { iso: string; precision: 'minute' | 'second' } | null {
  const m = ABS.exec(text);
  if (!m) return null;
  const out = wallIso(zone, +m[1], +m[2], +m[3], +m[4], +m[5], m[6] ? +m[6] : 0);
  return out ? { iso: out, precision: m[6] ? 'second' : 'minute' } : null;
}

/**
 * Resolve a relative Discuz time against the fetch time, following Discuz's dgmdate() 'u' format:
 * "N 小时前" means N to N+1 hours before the render, "半小时前" 30 to 60 minutes, "N 天前" the whole
 * calendar day N days back. Returns null when the text is not a relative time.
 */
export function parseRelative(text: string, fetchedAt: Date, zone: string): ResolvedTime | null {
  const t = text.replace(/\u00a0/g, ' ').replace(/\s+/g, ' ').trim();
  const now = DateTime.fromJSDate(fetchedAt, { zone });
  const exact = (dt: DateTime, precision: 'minute' | 'second'): ResolvedTime => ({
    iso: iso(dt),
    precision,
    source: 'relative',
    earliest: iso(dt),
  });
  const range = (latest: DateTime, earliest: DateTime, precision: 'minute' | 'second' = 'minute'): ResolvedTime => ({
    iso: iso(latest),
    precision,
    source: 'relative',
    earliest: iso(earliest),
  });
  let m: RegExpExecArray | null;
  if (/^刚刚$/.test(t)) return exact(now.startOf('second'), 'second');
  if ((m = /^(\d+) ?秒前$/.exec(t))) return exact(now.minus({ seconds: +m[1] }).startOf('second'), 'second');
  if ((m = /^(\d+) ?分钟前$/.exec(t))) {
    const n = +m[1];
    return range(now.minus({ minutes: n }).startOf('second'), now.minus({ minutes: n + 1 }).startOf('second'));
  }
  if (/^半小时前$/.test(t)) return range(now.minus({ minutes: 30 }).startOf('second'), now.minus({ minutes: 60 }).startOf('second'));
  if ((m = /^(\d+) ?小时前$/.exec(t))) {
    const n = +m[1];
    return range(now.minus({ hours: n }).startOf('second'), now.minus({ hours: n + 1 }).startOf('second'));
  }
  if ((m = /^(昨天|前天) ?(\d{1,2}):(\d{2})$/.exec(t))) {
    const back = m[1] === '昨天' ? 1 : 2;
    const dt = now.startOf('day').minus({ days: back }).set({ hour: +m[2], minute: +m[3] });
    return exact(dt, 'minute');
  }
  if ((m = /^(\d+) ?天前$/.exec(t))) {
    const day = now.startOf('day').minus({ days: +m[1] });
    return range(day.endOf('day').startOf('minute'), day);
  }
  return null;
}

/**
 * A post time from the time element: prefer the title attribute (full time), else an absolute time in
 * the text, else a relative time resolved against fetchedAt. Null when nothing readable is there.
 */
export function resolvePostTime(
  title: string | null,
  text: string,
  fetchedAt: Date,
  zone: string,
): ResolvedTime | null {
  if (title) {
    const a = absoluteFast(title, zone);
    if (a) return { iso: a.iso, precision: a.precision, source: 'title', earliest: null };
  }
  const a = absoluteFast(text, zone);
  if (a) return { iso: a.iso, precision: a.precision, source: 'absolute', earliest: null };
  const cleaned = text.replace(/^\s*发表于\s*/, '');
  return parseRelative(cleaned, fetchedAt, zone);
}
