/**
 * The failures a director can act on, and the exit code of each kind. They sit at the base of the
 * layers (crawl, store, game, votes, cards, elevator throw them); the CLI only prints them
 * (src/cli/errors.ts reportError).
 */

/** What the process exit code says (README "Exit codes"). */
export const ExitCode = {
  ok: 0,
  /** A bug in bansha (and `lastwords` finding Discuz! code, like grep). */
  internal: 1,
  /** Bad input: game file, arguments, options. */
  badInput: 2,
  /** Incomplete or unreadable data (a crawl with gaps, a page that is not the thread). */
  incomplete: 3,
  /** Login needed: no session, an expired one, a login/no-permission/challenge page. */
  login: 4,
  /** The network or the forum failed. */
  network: 5,
  /** This computer's files failed: a full disk, no permission, a read-only folder, a file held (src/file-fault.ts). */
  files: 6,
  /**
   * Not final yet: `--post`/`--confirm` of a day that has not closed, or of a closing count a page of
   * which was not fetched whole after the close (src/crawl/freshness.ts) — the message names each such
   * thread and as of when it is; crawl again after the close (or wait for it) and rerun.
   */
  notFinal: 7,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** A failure the director can act on (bad game file, incomplete crawl, expired login...). */
export class UserError extends Error {
  constructor(
    message: string,
    /** Exit code: 2 bad input, 3 incomplete data, 4 login needed, 5 network, 6 files, 7 not final yet. */
    readonly exitCode: number = ExitCode.badInput,
  ) {
    super(message);
    this.name = 'UserError';
  }
}
