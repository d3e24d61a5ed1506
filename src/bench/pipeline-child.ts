/**
 * The pipeline run in a process of its own, so its peak memory is the pipeline's and nothing else's:
 * `node dist/bench/pipeline-child.js POSTS [CHECKPOINT...]` builds the synthetic game of POSTS posts,
 * runs src/bench/pipeline.ts over it and prints the PipelineResult as one JSON line on stdout.
 */
import { runPipeline } from './pipeline.js';
import { synthGame } from './synth-game.js';

const [postsArg, ...rest] = process.argv.slice(2);
const posts = Number(postsArg);
if (!Number.isInteger(posts) || posts < 1) {
  process.stderr.write('usage: pipeline-child.js POSTS [CHECKPOINT...]\n');
  process.exit(2);
}
const game = synthGame({ posts });
const result = await runPipeline(game, { checkpoints: rest.map(Number).filter((n) => n > 0) });
process.stdout.write(JSON.stringify(result) + '\n');
