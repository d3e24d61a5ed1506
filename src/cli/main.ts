#!/usr/bin/env node
/**
 * The `bansha` command: a thin shell over the library. Each command lives in commands/<name>.ts and
 * registers itself, and only the command being run is loaded (commands/index.ts); errors surface here
 * as one clear line and a non-zero exit code.
 */
import { Command } from 'commander';
import { commandsFor } from './commands/index.js';
import { reportError } from './errors.js';

const program = new Command();
program
  .name('bansha')
  .description('The director\'s assistant for Discuz! forum mafia games (版杀): crawl, parse, tally, report, elevator floor.')
  .version('0.1.0')
  .showHelpAfterError();

commandsFor(process.argv.slice(2))
  .then((registers) => {
    for (const register of registers) register(program);
    return program.parseAsync(process.argv);
  })
  .catch((err: unknown) => {
    process.exitCode = reportError(err);
  });
