/**
 * Fault matrix for the store on disk: a fault injected into the files of a real game's store (the
 * public capture), then `bansha tally`: the fault-free count or a refusal (exit 3) naming the damaged
 * file — never another count. `bansha store check` names the same file; after `bansha store recover`
 * the tally is again the fault-free count or a refusal (incomplete: crawl again), the damaged file kept.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { register as registerTally } from '../../src/cli/commands/tally.js';
import { register as registerStore } from '../../src/cli/commands/store.js';
import { openStore, threadLogPath, threadsDir } from '../../src/store/store-file.js';
import { FIXTURES } from '../helpers/captured.js';
import { captureStore } from '../votes/fixtures.js';

let root: string;
const VOTE = 5; // the public game's day-2 vote thread
afterEach(() => vi.restoreAllMocks());

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const program = new Command().exitOverride();
  registerTally(program);
  registerStore(program);
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
  const before = process.exitCode;
  try {
    await program.parseAsync(['node', 'bansha', ...args]);
    const code = Number(process.exitCode ?? 0);
    return { code, out, err: '' };
  } catch (e) {
    return { code: (e as { exitCode?: number }).exitCode ?? 1, out, err: (e as Error).message };
  } finally {
    vi.restoreAllMocks();
    process.exitCode = before;
  }
}

/** A fresh copy of the public game with its store in the version-2 layout. */
async function game(name: string): Promise<{ file: string; store: string }> {
  const dir = path.join(root, name);
  fs.mkdirSync(dir);
  const file = path.join(dir, 'public.yaml');
  fs.writeFileSync(file, fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8'));
  const store = path.join(dir, 'public.store.json');
  fs.writeFileSync(store, JSON.stringify(captureStore('public')));
  await (await openStore(store)).close(); // migrates
  return { file, store };
}

const tallyOf = (file: string) => run('tally', '--game', file, '--day', '2', '--json');

/** Each fault: what it does to the store's files, and the file a refusal must name ('' : no refusal allowed). */
const faults: Array<{ name: string; inject: (store: string) => void; names: (store: string) => string }> = [
  {
    name: 'a log line with a flipped byte',
    inject: (s) => {
      const f = threadLogPath(s, VOTE);
      const b = fs.readFileSync(f);
      b[Math.floor(b.length / 2)] ^= 0x01;
      fs.writeFileSync(f, b);
    },
    names: (s) => threadLogPath(s, VOTE),
  },
  {
    name: 'a log cut in the middle of its only line',
    inject: (s) => {
      const f = threadLogPath(s, VOTE);
      const b = fs.readFileSync(f);
      fs.writeFileSync(f, Buffer.concat([b.subarray(0, b.length >> 1), Buffer.from('\n')]));
    },
    names: (s) => threadLogPath(s, VOTE),
  },
  {
    name: 'an append cut short by a crash (no newline)',
    inject: (s) => fs.appendFileSync(threadLogPath(s, VOTE), '{"p":[{"pid":1'),
    names: () => '',
  },
  { name: 'the index truncated', inject: (s) => fs.writeFileSync(s, fs.readFileSync(s).subarray(0, 10)), names: (s) => s },
  { name: 'the index not a store', inject: (s) => fs.writeFileSync(s, '{"version":3}'), names: (s) => s },
  { name: 'the index missing', inject: (s) => fs.rmSync(s), names: (s) => s },
];

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-store-faults-'));
});

describe('store fault matrix: the fault-free count or a refusal', () => {
  let clean: string;
  beforeAll(async () => {
    const g = await game('clean');
    const r = await tallyOf(g.file);
    expect(r.code).toBe(0);
    clean = r.out;
    expect(JSON.parse(clean).result.name).toBe('月饼');
  });

  for (const [i, fault] of faults.entries()) {
    test(fault.name, async () => {
      const g = await game(`fault${i}`);
      fault.inject(g.store);
      const named = fault.names(g.store);
      const r = await tallyOf(g.file);
      if (r.code === 0) {
        expect(r.out).toBe(clean);
        expect(named).toBe('');
      } else {
        expect(r.code).toBe(3);
        expect(named).not.toBe('');
        if (fs.existsSync(named) || named === g.store) expect(r.err).toContain(named === g.store && !fs.existsSync(named) ? threadsDir(g.store) : named);
      }
      const check = await run('store', 'check', '--store', g.store, '--json');
      expect(check.code).toBe(named ? 3 : 0);
      if (named) expect(JSON.parse(check.out).files.filter((f: { state: string }) => f.state === 'damaged').map((f: { file: string }) => f.file)).toEqual([named]);

      const rec = await run('store', 'recover', '--store', g.store);
      expect(rec.code).toBe(0);
      if (named && fs.existsSync(path.dirname(named))) {
        expect(fs.readdirSync(path.dirname(named)).some((n) => n.startsWith(`${path.basename(named)}.damaged-`)) || fault.name === 'the index missing').toBe(true);
      }
      const after = await tallyOf(g.file);
      if (after.code === 0) expect(after.out).toBe(clean);
      else expect(after.code).toBe(3);
    });
  }
});
