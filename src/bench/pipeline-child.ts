/**
 * The pipeline run in a process of its own, so its peak memory is the pipeline's and nothing else's.
 *
 * Forked by the bench (src/bench/main.ts, IPC with `serialization: 'advanced'`): the parent sends
 * `{type: 'start', gameYaml, posts, pages, checkpoints, baselineEvery, dir?}` (dir: keep the store there), then answers each
 * `{type: 'next'}` with `{type: 'batch', pages}` (FetchedPage[]) or `{type: 'end'}`, and the child
 * ends with `{type: 'result', result}` (a PipelineResult). The synthetic game and its page building
 * stay out of this process's memory. The child asks for a batch only when it has finished the last
 * one: building pages in the parent while this process is timed would slow the timed work on a
 * 2-core machine (measured: parse 1.08× htmlparser2 on the batches where the floor ran, 1.37× overall).
 *
 * Standalone: `node dist/bench/pipeline-child.js POSTS [CHECKPOINT...]` builds the game itself and
 * prints the PipelineResult as one JSON line on stdout.
 */
import type { FetchedPage } from '../discuz/types.js';
import { boundHeapGrowth } from '../heap-growth.js';
import { skipMaglev } from '../maglev.js';
import { runPipeline, type PipelineInput, type PipelineResult } from './pipeline.js';
import { synthGame } from './synth-game.js';

/** Parent → child messages. */
export type ToPipelineChild =
  | { type: 'start'; gameYaml: string; posts: number; pages: number; checkpoints: number[]; baselineEvery: number; dir?: string }
  | { type: 'batch'; pages: FetchedPage[] }
  | { type: 'end' };

/** Child → parent messages. */
export type FromPipelineChild = { type: 'next' } | { type: 'result'; result: PipelineResult } | { type: 'error'; message: string };

/** Batches from the parent, each requested when the previous one is done. */
async function* batchesFromParent(): AsyncGenerator<FetchedPage[]> {
  const queue: Array<FetchedPage[] | null> = [];
  let wake: (() => void) | null = null;
  const onMessage = (m: ToPipelineChild): void => {
    if (m.type === 'batch') {
      queue.push(m.pages.map((p) => ({ ...p, fetchedAt: new Date(p.fetchedAt) })));
    } else if (m.type === 'end') queue.push(null);
    wake?.();
  };
  process.on('message', onMessage);
  try {
    for (;;) {
      if (queue.length === 0) process.send!({ type: 'next' } satisfies FromPipelineChild);
      while (queue.length === 0) await new Promise<void>((r) => (wake = r));
      wake = null;
      const next = queue.shift()!;
      if (next === null) return;
      yield next;
    }
  } finally {
    process.off('message', onMessage);
  }
}

async function main(): Promise<void> {
  // as the `bansha` command runs: the pipeline's memory and CPU are the CLI's
  boundHeapGrowth();
  skipMaglev();
  if (process.send) {
    const start = await new Promise<Extract<ToPipelineChild, { type: 'start' }>>((resolve) => {
      const first = (m: ToPipelineChild): void => {
        if (m.type !== 'start') return;
        process.off('message', first);
        resolve(m);
      };
      process.on('message', first);
    });
    const input: PipelineInput = { gameYaml: start.gameYaml, posts: start.posts, pages: start.pages, batches: batchesFromParent() };
    try {
      const result = await runPipeline(input, { checkpoints: start.checkpoints, baselineEvery: start.baselineEvery, dir: start.dir });
      process.send({ type: 'result', result } satisfies FromPipelineChild, () => process.disconnect());
    } catch (e) {
      process.send({ type: 'error', message: (e as Error).stack ?? String(e) } satisfies FromPipelineChild, () => process.disconnect());
    }
    return;
  }
  const [postsArg, ...rest] = process.argv.slice(2);
  const posts = Number(postsArg);
  if (!Number.isInteger(posts) || posts < 1) {
    process.stderr.write('usage: pipeline-child.js POSTS [CHECKPOINT...]\n');
    process.exit(2);
  }
  const result = await runPipeline(synthGame({ posts }), { checkpoints: rest.map(Number).filter((n) => n > 0) });
  process.stdout.write(JSON.stringify(result) + '\n');
}

await main();
