/**
 * `bansha store check|recover`: what is damaged in a store and what its backups hold, and — only when
 * the director asks — a store rebuilt from what is readable, the damaged files kept beside it.
 *
 * Recovery never invents and never hides: a thread log keeps its readable lines (every line is a state
 * the thread really had, oldest first), or its backup when not even the first line is readable, or
 * nothing; the pages so lost are simply not in the store, so the completeness check refuses to count
 * until a crawl has fetched them again. A damaged index is rebuilt from the logs (uids from posts).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { takeFileLock } from './lock.js';
import { t } from '../i18n/index.js';
import { renameOverAsync } from '../replace-file.js';
import {
  backupPath, describeBackup, emptyStore, indexText, readStoreFile, storedTids, threadLogPath, threadsDir,
} from './store-file.js';
import { fullEntry, logLine, readLog, writeFileAtomic, type ReadLog } from './thread-log.js';
import { currentVersion } from './types.js';

export interface FileCheck {
  file: string;
  /** ok; damaged (refused by every command); torn (a last append cut short by a crash: harmless). */
  state: 'ok' | 'damaged' | 'torn';
  /** What is in it or what is wrong, in words. */
  detail: string;
  /** What the backup holds, in words (damaged files only). */
  backup?: string;
}

export interface StoreCheck {
  storePath: string;
  /** 'absent': no store yet. */
  layout: 'v1' | 'v2' | 'absent' | 'damaged';
  files: FileCheck[];
  damaged: boolean;
}

function logDetail(log: ReadLog): string {
  return t('store.logDetail', log.lines, log.posts.length, Object.keys(log.thread?.pages ?? {}).length);
}

/** Inspect every file of the store (read-only: no lock, nothing changed). */
export async function checkStore(storePath: string): Promise<StoreCheck> {
  const file = path.resolve(storePath);
  const files: FileCheck[] = [];
  const top = await readStoreFile(file);
  let layout: StoreCheck['layout'] = top.kind;
  if (top.kind === 'damaged') files.push({ file, state: 'damaged', detail: top.reason, backup: await describeBackup(file) });
  else if (top.kind === 'v1') files.push({ file, state: 'ok', detail: t('store.v1Detail', Object.keys(top.data.posts).length, Object.keys(top.data.threads).length) });
  else if (top.kind === 'v2') files.push({ file, state: 'ok', detail: t('store.indexDetail', Object.keys(top.index.users).length) });
  if (top.kind === 'absent' && fs.existsSync(threadsDir(file))) layout = 'damaged';
  if (layout === 'damaged' && top.kind === 'absent') files.push({ file, state: 'damaged', detail: t('store.indexMissing') });
  for (const tid of await storedTids(file)) {
    const log = (await readLog(threadLogPath(file, tid)))!;
    const f = threadLogPath(file, tid);
    if (log.damage) {
      files.push({ file: f, state: 'damaged', detail: t('store.logDamage', log.damage.line, log.damage.offset, log.damage.reason, log.damage.line - 1, logDetail(log)), backup: await describeBackup(f) });
    } else {
      files.push({ file: f, state: log.torn ? 'torn' : 'ok', detail: `${logDetail(log)}${log.torn ? t('store.torn') : ''}` });
    }
  }
  return { storePath: file, layout, files, damaged: files.some((f) => f.state === 'damaged') };
}

/** Move a damaged file aside (kept, never deleted); returns its new name. */
async function keepDamaged(file: string, stamp: string): Promise<string> {
  const aside = `${file}.damaged-${stamp}`;
  await renameOverAsync(file, aside);
  return aside;
}

/**
 * Rebuild the damaged files of a store from what is readable (holding the writer lock). Returns what
 * was done, one line per file; an undamaged store is left alone.
 */
export async function recoverStore(storePath: string): Promise<{ before: StoreCheck; actions: string[] }> {
  const file = path.resolve(storePath);
  const release = takeFileLock(`${file}.lock`, file);
  try {
    const before = await checkStore(file);
    const actions: string[] = [];
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    for (const f of before.files.filter((x) => x.state === 'damaged')) {
      if (f.file === file) continue; // the index last: it is rebuilt from the recovered logs
      const log = (await readLog(f.file))!;
      const aside = await keepDamaged(f.file, stamp);
      const bak = await readLog(backupPath(f.file));
      const source = log.lines > 0 ? { what: t('store.fromLines', log.lines), log } : bak && !bak.damage ? { what: t('store.fromBackup'), log: bak } : null;
      if (source) await writeFileAtomic(f.file, logLine(fullEntry(source.log)));
      actions.push(t('store.rebuilt', f.file, aside, source ? t('store.rebuiltFrom', source.what, logDetail(source.log)) : t('store.rebuiltNothing')));
    }
    if (before.files.some((x) => x.file === file && x.state === 'damaged')) {
      const aside = fs.existsSync(file) ? await keepDamaged(file, stamp) : null;
      const tids = await storedTids(file);
      if (tids.length) {
        // A version-2 index: the forum from its backup when readable, the uids from the posts.
        const bak = await readStoreFile(backupPath(file));
        const data = emptyStore(bak.kind === 'v2' ? bak.index.forum : bak.kind === 'v1' ? bak.data.forum : '');
        for (const tid of tids) {
          for (const sp of (await readLog(threadLogPath(file, tid)))!.posts) {
            const p = currentVersion(sp).post;
            if (p.authorId !== null && p.authorId > 0 && p.author) data.users[p.author] = p.authorId;
          }
        }
        await writeFileAtomic(file, [Buffer.from(indexText(data))]);
        actions.push(t('store.indexRebuilt', file, aside ? t('store.kept', aside) : '', tids.length, Object.keys(data.users).length));
      } else {
        const bak = await readStoreFile(backupPath(file));
        if (bak.kind === 'v1') {
          await writeFileAtomic(file, [await fsp.readFile(backupPath(file))]);
          actions.push(t('store.restored', file, aside, Object.keys(bak.data.posts).length, Object.keys(bak.data.threads).length));
        } else {
          actions.push(t('store.noBackupNew', file, aside));
        }
      }
    }
    return { before, actions };
  } finally {
    release();
  }
}
