/**
 * When this computer's files fail — a full disk, no permission, a read-only folder, a file another
 * program holds — the director can act on it (free space, move the game folder, close the program), and
 * it is not a bug in bansha: the CLI says so in the director's language, naming the file, with its own
 * exit code (ExitCode.files), not as an internal error (src/cli/errors.ts). Every writer of bansha's files replaces a file
 * whole or cuts a failed append back off (replace-file.ts, store/thread-log.ts), so what was written
 * before stays as it was: the message says to run the same command again once the cause is gone.
 *
 * Node's errors from a descriptor or a file handle (write, fsync…) carry no path: the writers attach the
 * file they were writing (`atFile`).
 */
/** The error codes a file operation gets from the system that are the computer's, not bansha's. */
const CAUSES = {
  ENOSPC: 'full',
  EDQUOT: 'full',
  EACCES: 'denied',
  EPERM: 'denied',
  EROFS: 'readOnly',
  EBUSY: 'busy',
  ETXTBSY: 'busy',
  EMFILE: 'tooMany',
  ENFILE: 'tooMany',
  EIO: 'io',
  ENAMETOOLONG: 'longName',
} as const;
export type FileFaultCause = (typeof CAUSES)[keyof typeof CAUSES];

/** The file operations (Node's `syscall`) a fault is read from: a socket's EACCES is not a file's. */
const FILE_CALLS = new Set(['open', 'write', 'read', 'close', 'fsync', 'fdatasync', 'ftruncate', 'rename', 'unlink', 'rmdir', 'rm', 'mkdir', 'link', 'copyfile', 'utime', 'futime', 'chmod', 'fchmod', 'scandir', 'opendir', 'stat', 'lstat', 'fstat', 'access', 'realpath']);

export interface FileFault {
  cause: FileFaultCause;
  code: string;
  /** The file, when the error or its writer named it. */
  file: string | null;
}

/** What a thrown error says of this computer's files; null when it is not such a failure. */
export function fileFaultOf(err: unknown): FileFault | null {
  if (!(err instanceof Error)) return null;
  const e = err as NodeJS.ErrnoException & { dest?: string };
  const cause = typeof e.code === 'string' ? CAUSES[e.code as keyof typeof CAUSES] : undefined;
  if (!cause || (e.syscall !== undefined && !FILE_CALLS.has(e.syscall))) return null;
  return { cause, code: e.code!, file: e.path ?? null };
}

/** `err`, with `file` as its path when it names none (a write to a descriptor): what the message will name. */
export function atFile<E>(err: E, file: string): E {
  const e = err as NodeJS.ErrnoException;
  if (err instanceof Error && typeof e.code === 'string' && e.path === undefined) e.path = file;
  return err;
}
