/**
 * Generated post bodies through the parser: arbitrary Unicode text (CJK, full-width, zero-width, bidi,
 * look-alikes, control characters, HTML-looking text, entities, URLs) typed by players, rendered into
 * the real captured thread markup the way Discuz renders a message (src/replay/synth.ts: HTML-escaped,
 * <br /> line breaks, &nbsp; runs, bare URLs linked), and parsed by parsePage.
 *
 * Invariants: the page parses (no exception of any kind); every post comes back once with its pid,
 * floor, author and time; and its text is exactly what the player typed, up to white space inside a
 * line (runs collapse, lines are trimmed, blank edge lines dropped — tidyText's documented contract).
 * So no typed text can be lost, invented, turned into markup, or bleed into another post.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parsePage } from '../../src/discuz/index.js';
import { familyContentType, renderThreadPageHtml, threadPagePath, type SynthPost } from '../../src/replay/synth.js';
import { FORUM } from '../reliability/world.js';

const PIECES = [
  '投票对象：', '投票理由：', '饺子', 'Вob', 'Ｆｕｌｌ', '\u200b', '\u200d', '\ufeff', '\u202e', '\u2066', '\u00ad',
  '<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '&amp;', '&lt;', '&#27;', '&nbsp;', '"', "'", '<!--', ']]>', '</td></tr></table>',
  '</div>', '<div class="quote"><blockquote>', 'http://example.com/a?b=1&c=2', 'javascript:alert(1)', '\u001b[31m', '\u0007', '\u0000', '\t', '  ', '　', '\u00a0',
];
/** One line a player could type: no BBCode brackets (BBCode rendering is tested elsewhere). */
const line = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: 'binary', maxLength: 6 }), fc.string({ unit: 'grapheme', maxLength: 4 })), { maxLength: 8 })
  .map((xs) => xs.join('').replace(/[[\]\r\n\u2028\u2029]/g, ''));
const body = fc.array(line, { minLength: 1, maxLength: 5 }).map((ls) => ls.join('\n'));

/**
 * What the parser promises for a typed body: per-line white space collapsed and trimmed, edge blank
 * lines dropped, and U+0000 gone (the HTML5 tree builder ignores a NUL in body text: a browser never shows it).
 */
function expected(typed: string): string {
  const lines = typed.replace(/\u0000/g, '').replace(/\u00a0/g, ' ').split('\n').map((l) => l.replace(/[ \t\f\r]+/g, ' ').trim());
  while (lines.length && lines[0] === '') lines.shift();
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}

describe('generated post bodies through the real markup and parsePage', () => {
  test('every body comes back as typed, in its own post (300 pages × up to 9 bodies)', () => {
    fc.assert(
      fc.property(fc.array(body, { minLength: 1, maxLength: 9 }), (bodies) => {
        const posts: SynthPost[] = [
          { pid: 7000, author: '导演A', uid: 2, at: '2026-11-20 10:00:00', body: '开帖' },
          ...bodies.map((b, i) => ({ pid: 7001 + i, author: `玩家${i}`, uid: 300 + i, at: `2026-11-20 11:${String(i).padStart(2, '0')}:00`, body: b })),
        ];
        const html = renderThreadPageHtml({ family: 'utf8', tid: 42, title: '模糊测试', base: FORUM, posts }, 1);
        const page = parsePage({
          bytes: new Uint8Array(Buffer.from(html, 'utf8')),
          url: FORUM + threadPagePath('utf8', 42, 1),
          fetchedAt: new Date('2026-11-23T00:00:00Z'),
          status: 200,
          contentType: familyContentType('utf8'),
        });
        expect(page.page.kind).toBe('thread');
        expect(page.posts.map((p) => [p.pid, p.floor, p.author])).toEqual(posts.map((p, i) => [p.pid, i + 1, p.author]));
        page.posts.slice(1).forEach((p, i) => {
          expect(p.text, JSON.stringify(bodies[i])).toBe(expected(bodies[i]));
          expect(p.postedAt).toBe(`2026-11-20T11:${String(i).padStart(2, '0')}:00+08:00`);
        });
      }),
      { numRuns: 300 },
    );
  });
});
