/**
 * 贴证 as a construction (issue 36): a pasted dialogue written out in a post's text — speakers' turns, times,
 * a card's fields — found by evidence.ts pastedDialogue and reported by findBannedWording as a 贴证 hit
 * named by its construction; a ballot, a rule quoted, a field list and the everyday sentences never flag.
 */
import { describe, expect, test } from 'vitest';
import { isPastedDialogueWord, pastedDialogue } from '../../src/violations/evidence.js';
import { bundledCategories, loadWordLists } from '../../src/violations/word-lists.js';
import { describeHit, findBannedWording } from '../../src/violations/wording.js';
import { everydaySentences } from '../../src/bench/everyday-sentences.js';
import { readDataLines } from '../../src/violations/text-fold.js';
import { withLanguage } from '../../src/i18n/index.js';
import { flagDetail } from '../../src/violations/details.js';
import { wordingFacts } from '../../src/violations/flag.js';
import fs from 'node:fs';
import path from 'node:path';

const lists = loadWordLists(bundledCategories());

describe('pastedDialogue', () => {
  test.each([
    ['聊天记录如下：22:13 导演：你的身份是女巫 22:14 我：收到', 'timestamped'],
    ['【导演】20:14:33 你的身份牌：预言家', 'timestamped'],
    ['小明 22:10:05 你先跳预言家。', 'timestamped'],
    ['[22:01] A：投他 [22:02] B：好', 'timestamped'],
    ['他：我是狼。我：？？', 'turns'],
    ['贴一段私聊——他：我是狼。我：？？', 'turns'],
    ['给你们看QQ群记录：[狼人群] 老王：今晚刀谁？ 阿青：刀预言', 'turns'],
    ['甲：刀8吧 乙：好 甲：明天我悍跳', 'turns'],
    ['直接放图：导演→我：你是丘比特', 'turns'],
    ['【身份】预言家【技能】预言。', 'card'],
    ['【查验结果】5号：非村民阵营', 'card'],
    ['【导演】你本局的角色是：影子刺客', 'card'],
    ['我把身份牌贴出来：【预言家】预言——游戏日夜晚，可以选择一名角色查验其阵营', 'card'],
  ])('%s → %s', (text, construction) => {
    expect(pastedDialogue(text)?.construction).toBe(construction);
  });

  test.each([
    '投票对象：李四 投票理由：随便',
    '投票对象：3号 投票理由：他：我是狼',
    '格式：投票对象：规则N 投票理由：……',
    '马里奥：我昨晚查了一个人，结果稍后公布。林克：我也查了',
    '（5）剑侍：选择<剑心通明>、<坚守>的目标。（6）圣徒：选择<杀人>的目标。',
    '生日：9月20日（盘腿：2月3日） 星座：处女座（盘腿：水瓶座）',
    '【我的视角】好人：二、六、九；存疑：三、七；狼坑：四、五。',
    '6号 21:00 前投票',
    '第1日警长竞选投票，21:00关门。',
    '关门时间：11月21日21:00。',
    '【魔门阵营】4圣徒：邪王、阴后、圣女、傀儡，1群外黑：影子刺客',
    '规则帖里写的是：他：…我：… 这种格式的记录不许贴',
    // a player's read of the table, seat by seat
    '3号：金水 5号：查杀',
    '盘一下：1号：发言一般。2号：划水。3号：像狼',
    '总结一下。7号：跳预言 8号：对跳',
    '五号：悍跳 六号：真预言家',
    '包子：发言像狼。烧卖：划水。油条：金水。',
  ])('not a dialogue: %s', (text) => {
    expect(pastedDialogue(text)).toBeNull();
  });

  test('no line of the rule posts and no everyday sentence is one', () => {
    const rules = path.resolve('..', 'shared', 'rules');
    const lines = fs.existsSync(rules) ? fs.readdirSync(rules).flatMap((f) => readDataLines(path.join(rules, f))) : [];
    expect(lines.filter((l) => pastedDialogue(l))).toEqual([]);
    expect(everydaySentences().filter((s) => pastedDialogue(s))).toEqual([]);
  });
});

describe('findBannedWording: a pasted dialogue is a 贴证 hit named by its construction', () => {
  test('the construction, the words, the rule lines', () => {
    const text = '不信你们看，微信聊天记录：他：我是狼。我：那你别跳。';
    const hit = findBannedWording(text, lists).find((h) => isPastedDialogueWord(h.word));
    expect(hit).toMatchObject({ category: '贴证', word: 'pasted-dialogue-turns', matched: '他：我是狼。我：那你别跳。' });
    expect(hit!.cites).toContain('m107:281');
    expect(describeHit(hit!)).toBe('贴证：两人轮流发言的对话记录「他：我是狼。我：那你别跳。」');
    const facts = wordingFacts(hit!, 'm107');
    expect(withLanguage('en', () => flagDetail({ player: '饺子', facts }, 'UTC'))).toContain('a dialogue of two speakers’ turns “他：我是狼。我：那你别跳。”');
  });

  test('a game that bans no 贴证 gets none', () => {
    const noPaste = loadWordLists(bundledCategories().filter((c) => c !== '贴证'));
    expect(findBannedWording('他：我是狼。我：？？', noPaste, { learned: false })).toEqual([]);
  });
});
