import type { Command } from 'commander';

/** Placeholder until the login command lands. */
export function register(_program: Command): void {}
