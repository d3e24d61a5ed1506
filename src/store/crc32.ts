/**
 * CRC-32 as zlib computes it (IEEE 802.3, reflected, polynomial 0xEDB88320), of bytes or of a text's
 * UTF-8 bytes, continued from an earlier CRC: the keyed files' checksums (keyed-file.ts). Up to 64 KB
 * it is computed here, table-driven, eight bytes a step (slicing by 8), so that a warm closing command,
 * whose kept files are that small (the checked game, the elevator's floor, the closed days), does not load
 * node:zlib (its module and binding: ~1–2 ms of Node 24's start-up); a larger one goes to node:zlib's,
 * loaded then, three times quicker per byte than this once warm and far quicker cold.
 * test/store/crc32.test.ts holds both to zlib's on every length around the steps and on texts.
 */
import { createRequire } from 'node:module';

/** Above this many bytes node:zlib computes it. */
export const SMALL_CRC = 64 * 1024;

const TABLES = (() => {
  const t = new Int32Array(256 * 8);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  for (let n = 0; n < 256; n++) for (let k = 1; k < 8; k++) t[k * 256 + n] = (t[(k - 1) * 256 + n] >>> 8) ^ t[t[(k - 1) * 256 + n] & 0xff];
  return t;
})();

let zlib: typeof import('node:zlib') | undefined;
const zlibCrc = (data: Uint8Array | string, from: number): number => (zlib ??= createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib')).crc32(data, from);

const encoder = new TextEncoder();

/** The CRC-32 of `data` (a text: its UTF-8 bytes, a lone surrogate as U+FFFD), continuing `from` (0: a fresh one), as zlib.crc32 gives it. */
export function crc32(data: Uint8Array | string, from = 0): number {
  // (a text of n UTF-16 units is at most 3n bytes)
  if (typeof data === 'string' ? data.length * 3 > SMALL_CRC : data.length > SMALL_CRC) return zlibCrc(data, from);
  return tableCrc(typeof data === 'string' ? encoder.encode(data) : data, from);
}

/** crc32 computed here, whatever the length. */
export function tableCrc(b: Uint8Array, from = 0): number {
  const t = TABLES;
  let c = ~from;
  let i = 0;
  for (const end = b.length - 7; i < end; i += 8) {
    const lo = c ^ (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24));
    c = t[1792 + (lo & 0xff)] ^ t[1536 + ((lo >>> 8) & 0xff)] ^ t[1280 + ((lo >>> 16) & 0xff)] ^ t[1024 + (lo >>> 24)]
      ^ t[768 + b[i + 4]] ^ t[512 + b[i + 5]] ^ t[256 + b[i + 6]] ^ t[b[i + 7]];
  }
  for (; i < b.length; i++) c = t[(c ^ b[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}
