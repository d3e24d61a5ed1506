import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Command } from 'commander';
import { register as registerElevator } from '../../src/cli/commands/elevator.js';
import { register as registerAuction } from '../../src/cli/commands/auction.js';
import { demoSiteDir } from '../../src/demo/synth-games.js';
import { loadGame } from '../../src/game/game-file.js';
import { FIXTURES, storeFromFixture, threadPageFiles } from '../helpers/captured.js';

const TMP = path.resolve(import.meta.dirname, '../.tmp/cli');

/** A game file + store for a demo site, as after `bansha crawl`. */
function crawled(name: 'wuhui' | '120b'): string {
  fs.mkdirSync(TMP, { recursive: true });
  const site = path.basename(demoSiteDir(name));
  const data = storeFromFixture(site, threadPageFiles(site), new Date('2027-01-01T00:00:00Z'));
  const file = path.join(TMP, `${name}.yaml`);
  fs.copyFileSync(path.join(FIXTURES, 'games', `${name}.yaml`), file);
  fs.writeFileSync(path.join(TMP, `${name}.store.json`), JSON.stringify(data));
  return file;
}

async function run(args: string[]): Promise<string> {
  const program = new Command().exitOverride();
  registerElevator(program);
  registerAuction(program);
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  try {
    await program.parseAsync(['node', 'bansha', ...args]);
  } finally {
    spy.mockRestore();
  }
  return out;
}

afterEach(() => vi.restoreAllMocks());

describe('bansha elevator / auction (interfaces others script against)', () => {
  const wuhui = crawled('wuhui');
  const b120 = crawled('120b');

  it('elevator --pairs --json: {pairs} of elevator neighbours', async () => {
    const json = JSON.parse(await run(['elevator', '--game', wuhui, '--day', '1', '--pairs', '--json'])) as { pairs: string[][] };
    const players = loadGame(wuhui).players;
    expect(json.pairs).toEqual(players.reduce<string[][]>((acc, p, i) => (i % 2 ? (acc[acc.length - 1].push(p), acc) : [...acc, [p]]), []));
  });

  it('elevator --arbiter-from --json: {range}', async () => {
    const json = JSON.parse(await run(['elevator', '--game', b120, '--day', '2', '--arbiter-from', '雷电', '--json'])) as { range: string[] };
    expect(json.range).toEqual(['雷电', '马里奥']);
  });

  it('elevator: the BBCode floor, every player linked with the uid the pages carry', async () => {
    const ids = JSON.parse(fs.readFileSync(path.join(demoSiteDir('wuhui'), 'ids.json'), 'utf8')) as { users: Record<string, number> };
    const text = await run(['elevator', '--game', wuhui, '--day', '2']);
    for (const p of loadGame(wuhui).players) expect(text).toContain(`tid=25&page=1&authorid=${ids.users[p]}]${p}[/url]`);
  });

  it('auction --json: the documented shape', async () => {
    const json = JSON.parse(await run(['auction', '--game', wuhui, '--day', '1', '--json']));
    expect(json.day).toBe(1);
    for (const it of json.items) {
      expect(Object.keys(it)).toEqual(expect.arrayContaining(['item', 'base', 'winner', 'price', 'bids']));
      for (const b of it.bids) {
        expect(Object.keys(b)).toEqual(expect.arrayContaining(['bidder', 'price', 'status', 'code', 'reason', 'pid', 'at']));
        expect(['winning', 'outbid', 'rejected']).toContain(b.status);
        // a rejected bid says why as a stable code and in Chinese; a valid one has neither
        if (b.status === 'rejected') {
          expect(b.code).toMatch(/^[a-z]+(-[a-z0-9]+)*$/);
          expect(b.reason).toMatch(/[\u4e00-\u9fff]/);
        } else expect([b.code, b.reason]).toEqual([null, null]);
      }
      if (!it.bids.some((b: { status: string }) => b.status === 'winning')) expect([it.winner, it.price]).toEqual([null, null]);
    }
    expect(json.pledges).toEqual([expect.objectContaining({ player: '饿虎', diamonds: 1, value: 35 })]);
    expect(json.items.find((i: { item: number }) => i.item === 4).bids.map((b: { code: string | null }) => b.code)).toEqual([null, 'late']);
    for (const x of json.ignored) expect(Object.keys(x)).toEqual(expect.arrayContaining(['author', 'pid', 'code', 'reason']));
  });

  it('auction on a 120b game says there is no auction (exit 2)', async () => {
    await expect(run(['auction', '--game', b120, '--day', '1'])).rejects.toMatchObject({ exitCode: 2 });
  });
});
