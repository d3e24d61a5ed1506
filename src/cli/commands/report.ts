import type { Command } from 'commander';

/** Placeholder until the report command lands. */
export function register(_program: Command): void {}
