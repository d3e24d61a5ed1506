#!/usr/bin/env node
/**
 * The `bansha` command: a thin shell over the library. Each command lives in commands/<name>.ts and
 * registers itself (program.ts builds them); errors surface as one clear line and an exit code.
 */
import { boundHeapGrowth } from '../heap-growth.js';
import { buildProgram, exitCodeOf } from './program.js';

boundHeapGrowth();

buildProgram(process.argv)
  .then((program) => program.parseAsync(process.argv))
  .catch((err: unknown) => {
    process.exitCode = exitCodeOf(err);
  });
