/**
 * A file replaced whole, atomically: what is written goes to a temporary file beside it, renamed over it
 * once complete, so a write that fails half-way (an error, a kill, a full disk) leaves the file as it was
 * and a reader never sees half of it. Synchronous: for the files a command writes at its end (the game
 * file, the HTML page, the store's derived files). The evidence store's own writes add an fsync and a
 * backup (src/store/thread-log.ts writeFileAtomic).
 *
 * On Windows a file another program has open — an antivirus scanning what was just written, the search
 * indexer, a cloud sync client (OneDrive, 坚果云…) in the game's folder — cannot be renamed over for a
 * moment (EPERM, EACCES, EBUSY): the rename is tried again for up to two seconds, as graceful-fs does
 * for fs.rename (which covers neither renameSync nor fs/promises), before the failure is the director's
 * to see (src/file-fault.ts).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { atFile } from './file-fault.js';

let tmpSeq = 0;

/**
 * Replace `file` with what `write` writes to the open descriptor it is given; `mode` for the new file (as
 * open(2) takes it: the umask applies). A failure is thrown, after the temporary file is removed.
 * `cache`: the file is a cache that checks itself (keyed-file.ts) — the old one is removed before the new
 * is renamed in, since ext4 writes a file renamed over another out to disk first (~20 ms a rerun at 50k
 * posts for what a rerun rewrites); a reader in between finds none (a cache miss), and a new file a power
 * cut left unwritten fails its checksum.
 */
export function replaceFile(file: string, write: (fd: number) => void, mode = 0o666, opts: { cache?: boolean } = {}): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${++tmpSeq}.tmp`);
  try {
    const fd = fs.openSync(tmp, 'w', mode);
    try {
      write(fd);
    } finally {
      fs.closeSync(fd);
    }
    if (opts.cache) fs.rmSync(file, { force: true });
    renameOver(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw atFile(err, file);
  }
}

/** The codes Windows gives a rename over a file another program holds for a moment. */
const HELD = new Set(['EPERM', 'EACCES', 'EBUSY']);
/** How long a held file is waited for, and the longest pause between tries. */
const HELD_WAIT_MS = 2000;
const HELD_STEP_MAX_MS = 250;

/** The pause before try `n` (1-based) after a held file's failure; null once `waitMs` are over. */
function heldPause(err: unknown, n: number, since: number, platform: NodeJS.Platform, waitMs: number): number | null {
  if (platform !== 'win32' || !HELD.has((err as NodeJS.ErrnoException).code ?? '') || Date.now() - since >= waitMs) return null;
  return Math.min(10 * 2 ** (n - 1), HELD_STEP_MAX_MS);
}

/** fs.renameSync(`from`, `to`), tried again while Windows says another program holds the file. */
export function renameOver(from: string, to: string, platform: NodeJS.Platform = process.platform, waitMs = HELD_WAIT_MS): void {
  const since = Date.now();
  for (let n = 1; ; n++) {
    try {
      return fs.renameSync(from, to);
    } catch (err) {
      const pause = heldPause(err, n, since, platform, waitMs);
      if (pause === null) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pause); // (a synchronous sleep)
    }
  }
}

/** fsp.rename(`from`, `to`), tried again while Windows says another program holds the file. */
export async function renameOverAsync(from: string, to: string, platform: NodeJS.Platform = process.platform, waitMs = HELD_WAIT_MS): Promise<void> {
  const since = Date.now();
  for (let n = 1; ; n++) {
    try {
      return await fsp.rename(from, to);
    } catch (err) {
      const pause = heldPause(err, n, since, platform, waitMs);
      if (pause === null) throw err;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
