/**
 * What the elevator reads of the day's threads — their records (title, page records…), no post — kept in
 * the store's derived files as of where each log was replayed to (store-file.ts LogPoint), so a rerun
 * reads only the lines appended since, not the whole log (held to its checksums). A log rewritten (compaction, recovery) is replayed from its start.
 */
import fs from 'node:fs';
import { memoKey, readDerived, writeDerived } from '../store/memo.js';
import { readThreadRecords, replayThreadFrom, threadsDir, type LogPoint, type ThreadRecords } from '../store/store-file.js';
import type { StoredThread } from '../store/types.js';

/** A thread's record as kept: where its log was replayed to, and the record there. */
interface KeptRecord {
  point: LogPoint;
  thread: StoredThread | null;
}

/**
 * The index and the records of the threads `tids` that are stored, as store-file.ts readThreadRecords
 * reads them (damage after the saved point refused the same way; the lines before it trusted as LogPoint
 * says), each through the derived file `record-<tid>` (saved again
 * when its log grew or was replayed afresh; missing, damaged or other-keyed: a replay from the start).
 */
export async function keptThreadRecords(storePath: string, tids: readonly number[]): Promise<ThreadRecords> {
  if (!fs.existsSync(threadsDir(storePath))) return readThreadRecords(storePath, tids); // a version-1 store: one file
  const out = await readThreadRecords(storePath, []); // the index
  for (const tid of new Set(tids)) {
    const name = `record-${tid}`;
    const key = memoKey({ record: tid });
    const saved = readDerived<KeptRecord>(storePath, name, key);
    const replayed = await replayThreadFrom(storePath, tid, saved ?? null, () => null);
    if (!replayed) continue;
    if (replayed.moved) {
      writeDerived(storePath, name, key, { point: replayed.point, thread: replayed.thread } satisfies KeptRecord);
    }
    if (replayed.thread) out.threads[String(tid)] = replayed.thread;
  }
  return out;
}
