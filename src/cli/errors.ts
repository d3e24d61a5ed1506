/**
 * How failures reach the director: one clear message on stderr, and an exit code that says what
 * kind of failure it was. Error classes carry their own code; a failure of this computer's files has its
 * own (src/file-fault.ts); anything else is an internal error.
 * Messages quote what the forum and players wrote (titles, page messages, names), so they pass the
 * terminal filter (src/text/safe-text.ts) like everything else printed.
 */
import { ExitCode } from '../errors.js';
import { fileFaultOf } from '../file-fault.js';
import { t } from '../i18n/index.js';
import { terminalSafe } from '../text/safe-text.js';

export function reportError(err: unknown): number {
  const code = err instanceof Error ? (err as Error & { exitCode?: unknown }).exitCode : undefined;
  if (err instanceof Error && typeof code === 'number') {
    process.stderr.write(`bansha: ${terminalSafe(err.message)}\n`);
    return code;
  }
  // (a full disk, no permission…: the computer's, not a bug)
  const fault = fileFaultOf(err);
  if (fault) {
    const stack = process.env.BANSHA_DEBUG ? `${(err as Error).stack ?? ''}\n` : '';
    process.stderr.write(terminalSafe(`bansha: ${t('files.fault', fault.file ?? t('files.unnamed'), t(`files.cause.${fault.cause}`), fault.code)}\n${stack}`));
    return ExitCode.files;
  }
  const e = err instanceof Error ? err : new Error(String(err));
  process.stderr.write(terminalSafe(`bansha: ${t('cli.internalError', e.message)}\n${process.env.BANSHA_DEBUG ? (e.stack ?? '') + '\n' : ''}`));
  return ExitCode.internal;
}
