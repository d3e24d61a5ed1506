import type { Command } from 'commander';

/** Placeholder until the parse command lands. */
export function register(_program: Command): void {}
