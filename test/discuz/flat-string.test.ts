/**
 * Parsed posts must not keep their page alive (src/discuz/flat-string.ts): every string a Post holds
 * is a flat copy, so keeping thousands of posts (the evidence store) costs their own size, not their
 * pages'. Measured on the real captured pages with a forced GC.
 */
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, test } from 'vitest';
import { parsePage } from '../../src/discuz/parse-page.js';
import { detachPost, flatString } from '../../src/discuz/flat-string.js';
import type { Post } from '../../src/discuz/types.js';
import { DISCUZ } from '../helpers/captured.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

describe('flat strings', () => {
  test('flatString and detachPost copy values exactly', () => {
    const page = 'x'.repeat(50_000) + '<img src="http://127.0.0.1:8081/uc_server/avatar.php?uid=2">';
    const cut = page.slice(50_010, page.length - 2);
    expect(flatString(cut)).toBe(cut);
    expect(flatString('')).toBe('');
    const lone = 'x'.repeat(20) + '\uD800' + '汉字'.repeat(10); // not UTF-8-encodable: still copied exactly
    expect(flatString(lone.slice(3))).toBe(lone.slice(3));
    const file = path.join(DISCUZ, 'public', 'viewthread-t2-p1.html');
    const parsed = parsePage({ bytes: fs.readFileSync(file), url: 'http://127.0.0.1:8081/forum.php?mod=viewthread&tid=2&page=1', fetchedAt: new Date() });
    expect(parsed.posts.length).toBeGreaterThan(0);
    for (const p of parsed.posts) expect(detachPost(p)).toEqual(p);
  });

  test('posts kept from many parsed pages do not keep the pages alive', () => {
    const dir = path.join(DISCUZ, 'public');
    const files = fs.readdirSync(dir).filter((f) => /^viewthread-t\d+-p\d+\.html$/.test(f)).slice(0, 6);
    const bodies = files.map((f) => fs.readFileSync(path.join(dir, f)));
    const rounds = 8;
    const kept: Post[][] = [];
    let pageChars = 0;
    // Warm up first (parser tables and compiled code are allocated once, not per page kept).
    for (const [i, bytes] of bodies.entries()) parsePage({ bytes: Buffer.from(bytes), url: `http://127.0.0.1:8081/${files[i]}`, fetchedAt: new Date() });
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let r = 0; r < rounds; r++) {
      for (const [i, bytes] of bodies.entries()) {
        // a fresh copy of the bytes each time, so every parse decodes its own page text
        const parsed = parsePage({ bytes: Buffer.from(bytes), url: `http://127.0.0.1:8081/${files[i]}`, fetchedAt: new Date() });
        kept.push(parsed.posts);
        pageChars += bytes.length;
      }
    }
    gc();
    gc();
    const retained = process.memoryUsage().heapUsed - before;
    const posts = kept.reduce((s, p) => s + p.length, 0);
    expect(posts).toBeGreaterThan(rounds * files.length);
    // The decoded pages alone would be >= 1 byte per page byte (2 per char in UTF-16); the posts keep far less.
    expect(retained).toBeLessThan(pageChars * 0.35);
  });
});
