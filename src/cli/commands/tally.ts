import type { Command } from 'commander';

/** Placeholder until the tally command lands. */
export function register(_program: Command): void {}
