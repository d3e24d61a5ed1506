/**
 * The one terminal-safe and the one BBCode escaper every renderer uses (src/text/safe-text.ts), on
 * the hostile payloads of test/reliability: escape sequences (CSI, OSC 8 hyperlinks), C0/C1 controls,
 * bidi overrides, BBCode tags, mentions, smileys and bare URLs Discuz would auto-link.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { escapeBBCode, revealBidi, stripControls, terminalSafe, ZWSP } from '../../src/text/safe-text.js';

const UNSAFE_TERMINAL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
const ESC_PAYLOAD = '\u001b[2J\u001b[31m红\u001b[0m\u001b]8;;http://evil.example/\u0007链接\u001b]8;;\u0007\u0008\u0007';

describe('terminalSafe', () => {
  test('escape sequences go whole (no "[31m" or "]8;;url" left behind); the visible text stays', () => {
    expect(terminalSafe(`a${ESC_PAYLOAD}b`)).toBe('a红链接b');
    expect(terminalSafe('x\u009b31my\u202e\u2066z\tw\r\n')).toBe('x31myz w\n');
  });
  test('nothing a terminal acts on survives, whatever the input (2,000 runs)', () => {
    const unit = fc.oneof(fc.constantFrom('\u001b', '[', ']', '\u0007', '\\', '8', ';', 'm', '\u202e', '\u009b', '\t', '\n', '红'), fc.string({ unit: 'binary', maxLength: 3 }));
    fc.assert(fc.property(fc.array(unit, { maxLength: 20 }).map((xs) => xs.join('')), (s) => !UNSAFE_TERMINAL.test(terminalSafe(s))), { numRuns: 2_000 });
  });
  test('revealBidi names each bidi control instead of hiding it', () => {
    expect(revealBidi('\u202e狸阿\u2069')).toBe('⟨U+202E⟩狸阿⟨U+2069⟩');
  });
});

describe('escapeBBCode', () => {
  test('no tag, mention, smiley or auto-link survives; the text looks the same', () => {
    const raw = '[url=javascript:alert(1)]x[/url] @全体 {:1_1:} http://evil.example/a WWW.evil.example';
    const bb = escapeBBCode(raw);
    expect(bb).not.toMatch(/\[(?!\u200b)/);
    expect(bb).not.toMatch(/@(?!\u200b)/);
    expect(bb).not.toContain('{:');
    expect(bb).not.toMatch(/:\/\//);
    expect(bb).not.toMatch(/www\.(?!\u200b)/i);
    expect(bb.replaceAll(ZWSP, '')).toBe(raw);
  });
  test('controls and escape sequences removed, line breaks become a space, bidi kept (names look as on the forum)', () => {
    expect(escapeBBCode(`a${ESC_PAYLOAD}\nb\u202ec`)).toBe('a红链接 b\u202ec');
    expect(stripControls('\u0000a\u007fb')).toBe('ab');
  });
  test('guardClosingBrackets: every "]" gets the guard too (elevator link labels)', () => {
    expect(escapeBBCode('a[/url]b', { guardClosingBrackets: true })).toBe(`a[${ZWSP}/url${ZWSP}]b`);
    expect(escapeBBCode('a[/url]b')).toBe(`a[${ZWSP}/url]b`);
  });
});
