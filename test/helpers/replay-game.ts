/**
 * A game folder for a replay server (src/replay/server.ts): the public game file pointing at the server,
 * and a valid owner-only session, no store yet — what a director has after `bansha login`, before a crawl.
 */
import fs from 'node:fs';
import path from 'node:path';
import { formLogin } from '../../src/demo/form-login.js';
import { loadGame } from '../../src/game/game-file.js';
import type { Game } from '../../src/game/types.js';
import type { ReplayServer } from '../../src/replay/server.js';
import { FIXTURES } from './captured.js';

/** A new folder under `root` holding the public game on `server`. */
export function gameOnReplay(server: ReplayServer, root: string): Game {
  const dir = fs.mkdtempSync(path.join(root, 'g'));
  fs.chmodSync(dir, 0o700);
  const file = path.join(dir, 'public.yaml');
  fs.writeFileSync(file, fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8').replace(/^forum: .*$/m, `forum: ${server.url}`));
  const game = loadGame(file);
  fs.writeFileSync(game.sessionPath, JSON.stringify(server.sessionState()), { mode: 0o600 });
  return game;
}

/**
 * Game file `text` pointed at `server`, as `<root>/<name>/public.yaml` (its own store and ledger), logged in
 * through the forum's own login form as `account`, as `bansha login` does: the file's path.
 */
export async function gameTextOnReplay(server: ReplayServer, root: string, name: string, text: string, account: { username: string; password: string }): Promise<string> {
  const folder = path.join(root, name);
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, 'public.yaml');
  fs.writeFileSync(file, text.replace(/^forum: .*$/m, `forum: ${server.url}`));
  const game = loadGame(file);
  await formLogin(game.forum, game.sessionPath, account);
  return file;
}
