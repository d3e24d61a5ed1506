/**
 * An exclusive lock on a file that bansha writes (the evidence store, the card ledger): a lock file
 * holding the owner's pid and start time, created atomically, so two processes starting in the same
 * millisecond can never both hold it.
 *
 *  - Taking it: the record is written to a private temp file, then hard-linked to the lock name —
 *    link(2) fails when the name exists, so creation and content are one atomic step (a reader never
 *    sees an empty lock). Where hard links are not supported, an exclusive create ('wx') is used.
 *  - A lock whose owner is gone (pid dead, or the pid reused by a process started later) is stale. It
 *    is taken over only under a takeover guard (`<lock>.takeover`, taken the same atomic way), and only
 *    after re-reading it under the guard and finding the very same stale record: so of two processes
 *    that both saw the stale lock, one removes it and the other finds a live lock (or none) instead.
 *  - A guard is held for the microseconds of a takeover; one left by a process killed inside that window
 *    is removed once its owner is dead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { UserError } from '../errors.js';
import { atFile } from '../file-fault.js';
import { t } from '../i18n/index.js';

/** What a lock file holds. */
export interface LockRecord {
  pid: number;
  /** When the owning process started, epoch ms (tells a reused pid from the owner). */
  started: number;
  /** Random, so a takeover can tell this record from a later one of the same process. */
  nonce: string;
}

/** Epoch ms when this process started. */
const selfStarted = Math.round(Date.now() - process.uptime() * 1000);

/** Linux: when process `pid` started (epoch ms, ±10 ms), from /proc; null where that cannot be read. */
function startedAt(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const btime = Number(/^btime (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'utf8'))?.[1]);
    if (!Number.isFinite(ticks) || !Number.isFinite(btime)) return null;
    return btime * 1000 + ticks * 10; // USER_HZ is 100 on every Linux bansha runs on
  } catch {
    return null;
  }
}

/** Whether the process that wrote `rec` is still running (not merely some process with its pid). */
export function ownerAlive(rec: Pick<LockRecord, 'pid' | 'started'>): boolean {
  if (rec.pid === process.pid) return rec.started === selfStarted;
  try {
    process.kill(rec.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const started = startedAt(rec.pid);
  // A reused pid belongs to a process started after the lock was written (allow clock granularity).
  return started === null || started <= rec.started + 2000;
}

function readRecord(file: string): LockRecord | 'absent' | 'unreadable' {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    throw e;
  }
  // Older bansha wrote the bare pid.
  if (/^\d+$/.test(text.trim())) return { pid: Number(text.trim()), started: 0, nonce: '' };
  try {
    const r = JSON.parse(text) as LockRecord;
    return Number.isInteger(r.pid) && r.pid > 0 && typeof r.started === 'number' ? r : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/** Create `file` holding `rec`, atomically; false when it already exists. */
function createExclusive(file: string, rec: LockRecord): boolean {
  const text = JSON.stringify(rec);
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${rec.nonce}.tmp`);
  try {
    fs.writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
    try {
      fs.linkSync(tmp, file);
      return true;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw e;
    }
    try {
      fs.writeFileSync(file, text, { mode: 0o600, flag: 'wx' }); // no hard links here: exclusive create
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      fs.rmSync(file, { force: true }); // (created here and not finished: a full disk, not another holder)
      throw e;
    }
  } catch (e) {
    throw atFile(e, file);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

function sameRecord(a: LockRecord | 'absent' | 'unreadable', b: LockRecord): boolean {
  return typeof a === 'object' && a.pid === b.pid && a.started === b.started && a.nonce === b.nonce;
}

/** Remove the lock at `file` if it still holds exactly `stale`, under the takeover guard. */
function takeOver(file: string, stale: LockRecord): void {
  const guard = `${file}.takeover`;
  const mine: LockRecord = { pid: process.pid, started: selfStarted, nonce: randomBytes(8).toString('hex') };
  if (!createExclusive(guard, mine)) {
    const holder = readRecord(guard);
    if (typeof holder === 'object' && !ownerAlive(holder)) {
      // A guard left by a killed taker: remove it (once) if it is still that one.
      if (sameRecord(readRecord(guard), holder)) fs.rmSync(guard, { force: true });
    }
    return; // someone is taking over right now, or just did: look again
  }
  try {
    if (sameRecord(readRecord(file), stale)) fs.rmSync(file, { force: true });
  } finally {
    fs.rmSync(guard, { force: true });
  }
}

/**
 * Take the exclusive lock `file` for `what` (named in the refusal). Returns the release function
 * (idempotent). A live holder is a UserError (exit 2) naming its pid.
 */
export function takeFileLock(file: string, what: string): () => void {
  const rec: LockRecord = { pid: process.pid, started: selfStarted, nonce: randomBytes(8).toString('hex') };
  for (let attempt = 0; attempt < 20; attempt++) {
    if (createExclusive(file, rec)) {
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (sameRecord(readRecord(file), rec)) fs.rmSync(file, { force: true });
      };
    }
    const holder = readRecord(file);
    if (holder === 'absent') continue;
    if (holder === 'unreadable' && Date.now() - (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0) < 2000) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10); // being written ('wx' fallback): look again
      continue;
    }
    if (holder === 'unreadable') {
      // Only a lock of another program, or a damaged one: never guess whose it is.
      throw new UserError(t('err.notLockFile', file, what), 2);
    }
    if (ownerAlive(holder)) {
      throw new UserError(t('err.locked', holder.pid, what), 2);
    }
    takeOver(file, holder);
  }
  throw new UserError(t('err.lockContended', what, file), 2);
}
