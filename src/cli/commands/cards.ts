import type { Command } from 'commander';

/** Placeholder until the cards command lands. */
export function register(_program: Command): void {}
