import { describe, expect, test } from 'vitest';
import { DISCUZ_EDITOR_COLORS, isEnlarged, isRed, readSize, redDeltaE } from '../../src/violations/fonts.js';

describe('red by CIEDE2000 from #FF0000 (rules-spec §7 examples, threshold 10)', () => {
  test.each([
    ['#E60012', 5.9, true],
    ['OrangeRed', 6.4, true],
    ['Crimson', 13.8, false],
    ['#CC0000', 11.0, false],
    ['DarkRed', 23.8, false],
  ])('%s is ΔE %f → red %s', (value, dE, red) => {
    expect(redDeltaE(value)!).toBeCloseTo(dE, 1);
    expect(isRed(value, 10)).toBe(red);
  });
  test('named, #rgb, #rrggbb and rgb() spellings of red', () => {
    for (const v of ['Red', 'red', 'RED', '#f00', '#FF0000', 'rgb(255, 0, 0)', 'rgb(255,0,0)', 'rgba(255, 0, 0, 1)', 'ff0000']) expect(isRed(v, 10), v).toBe(true);
  });
  test('of the editor palette only Red is red; not-a-colour is never red', () => {
    expect(DISCUZ_EDITOR_COLORS.filter((c) => isRed(c, 10))).toEqual(['Red']);
    expect(isRed('notacolour', 10)).toBe(false);
    expect(redDeltaE('')).toBeNull();
  });
  test('the threshold is a setting', () => {
    expect(isRed('Crimson', 14)).toBe(true);
    expect(isRed('#E60012', 5)).toBe(false);
  });
});

describe('enlarged sizes (size N > maxSize, px > maxPx)', () => {
  const limits = { maxSize: 3, maxPx: 16 };
  test.each([
    ['3', false],
    ['4', true],
    ['6', true],
    ['7', true],
    ['16px', false],
    ['17px', true],
    ['20px', true],
    ['12pt', false],
    ['13pt', true],
  ])('%s → %s', (v, big) => expect(isEnlarged(v, limits)).toBe(big));
  test('Discuz sizes map to browser px, 7 is the cap', () => {
    expect(readSize('4')).toEqual({ size: 4, px: 18 });
    expect(readSize('9')).toEqual({ size: 7, px: 48 });
  });
  test('the limits are settings', () => expect(isEnlarged('4', { maxSize: 4, maxPx: 18 })).toBe(false));
});
