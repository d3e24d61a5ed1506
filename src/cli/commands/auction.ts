import type { Command } from 'commander';

/** Placeholder until the auction command lands. */
export function register(_program: Command): void {}
