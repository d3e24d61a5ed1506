/**
 * How far V8 lets the heap grow, bounded for bansha's processes (issue #16: "memory bounded by the work
 * of one thread, not the game"): the old generation between two full collections, and the young one.
 *
 * After a full collection V8 lets the old generation grow to a multiple of what survived before
 * collecting again. Reading a page builds its parse5 tree, which outlives a young-generation collection
 * or two and dies in the old generation, so an unbounded crawl's resident memory is several times what
 * it really holds. The growth is capped (to about one long thread's worth), which bounds the crawl's
 * memory by a thread, as the issue asks, at no extra CPU. Set once at start-up by the CLI and the
 * bench's pipeline child, not by the library: a program embedding bansha keeps its own heap settings.
 *
 * The young generation (two semi-spaces) starts small and V8 doubles it each time a scavenge finds it
 * busy — which a command reading a thread's posts (all of them survive: they are its data) always does.
 * It is kept at its first size: a survivor is promoted a little sooner, and every command's peak memory
 * is lower for the same CPU. The figures: docs/performance.md ("Why the heap and compiler settings").
 */
import v8 from 'node:v8';

/** The old generation may grow by this share of what survived the last full collection (V8's own: up to 300%). */
export const HEAP_GROWING_PERCENT = 50;

/** The young generation grows by this factor when it is busy (V8's own: 2; 1 keeps it at its first size). */
export const SEMI_SPACE_GROWTH_FACTOR = 1;

/** Cap V8's heap growth for this process (heuristic flags V8 reads at every collection). */
export function boundHeapGrowth(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  v8.setFlagsFromString(`--semi-space-growth-factor=${SEMI_SPACE_GROWTH_FACTOR}`);
}
