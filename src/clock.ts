/**
 * "Now", as every command reads it: the machine's clock, or — for a rehearsal and for tests — the
 * moment BANSHA_NOW names (ISO 8601 with an offset, or epoch ms), from which the clock then runs on.
 * Only the commands read it (src/cli/commands, the closing job src/close/index.ts); the pure code from
 * the store on is given the moment as an argument (a count's `at`, a page's fetch time).
 */
import { UserError } from './errors.js';
import { t } from './i18n/index.js';

/** A clock: what time it is, epoch ms. */
export interface Clock {
  now(): number;
}

/** The moment BANSHA_NOW names (epoch ms), null when unset; a value that is no moment is bad input (exit 2). */
export function fixedNow(env: NodeJS.ProcessEnv = process.env): number | null {
  const raw = env.BANSHA_NOW?.trim();
  if (!raw) return null;
  const ms = /^\d{10,}$/.test(raw) ? Number(raw) : /(Z|[+-]\d{2}:?\d{2})$/i.test(raw) ? Date.parse(raw) : NaN;
  if (!Number.isFinite(ms)) throw new UserError(t('clock.badNow', raw));
  return ms;
}

/** The clock of this process: BANSHA_NOW's moment plus the time run since it was first read, else the machine's. */
export function systemClock(env: NodeJS.ProcessEnv = process.env): Clock {
  const base = fixedNow(env);
  if (base === null) return { now: () => Date.now() };
  const started = Date.now();
  return { now: () => base + (Date.now() - started) };
}

/** Now, by the process clock (BANSHA_NOW read on each call: a test may set it between commands). */
export function now(): number {
  return systemClock().now();
}
