import type { Command } from 'commander';

/** Placeholder until the demo command lands. */
export function register(_program: Command): void {}
