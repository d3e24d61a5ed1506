#!/usr/bin/env node
/**
 * The `bansha` command: a thin shell over the library. Each command lives in commands/<name>.ts and
 * registers itself (program.ts builds them); errors surface as one clear line and an exit code.
 */
import { buildProgram, exitCodeOf } from './program.js';

buildProgram(process.argv)
  .then((program) => program.parseAsync(process.argv))
  .catch((err: unknown) => {
    process.exitCode = exitCodeOf(err);
  });
