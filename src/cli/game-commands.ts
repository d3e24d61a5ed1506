/**
 * The commands that need a game file (options.ts gameOptions marks them): without -g they read
 * ./game.yaml, or refuse (program.ts). Its own module so that building the program loads no game code.
 */
import type { Command } from 'commander';

export const GAME_COMMANDS = new WeakSet<Command>();
