import fs from 'node:fs';
import path from 'node:path';
import { loadGame } from '../../src/game/game-file.js';
import type { Game } from '../../src/game/types.js';
import { openStore } from '../../src/store/index.js';
import type { StoreData } from '../../src/store/types.js';

/**
 * `data` written as a store of its own (thread logs and index) in `root/name`, beside a copy of the game
 * file (or `yaml` as the game file's text): the game, as a command would load it.
 */
export async function storeOnDisk(root: string, name: string, gameFile: string, data: StoreData, yaml?: string): Promise<Game> {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'game.yaml');
  fs.writeFileSync(file, yaml ?? fs.readFileSync(gameFile, 'utf8'));
  const game = loadGame(file);
  const store = await openStore(game.storePath, { forum: data.forum });
  Object.assign(store.data.threads, data.threads);
  Object.assign(store.data.posts, data.posts);
  Object.assign(store.data.users, data.users);
  await store.write();
  await store.close();
  return game;
}
