/**
 * The nearest real name to what somebody wrote, as a hint in error messages and rejected-ballot
 * reasons ("未知的投票对象 包了 — did you mean 包子?"). Never used to count anything.
 */
import { normalizeName } from './normalize.js';

/** Edit distance between two strings, by code point. */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[y.length];
}

/** The closest candidate within half the name's length in edits, or null when none is close. */
export function nearestName(written: string, candidates: readonly string[]): string | null {
  const w = normalizeName(written);
  let best: string | null = null;
  let bestD = Infinity;
  for (const c of candidates) {
    const n = normalizeName(c);
    const d = n.includes(w) || w.includes(n) ? Math.abs(n.length - w.length) * 0.5 : editDistance(w, n);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  const limit = Math.max(1, Math.ceil([...w].length / 2));
  return best !== null && bestD <= limit ? best : null;
}
