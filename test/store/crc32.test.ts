/**
 * The keyed files' CRC-32 (src/store/crc32.ts) is zlib's: computed here up to SMALL_CRC bytes and by
 * node:zlib above, both equal to zlib.crc32 on every length around the eight-byte steps and the
 * threshold, continued from another CRC, and on texts (UTF-8: CJK, astral characters, a lone surrogate).
 */
import zlib from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { crc32, SMALL_CRC, tableCrc } from '../../src/store/crc32.js';
import { seededRandom } from '../../src/seeded-random.js';

describe('crc32', () => {
  const random = seededRandom(32);
  const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => Math.floor(random() * 256));

  test('bytes: every length 0–300, around the threshold and a megabyte, fresh and continued, as zlib', () => {
    const lengths = [...Array.from({ length: 301 }, (_, i) => i), SMALL_CRC - 9, SMALL_CRC - 1, SMALL_CRC, SMALL_CRC + 1, SMALL_CRC + 7, 1 << 20];
    for (const n of lengths) {
      const b = bytes(n);
      for (const from of [0, 1, 0xffffffff, 0x1234abcd]) {
        expect(crc32(b, from)).toBe(zlib.crc32(b, from));
        expect(tableCrc(b, from)).toBe(zlib.crc32(b, from));
      }
      // a view into a larger buffer (keyed-file.ts hands subarrays of a file read whole)
      const whole = bytes(n + 11);
      expect(crc32(whole.subarray(5, 5 + n))).toBe(zlib.crc32(whole.subarray(5, 5 + n)));
    }
  });

  test('texts: as zlib encodes them (UTF-8), short and past the threshold', () => {
    const texts = ['', 'a', 'key 123\n', '投票对象：饺子\n投票理由：发言太少', '😀 emoji 𠀀', 'lone \ud800 surrogate \udc00 end', '警长'.repeat(SMALL_CRC / 4), 'x'.repeat(SMALL_CRC / 3 + 1)];
    for (const s of texts) for (const from of [0, 0xdeadbeef]) expect(crc32(s, from)).toBe(zlib.crc32(s, from));
  });

  test("a file's checksum as two parts continued is the whole's", () => {
    const b = bytes(5000);
    expect(crc32(b.subarray(1234), crc32(b.subarray(0, 1234)))).toBe(zlib.crc32(b));
  });
});
