/**
 * Every command the CLI offers, in the order --help lists them, each module loaded only when asked
 * for: `bansha tally …` loads the tally command and what it imports, nothing else (the browser, the
 * HTML parser and the wording folders stay unloaded), and `bansha --version` loads no command at all.
 */
import type { Command } from 'commander';

type Register = (program: Command) => void;

export const commandModules: ReadonlyArray<readonly [name: string, load: () => Promise<{ register: Register }>]> = [
  ['demo', () => import('./demo.js')],
  ['init', () => import('./init.js')],
  ['login', () => import('./login.js')],
  ['crawl', () => import('./crawl.js')],
  ['watch', () => import('./watch.js')],
  ['parse', () => import('./parse.js')],
  ['close', () => import('./close.js')],
  ['tally', () => import('./tally.js')],
  ['report', () => import('./report.js')],
  ['rule', () => import('./rule.js')],
  ['cards', () => import('./cards.js')],
  ['elevator', () => import('./elevator.js')],
  ['auction', () => import('./auction.js')],
  ['lastwords', () => import('./lastwords.js')],
  ['store', () => import('./store.js')],
];

/**
 * The register functions a command line needs: only its command's when it names one, none for
 * `--version`/`-V` alone, every one otherwise (help, a typo to suggest a name for).
 */
export async function commandsFor(argv: readonly string[]): Promise<Register[]> {
  const first = argv[0];
  const named = commandModules.filter(([name]) => name === first);
  const wanted = named.length ? named : argv.length === 1 && (first === '--version' || first === '-V') ? [] : commandModules;
  return (await Promise.all(wanted.map(([, load]) => load()))).map((m) => m.register);
}
