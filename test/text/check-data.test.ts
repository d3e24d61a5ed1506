/**
 * The hand check of bansha's own data files (src/text/check-data.ts): the file passes as it is, or the
 * check's failure names the file and the field, as an internal error (not the director's: exit 1).
 */
import { describe, expect, test } from 'vitest';
import { checkData, isMap } from '../../src/text/check-data.js';
import { citationTable } from '../../src/votes/citations.js';

const listOfNames = (raw: unknown, bad: (field: string, expected: string) => never): true => {
  if (!isMap(raw) || !Array.isArray(raw.names)) return bad('names', 'a list of names');
  return true;
};

describe('checkData', () => {
  test('a file of the right shape passes as it is', () => {
    const raw = { names: ['饺子'] };
    expect(checkData('x.yaml', raw, listOfNames)).toBe(raw);
  });
  test('a wrong one: an Error naming the file and the field (no exit code: an internal error)', () => {
    const err = (() => {
      try {
        checkData('src/votes/x.yaml', { names: '饺子' }, listOfNames);
      } catch (e) {
        return e as Error & { exitCode?: number };
      }
    })();
    expect(err?.message).toBe('src/votes/x.yaml names: expected a list of names');
    expect(err?.exitCode).toBeUndefined();
  });
  test('isMap: maps only', () => {
    expect([{}, [], null, 'a', 1].map(isMap)).toEqual([true, false, false, false, false]);
  });
  test('the shipped citation table passes its check', () => {
    expect(Object.keys(citationTable())).toEqual(expect.arrayContaining(['m107', '062']));
  });
});
