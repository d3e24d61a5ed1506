/**
 * What the commands share: the parsers of their numeric options, whether stdout gets colour, the
 * game file with the day asked for, and the game's evidence store opened read-only — for a counting
 * command (tally, report, auction), only once every thread the count reads is stored and completely
 * crawled, unless --allow-incomplete.
 */
import { loadGame } from '../game/game-file.js';
import { findDay } from '../game/roster.js';
import type { Game, GameDay } from '../game/types.js';
import { assertComplete, completeness, openStore } from '../store/index.js';
import type { Completeness, StoreData } from '../store/types.js';
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

/** The game file `o.game` (its store at `o.store` when given) and its day `o.day` (a UserError when the file has no such day). */
export function loadGameDay(o: { game: string; store?: string; day: number }): { game: Game; day: GameDay } {
  const game = loadGame(o.game, { store: o.store });
  return { game, day: findDay(game, o.day) };
}

/**
 * Opens the game's store read-only (no lock: a crawl may be writing) — only the threads `tids` when
 * given, so a command parses what it reads and nothing else — hands its data to `use`, and closes it.
 */
export async function withStore<T>(game: Game, use: (store: StoreData) => T | Promise<T>, tids?: readonly number[]): Promise<T> {
  const store = await openStore(game.storePath, { lock: false, forum: game.forum, threads: tids });
  try {
    return await use(store.data);
  } finally {
    await store.close();
  }
}

/** What a counting command reads and how strict it is about it. */
export interface CountingStoreOptions {
  /** The threads the count reads. */
  tids: number[];
  /** The threads to open (default `tids`): a superset, for a command that also reads threads it does not count. */
  load?: readonly number[];
  /** --allow-incomplete: count even when a thread's crawl has gaps (or it is not stored at all). */
  allowIncomplete?: boolean;
  /**
   * The refusal when some of `tids` are not in the store, or undefined to go on without them. Default:
   * "thread(s) … not in the store … yet: run `bansha crawl`" (exit 3), unless --allow-incomplete.
   */
  notStored?: (missing: number[]) => UserError | undefined;
}

/**
 * The game's store, read-only, for a counting command: refuses (exit 3) when a thread of `opts.tids`
 * is not stored (see `notStored`) or, unless --allow-incomplete, is incompletely crawled; then hands
 * the store's data to `use` with what is missing (empty unless --allow-incomplete let gaps through:
 * the outputs must say so) and closes the store.
 */
export async function withCountingStore<T>(game: Game, opts: CountingStoreOptions, use: (store: StoreData, incomplete: Completeness[]) => T | Promise<T>): Promise<T> {
  return withStore(game, (store) => {
    const stored = opts.tids.filter((tid) => store.threads[String(tid)]);
    const missing = opts.tids.filter((tid) => !store.threads[String(tid)]);
    if (missing.length) {
      const refusal = opts.notStored
        ? opts.notStored(missing)
        : opts.allowIncomplete
          ? undefined
          : new UserError(t('opt.notStored', missing.join(', '), game.storePath, game.file), 3);
      if (refusal) throw refusal;
    }
    assertComplete(store, stored, { allowIncomplete: opts.allowIncomplete });
    return use(store, opts.tids.map((tid) => completeness(store, tid)).filter((c) => !c.complete));
  }, opts.load ? [...new Set([...opts.tids, ...opts.load])] : opts.tids);
}
