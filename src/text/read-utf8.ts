/**
 * A director's text file (word lists, slots, allow lists) read as UTF-8, strictly: bytes that are not
 * UTF-8 (a list saved as GBK by Windows Notepad) would silently match nothing, so they are refused.
 */
import fs from 'node:fs';
import { UserError } from '../errors.js';
import { t } from '../i18n/index.js';
import { fileProblem } from '../i18n/parser-problems.js';

const strict = new TextDecoder('utf-8', { fatal: true });

/** The file's text without a BOM; a UserError (exit 2) when it cannot be read or is not UTF-8. */
export function readUtf8Text(file: string): string {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (err) {
    throw new UserError(t('file.cannotRead', t('file.textFile'), file, fileProblem(err)));
  }
  try {
    return strict.decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    // The first line holding a byte sequence that is not UTF-8, for the director to find.
    const lines = bytes.toString('latin1').split('\n');
    const bad = lines.findIndex((l) => {
      try {
        strict.decode(Buffer.from(l, 'latin1'));
        return false;
      } catch {
        return true;
      }
    });
    throw new UserError(t('file.notUtf8', file, bad + 1));
  }
}
