/**
 * A file replaced whole, atomically: what is written goes to a temporary file beside it, renamed over it
 * once complete, so a write that fails half-way (an error, a kill, a full disk) leaves the file as it was
 * and a reader never sees half of it. Synchronous: for the files a command writes at its end (the game
 * file, the HTML page, the store's derived files). The evidence store's own writes add an fsync and a
 * backup (src/store/thread-log.ts writeFileAtomic).
 */
import fs from 'node:fs';
import path from 'node:path';

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
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}
