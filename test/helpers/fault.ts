/**
 * A fault served by the replay server (src/replay/server.ts) for the length of one run — a close, a crawl,
 * a watch while a thread answers 503 — and cleared after it whether the run returns or throws, so the
 * next test meets a healthy forum.
 */
import type { FaultRule, ReplayServer } from '../../src/replay/server.js';

/** `run`'s value, with `rules` served while it runs (and none after). */
export async function withFault<T>(server: Pick<ReplayServer, 'setFault'>, rules: FaultRule | readonly FaultRule[], run: () => Promise<T>): Promise<T> {
  server.setFault(...(Array.isArray(rules) ? rules : [rules as FaultRule]));
  try {
    return await run();
  } finally {
    server.setFault();
  }
}

/** Thread `tid` (every page, or page `page`) answering HTTP `status`. */
export function threadAnswers(tid: number, status: number, page?: number): FaultRule {
  return { fault: { kind: 'status', status }, path: page === undefined ? `tid=${tid}&` : `tid=${tid}&page=${page}` };
}
