/**
 * `bansha login --game game.yaml`: log in in real Chromium and save the session owner-only. Headless
 * when BANSHA_USERNAME and BANSHA_PASSWORD are set; otherwise a browser window opens for a person.
 */
import type { Command } from 'commander';
import { loadGame } from '../../game/game-file.js';
import { login } from '../../crawl/login.js';
import { wholeNumber } from '../options.js';
import { stderrLine } from './crawl.js';

export function register(program: Command): void {
  program
    .command('login')
    .description('log in to the forum in Chromium and save the session (headless with BANSHA_USERNAME/BANSHA_PASSWORD)')
    .requiredOption('--game <file>', 'the game file (YAML)')
    .option('--browser <path>', 'Chromium executable (default: game file `browser`, BANSHA_CHROMIUM, /usr/bin/chromium)')
    .option('--headed', 'open a browser window even when credentials are in the environment')
    .option('--timeout-ms <n>', 'how long to wait for the login', wholeNumber('timeout-ms'))
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
      process.stdout.write(`logged in (uid ${res.uid}); session saved to ${res.sessionPath} (mode 600)\n`);
    });
}
