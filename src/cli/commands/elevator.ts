import type { Command } from 'commander';

/** Placeholder until the elevator command lands. */
export function register(_program: Command): void {}
