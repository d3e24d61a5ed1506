/**
 * bansha's JSON documents (the card ledger, the rulings file) as lowdb documents: read whole and
 * validated, written atomically and owner-only through the store's writer (`writeFileAtomic`: a temp
 * file in the same folder, fsync, rename, fsync of the folder, mode 0600, the temp removed on failure).
 * The layout is JSON with a 2-space indent and a trailing newline.
 */
import fs from 'node:fs';
import { Low, type Adapter } from 'lowdb';
import { readJsonFile } from '../i18n/parser-problems.js';
import { writeFileAtomic } from './thread-log.js';

/** A lowdb adapter for one JSON file; `parse` validates what was read (and throws a UserError). */
export class JsonDocument<T> implements Adapter<T> {
  constructor(
    readonly file: string,
    /** What the file is, for messages (from the catalogue: 卡片账本 / the card ledger). */
    readonly what: string,
    readonly parse: (data: unknown) => T,
  ) {}

  /** The document, validated; null when the file does not exist yet. A file that cannot be read or is not JSON is a UserError naming the line. */
  readNow(): T | null {
    if (!fs.existsSync(this.file)) return null;
    return this.parse(readJsonFile(this.file, this.what));
  }

  async read(): Promise<T | null> {
    return this.readNow();
  }

  /** A crash leaves the old file or the new one, never half of one. */
  async write(data: T): Promise<void> {
    await writeFileAtomic(this.file, [Buffer.from(`${JSON.stringify(data, null, 2)}\n`)]);
  }
}

/** A lowdb document on `doc`'s file, read (`empty` when the file does not exist yet). */
export async function openDocument<T>(doc: JsonDocument<T>, empty: T): Promise<Low<T>> {
  const db = new Low(doc, empty);
  await db.read();
  return db;
}
