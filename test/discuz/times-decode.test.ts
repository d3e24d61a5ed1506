/** Relative-time resolution (Discuz dgmdate 'u' forms) and charset detection, unit level. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { decodeBody, ParseError, parseRelative } from '../../src/discuz/index.js';
import { DISCUZ } from '../helpers/captured.js';

describe('parseRelative', () => {
  // 2026-11-30 16:02:10 in Shanghai.
  const now = new Date('2026-11-30T08:02:10Z');
  const z = 'Asia/Shanghai';
  test.each([
    ['刚刚', '2026-11-30T16:02:10+08:00', '2026-11-30T16:02:10+08:00', 'second'],
    ['5 秒前', '2026-11-30T16:02:05+08:00', '2026-11-30T16:02:05+08:00', 'second'],
    ['20\u00a0分钟前', '2026-11-30T15:42:10+08:00', '2026-11-30T15:41:10+08:00', 'minute'],
    ['半小时前', '2026-11-30T15:32:10+08:00', '2026-11-30T15:02:10+08:00', 'minute'],
    ['3 小时前', '2026-11-30T13:02:10+08:00', '2026-11-30T12:02:10+08:00', 'minute'],
    ['昨天 20:15', '2026-11-29T20:15:00+08:00', '2026-11-29T20:15:00+08:00', 'minute'],
    ['前天\u00a009:05', '2026-11-28T09:05:00+08:00', '2026-11-28T09:05:00+08:00', 'minute'],
    ['5 天前', '2026-11-25T23:59:00+08:00', '2026-11-25T00:00:00+08:00', 'minute'],
  ])('%s', (text, latest, earliest, precision) => {
    const r = parseRelative(text, now, z)!;
    expect(r).toMatchObject({ iso: latest, earliest, precision, source: 'relative' });
  });
  test('not a relative time', () => expect(parseRelative('2026-11-30 16:02', now, z)).toBeNull());
});

describe('decodeBody', () => {
  const gbkPage = readFileSync(path.join(DISCUZ, 'public-gbk', 'viewthread-t14-p1.html'));
  test('header charset wins; GBK decodes as GB18030', () => {
    const d = decodeBody(gbkPage, 'text/html; charset=GBK');
    expect(d.charset).toBe('gb18030');
    expect(d.text).toContain('第一日投票帖');
    expect(d.warnings).toEqual([]);
  });
  test('undeclared GBK (no header, meta removed) is detected with a warning', () => {
    const bytes = Buffer.from(gbkPage.toString('latin1').replace(/<meta charset="gbk" \/>/, ''), 'latin1');
    const d = decodeBody(bytes);
    expect(d.charset).toBe('gb18030');
    expect(d.warnings.join()).toMatch(/没有声明字符集/);
    expect(d.text).toContain('第一日投票帖');
  });
  test('header and meta disagreeing is reported', () => {
    const d = decodeBody(gbkPage, 'text/html; charset=utf-8');
    expect(d.charset).toBe('gb18030');
    expect(d.warnings.join()).toMatch(/Content-Type 说是 utf-8，<meta> 却说是 gb18030/);
  });
  test('a single-byte declaration (ISO-8859-1) is not trusted: the bytes decide, with a warning', () => {
    const bytes = Buffer.from(gbkPage.toString('latin1').replace(/<meta charset="gbk" \/>/, ''), 'latin1');
    const d = decodeBody(bytes, 'text/html; charset=iso-8859-1');
    expect(d.charset).toBe('gb18030');
    expect(d.declared).toBe('iso-8859-1');
    expect(d.warnings.join()).toMatch(/不是任何 Discuz 版本会用的/);
    expect(d.text).toContain('第一日投票帖');
    // With the page's own meta still there, that declaration is used.
    expect(decodeBody(gbkPage, 'text/html; charset=windows-1252').charset).toBe('gb18030');
  });
  test('undecodable bytes throw a ParseError', () => {
    const junk = new Uint8Array(4000).map((_, i) => (i % 3 === 0 ? 0xff : 0x80 + (i % 7)));
    expect(() => decodeBody(junk, 'text/html; charset=utf-8')).toThrow(ParseError);
    expect(() => decodeBody(junk)).toThrow(/既不是 UTF-8，也不是 GBK/);
  });
});
