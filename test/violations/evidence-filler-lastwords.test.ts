/**
 * 贴证 chat records, 120b filler and last-words code, on posts parsed from pages rendered with the real
 * captured markup (src/replay/synth.ts) — and the 120b report built from them.
 */
import { describe, expect, test } from 'vitest';
import { parseGame } from '../../src/game/game-file.js';
import { buildDayReport } from '../../src/report/day-report.js';
import { threadPosts } from '../../src/store/slice.js';
import { chatRecordLines, pastedEvidence } from '../../src/violations/evidence.js';
import { contentKey, fillerReason } from '../../src/violations/filler.js';
import { findDiscuzCode } from '../../src/violations/lastwords.js';
import { storeFromSynth } from '../auction/synth-store.js';
import { flagDetail, publicFlagDetail } from '../../src/violations/details.js';
import { withLanguage } from '../../src/i18n/index.js';

const forum = 'http://127.0.0.1:8081/';
const game120b = parseGame(
  `forum: ${forum}
ruleset: 120b
directors: [导演A]
players: [饺子, 包子, 馒头]
days:
  - {day: 1, discussion: 40, opens: "2026-11-20 10:00", closes: "2026-11-20 22:00"}
`,
  'test-120b.yaml',
);
const at = (hm: string) => `2026-11-20 ${hm}:00`;
const store = storeFromSynth(forum, [
  {
    family: 'utf8',
    tid: 40,
    title: '[120B]第一日讨论帖',
    posts: [
      { pid: 400, author: '导演A', uid: 2, at: at('10:00'), body: '开门' },
      { pid: 401, author: '饺子', uid: 3, at: at('10:10'), body: '顶' },
      { pid: 402, author: '包子', uid: 4, at: at('10:20'), body: '我觉得馒头的发言很可疑，理由如下。' },
      { pid: 403, author: '包子', uid: 4, at: at('10:30'), body: '我觉得馒头的发言很可疑，理由如下！' },
      { pid: 404, author: '馒头', uid: 5, at: at('10:40'), body: '。。。！！！' },
      { pid: 405, author: '饺子', uid: 3, at: at('10:50'), body: '哈哈哈哈哈' },
      { pid: 406, author: '馒头', uid: 5, at: at('11:00'), body: '[color=Red]沙发[/color]' },
      { pid: 407, author: '饺子', uid: 3, at: at('11:10'), body: '张三 12:01:33\n你是狼吧\n李四 12:01:40\n不是' },
      { pid: 408, author: '包子', uid: 4, at: at('11:20'), body: '大家好，我是平民，今天先听发言。' },
    ],
  },
]);
const posts = new Map([[40, threadPosts(store, 40)]]);

describe('120b: filler posts flagged for the director (无谓的水帖, l.567), no lurker rule, no blue', () => {
  const report = buildDayReport(game120b, posts, 1, { accelerated: false });
  const filler = report.flags.filter((f) => f.kind === 'filler');

  test('lone 顶/沙发/哈哈哈, punctuation only, the same text again — not real talk', () => {
    expect(filler.map((f) => f.pid)).toEqual([401, 403, 404, 405, 406]);
    expect(filler.find((f) => f.pid === 403)!.related).toEqual([402]);
    expect(filler.find((f) => f.pid === 403)!.facts).toEqual({ kind: 'filler', reason: 'repeat', repeats: 402 });
    expect(publicFlagDetail(filler.find((f) => f.pid === 403)!, report.timezone)).toContain('pid 402');
    expect(withLanguage('en', () => filler.map((f) => flagDetail(f, report.timezone)))).toEqual(
      filler.map((f) => (f.pid === 403 ? "filler post: the same text as the player's earlier post pid 402" : expect.stringMatching(/^filler post: (empty|only punctuation\/smilies|only a filler word)$/))),
    );
  });
  test('no lurker flags and no vote column in a game with no public vote', () => {
    expect(report.flags.filter((f) => ['few-posts', 'no-ballot', 'low-streak'].includes(f.kind))).toEqual([]);
    expect(report.activity.every((a) => a.voted === null)).toBe(true);
    expect(report.notes.join()).toMatch(/没有潜水规则/);
  });
  test('no blue card: a first offence is proposed as a reminder (l.497 提醒一次或两次…), and says why', () => {
    const cards = report.cards.filter((c) => c.kind === 'filler');
    expect(cards.length).toBeGreaterThan(0);
    // Why a reminder is the director's note; the public reason is the offence and the fact.
    expect(cards.every((c) => c.color === 'reminder' && c.directorNote?.includes('无蓝牌') && !c.reason.includes('无蓝牌'))).toBe(true);
    const red = report.cards.find((c) => c.kind === 'red-font')!;
    expect([red.player, red.color, red.evidence]).toEqual(['馒头', 'reminder', [406]]);
  });
  test('the chat-record post is 贴证', () => {
    const f = report.flags.find((x) => x.kind === 'pasted-evidence')!;
    expect(f.pid).toBe(407);
    expect(publicFlagDetail(f, report.timezone)).toContain('聊天记录格式');
  });
});

describe('pieces', () => {
  test('chat records: a line with seconds, or two name + time lines; ordinary times are not', () => {
    expect(chatRecordLines('张三 12:01:33\n你是狼')).toEqual(['张三 12:01:33']);
    expect(chatRecordLines('张三(12345678) 12:01\nhi\n李四(87654321) 12:02\nyo')).toHaveLength(2);
    expect(chatRecordLines('2026-11-20 12:01:33 张三\n在吗')).toHaveLength(1);
    expect(chatRecordLines('关门时间 21:00，大家记得投票')).toEqual([]);
  });
  test('smilies are not evidence', () => {
    expect(pastedEvidence({ text: '', links: [], images: ['http://x/static/image/smiley/default/smile.gif'], attachments: [] })).toEqual([]);
  });
  test('filler keys ignore punctuation and width', () => {
    expect(contentKey('哈哈！')).toBe(contentKey('哈哈!'));
    expect(fillerReason({ text: '', images: [], attachments: [], links: [] }, new Map())).toEqual({ reason: 'empty' });
  });
  test('last words: every Discuz code tag, case-insensitive, with line and column', () => {
    const f = findDiscuzCode('我是好人\n[B]真的[/b] [COLOR=Red]信我[/color]\n[url=http://x]看[/url][img]a.png[/img][size=5]大[/size][quote]引[/quote]');
    expect(f.map((x) => x.tag)).toEqual(['b', 'b', 'color', 'color', 'url', 'url', 'img', 'img', 'size', 'size', 'quote', 'quote']);
    expect(f[0]).toMatchObject({ line: 2, column: 1, written: '[B]' });
    expect(findDiscuzCode('我是好人［b］不是代码 [不是标签]')).toEqual([]);
  });
});
