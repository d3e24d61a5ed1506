/**
 * The commands that need a game file (options.ts gameOptions marks them): without -g they read
 * ./game.yaml, or refuse (program.ts). Its own module so that building the program loads no game code.
 */
import type { Command } from 'commander';

export const GAME_COMMANDS = new WeakSet<Command>();

/** The game file a command reads when it is given no --game. */
export const DEFAULT_GAME_FILE = 'game.yaml';
