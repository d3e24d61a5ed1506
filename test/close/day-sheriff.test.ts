/**
 * `close --confirm` writes the badge's successor into the next day's entry of the game file
 * (withDaySheriff): every byte the director wrote stays, a flow entry gets `, sheriff: NAME` before its
 * `}`, a block entry a line with its keys' indentation; a day absent or already naming a sheriff is left.
 */
import { expect, test } from 'vitest';
import { withDaySheriff } from '../../src/close/confirm.js';

test('flow entries: added before the closing brace, comments kept', () => {
  const src = 'days:\n  - {day: 2, vote: 5}   # two\n  - {day: 3, discussion: 7 }  # 第三日\nevents: []\n';
  expect(withDaySheriff(src, 3, '饺子')).toBe('days:\n  - {day: 2, vote: 5}   # two\n  - {day: 3, discussion: 7, sheriff: 饺子 }  # 第三日\nevents: []\n');
});

test('block entries: a line with the keys\' indentation; a name YAML could misread is quoted', () => {
  const src = 'days:\n  - day: 2\n    vote: 5\n  - day: 3\n    discussion: 7 # c\n\nevents: []\n';
  expect(withDaySheriff(src, 3, 'a: b')).toBe('days:\n  - day: 2\n    vote: 5\n  - day: 3\n    discussion: 7 # c\n    sheriff: "a: b"\n\nevents: []\n');
});

test('no such day, or a sheriff already named: nothing written', () => {
  expect(withDaySheriff('days:\n  - {day: 2}\n', 3, 'x')).toBeNull();
  expect(withDaySheriff('days:\n  - {day: 3, sheriff: y}\n', 3, 'x')).toBeNull();
});
