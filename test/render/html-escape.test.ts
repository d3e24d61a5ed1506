/**
 * The report's escaping and links (src/render/html-escape.ts): a post link's href written without
 * parsing it each time is exactly what parsing gives — held to the WHATWG URL parser over URLs made of
 * the pieces that change how one is written (case, ports, dot segments, spaces, controls, backslashes,
 * non-ASCII, IPv6, credentials, empty and odd queries, fragments, other schemes).
 */
import { describe, expect, test } from 'vitest';
import { escapeHtml, link, safeHref } from '../../src/render/html-escape.js';

/** safeHref as it was written: every URL parsed, then escaped five replacements at a time. */
function parsed(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    const s = u.toString();
    return u.protocol === 'http:' || u.protocol === 'https:' ? s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;') : null;
  } catch {
    return null;
  }
}

const SCHEMES = ['http://', 'https://', 'HTTP://', 'hTtPs:', 'http:/', 'http:\\\\', 'javascript:', 'data:text/html,', 'ftp://', 'mailto:', '', ' http://', '\thttp://'];
const HOSTS = ['127.0.0.1:8081', 'bbs.example.COM', 'a', 'h:80', 'h:443', 'h:', 'user:pw@h', '[::1]:8081', '中文.com', 'xn--fiqs8s', '0x7f.1', 'h h', '', 'h\\x', 'h%41'];
const PATHS = ['', '/', '/forum.php', '/a/../b.php', '/a/./', '/..', '/a b', '/%7e', '/ä', '/x\\y', '/a/%2e%2E/b', '/#frag/', '/t\n', '/ '];
const QUERIES = [null, '', 'mod=redirect&goto=findpost&ptid=5&pid=140', 'a=1&b=2?c', 'x=%zz', 'q=a b', "q='\"<>", 'q=中', 'q=1#top', 'q=\t1', 'q=~!$()*+,;:@/-._', 'q=\\', 'q=`{}|^[]', 'q=1 '];

describe('safeHref', () => {
  test("every URL of the pieces gets parsing's href (or none), escaped", () => {
    let n = 0;
    for (const s of SCHEMES) for (const h of HOSTS) for (const p of PATHS) for (const q of QUERIES) {
      const url = `${s}${h}${p}${q === null ? '' : `?${q}`}`;
      expect(safeHref(url), JSON.stringify(url)).toBe(parsed(url));
      n++;
    }
    expect(n).toBeGreaterThan(30_000);
  });

  test('a post link: the same href whether its base was seen before or not; a second base of its own', () => {
    const a = 'http://127.0.0.1:8081/forum.php?mod=redirect&goto=findpost&ptid=5&pid=';
    for (let pid = 0; pid < 50; pid++) expect(safeHref(`${a}${pid}`)).toBe(parsed(`${a}${pid}`));
    expect(safeHref('https://BBS.example.com:443/./forum.php?tid=1')).toBe('https://bbs.example.com/forum.php?tid=1');
    expect(safeHref('javascript:alert(1)?x=1')).toBeNull();
    expect([safeHref(null), safeHref(undefined), safeHref('')]).toEqual([null, null, null]);
  });

  test('link and escapeHtml', () => {
    expect(escapeHtml(`<a href="x">&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;');
    expect(escapeHtml('红色字体 ΔE ≤ 10')).toBe('红色字体 ΔE ≤ 10');
    expect(link('http://h/t?a=1&b=<', '<查看>')).toBe('<a href="http://h/t?a=1&amp;b=%3C" rel="noreferrer noopener">&lt;查看&gt;</a>');
    expect(link('javascript:x', '查看')).toBe('查看');
  });
});
