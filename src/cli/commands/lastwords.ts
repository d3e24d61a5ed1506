import type { Command } from 'commander';

/** Placeholder until the lastwords command lands. */
export function register(_program: Command): void {}
