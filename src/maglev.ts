/**
 * V8's mid-tier compiler, Maglev, kept off for bansha's processes, as Node 20 and 22 ship it; Node 24 turns it
 * on, and there parsing and recording pages (a crawl) costs markedly more CPU and memory with it, mostly
 * compilers' native memory, while the closing commands cost the same either way (the figures:
 * docs/performance.md, "Why the heap and compiler settings"). V8 reads the flag
 * whenever it decides to compile a function, so setting it at start-up holds for the whole process
 * (test/cli/maglev.test.ts checks this on the Node running the tests). Set by the CLI and the bench's pipeline
 * child, not by the library: a program embedding bansha keeps its own compiler settings.
 */
import v8 from 'node:v8';

/** Keep V8 from compiling with Maglev from now on in this process. */
export function skipMaglev(): void {
  v8.setFlagsFromString('--no-maglev');
}
