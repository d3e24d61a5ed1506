/**
 * `bansha login --game game.yaml`: log in in real Chromium and save the session owner-only. Headless
 * when BANSHA_USERNAME and BANSHA_PASSWORD are set; otherwise a browser window opens for a person.
 */
import type { Command } from 'commander';
import { t } from '../../i18n/index.js';
import { loadGame } from '../../game/game-file.js';
import { login } from '../../crawl/login.js';
import { gameOptions, wholeNumber } from '../options.js';
import { stderrLine } from './crawl.js';

export function register(program: Command): void {
  gameOptions(program.command('login').description(t('login.description')))
    .option('--browser <path>', t('login.browser'))
    .option('--headed', t('login.headed'))
    .option('--timeout-ms <n>', t('login.timeout'), wholeNumber('timeout-ms'))
    .action(async (o: { game: string; browser?: string; headed?: boolean; timeoutMs?: number }) => {
      const game = loadGame(o.game);
      const username = process.env.BANSHA_USERNAME || undefined;
      const password = process.env.BANSHA_PASSWORD || undefined;
      const res = await login({
        forum: game.forum,
        sessionPath: game.sessionPath,
        browserPath: o.browser ?? game.browser,
        username,
        password,
        headless: o.headed ? false : undefined,
        timeoutMs: o.timeoutMs,
        gameFile: game.file,
        log: stderrLine,
      });
      process.stdout.write(`${t('login.done', res.uid, res.sessionPath)}\n`);
    });
}
