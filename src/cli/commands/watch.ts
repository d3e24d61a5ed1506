import type { Command } from 'commander';

/** Placeholder until the watch command lands. */
export function register(_program: Command): void {}
