import { describe, expect, test } from 'vitest';
import { bundledCategories, loadWordLists, parseEntry } from '../../src/violations/word-lists.js';
import { describeHit, findBannedWording } from '../../src/violations/wording.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const lists = loadWordLists(bundledCategories());
const one = (s: string) => findBannedWording(s, lists);

describe('banned wording survives evasions and says what a substitute stands for', () => {
  test.each([
    ['我发誓我是好人', '发誓', []],
    ['我發誓我是好人', '发誓', ['variant']],
    ['我ｆａ誓', '发誓', ['pinyin']],
    ['我发 誓', '发誓', ['separators']],
    ['我发\u200b誓', '发誓', ['separators']],
    ['我发.誓', '发誓', ['separators']],
    ['你是珠吗', '你是猪', ['homophone']],
    ['沙比', '傻逼', ['homophone']],
    ['傻X', '傻逼', ['wildcard']],
    ['nmsl', 'nmsl', []],
    ['你个s.b', 'sb', ['separators']],
    ['你的mj我知道', '马甲', ['initials']],
  ])('%s → %s %j', (text, word, evasions) => {
    const h = one(text).find((x) => x.word === word);
    expect(h, JSON.stringify(one(text))).toBeDefined();
    expect([...h!.evasions].sort()).toEqual([...evasions].sort());
    if (evasions.length) expect(describeHit(h!)).toContain(`即「${word}」`);
  });
  test('the snippet is the player\'s own characters', () => {
    const h = one('好吧我發　誓')[0];
    expect(h.matched).toBe('發　誓');
    expect('好吧我發　誓'.slice(h.start, h.end)).toBe('發　誓');
  });
  test('hard negatives: roles and ordinary words that share sounds or characters', () => {
    for (const s of ['狼人法师昨晚用了技能', '其实我是好人', '骑士决斗', '女巫的药已经消耗了', '操作失误', '别逼迫别人', 'USB接口', '所以我不敢担保他', '白痴翻牌了', '请导演公示']) {
      expect(one(s), s).toEqual([]);
    }
  });
  test('a director extends a category and the allow list with files beside the game', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-words-'));
    fs.writeFileSync(path.join(dir, '称谓与叹词.txt'), '# extra\n菜狗\n');
    fs.writeFileSync(path.join(dir, 'allow.txt'), '其实发誓\n');
    const extended = loadWordLists(['称谓与叹词', '发誓与诅咒'], [dir]);
    expect(findBannedWording('你个菜狗', extended).map((h) => h.word)).toEqual(['菜狗']);
    expect(findBannedWording('其实发誓', extended)).toEqual([]);
    expect(() => loadWordLists(['不存在的类别'])).toThrow(/不存在的类别/);
  });
  test('entry shapes', () => {
    expect(parseEntry('sb', 'x').shape).toBe('latin');
    expect(parseEntry('以*人格', 'x').shape).toBe('pattern');
    expect(parseEntry('[图片]', 'x').shape).toBe('exact');
  });
});
