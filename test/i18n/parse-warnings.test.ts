/**
 * What `bansha parse` prints about how it read a page — the decoder's notes on the charset, the page's
 * warnings (a newest-first page, a message a stray end tag pushed out) and its refusals — is in the
 * director's language: Chinese by default without the decoder's English, English with --lang en
 * without Chinese beyond what the page itself holds.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { parsePage } from '../../src/discuz/parse-page.js';
import { fetchedFromFile } from '../../src/cli/commands/parse.js';
import { bansha } from '../helpers/cli.js';
import { DISCUZ } from '../helpers/captured.js';
import { REALWORLD, realworldPath } from '../helpers/realworld.js';
import { chineseLeft, englishLeft } from '../helpers/language.js';

const TMP = path.resolve(import.meta.dirname, '../.tmp/parse-warnings');
/** Third parties' pages are read where they are (../shared), where that is beside the checkout. */
const real = <T>(rows: () => T[]): T[] => (REALWORLD ? rows() : []);
const ZH = { LANG: 'zh_CN.UTF-8', LC_ALL: '', LC_MESSAGES: '' };
let undeclared: string;
let strayEnd: string;
let swallowed: string;

/** The public day-1 page with `tag` typed into post 3's message, three characters in. */
function withTagInMessage(tag: string): string {
  const src = fs.readFileSync(path.join(DISCUZ, 'public', 'viewthread-t2-p1.html'), 'utf8');
  const at = src.indexOf('id="postmessage_3">') + 'id="postmessage_3">'.length + 3;
  return src.slice(0, at) + tag + src.slice(at);
}

beforeAll(() => {
  fs.rmSync(TMP, { recursive: true, force: true });
  fs.mkdirSync(TMP, { recursive: true });
  // A GBK page saved without its <meta charset> and away from its manifest: nothing declares the charset.
  const gbk = fs.readFileSync(path.join(DISCUZ, 'public-gbk', 'viewthread-t14-p1.html')).toString('latin1');
  undeclared = path.join(TMP, 'undeclared-gbk.html');
  fs.writeFileSync(undeclared, Buffer.from(gbk.replace(/<meta charset="gbk" \/>/, ''), 'latin1'));
  // A player's stray </td> pushes the rest of the message out of td.t_f: read, with a warning.
  strayEnd = path.join(TMP, 'stray-end-tag.html');
  fs.writeFileSync(strayEnd, withTagInMessage('</td>'));
  // A stray </table> swallows the later posts in the browser's tree too: the census refuses the page.
  swallowed = path.join(TMP, 'stray-table-end.html');
  fs.writeFileSync(swallowed, withTagInMessage('</table>'));
});

/** Everything the page itself holds (title, authors, post text, its own message): stays as written. */
function pageData(file: string): string[] {
  const p = parsePage(fetchedFromFile(file));
  return [p.page.title ?? '', p.page.message ?? '', ...p.posts.flatMap((x) => [x.author, x.text, ...x.text.split('\n'), x.floorLabel ?? ''])];
}

describe('bansha parse: warnings in the director\'s language', () => {
  const cases = [
    { name: 'an undeclared GBK page', file: () => undeclared, zh: '警告：没有声明字符集；字节不是 UTF-8，但按 GB18030（GBK）解码完全正确，已采用', en: 'warning: no charset declared; the bytes are not UTF-8 but decode cleanly as GB18030 (GBK), used that' },
    ...real(() => [{ name: 'a newest-first page (MCBBS)', file: () => realworldPath('mcbbs-x34-t857907.html'), zh: '警告：这是倒序浏览（新帖在前）的页面：已按正序重排，楼层按 Discuz 的倒序编号加 1 还原', en: "warning: a newest-first page: put back in order, floors restored from Discuz's reversed numbering plus 1" }]),
    { name: 'a stray end tag in a message', file: () => strayEnd, zh: '警告：帖子 3：作者的 HTML 有多余的结束标签，一部分正文被浏览器排到了正文元素之外', en: "warning: post 3: the author's HTML has stray end tags, so the browser put part of the message outside the message element" },
  ];
  test.each(cases)('$name', async ({ file, zh, en }) => {
    const f = file();
    const inZh = await bansha(['parse', f], ZH);
    expect(inZh.code).toBe(0);
    expect(inZh.out).toContain(zh);
    const warningsZh = inZh.out.split('\n').filter((l) => l.includes('警告：'));
    expect(warningsZh.map(englishLeft)).toEqual(warningsZh.map(() => []));
    const inEn = await bansha(['parse', f, '--lang', 'en'], ZH);
    expect(inEn.code).toBe(0);
    expect(inEn.out).toContain(en);
    expect(chineseLeft(inEn.out, pageData(f))).toEqual([]);
  });

  test('refusals: a second page after </html>, mobile-API JSON, posts the census finds unread — exit 3, in either language', async () => {
    for (const [file, zh, en] of [
      ...real(() => [
        [realworldPath('mcbbs-x34-t857907.original-input.txt'), '之后还有', 'more characters after </html>'],
        [realworldPath('keylol-mobileapi-viewthread-t888430.json'), '移动端 API 的 JSON 响应', 'mobile API JSON response'],
      ]),
      [swallowed, '页面字节里有 8 个帖子没有读出来（pid 4, 5, 6, 7, 8, 9, 10, 11）', "8 posts in the page's bytes were not read (pid 4, 5, 6, 7, 8, 9, 10, 11)"],
    ]) {
      const f = file;
      const a = await bansha(['parse', f], ZH);
      expect({ file, code: a.code, zh: a.stderr.includes(zh) }).toEqual({ file, code: 3, zh: true });
      const b = await bansha(['parse', f, '--lang', 'en'], ZH);
      expect({ file, code: b.code, en: b.stderr.includes(en), chinese: chineseLeft(b.stderr.replace(/“[^”]*”|"[^"]*"/g, ''), []) }).toEqual({ file, code: 3, en: true, chinese: [] });
    }
  });
});
