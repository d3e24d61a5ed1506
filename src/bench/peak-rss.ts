/**
 * A process's peak resident memory, its own: on Linux the memory map's high-water mark (VmHWM in
 * /proc/self/status), which starts afresh at exec. getrusage's maxRSS (process.resourceUsage) is kept
 * across exec there, so a command spawned by the bench started from the bench's own peak (every command
 * under ~70 MB printed ~69 MB, the floor included). Elsewhere, maxRSS.
 */
import { readFileSync } from 'node:fs';

/** Peak resident set size of this process so far, in KiB. */
export function peakRssKiB(): number {
  if (process.platform === 'linux') {
    try {
      const hwm = /^VmHWM:\s*(\d+)\s*kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
      if (hwm) return Number(hwm[1]);
    } catch {
      // (no /proc: maxRSS below)
    }
  }
  return process.resourceUsage().maxRSS;
}
