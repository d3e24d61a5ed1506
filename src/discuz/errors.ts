/**
 * Why a fetched page could not be read. A ParseError is never "fewer posts": a truncated page, an
 * undecodable body or a thread page without posts stops the run with exit code 3 (incomplete data).
 */
export class ParseError extends Error {
  /** Exit code for the CLI: 3 = incomplete or unreadable data (see src/cli/errors.ts). */
  readonly exitCode = 3;
  constructor(
    message: string,
    /** The page URL, when known, so the director can refetch it. */
    readonly url?: string,
  ) {
    super(url ? `${message} (${url})` : message);
    this.name = 'ParseError';
  }
}
