/** The evidence store: open it, record fetched pages, ask whether threads are complete. */
export { openStore, emptyStore, backupPath, threadsDir, threadLogPath, storedTids, type Store, type OpenStoreOptions } from './store-file.js';
export { takeFileLock } from './lock.js';
export { recordPage, applyPage, trimPages, postHash, tidFromUrl, type RecordResult } from './record.js';
export { WriteBatcher, type WriteBatcherOptions } from './write-batcher.js';
export { completeness, assertComplete, describeGaps, formatRanges } from './completeness.js';
export type * from './types.js';
