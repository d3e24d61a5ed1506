/**
 * What the commands share: the parsers of their numeric options, whether stdout gets colour and the
 * game file with the day asked for. (The store opened read-only for a command is src/store/with-store.ts.)
 */
import { loadGameCached } from '../game/game-cache.js';
import { findDay } from '../game/roster.js';
import type { Game, GameDay } from '../game/types.js';
import type { Command } from 'commander';
import { UserError } from '../errors.js';
import { t } from '../i18n/index.js';
import { GAME_COMMANDS } from './game-commands.js';

/** A Commander parser for `--<name> <n>`: a whole number ≥ `min`, else a UserError (exit 2). */
export function wholeNumber(name: string, min = 1): (v: string) => number {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new UserError(t('opt.wholeNumber', name, min, v), 2);
    return n;
  };
}

/** The Commander parser for `--day <n>`: the game day, a whole number ≥ 1. */
export const dayNumber = wholeNumber('day');


/**
 * The options most commands share, with their help text: `-g/--game` (required, but ./game.yaml when
 * it exists: program.ts fills it in before the action runs), `--day` (required), `--store`.
 */
export function gameOptions(cmd: Command, o: { day?: boolean; store?: boolean } = {}): Command {
  GAME_COMMANDS.add(cmd);
  cmd.option('-g, --game <file>', t('opt.game') + t('cli.gameRequired'));
  if (o.day) cmd.requiredOption('--day <n>', t('opt.day') + t('cli.required'), dayNumber);
  if (o.store) cmd.option('--store <path>', t('opt.store'));
  return cmd;
}

/** A usage error when more than one of `flags` is given (`--json`, `--bbcode`…). */
export function oneOf(given: Record<string, unknown>): void {
  const set = Object.entries(given).filter(([, v]) => Boolean(v));
  if (set.length > 1) throw new UserError(t('opt.chooseOne', Object.keys(given).join(', ')), 2);
}

/** Whether output to stdout is coloured: on a terminal, unless NO_COLOR is set. */
export function stdoutColor(): boolean {
  return Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
}

/**
 * The game file `o.game` (its store at `o.store` when given) and its day `o.day` (a UserError when the
 * file has no such day), kept checked between commands (game-cache.ts).
 */
export async function loadGameDay(o: { game: string; store?: string; day: number }): Promise<{ game: Game; day: GameDay }> {
  const game = await loadGameCached(o.game, { store: o.store });
  return { game, day: findDay(game, o.day) };
}

