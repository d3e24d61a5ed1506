/**
 * The one step that marks a count with the threads gone from the forum whose kept versions the
 * director's ruling accepted (TallyResult.gone, which every view names first: src/render/incomplete.ts).
 * They are src/crawl/freshness.ts goneThreads of the count's freshness — none before the close — and
 * every count from the store ends with this step: countFromStore, tallyResult and closingDayFromStore
 * take them as a required option (`gone`), so no command can forget them.
 */
import type { StaleThread, TallyResult } from '../votes/types.js';

/** `result` with `gone` set on it (when there are any); returned. */
export function markGone<T extends TallyResult | null>(result: T, gone: readonly StaleThread[]): T {
  if (result && gone.length) result.gone = [...gone];
  return result;
}
