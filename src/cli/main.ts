#!/usr/bin/env node
/**
 * The `bansha` command: a thin shell over the library. Each command lives in commands/<name>.ts and
 * registers itself (program.ts builds them); errors surface as one clear line and an exit code.
 */
import { boundHeapGrowth } from '../heap-growth.js';
import { skipMaglev } from '../maglev.js';
import { buildProgram, exitCodeOf } from './program.js';

boundHeapGrowth();
skipMaglev();

// A reader that stops early (`bansha tally | head`) closes the pipe: the rest of the output has nowhere
// to go, but the command still finishes its work (a crawl its writes, a report its ledger).
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
});

buildProgram(process.argv)
  .then((program) => program.parseAsync(process.argv))
  .catch((err: unknown) => {
    process.exitCode = exitCodeOf(err);
  });
