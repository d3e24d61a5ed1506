/**
 * `bansha cards list|confirm|dismiss --game G`: the card ledger beside the game file (rules-spec §8).
 * `bansha report` proposes cards with evidence; the director confirms or dismisses each by id; `list`
 * shows every card and each player's standing with the preset's upgrades (3 blue → yellow, 3 yellow →
 * red; a red card means 罚下).
 */
import type { Command } from 'commander';
import { t } from '../../i18n/index.js';
import pc from 'picocolors';
import { decideCard, ledgerPath, readLedger } from '../../cards/ledger.js';
import { standings, standingText, upgradesText } from '../../cards/standing.js';
import { loadGame } from '../../game/game-file.js';
import { colorLabel, statusLabel } from '../../render/report-common.js';
import { terminalSafe } from '../../text/safe-text.js';
import { gameOptions, stdoutColor } from '../options.js';

interface CardsCliOptions {
  game: string;
  json?: boolean;
  note?: string;
}

export function register(program: Command): void {
  const cards = program.command('cards').description(t('cards.description'));
  gameOptions(cards.command('list').description(t('cards.list')))
    .option('--json', t('cards.listJson'))
    .action((o: CardsCliOptions) => {
      const game = loadGame(o.game);
      const ledger = readLedger(game);
      const stand = standings(game, ledger);
      if (o.json) {
        // Ledgers written before cards named their kinds: a card stands for its one kind.
        const cards = ledger.cards.map((k) => ({ ...k, kinds: k.kinds ?? [k.kind] }));
        process.stdout.write(`${JSON.stringify({ cards, standings: stand }, null, 2)}\n`);
        return;
      }
      const c = pc.createColors(stdoutColor());
      const out: string[] = [c.bold(t('cards.heading', game.file, ledgerPath(game.file)))];
      if (!ledger.cards.length) out.push(t('cards.none'));
      for (const k of ledger.cards) {
        out.push(`  ${k.id.padEnd(4)} D${k.day}  ${colorLabel(k.color)}  ${terminalSafe(k.player)}  [${statusLabel(k.status)}]  ${terminalSafe(k.reason)}${k.evidence.length ? `  (pid ${k.evidence.join(', ')})` : ''}${k.note ? `  — ${terminalSafe(k.note)}` : ''}`);
      }
      out.push('', c.bold(t('cards.standings')));
      for (const s of stand) out.push(`  ${terminalSafe(s.player)}: ${s.sentOff ? c.red(standingText(s)) : standingText(s)}${s.upgrades.length ? `  (${upgradesText(s)})` : ''}`);
      process.stdout.write(`${out.join('\n')}\n`);
    });
  for (const status of ['confirmed', 'dismissed'] as const) {
    const verb = status === 'confirmed' ? 'confirm' : 'dismiss';
    gameOptions(cards.command(`${verb} <id>`).description(t(status === 'confirmed' ? 'cards.confirm' : 'cards.dismiss')))
      .option('--note <text>', t('cards.note'))
      .action(async (id: string, o: CardsCliOptions) => {
        const game = loadGame(o.game);
        const { ledger, card } = await decideCard(game, id, status, o.note);
        const s = standings(game, ledger).find((x) => x.player === card.player)!;
        process.stdout.write(`${t('cards.decided', card.id, statusLabel(status), colorLabel(card.color), terminalSafe(card.player), terminalSafe(card.reason))}\n${t('cards.now', terminalSafe(card.player), standingText(s))}${s.upgrades.length ? ` (${upgradesText(s)})` : ''}\n`);
      });
  }
}
