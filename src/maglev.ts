/**
 * V8's mid-tier compiler, Maglev, kept off for bansha's processes, as Node 20 and 22 ship it; Node 24 turns it
 * on. On Node 24 the pipeline over the bench's 50,000-post game (pages parsed and recorded one thread at a
 * time, as a crawl does) took 120–135 s of CPU with Maglev and 71 s without, and peaked at 315–324 MB of RSS
 * against 271–292. Most of the difference is compilers' native memory, not heap. The closing commands
 * (`tally`, `report` rerun right after posts, a first `report`) took the same time either way. V8 reads the flag
 * whenever it decides to compile a function, so setting it at start-up holds for the whole process
 * (test/cli/maglev.test.ts checks this on the Node running the tests). Set by the CLI and the bench's pipeline
 * child, not by the library: a program embedding bansha keeps its own compiler settings.
 */
import v8 from 'node:v8';

/** Keep V8 from compiling with Maglev from now on in this process. */
export function skipMaglev(): void {
  v8.setFlagsFromString('--no-maglev');
}
