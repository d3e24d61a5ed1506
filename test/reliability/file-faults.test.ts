/**
 * This computer's files failing under a command: a disk that fills half-way through a write, a folder
 * without permission, a file another program holds on Windows. The director reads what failed, which
 * file and what to do, with exit 6 (not "internal error"), and every file bansha had written before is as
 * it was: the rulings file, the store's logs, a close's output. The faults are Node's own errors (code,
 * errno, syscall, as libuv gives them) thrown from the real writers' calls, after part of the bytes went
 * out where a real full disk would have let them.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { reportError } from '../../src/cli/errors.js';
import { fileFaultOf } from '../../src/file-fault.js';
import { withLanguage } from '../../src/i18n/index.js';
import { renameOver, renameOverAsync } from '../../src/replace-file.js';
import { rulingsPath } from '../../src/game/rulings/file.js';
import { takeFileLock } from '../../src/store/lock.js';
import { appendLine } from '../../src/store/thread-log.js';
import type { StoreData } from '../../src/store/types.js';
import { FIXTURES } from '../helpers/captured.js';
import { bansha } from '../helpers/cli.js';
import { captureStore } from '../votes/fixtures.js';

/** An error as Node gives it for `syscall` failing with `code` (libuv's message shape). */
function sysError(code: string, errno: number, syscall: string, file?: string): NodeJS.ErrnoException {
  const e: NodeJS.ErrnoException = new Error(`${code}: ${code === 'ENOSPC' ? 'no space left on device' : 'operation not permitted'}, ${syscall}${file ? ` '${file}'` : ''}`);
  Object.assign(e, { code, errno, syscall }, file ? { path: file } : {});
  return e;
}

/** The prototype of Node's FileHandle (the writers' `h.write`). */
async function fileHandleProto(): Promise<{ write: (...a: unknown[]) => Promise<{ bytesWritten: number }> }> {
  const h = await fsp.open(__filename, 'r');
  await h.close();
  return Object.getPrototypeOf(h);
}

/**
 * From now on a FileHandle write into `dir` writes half its bytes and then fails as a full disk does
 * (ENOSPC, no path: a descriptor's write names none). Writes elsewhere go through.
 */
async function fillDiskAt(dir: string): Promise<void> {
  const proto = await fileHandleProto();
  const real = proto.write;
  const paths = new WeakMap<object, string>();
  const open = fsp.open;
  vi.spyOn(fsp, 'open').mockImplementation(async (...a: Parameters<typeof fsp.open>) => {
    const h = await open(...a);
    paths.set(h, String(a[0]));
    return h;
  });
  vi.spyOn(proto, 'write').mockImplementation(async function (this: object, ...a: unknown[]) {
    const file = paths.get(this);
    if (!file || !path.resolve(file).startsWith(dir)) return real.apply(this, a);
    const [buf, offset = 0, length = (buf as Buffer).length - (offset as number)] = a as [Buffer, number?, number?];
    if ((length as number) > 1) await real.call(this, buf, offset, Math.floor((length as number) / 2));
    throw sysError('ENOSPC', -28, 'write');
  });
}

let dir: string;
let game: string;
let store: StoreData;

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-disk-')));
  game = path.join(dir, 'public.yaml');
  fs.writeFileSync(game, fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8'));
  store = captureStore('public');
  fs.writeFileSync(path.join(dir, 'public.store.json'), JSON.stringify(store));
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

const pidAt = (tid: number, floor: number): number => Object.values(store.posts).find((x) => x.tid === tid && x.versions.at(-1)!.post.floor === floor)!.pid;
/** Files in the game's folder that are a writer's temporary files. */
const temporaries = (): string[] => fs.readdirSync(dir, { recursive: true }).map(String).filter((f) => /\.tmp$/.test(f));

describe('a full disk', () => {
  test('while a ruling is written: exit 6 names the rulings file and the cause, and the file is as it was', async () => {
    const first = await bansha(['rule', 'accept', String(pidAt(5, 14)), '--game', game, '--day', '2', '--why', '回复了原投票帖，已核对']);
    expect(first.code, first.stderr).toBe(0);
    const file = rulingsPath(game);
    const before = fs.readFileSync(file);

    await fillDiskAt(dir);
    const r = await bansha(['rule', 'reject', String(pidAt(5, 6)), '--game', game, '--day', '2', '--why', '第二条']);
    vi.restoreAllMocks();
    expect(r.code).toBe(6);
    expect(r.stderr).toBe(
      `bansha: 本机文件出错：${file}：磁盘已满（或超出配额）：请先腾出空间（ENOSPC）。bansha 的文件只会整份写好或保持原样，之前写下的都没有改动；解决后重新运行同一命令即可\n`,
    );
    expect(r.stderr).not.toContain('内部错误');
    expect(fs.readFileSync(file)).toEqual(before);
    expect(temporaries()).toEqual([]);

    // Space again: the same command records the ruling.
    const again = await bansha(['rule', 'reject', String(pidAt(5, 6)), '--game', game, '--day', '2', '--why', '第二条']);
    expect(again.code, again.stderr).toBe(0);
    expect((await bansha(['rule', 'list', '--game', game])).stdout).toContain('第二条');
  });

  test('while a line is appended to a thread log: the half-written line is cut off and the error names the log', async () => {
    const log = path.join(dir, 'log.jsonl');
    fs.writeFileSync(log, 'line one\n');
    await fillDiskAt(dir);
    const err = await appendLine(log, [Buffer.from('{"p":[]} 0123\n')]).catch((e: unknown) => e);
    vi.restoreAllMocks();
    expect(fileFaultOf(err)).toEqual({ cause: 'full', code: 'ENOSPC', file: log });
    expect(fs.readFileSync(log, 'utf8')).toBe('line one\n');
  });

  test('while a lock is taken: the error names the lock, and no half-written lock is left to block the next run', () => {
    const lock = path.join(dir, 'public.cards.json.lock');
    const real = fs.writeSync;
    // (a sync write: half its bytes, then the disk is full)
    vi.spyOn(fs, 'writeSync').mockImplementation(((fd: number, buf: string | Uint8Array, ...rest: unknown[]) => {
      const bytes = typeof buf === 'string' ? Buffer.from(buf) : Buffer.from(buf);
      if (bytes.length > 1) real(fd, bytes.subarray(0, bytes.length >> 1));
      throw sysError('ENOSPC', -28, 'write');
    }) as never);
    let err: unknown;
    try {
      takeFileLock(lock, 'the ledger');
    } catch (e) {
      err = e;
    }
    vi.restoreAllMocks();
    expect(fileFaultOf(err)).toEqual({ cause: 'full', code: 'ENOSPC', file: lock });
    expect(fs.readdirSync(dir).filter((f) => f.includes('lock'))).toEqual([]);
    takeFileLock(lock, 'the ledger')(); // space again: taken and released
  });

  test('in English', () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (lines.push(String(s)), true));
    const code = withLanguage('en', () => reportError(sysError('EACCES', -13, 'open', '/games/a.rulings.json')));
    expect(code).toBe(6);
    expect(lines.join('')).toBe(
      "bansha: a file on this computer failed: /games/a.rulings.json: permission denied, or another program holds the file (an antivirus, a cloud sync client): check the folder's permissions, or close that program (EACCES). bansha writes its files whole or leaves them as they were, so nothing written before was changed; run the same command again once this is fixed\n",
    );
  });
});

describe('which failures are the computer\'s files', () => {
  test('the system\'s file errors are; a socket\'s, a process\'s or a bug\'s are not', () => {
    expect(fileFaultOf(sysError('EROFS', -30, 'open', '/mnt/ro/x'))).toEqual({ cause: 'readOnly', code: 'EROFS', file: '/mnt/ro/x' });
    expect(fileFaultOf(sysError('EBUSY', -16, 'rename', 'C:\\games\\a.json'))?.cause).toBe('busy');
    expect(fileFaultOf(sysError('EMFILE', -24, 'open', '/x'))?.cause).toBe('tooMany');
    expect(fileFaultOf(sysError('ENOSPC', -28, 'write'))).toEqual({ cause: 'full', code: 'ENOSPC', file: null });
    expect(fileFaultOf(sysError('EACCES', -13, 'connect'))).toBeNull(); // a socket
    expect(fileFaultOf(sysError('EPERM', -1, 'kill'))).toBeNull(); // a process
    expect(fileFaultOf(new TypeError('x is undefined'))).toBeNull();
    expect(fileFaultOf(Object.assign(new Error('gone'), { code: 'ENOENT', syscall: 'open' }))).toBeNull(); // a missing file is the caller's to say
  });

  test('a fault without a file says so', () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (lines.push(String(s)), true));
    expect(reportError(sysError('ENOSPC', -28, 'write'))).toBe(6);
    expect(lines.join('')).toContain('本机文件出错：（系统没有说是哪个文件）：磁盘已满');
  });
});

describe('a file another program holds (Windows)', () => {
  const held = () => sysError('EPERM', -4048, 'rename');

  test('a rename over it is tried again until the program lets go; elsewhere EPERM is thrown at once', async () => {
    const from = path.join(dir, 'new');
    const to = path.join(dir, 'old');
    const sync = vi.spyOn(fs, 'renameSync');
    const async = vi.spyOn(fsp, 'rename');
    for (let i = 0; i < 3; i++) {
      sync.mockImplementationOnce(() => {
        throw held();
      });
      async.mockImplementationOnce(async () => {
        throw held();
      });
    }
    for (const rename of [(a: string, b: string) => renameOver(a, b, 'win32'), (a: string, b: string) => renameOverAsync(a, b, 'win32')]) {
      fs.writeFileSync(from, 'new');
      fs.writeFileSync(to, 'old');
      await rename(from, to);
      expect(fs.readFileSync(to, 'utf8')).toBe('new');
      expect(fs.existsSync(from)).toBe(false);
    }
    expect(sync).toHaveBeenCalledTimes(4);
    expect(async).toHaveBeenCalledTimes(4);

    fs.writeFileSync(from, 'new');
    sync.mockImplementationOnce(() => {
      throw held();
    });
    expect(() => renameOver(from, to, 'linux')).toThrow(/EPERM/);
    expect(sync).toHaveBeenCalledTimes(5);
  });

  test('held for longer than the wait: the failure is thrown, and the director reads it as a file held', async () => {
    vi.spyOn(fsp, 'rename').mockImplementation(async () => {
      throw held();
    });
    const t0 = Date.now();
    const err = await renameOverAsync(path.join(dir, 'a'), path.join(dir, 'b'), 'win32', 300).catch((e: unknown) => e);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(300);
    expect(vi.mocked(fsp.rename).mock.calls.length).toBeGreaterThan(2);
    expect(fileFaultOf(err)?.cause).toBe('denied');
  });
});
