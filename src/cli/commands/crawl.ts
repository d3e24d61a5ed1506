import type { Command } from 'commander';

/** Placeholder until the crawl command lands. */
export function register(_program: Command): void {}
