/**
 * The files a director writes or edits — the game file (YAML), a selector file, the posting
 * selectors, a banned-word list, the card ledger (JSON) — refused when broken with a message in the
 * director's language and exit 2: the place (file, key, line and column, the offending line) and what
 * is wrong, never the parser library's English in Chinese output (English keeps the library's words).
 */
import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { exitCodeOf } from '../../src/cli/program.js';
import { loadSelectorSet } from '../../src/discuz/selectors.js';
import { parseGame } from '../../src/game/game-file.js';
import { setLanguage, t } from '../../src/i18n/index.js';
import { jsonProblem } from '../../src/i18n/parser-problems.js';
import { packagePath } from '../../src/paths.js';
import { publishSelectors } from '../../src/publish/selectors.js';
import { JsonDocument } from '../../src/store/json-document.js';
import { loadWordLists } from '../../src/violations/word-lists.js';
import { bansha } from '../helpers/cli.js';
import { DISCUZ } from '../helpers/captured.js';
import { chineseLeft, englishLeft } from '../helpers/language.js';

const TMP = path.resolve(import.meta.dirname, '../.tmp/director-files');
const GAME = fs.readFileSync(path.resolve(import.meta.dirname, '../../fixtures/games/public.yaml'), 'utf8');
const DESKTOP = fs.readFileSync(packagePath('selectors', 'discuz-x3-desktop.json'), 'utf8');
const PUBLISH = fs.readFileSync(packagePath('selectors', 'discuz-x3-publish.json'), 'utf8');

beforeAll(() => {
  fs.rmSync(TMP, { recursive: true, force: true });
  fs.mkdirSync(TMP, { recursive: true });
});
afterEach(() => setLanguage('zh'));

/** The refusal `run` throws, in `lang`: its message and the exit code the CLI would give. */
function refusal(lang: 'zh' | 'en', run: () => unknown): { message: string; code: number } {
  setLanguage(lang);
  try {
    run();
  } catch (e) {
    const saved = process.stderr.write;
    process.stderr.write = () => true; // exitCodeOf prints the message as the CLI would
    try {
      return { message: (e as Error).message, code: exitCodeOf(e) };
    } finally {
      process.stderr.write = saved;
    }
  }
  throw new Error('expected a refusal');
}

/** A file in TMP holding `text` (or bytes). */
function file(name: string, text: string | Buffer): string {
  const f = path.join(TMP, name);
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, text);
  return f;
}

/**
 * Both languages of one refusal: exit 2, the Chinese without English words (but the `kept` names of
 * keys and tools), the English without Chinese beyond `data` (what the director wrote).
 */
function bothLanguages(run: () => unknown, data: string[] = [], kept: string[] = []): { zh: string; en: string } {
  const zh = refusal('zh', run);
  const en = refusal('en', run);
  expect([zh.code, en.code]).toEqual([2, 2]);
  // What the director wrote and the library said (quoted), and the field paths (days[1].opens:) are not the message's words.
  const own = zh.message.replace(/「[^」]*」|"[^"]*"|“[^”]*”/g, '').replace(/[\w.[\]]+(?=: )/g, '');
  expect(englishLeft(own).filter((w) => !kept.includes(w))).toEqual([]);
  expect(chineseLeft(en.message, data)).toEqual([]);
  return { zh: zh.message, en: en.message };
}

describe('the game file (YAML)', () => {
  test('a YAML syntax error: line, column, what and the offending line in Chinese; the library\'s words in English', () => {
    const source = `${GAME}oops\n`; // a last key without its colon and value
    const line = source.split('\n').length - 1;
    const { zh, en } = bothLanguages(() => parseGame(source, 'g.yaml'), [source]);
    expect(zh).toBe(`g.yaml: 不是有效的 YAML：第 ${line} 行第 1 列：少了一个字符：键后要有冒号和值（如 "key: 值"），或括号、引号没有配对（该行：「oops」）`);
    expect(zh).not.toMatch(/Implicit|map|column/);
    expect(en).toBe(`g.yaml: not valid YAML: line ${line}, column 1: Implicit map keys need to be followed by map values (the line: "oops")`);
    // A key without its colon between others: the line it is on.
    const bare = GAME.replace('timezone: Asia/Shanghai', 'timezone Asia/Shanghai');
    expect(refusal('zh', () => parseGame(bare, 'g.yaml')).message).toMatch(/：第 \d+ 行第 1 列：这一行没有“键: 值”的冒号，和下一行被读成了一个跨行的键（少了冒号？）（该行：「timezone Asia\/Shanghai」）$/);
  });

  test('tabs, duplicate keys and an unclosed bracket each get their own Chinese explanation', () => {
    setLanguage('zh');
    const cases: Array<[string, RegExp]> = [
      [GAME.replace('timezone: Asia/Shanghai', 'timezone: Asia/Shanghai\ntimezone: Asia/Tokyo'), /同一个键写了两次（该行：「timezone: Asia\/Tokyo」）/],
      [GAME.replace('directors:', 'directors:\n\t- x\nx:'), /不能用 Tab 缩进/],
      [GAME.replace(/players: \[(.*)\]/, 'players: [$1'), /第 \d+ 行第 \d+ 列：/],
    ];
    for (const [source, want] of cases) expect(refusal('zh', () => parseGame(source, 'g.yaml')).message).toMatch(want);
  });

  test('a comma left out inside [ ] or { } is named as such, with the items that lack it', () => {
    const cases: Array<[string, string]> = [
      [GAME.replace('discussion: 2, vote: 3', 'discussion: 2 vote: 3'), 'discussion: 2 vote: 3'], // yaml: block in flow
      [GAME.replace('"2026-11-20 10:00", closes', '"2026-11-20 10:00" closes'), 'opens: "2026-11-20 10:00" closes: "2026-11-21 21:00"'], // unexpected scalar
      [GAME.replace('饺子, 包子, 馒头', '饺子, 包子, {name: 馒头 uid: 3}'), 'name: 馒头 uid: 3'],
      [GAME.replace('饺子, 包子, 馒头', '饺子, 包子, "馒头" 烧卖'), '"馒头" 烧卖'], // missing , or :
    ];
    for (const [source, items] of cases) {
      const { zh, en } = bothLanguages(() => parseGame(source, 'g.yaml'), [source]);
      expect(zh).toContain(`少了逗号：方括号/花括号里的每一项之间要用逗号隔开，「${items}」这里缺一个`);
      expect(zh).not.toContain('不能写多行的块');
      expect(en).toContain(`a comma is missing: items inside [ ] or { } are separated by commas, and "${items}" lacks one`);
    }
    // a bracket left open is not a comma
    expect(refusal('zh', () => parseGame(GAME.replace(/players: \[(.*)\]/, 'players: [$1'), 'g.yaml')).message).not.toContain('少了逗号');
  });

  test('a value no member of a union accepts (a seat: a name or {name, uid, aliases}) gets the reason, not "invalid input"', () => {
    const seat = (s: string) => GAME.replace('饺子, 包子, 馒头', `饺子, 包子, ${s}`);
    const cases: Array<[string, string, string]> = [
      ['{name: 馒头, uid: abc}', 'players[2].uid: 应为数字，实际是文字', 'players[2].uid: Invalid input: expected number, received string'],
      ['{name: 馒头, aliases: 小馒头}', 'players[2].aliases: 应为列表，实际是文字', 'players[2].aliases: Invalid input: expected array, received string'],
      ['{nmae: 馒头}', 'players[2]: 出现未知的键(key): "nmae"', 'players[2]: Unrecognized key: "nmae"'],
      ['{uid: 3}', 'players[2].name: 缺少这一项（应为文字）', 'players[2].name: Invalid input: expected string, received undefined'],
      ['3', 'players[2]: 应为文字或对象（键: 值），实际是数字', 'players[2]: expected string or object, got number'],
      ['[馒头]', 'players[2]: 应为文字或对象（键: 值），实际是列表', 'players[2]: expected string or object, got array'],
    ];
    for (const [written, zh, en] of cases) {
      const r = bothLanguages(() => parseGame(seat(written), 'g.yaml'), ['馒头', '小馒头'], ['key']);
      expect(r.zh).toBe(`g.yaml:7: ${zh}`);
      expect(r.en).toBe(`g.yaml:7: ${en}`);
    }
    // a thread written as neither a number nor a name
    const thread = bothLanguages(() => parseGame(GAME.replace('process: 6', 'process: [6]'), 'g.yaml'));
    expect(thread.zh).toMatch(/^g\.yaml:\d+: process: 应为数字或文字，实际是列表$/);
  });

  test('a field zod refuses, and the cross-field checks (game-checks.ts), in both languages', () => {
    const badTime = bothLanguages(() => parseGame(GAME.replace('opens: "2026-11-22 10:00"', 'opens: "22/11 10:00"'), 'g.yaml'));
    expect(badTime.zh).toMatch(/days\[1\]\.opens: 论坛当地时间，如 "2026-11-22 21:00"/);
    expect(badTime.en).toMatch(/days\[1\]\.opens: a forum-local time like "2026-11-22 21:00"/);
    const overlap = bothLanguages(() => parseGame(GAME.replace('opens: "2026-11-22 10:00"', 'opens: "2026-11-21 20:00"'), 'g.yaml'));
    expect(overlap.en).toMatch(/days\[1\]\.opens: day 2 opens before day 1 closes \(g\.yaml:\d+\): two days cannot overlap$/);
    const twice = bothLanguages(() => parseGame(GAME.replace('vote: 5,', 'vote: 3,'), 'g.yaml'));
    expect(twice.en).toMatch(/days\[1\]\.vote: thread 3 is already day 1's vote thread \(g\.yaml:\d+\); it cannot also be day 2's vote thread/);
    const names = ['饺子', 'Bob', 'bob'];
    const same = bothLanguages(() => parseGame(GAME.replace('麻花]', '麻花, "饺\u200b子"]'), 'g.yaml'), names);
    expect(same.en).toMatch(/players\[12\]: 饺\\u200b子 looks the same as 饺子 on the forum \(both normalise to "饺子"\)/);
    const uid = bothLanguages(() => parseGame(GAME.replace('players: [饺子, 包子,', 'players: [{name: 饺子, uid: 3}, {name: 包子, uid: 3},'), 'g.yaml'), names, ['aliases']);
    expect(uid.en).toMatch(/players\[1\]\.name: uid 3 already belongs to 饺子 \(g\.yaml:\d+\): write a renamed account as aliases/);
    const sub = bothLanguages(() => parseGame(GAME.replace('events:', 'events:\n  - {player: 包子, substitute: 小笼包}'), 'g.yaml'), ['包子', '小笼包'], ['at']);
    expect(sub.en).toMatch(/events\[0\]\.at: a substitute needs the time it takes the seat/);
  });
});

describe('selector files', () => {
  test('not JSON: the line, the column and the line itself; ENOENT as 文件不存在', () => {
    const f = file('not-json.json', DESKTOP.replace('"template": "desktop",', '"template": "desktop",,'));
    const line = DESKTOP.split('\n').findIndex((l) => l.includes('"template": "desktop"')) + 1;
    const { zh, en } = bothLanguages(() => loadSelectorSet(f));
    expect(zh).toMatch(new RegExp(`^选择器文件 ${f} 不是有效的 JSON：第 ${line} 行第 \\d+ 列：这里应是带双引号的键名（多了一个逗号？）（该行：「"template": "desktop",,」）$`));
    expect(en).toMatch(new RegExp(`^the selector file ${f} is not valid JSON: line ${line}, column \\d+: Expected double-quoted property name`));
    expect(refusal('zh', () => loadSelectorSet(path.join(TMP, 'missing.json'))).message).toBe(`无法读取选择器文件 ${path.join(TMP, 'missing.json')}：文件不存在`);
  });

  test('a missing key, a selector css-select cannot read, a pattern that is no regular expression: the key named', () => {
    const data = JSON.parse(DESKTOP);
    delete data.post.item;
    const missing = bothLanguages(() => loadSelectorSet(file('missing-key.json', JSON.stringify(data))));
    expect(missing.zh).toMatch(/^选择器文件 .* 有误：post\.item: 缺少这一项（应为文字）$/);
    const css = bothLanguages(() => loadSelectorSet(file('bad-css.json', DESKTOP.replace('"detect": "', '"detect": "div[id='))), [], ['detect', 'css', 'select', 'CSS']);
    expect(css.zh).toMatch(/选择器文件 .*bad-css\.json 的 detect 不是 css-select 能读的 CSS 选择器："div\[id=/);
    const re = bothLanguages(() => loadSelectorSet(file('bad-re.json', JSON.stringify({ ...JSON.parse(DESKTOP), floorPattern: '(\\d+' }))), [], ['floorPattern', 'JavaScript']);
    expect(re.zh).toMatch(/bad-re\.json 的 floorPattern 不是有效的 JavaScript 正则表达式："\(\\d\+"/);
    expect(re.en).toMatch(/floorPattern is not a valid JavaScript regular expression: "\(\\d\+" \(Invalid regular expression/);
  });

  test('the posting selectors: not JSON, a missing key, a bad pattern', () => {
    expect(bothLanguages(() => publishSelectors(file('publish-not-json.json', PUBLISH.slice(0, -3)))).zh).toMatch(/不是有效的 JSON：第 \d+ 行第 \d+ 列：/);
    const data = JSON.parse(PUBLISH);
    delete data.edit.textarea;
    expect(bothLanguages(() => publishSelectors(file('publish-missing.json', JSON.stringify(data)))).zh).toMatch(/有误：edit\.textarea: /);
    const re = bothLanguages(() => publishSelectors(file('publish-bad-re.json', JSON.stringify({ ...JSON.parse(PUBLISH), errorPattern: '[' }))), [], ['errorPattern', 'JavaScript']);
    expect(re.zh).toMatch(/的 errorPattern 不是有效的 JavaScript 正则表达式/);
    expect(publishSelectors().name).toBe(JSON.parse(PUBLISH).name); // the bundled file still loads
  });
});

describe('banned-word lists beside the game (words/)', () => {
  test('a list saved as GBK, an open brace, an unknown slot, a category without a list', () => {
    const words = (name: string, text: string | Buffer) => path.dirname(file(path.join(name, 'words', '提及导演.txt'), text));
    const gbk = words('gbk', iconv.encode('# 自己的词\n导演是狼\n', 'gbk'));
    expect(bothLanguages(() => loadWordLists(['提及导演'], [gbk]), ['提及导演']).zh).toBe(`${path.join(gbk, '提及导演.txt')} 不是 UTF-8 文本（第 1 行起）：可能是以 GBK/ANSI 保存的；请用“UTF-8”编码另存后再试`);
    const brace = words('brace', '导演{是|就是狼\n');
    expect(bothLanguages(() => loadWordLists(['提及导演'], [brace]), ['提及导演', '导演{是|就是狼']).zh).toBe(`${path.join(brace, '提及导演.txt')}：这一行的花括号 { } 没有配对：「导演{是|就是狼」`);
    const slot = words('slot', '导演{亲戚}\n');
    expect(bothLanguages(() => loadWordLists(['提及导演'], [slot]), ['提及导演', '导演{亲戚}', '亲戚']).zh).toMatch(/未知的词槽 \{亲戚\}/);
    expect(bothLanguages(() => loadWordLists(['不存在的类别']), ['不存在的类别'], ['bannedCategories', 'words']).zh).toMatch(/^违禁言论类别“不存在的类别”没有词表/);
    // A UTF-8 file with Notepad's BOM is read, its first entry included.
    const bom = words('bom', '\uFEFF导演是狼\n');
    expect(loadWordLists(['提及导演'], [bom]).entries.some((e) => e.word === '导演是狼')).toBe(true);
  });
});

describe('bansha\'s own JSON documents', () => {
  test('a card ledger that is not JSON names the line and the column', () => {
    const f = file('game.cards.json', '{\n  "version": 1,\n  "cards": [\n}\n');
    const doc = () => new JsonDocument(f, t('cards.ledgerLabel'), (d) => d).readNow();
    const { zh, en } = bothLanguages(doc);
    expect(zh).toBe(`卡片账本 ${f} 不是有效的 JSON：第 4 行第 1 列：JSON 语法错误（该行：「}」）`);
    expect(en).toMatch(new RegExp(`^the card ledger ${f} is not valid JSON: line 4, column 1: Unexpected token`));
  });
});

describe('where a JSON text breaks (whatever Node version words the error)', () => {
  test.each([
    ['{\n  "a": 1,\n}\n', 3, 1, '}'],
    ['{\n  "a": 1\n  "b": 2\n}\n', 3, 3, '"b": 2'],
    ['[1, 2,\n', 2, 1, ''],
    ['{"a": "x\ty"}', 1, 9, '{"a": "x\\u0009y"}'],
    ['{"a": tru}', 1, 7, '{"a": tru}'],
  ])('%j', (text, line, col, shown) => {
    setLanguage('zh');
    let err: unknown;
    try {
      JSON.parse(text);
    } catch (e) {
      err = e;
    }
    expect(jsonProblem(err, text)).toMatch(new RegExp(`^第 ${line} 行第 ${col} 列：.*（该行：「${shown.replace(/[\\[\]{}()]/g, '\\$&')}」）$`));
  });
});

describe('through the CLI: bansha parse --selectors FILE', () => {
  test('a broken selector file is exit 2 with the place and the reason, in either language', async () => {
    const page = path.join(DISCUZ, 'public', 'viewthread-t2-p1.html');
    const bad = file('cli-bad.json', DESKTOP.replace('"detect": "', '"detect": "div[id='));
    const zh = await bansha(['parse', '--selectors', bad, page], { LANG: 'zh_CN.UTF-8', LC_ALL: '', LC_MESSAGES: '' });
    expect(zh.code).toBe(2);
    expect(zh.stderr).toMatch(/^bansha: 选择器文件 .*cli-bad\.json 的 detect 不是 css-select 能读的 CSS 选择器："div\[id=/);
    const en = await bansha(['parse', '--selectors', bad, page, '--lang', 'en'], {});
    expect(en.code).toBe(2);
    expect(en.stderr).toMatch(/^bansha: bad selector file .*cli-bad\.json: detect is not a CSS selector css-select can read/);
    const notJson = await bansha(['parse', '--selectors', file('cli-not-json.json', '{\n  "name": "x",\n}\n'), page], { LANG: 'zh_CN.UTF-8', LC_ALL: '', LC_MESSAGES: '' });
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/不是有效的 JSON：第 3 行第 1 列：这里应是带双引号的键名（多了一个逗号？）（该行：「}」）/);
  });
});

describe('a rules override of the wrong type', () => {
  test('names the field and the type in Chinese (zod keeps "string"/"undefined" English in zh-CN)', () => {
    const source = GAME.replace(/^ruleset: (.*)$/m, 'ruleset: $1\nrules: {changeMinutesBeforeClose: 一小时}');
    const { zh, en } = bothLanguages(() => parseGame(source, 'g.yaml'), ['一小时']);
    expect(zh).toMatch(/^g\.yaml:\d+: rules\.changeMinutesBeforeClose: 应为数字，实际是文字$/);
    expect(en).toMatch(/^g\.yaml:\d+: rules\.changeMinutesBeforeClose: Invalid input: expected number, received string$/);
  });
});
