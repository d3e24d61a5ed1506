/**
 * The `bansha` program as the CLI and the tests build it: the language chosen first (help is text
 * too), Commander's own words and usage errors in that language, every command registered with its
 * examples, `-g/--game` defaulting to ./game.yaml when it exists, and one exit code per outcome —
 * usage errors (unknown option, missing --day…) exit 2, help and --version 0.
 */
import fs from 'node:fs';
import { Command, CommanderError, Help, type Option, type Argument } from 'commander';
import { UserError } from '../errors.js';
import { isMessageKey, languageFrom, setLanguage, t, type MessageKey } from '../i18n/index.js';
import { VERSION } from '../version.js';
import { commandsFor } from './commands/index.js';
import { reportError } from './errors.js';
import { DEFAULT_GAME_FILE, GAME_COMMANDS } from './game-commands.js';

/** Where Commander writes help and its usage errors (the tests capture them). */
export interface ProgramOutput {
  writeOut?: (s: string) => void;
  writeErr?: (s: string) => void;
}

export { DEFAULT_GAME_FILE };

const TITLES: Record<string, MessageKey> = {
  'Usage:': 'help.usage',
  'Options:': 'help.options',
  'Commands:': 'help.commands',
  'Arguments:': 'help.arguments',
  'Global Options:': 'help.globalOptions',
};

/** Commander's usage errors in the current language (its own text is English only). */
export function translateUsageError(message: string): string {
  const [first, ...rest] = message.trimEnd().split('\n');
  const similar = rest.map((l) => /^\(Did you mean (?:one of )?(.+)\?\)$/.exec(l)).find((m) => m !== null);
  const hint = similar ? t('usage.didYouMean', similar[1]) : '';
  const others = rest.filter((l) => !/^\(Did you mean/.test(l));
  const rules: Array<[RegExp, (m: RegExpExecArray) => string]> = [
    [/^error: unknown option '([^']+)'/, (m) => t('usage.unknownOption', m[1]) + hint],
    [/^error: unknown command '([^']+)'/, (m) => t('usage.unknownCommand', m[1]) + hint],
    [/^error: missing required argument '([^']+)'/, (m) => t('usage.missingArgument', m[1])],
    [/^error: option '([^']+)' argument missing/, (m) => t('usage.optionArgumentMissing', m[1])],
    [/^error: required option '([^']+)' not specified/, (m) => t('usage.requiredOption', m[1])],
    [/^error: too many arguments/, () => t('usage.tooManyArguments')],
    [/^error: option '([^']+)' argument '(.*)' is invalid\./, (m) => t('usage.invalidValue', m[1], m[2])],
    [/^error: (.+) cannot be used with (.+)$/, (m) => t('usage.conflict', m[1], m[2])],
  ];
  for (const [re, say] of rules) {
    const m = re.exec(first);
    if (m) return [say(m), ...others].join('\n') + '\n';
  }
  return message;
}

/** Commander's help, with its headings and "default:"/"choices:" in the current language. */
function helpConfiguration(): Partial<Help> {
  return {
    styleTitle: (title: string) => (TITLES[title] ? t(TITLES[title]) : title),
    optionDescription(this: Help, option: Option) {
      return localise(Help.prototype.optionDescription.call(this, option));
    },
    argumentDescription(this: Help, argument: Argument) {
      return localise(Help.prototype.argumentDescription.call(this, argument));
    },
  };
}
function localise(description: string): string {
  return description.replace(/\(default: /g, `(${t('help.default')}`).replace(/\(choices: /g, `(${t('help.choices')}`);
}

/** Every command and subcommand of `program`, depth first. */
function allCommands(cmd: Command): Command[] {
  return cmd.commands.flatMap((c) => [c, ...allCommands(c)]);
}

/** A command's examples in the catalogue: "<command>.examples" of its top-level command (cards list → cards). */
function examplesKey(cmd: Command): MessageKey | null {
  let top = cmd;
  while (top.parent && top.parent.parent) top = top.parent;
  const key = `${top.name()}.examples`;
  return isMessageKey(key) ? key : null;
}

/**
 * The program for `argv` (process.argv shape): its language set from --lang or the locale (an
 * unreadable --lang is a usage error, exit 2), then the commands it needs registered (only the one
 * named, so a command loads only what it uses: commands/index.ts).
 */
export async function buildProgram(argv: readonly string[], out: ProgramOutput = {}, env: NodeJS.ProcessEnv = process.env): Promise<Command> {
  const lang = languageFrom(argv.slice(2), env);
  setLanguage(typeof lang === 'string' ? lang : 'zh');
  const writeErr = out.writeErr ?? ((s: string) => process.stderr.write(s));
  const program = new Command()
    .name('bansha')
    .description(t('cli.description'))
    .version(VERSION, '-V, --version', t('cli.version'))
    .helpOption('-h, --help', t('cli.help'))
    .helpCommand('help [command]', t('cli.helpCommand'))
    .option('--lang <lang>', t('cli.lang'))
    .exitOverride()
    .showHelpAfterError(t('cli.helpAfterError'))
    .configureHelp(helpConfiguration())
    .configureOutput({
      ...(out.writeOut ? { writeOut: out.writeOut } : {}),
      writeErr,
      outputError: (message, write) => write(translateUsageError(message)),
    });
  if (typeof lang !== 'string') {
    program.hook('preAction', () => {
      throw new UserError(t('cli.badLang', lang.invalid), 2);
    });
  }
  program.hook('preAction', (_root, action) => defaultGame(action));
  for (const register of await commandsFor(withoutLang(argv.slice(2)))) register(program);
  for (const cmd of allCommands(program)) {
    cmd.helpOption('-h, --help', t('cli.help'));
    const key = examplesKey(cmd);
    if (key) cmd.addHelpText('after', `\n${t('cli.examples')}\n${t(key).replace(/^/gm, '  ')}`);
  }
  return program;
}

/** The command line without the global `--lang X` / `--lang=X`, so the command's name comes first. */
function withoutLang(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--lang') i++;
    else if (!args[i].startsWith('--lang=')) out.push(args[i]);
  }
  return out;
}

/** `-g/--game` left out: ./game.yaml when it exists, else a usage error naming the option. */
function defaultGame(cmd: Command): void {
  if (!GAME_COMMANDS.has(cmd)) return;
  if (cmd.getOptionValue('game') !== undefined) return;
  if (!fs.existsSync(DEFAULT_GAME_FILE)) throw new UserError(t('cli.noGame'), 2);
  cmd.setOptionValue('game', DEFAULT_GAME_FILE);
}

/** The exit code of a run that threw `err` (printing it unless Commander already did). */
export function exitCodeOf(err: unknown): number {
  if (err instanceof CommanderError) {
    return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? 0 : 2;
  }
  return reportError(err);
}
