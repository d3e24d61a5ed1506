/**
 * How far V8 lets the heap grow, bounded for bansha's processes (issue #16: "memory bounded by the work
 * of one thread, not the game"): the old generation between two full collections, and the young one.
 *
 * After a full collection V8 lets the old generation grow to up to 4× what survived before collecting
 * again. Reading a page builds its parse5 tree, which outlives a young-generation collection or two and
 * dies in the old generation; so a crawl's resident memory was about 4× what it really holds: 466 MB at
 * 200,000 posts for a live heap of ~75 MB (the longest thread, 17,640 posts, held). With the growth
 * capped at 1.5× that thread, recorded alone, peaks at 284 MB instead of 457 (the process's own 150 MB
 * included) in no more CPU (22 s user without, 17 s with: fewer pages touched); the whole crawl part
 * of the bench at 200,000 posts at 278 MB. Set once at start-up by the CLI and the bench's pipeline
 * child, not by the library: a program embedding bansha keeps its own heap settings.
 *
 * The young generation (two semi-spaces) starts at 1 MB a semi-space, and V8 doubles it, up to 16, each
 * time a scavenge finds it busy — which a command reading a thread's posts (all of them survive: they are
 * its data) always does, so every command kept 20–35 MB committed for it. Kept at its first size, a
 * survivor is promoted a little sooner: at 50k posts the warm report peaks at 95 MB instead of 118, the
 * tally at 64 instead of 81, a first-run report at 134 instead of 169, for the same CPU (medians of 5).
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
