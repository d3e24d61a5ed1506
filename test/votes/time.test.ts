/**
 * forumIso writes what luxon writes (the tally's and report's JSON times): its own formatting from the
 * zone's clock for whole seconds in a named zone, luxon for the rest — checked against luxon over
 * instants from 1900 to 2100 (DST changes, half- and quarter-hour offsets, historical offsets).
 */
import { DateTime } from 'luxon';
import { describe, expect, test } from 'vitest';
import { forumIso } from '../../src/votes/time.js';

const ZONES = ['Asia/Shanghai', 'America/New_York', 'Europe/London', 'Asia/Kolkata', 'Australia/Adelaide', 'America/St_Johns', 'Pacific/Chatham', 'Asia/Kathmandu', 'UTC', 'Etc/GMT+5', 'UTC+8'];
const luxon = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true }) ?? new Date(ms).toISOString();

describe('forumIso', () => {
  test('as luxon writes it, in every zone, whole seconds and not', () => {
    let seed = 16;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const from = Date.UTC(1900, 0, 1);
    const span = Date.UTC(2100, 0, 1) - from;
    for (const zone of ZONES) {
      for (let i = 0; i < 400; i++) {
        const ms = from + Math.floor(next() * span);
        for (const at of [ms - (ms % 1000), ms]) expect(forumIso(at, zone), `${zone} ${at}`).toBe(luxon(at, zone));
      }
    }
  });

  test('around a DST change (New York, 2026-03-08 and 2026-11-01)', () => {
    for (const start of [Date.UTC(2026, 2, 8, 5), Date.UTC(2026, 10, 1, 4)]) {
      for (let m = -90; m <= 90; m += 15) {
        const at = start + m * 60_000;
        expect(forumIso(at, 'America/New_York')).toBe(luxon(at, 'America/New_York'));
      }
    }
  });
});
