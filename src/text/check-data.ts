/**
 * The check of a data file bansha ships (src/votes/*.yaml): its shape, said in a line that names the
 * file and the field when it is wrong. A broken package file is bansha's own fault (an internal error,
 * exit 1), never the director's; checked without zod, which a closing command then never loads.
 */

/** A YAML/JSON map (not a list, not null). */
export function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `raw` as T when `check` passes it; `check` returns true, or calls `bad(field, what it should be)`. */
export function checkData<T>(file: string, raw: unknown, check: (raw: unknown, bad: (field: string, expected: string) => never) => true): T {
  check(raw, (field, expected) => {
    throw new Error(`${file}${field ? ` ${field}` : ''}: expected ${expected}`);
  });
  return raw as T;
}
