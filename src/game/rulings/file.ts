/**
 * The rulings file `<game>.rulings.json` beside the game file: append-only (an undo is a new entry),
 * timestamped; a lowdb document (src/store/json-document.ts), written atomically and owner-only.
 * Reading validates it; which rulings are in force is a pure function of the entries (`activeRulings`).
 */
import { z } from 'zod';
import { UserError } from '../../errors.js';
import { t } from '../../i18n/index.js';
import { JsonDocument } from '../../store/json-document.js';
import type { RulingsFile } from './types.js';

export { rulingsPath } from './path.js';

const common = { id: z.number().int().positive(), by: z.string(), at: z.string() };
const entrySchema = z.union([
  z.object({
    ...common,
    verb: z.enum(['accept', 'reject']),
    subject: z.enum(['ballot', 'flag', 'bid', 'request', 'successor', 'card', 'thread']),
    pid: z.number().int().positive().optional(),
    tid: z.number().int().positive().optional(),
    card: z.string().optional(),
    day: z.number().int().positive(),
    why: z.string().min(1),
  }).strict(),
  z.object({ ...common, verb: z.literal('undo'), undoes: z.number().int().positive() }).strict(),
]);
const fileSchema = z.object({ version: z.literal(1), entries: z.array(entrySchema) }).strict();

/** The rulings file as a lowdb document (validated on reading, written atomically and owner-only). */
function rulingsDocument(file: string): JsonDocument<RulingsFile> {
  return new JsonDocument(file, t('rule.fileLabel'), (data) => {
    const parsed = fileSchema.safeParse(data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UserError(t('rule.badFile', file, issue.path.join('.'), issue.message));
    }
    return parsed.data as RulingsFile;
  });
}

/** The rulings file's entries (none when the file does not exist yet). A damaged file is refused (exit 2). */
export function readRulings(file: string): RulingsFile {
  return rulingsDocument(file).readNow() ?? { version: 1, entries: [] };
}

/** Writes the file atomically and owner-only: a crash leaves the old file or the new one. */
export async function writeRulings(data: RulingsFile, file: string): Promise<void> {
  await rulingsDocument(file).write(data);
}
