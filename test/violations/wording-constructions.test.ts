/**
 * Banned wording by what is said (issue 36): the constructions each rule bans, in words none of the
 * lists spells out as a sentence, and the game talk that shares their words. Sentences written for
 * this test (none is from fixtures/wording/*.tsv).
 */
import { describe, expect, test } from 'vitest';
import { bundledCategories, loadWordLists, parseCategoryLines } from '../../src/violations/word-lists.js';
import { findBannedWording } from '../../src/violations/wording.js';

const lists = loadWordLists(bundledCategories());
const hits = (s: string) => findBannedWording(s, lists);
const cats = (s: string) => [...new Set(hits(s).map((h) => h.category))].sort();

describe('constructions, not sentences (issue 36)', () => {
  test.each([
    // oath frames: a condition on the speaker's word with a self-penalty; swearing by what is held dear
    ['假如我说了半句假话，我立马吃键盘', '发誓与诅咒'],
    ['我拿祖宗十八代起誓，五号是狼', '发誓与诅咒'],
    // curse frames: a harm wished on a player or on those close to them
    ['诅咒投我的人天天被刀', '发誓与诅咒'],
    ['祝你们这些狼出门踩狗屎', '发誓与诅咒'],
    // vouching frames: a seat, an account, a name staked on a claim; threats
    ['我用我的座位担保三号是民', '担保与威胁'],
    ['你给老子等着，游戏结束后找你算账', '担保与威胁'],
    // address and belittling frames
    ['你这瘪三，还敢跳预言家', '称谓与叹词'],
    ['你这种二愣子也配玩版杀', '侮辱性评论'],
    // cross-account talk: real-life ties, earlier games
    ['你们俩现实里是同事吧', '马甲与场外'],
    ['他在上上期就是这个打法', '马甲与场外'],
    // the director's words claimed, the director as witness, a ruling refused
    ['导演私信跟我说五号没问题', '提及导演'],
    ['不信你们去问导演', '提及导演'],
    ['要求导演撤回这张红牌', '提及导演'],
    // pasted evidence announced
    ['以下是导演发来的私信原文', '贴证'],
    ['我截了图，聊天记录都在', '贴证'],
  ])('%s → %s', (text, category) => {
    expect(cats(text), JSON.stringify(hits(text))).toContain(category);
  });

  test('game talk, talk about the rules, the garment and self-deprecation are not flagged', () => {
    for (const s of [
      '希望你今晚别被刀死', // a curse frame, but its gap holds the game's words (今晚, 刀) and a negation
      '规则禁止发誓，大家注意',
      '别讨论替补了，会吃牌的',
      '这件羽绒马甲很暖和',
      '请导演公示一下票型',
      '脑子不够用了，明天再盘',
      '二百五十个金币',
      '我的身份卡是猎人',
      '你的身份是预言家吗',
      '要是我是预言家，我昨晚就验他了',
      '他之前说他是预言家',
    ]) expect(hits(s), s).toEqual([]);
  });

  test('each hit names the construction it matched and the words that matched it', () => {
    const [h] = hits('我用我的座位担保三号是民').filter((x) => x.category === '担保与威胁');
    expect(h.word).toMatch(/^\{拿\|用\|.*\}\*6\{押注\}\*6\{担保词\}$/);
    expect(h.matched).toBe('用我的座位担保');
    expect(h.cites.length).toBeGreaterThan(0);
  });

  test("a context word in a frame's gap clears it; an allow word in a gap does not", () => {
    const [frame] = parseCategoryLines(['{祝|愿}*6死 !{今晚|刀}'], 'x', new Map(), 'f');
    const one = { categories: ['x'], entries: [{ ...frame, id: 0 }], allow: ['所以'] };
    expect(findBannedWording('祝你早点死', one).map((h) => h.matched)).toEqual(['祝你早点死']);
    expect(findBannedWording('祝你今晚死', one)).toEqual([]);
    const [stake] = parseCategoryLines(['拿*8担保'], 'x', new Map(), 'f');
    const two = { categories: ['x'], entries: [{ ...stake, id: 0 }], allow: ['所以'] };
    expect(findBannedWording('拿命所以担保', two).map((h) => h.matched)).toEqual(['拿命所以担保']);
    expect(findBannedWording('所以担保', two)).toEqual([]);
  });
});

describe('second pass: the same speech in other words (issue 36)', () => {
  test.each([
    // a condition on the speaker's word, then a penalty asked for in this life or the next
    ['我要是说了一句假话，就让我这辈子抽不到好牌', '发誓与诅咒'],
    ['倘若我是悍跳，叫我下辈子当狗', '发誓与诅咒'],
    ['我对着我家祖宗牌位讲，我是真女巫', '发誓与诅咒'],
    ['以我外婆的在天之灵起誓，我没撒谎', '发誓与诅咒'],
    // a harm outside the game wished on a seat or on whoever voted: game words do not clear it
    ['愿9号今晚回家拉肚子', '发誓与诅咒'],
    ['诅咒投我的人明天就失业', '发誓与诅咒'],
    ['这种人迟早没有好下场', '发誓与诅咒'],
    // "do that again and I will expose you / get you a card", a price promised
    ['你要是再带节奏，我就把你老底全抖出来', '担保与威胁'],
    ['你敢再踩我一下，我马上找导演给你吃牌', '担保与威胁'],
    ['我说谎的话让导演直接判我红牌', '担保与威胁'],
    // address and exclamation forms
    ['去你大爷的，又是我', '称谓与叹词'],
    ['老子受够你们了', '称谓与叹词'],
    ['你算个什么玩意儿', '称谓与叹词'],
    // belittling by comparison, brains as decoration, character at the bottom
    ['你这水平连草履虫都不如', '侮辱性评论'],
    ['他的脑子大概只是摆设', '侮辱性评论'],
    ['这人素质低劣', '侮辱性评论'],
    ['什么弱智逻辑', '侮辱性评论'],
    // knowing the person, a relation off the forum, habits elsewhere, an earlier game by its play
    ['我见过6号真人', '马甲与场外'],
    ['我跟5号其实是舍友', '马甲与场外'],
    ['你在灌水区也是这么阴阳怪气', '马甲与场外'],
    ['这打法跟他上一届一模一样', '马甲与场外'],
    // a ruling refused, the director quoted
    ['这张黄牌我无法接受', '提及导演'],
    ['导演早就承认了我是好人', '提及导演'],
    // evidence shown
    ['大家点开我发的链接', '贴证'],
    ['我把站内信原文贴出来了', '贴证'],
    // third pass: rhetorical questions, feet, a forfeit eaten, a bad life of draws, dung, a director's favour
    ['真搞不懂你是怎么毕业的', '侮辱性评论'],
    ['这推理是拿脚趾头想的吧', '侮辱性评论'],
    ['他的分析简直一坨狗屎', '侮辱性评论'],
    ['我验错了我就把鼠标吞了', '发誓与诅咒'],
    ['诅咒刀我的人永远拿不到狼', '发誓与诅咒'],
    ['你怎么还不去投胎', '发誓与诅咒'],
    ['千万别让我在线下遇到你', '担保与威胁'],
    ['我赌上一张红牌，他是狼', '担保与威胁'],
    ['那个号是老玩家新注册的号', '马甲与场外'],
    ['他在三国杀里也是这副德行', '马甲与场外'],
    ['导演这两天一直在偏袒狼队', '提及导演'],
    ['聊天记录截图贴在楼下了', '贴证'],
    // fourth and fifth passes: the director under other names, stakes without a verb, retaliation, notices pasted
    ['小导私下跟我讲过，五号没问题', '提及导演'],
    ['dy说我的技能生效了', '提及导演'],
    ['这么判太离谱了吧', '提及导演'],
    ['我押上我的预言家牌，七号是狼', '担保与威胁'],
    ['谁要是出我，揭秘后我就把你们的聊天全公开', '担保与威胁'],
    ['你们等着吧，后果自负', '担保与威胁'],
    ['你怎么这么蠢', '侮辱性评论'],
    ['3号这条疯狗又在乱咬', '称谓与叹词'],
    ['他以前叫别的名字，换了id又来了', '马甲与场外'],
    ['他的口癖跟那位老版主一模一样', '马甲与场外'],
  ])('%s → %s', (text, category) => {
    expect(cats(text), JSON.stringify(hits(text))).toContain(category);
  });

  test('game talk that shares those frames is not flagged', () => {
    for (const s of [
      '如果我是狼，让我出局也行', // a condition on the speaker, but no harm asked for
      '希望今晚狼刀错人', // a wish in the game's words
      '你再踩我我就投你', // a game action, not a threat
      '我来公布一下查验结果', // a seer announcing a result, not a reveal threat
      '我们去死磕这个逻辑',
      '你的逻辑不如昨天清楚',
      '我跟5号是队友吗？',
      '导演已经公布了结果',
      '把你的票投给3号',
      '我不发誓，拿逻辑说话', // refusing to swear
      '希望狼早点出局', // a wish in the game's words
      '请跟导演确认一下票数',
      '导演说明天延长一天', // a public notice
      '以人格担保也是违规的', // talk about the stake rule
      '白痴翻牌后不能投票', // the m107 role
      '大号字体看着舒服',
      '这个判断不合理',
      '引用一下3号的原话：“我是村民”',
    ]) expect(hits(s), s).toEqual([]);
  });
});
