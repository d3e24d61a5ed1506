/**
 * `bansha store check|recover --game G` (or `--store PATH`; neither: ./game.yaml's store, as every other
 * command reads ./game.yaml when given no --game): a damaged store is refused by every
 * command (exit 3); `check` says which file is damaged where and what its backup holds (exit 3 when
 * something is damaged), `recover` rebuilds the store from what is readable, keeping the damaged files
 * beside it (src/store/check.ts). After a recovery, crawl again: the lost pages are then fetched.
 */
import fs from 'node:fs';
import type { Command } from 'commander';
import { loadGame } from '../../game/game-file.js';
import { checkStore, recoverStore, type StoreCheck } from '../../store/check.js';
import { UserError } from '../../errors.js';
import { t } from '../../i18n/index.js';
import { DEFAULT_GAME_FILE } from '../game-commands.js';

function storeOf(o: { game?: string; store?: string }): string {
  if (o.store) return o.store;
  if (o.game) return loadGame(o.game).storePath;
  if (fs.existsSync(DEFAULT_GAME_FILE)) return loadGame(DEFAULT_GAME_FILE).storePath;
  throw new UserError(t('store.which'), 2);
}

function checkText(c: StoreCheck): string {
  const lines = [`${c.storePath}: ${t(c.layout === 'absent' ? 'store.absent' : c.damaged ? 'store.damaged' : 'store.ok')}`];
  for (const f of c.files) {
    lines.push(`  ${f.state.padEnd(7)} ${f.file}: ${f.detail}`);
    if (f.backup) lines.push(`          ${f.backup}`);
  }
  return `${lines.join('\n')}\n`;
}

export function register(program: Command): void {
  const store = program.command('store').description(t('store.description'));
  const common = (c: Command) => c.option('-g, --game <file>', t('opt.game')).option('--store <path>', t('opt.store')).option('--json', t('store.json'));
  common(store.command('check').description(t('store.check')))
    .action(async (o: { game?: string; store?: string; json?: boolean }) => {
      const c = await checkStore(storeOf(o));
      process.stdout.write(o.json ? `${JSON.stringify(c, null, 2)}\n` : checkText(c));
      if (c.damaged) process.exitCode = 3;
    });
  common(store.command('recover').description(t('store.recover')))
    .action(async (o: { game?: string; store?: string; json?: boolean }) => {
      const r = await recoverStore(storeOf(o));
      if (o.json) process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
      else process.stdout.write(r.actions.length ? `${r.actions.join('\n')}\n${t('store.crawlAgain')}\n` : `${t('store.nothingDamaged', r.before.storePath)}\n`);
    });
}
