/**
 * `bansha store check|recover --game G` (or `--store PATH`): a damaged store is refused by every
 * command (exit 3); `check` says which file is damaged where and what its backup holds (exit 3 when
 * something is damaged), `recover` rebuilds the store from what is readable, keeping the damaged files
 * beside it (src/store/check.ts). After a recovery, crawl again: the lost pages are then fetched.
 */
import type { Command } from 'commander';
import { loadGame } from '../../game/game-file.js';
import { checkStore, recoverStore, type StoreCheck } from '../../store/check.js';
import { UserError } from '../errors.js';

function storeOf(o: { game?: string; store?: string }): string {
  if (o.store) return o.store;
  if (o.game) return loadGame(o.game).storePath;
  throw new UserError('give --game <file> or --store <path>');
}

function checkText(c: StoreCheck): string {
  const lines = [`${c.storePath}: ${c.layout === 'absent' ? 'no store yet' : c.damaged ? 'DAMAGED' : 'ok'}`];
  for (const f of c.files) {
    lines.push(`  ${f.state.padEnd(7)} ${f.file}: ${f.detail}`);
    if (f.backup) lines.push(`          ${f.backup}`);
  }
  return `${lines.join('\n')}\n`;
}

export function register(program: Command): void {
  const store = program.command('store').description('the evidence store: check it for damage, recover what is readable');
  const common = (c: Command) => c.option('--game <file>', 'the game file (YAML)').option('--store <path>', 'the store file (default: beside the game file)').option('--json', 'print JSON');
  common(store.command('check').description('say which store files are damaged, where, and what their backups hold (exit 3 when damaged)'))
    .action(async (o: { game?: string; store?: string; json?: boolean }) => {
      const c = await checkStore(storeOf(o));
      process.stdout.write(o.json ? `${JSON.stringify(c, null, 2)}\n` : checkText(c));
      if (c.damaged) process.exitCode = 3;
    });
  common(store.command('recover').description('rebuild damaged store files from what is readable, keeping the damaged files beside them'))
    .action(async (o: { game?: string; store?: string; json?: boolean }) => {
      const r = await recoverStore(storeOf(o));
      if (o.json) process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
      else process.stdout.write(r.actions.length ? `${r.actions.join('\n')}\nnow crawl again: pages no longer in the store are fetched, and counting refuses until they are\n` : `${r.before.storePath}: nothing is damaged; nothing was changed\n`);
    });
}
