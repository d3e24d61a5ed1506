#!/usr/bin/env node
/**
 * The `bansha` command: a thin shell over the library. Each command lives in commands/<name>.ts and
 * registers itself; errors surface here as one clear line and a non-zero exit code.
 */
import { Command } from 'commander';
import { commands } from './commands/index.js';
import { reportError } from './errors.js';

const program = new Command();
program
  .name('bansha')
  .description('The director\'s assistant for Discuz! forum mafia games (版杀): crawl, parse, tally, report, elevator floor.')
  .version('0.1.0')
  .showHelpAfterError();

for (const register of commands) register(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  process.exitCode = reportError(err);
});
