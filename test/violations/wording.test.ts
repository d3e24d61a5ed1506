import { describe, expect, test } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUNDLED_WORDS_DIR, bundledCategories, loadWordLists, parseCategoryLines, parseEntry } from '../../src/violations/word-lists.js';
import { describeHit, findBannedWording } from '../../src/violations/wording.js';
import { foldText, readDataLines } from '../../src/violations/text-fold.js';

const lists = loadWordLists(bundledCategories());
const one = (s: string, names: string[] = []) => findBannedWording(s, lists, { names });
const cats = (s: string, names: string[] = []) => [...new Set(one(s, names).map((h) => h.category))];

describe('banned wording survives evasions and says what a substitute stands for', () => {
  test.each([
    ['我发誓我是好人', '发誓', []],
    ['我發誓我是好人', '发誓', ['variant']],
    ['我ｆａ誓', '发誓', ['pinyin']],
    ['我发 誓', '发誓', ['separators']],
    ['我发\u200b誓', '发誓', ['separators']],
    ['我发.誓', '发誓', ['separators']],
    ['你是珠吗', '你是猪', ['homophone']],
    ['傻比吧你', '傻逼', ['homophone']],
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
  test("the snippet is the player's own characters", () => {
    const h = one('好吧我發　誓')[0];
    expect(h.matched).toBe('發　誓');
    expect('好吧我發　誓'.slice(h.start, h.end)).toBe('發　誓');
  });
  test('texts are read by UTF-16 unit: characters beyond the BMP, lone surrogates and traditional text keep their offsets', () => {
    // An emoji (two units) and a lone surrogate are separators: 发😀誓 is 发誓 with one inserted.
    const h = one('好吧我发😀誓')[0];
    expect([h.word, h.matched, h.start, h.end, h.evasions]).toEqual(['发誓', '发😀誓', 3, 7, ['separators']]);
    expect(one('我发\ud800誓').map((x) => [x.matched, x.evasions])).toEqual([['发\ud800誓', ['separators']]]);
    // Traditional text (phrases converted first) gives the same tokens at the same places.
    const plain = foldText('😀我发誓，你是猪');
    const traditional = foldText('😀我發誓，你是豬');
    expect(traditional.tokens).toEqual(plain.tokens);
    expect(plain.tokens.map((t) => [t.text, t.start, t.end])).toEqual([['我', 2, 3], ['发', 3, 4], ['誓', 4, 5], ['你', 6, 7], ['是', 7, 8], ['猪', 8, 9]]);
    expect(traditional.simplified).toBe('😀我发誓，你是猪');
  });
  test('hard negatives: roles and ordinary words that share sounds or characters', () => {
    for (const s of ['狼人法师昨晚用了技能', '其实我是好人', '骑士决斗', '女巫的药已经消耗了', '操作失误', '别逼迫别人', 'USB接口', '所以我不敢担保他', '白痴翻牌了', '请导演公示']) {
      expect(one(s), s).toEqual([]);
    }
  });
});

describe('patterns, not only words (issue #15)', () => {
  test('a match never crosses clause punctuation, nor reads two words as one', () => {
    expect(one('明天出发，誓要找狼')).toEqual([]);
    expect(one('我日常潜水，今天多说两句')).toEqual([]);
    expect(one('事实就是他投了票')).toEqual([]); // 事实 is a word, not 食屎
    expect(one('她輕笑出聲。')).toEqual([]);
    expect(cats('我日你')).toEqual(['称谓与叹词']);
  });
  test("a player's own name is never part of a match", () => {
    expect(cats('小号昨天没投票')).toEqual(['马甲与场外']);
    expect(one('小号昨天没投票', ['小号'])).toEqual([]);
    expect(one('周九昨天没投票，周九你说呢', ['周九'])).toEqual([]);
    expect(cats('小号你个傻逼', ['小号'])).toEqual(['称谓与叹词']);
  });
  test('slots and bounded gaps: stakes paraphrased, words inserted', () => {
    expect(cats('我拿我奶奶的名义担保他是好人')).toEqual(['担保与威胁']);
    expect(cats('以我全部的人格担保')).toEqual(['担保与威胁']);
    expect(cats('以佛祖的名义保证他是狼')).toContain('担保与威胁');
    expect(cats('导演刚才私聊跟我说我验对了')).toEqual(['提及导演']);
    expect(cats('这个判罚我不服')).toEqual(['提及导演']);
    expect(one('以我的经验，他是好人')).toEqual([]);
  });
  test('an oath that names a forfeit may reach across a comma; a plain hypothesis is not one', () => {
    const h = one('要是我是狼，我就直播女装');
    expect(h.map((x) => x.category)).toEqual(['发誓与诅咒']);
    expect(h[0].evasions).toEqual([]);
    expect(one('要是我是狼，我昨晚就刀他了')).toEqual([]);
    expect(one('要是我是狼。我就直播女装')).toEqual([]);
  });
  test('role names: the role is not an insult', () => {
    for (const s of ['白痴翻牌免死', '我是白痴，被投出去可以翻牌', '猎人开枪带走了五号', '警长票算一票半', '狼人会装白痴骗票']) expect(one(s), s).toEqual([]);
    expect(cats('你这白痴，连票都不会投')).toEqual(['侮辱性评论']);
    expect(cats('白痴一样的操作')).toEqual(['侮辱性评论']);
  });
  test('every bundled entry cites a rule-post line that exists', () => {
    const rules: Record<string, string[]> = {
      m107: fs.readFileSync('fixtures/rules/m107-motiandalou.txt', 'utf8').split('\n'),
      '120b': fs.readFileSync('fixtures/rules/120b-dianziyouxi.txt', 'utf8').split('\n'),
      '062': fs.readFileSync('fixtures/rules/062-datangshuanglong.txt', 'utf8').split('\n'),
    };
    for (const e of lists.entries) {
      expect(e.cites.length, `${e.category}: ${e.word}`).toBeGreaterThan(0);
      for (const c of e.cites) {
        const [rule, line] = c.split(':');
        expect(rules[rule]?.[Number(line) - 1]?.trim(), `${e.word} @${c}`).toBeTruthy();
      }
    }
    expect(lists.entries.filter((e) => e.shape === 'pattern').length).toBeGreaterThan(100);
  });
  test('a director extends a category, the slots and the allow list with files beside the game', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-words-'));
    fs.writeFileSync(path.join(dir, '称谓与叹词.txt'), '# extra\n菜狗\n{若我}*2{菜鸟}\nnm2b\n');
    fs.writeFileSync(path.join(dir, 'slots.txt'), '{菜鸟} = 菜鸡|菜鸟\n');
    fs.writeFileSync(path.join(dir, 'allow.txt'), '其实发誓\n');
    const extended = loadWordLists(['称谓与叹词', '发誓与诅咒'], [dir]);
    expect(findBannedWording('菜狗一个', extended).map((h) => h.matched)).toEqual(['菜狗']);
    expect(findBannedWording('我若菜鸡', extended).map((h) => h.matched)).toEqual(['我若菜鸡']);
    expect(findBannedWording('其实发誓', extended)).toEqual([]);
    // A latin entry with a digit: looked for when the text has each of its letters and digits.
    expect(findBannedWording('你个nm 2b', extended).map((h) => [h.matched, h.evasions])).toEqual([['nm 2b', ['separators']]]);
    expect(findBannedWording('你个nm 3b', extended).map((h) => h.word)).not.toContain('nm2b');
    // Loaded again unchanged (demo and close report every day in one run): the same set, its index
    // kept; a file changed in between is read anew.
    expect(loadWordLists(['称谓与叹词', '发誓与诅咒'], [dir])).toBe(extended);
    fs.writeFileSync(path.join(dir, 'allow.txt'), '其实\n');
    const changed = loadWordLists(['称谓与叹词', '发誓与诅咒'], [dir]);
    expect(changed).not.toBe(extended);
    expect(changed.allow).toContain('其实');
    expect(loadWordLists(['称谓与叹词'], [dir])).not.toBe(changed);
    expect(() => loadWordLists(['不存在的类别'])).toThrow(/不存在的类别/);
    expect(() => parseCategoryLines(['以*{无此槽}'], 'x', new Map(), 'f')).toThrow(/无此槽/);
  });
  test('entry shapes and syntax', () => {
    expect(parseEntry('sb', 'x').shape).toBe('latin');
    expect(parseEntry('以*人格', 'x').shape).toBe('pattern');
    expect(parseEntry('[图片]', 'x').shape).toBe('exact');
    const [e] = parseCategoryLines(['{a} = 甲|乙', '@m107:259', '以~8{a|丙}担保 @062:311 !{a}'], 'x', new Map(), 'f');
    expect(e.cites).toEqual(['062:311']);
    expect(e.unless).toEqual(['甲', '乙']);
    expect(e.elements.map((x) => x.kind)).toEqual(['char', 'gap', 'alt', 'char', 'char']);
    expect(e.elements[1]).toMatchObject({ max: 8, acrossCommas: true });
    expect(readDataLines(path.join(BUNDLED_WORDS_DIR, '贴证.txt')).length).toBeGreaterThan(5);
  });
});
