/**
 * Test helper: a two-day m107 game as it really runs (issue 14), its pages rendered from the REAL captured
 * Discuz markup (src/replay/synth.ts), parsed by the real parser and recorded by the real store code:
 *
 * - 馒头 is replaced by the substitute 花卷 (a new account, uid 109) on day 2 at 12:00; 馒头's account
 *   still posts after that (a discussion post, a ballot, an acceleration request);
 * - 包子 renames the account to 小笼包 after day 1 (same uid 102) and votes and posts under the new name;
 *   春卷 votes for the seat by the new name;
 * - 豆浆 never posts: the store learns no uid for them;
 * - 汤圆 posts the day-2 ballot in the discussion thread, not the vote thread;
 * - 春卷 asks to accelerate in traditional characters (申請加速), 花卷 with 申请加快, 饺子 twice;
 * - day 2 has two vote threads (vote: [5, 7]); 烧卖 votes in the second.
 *
 * Layout: process 6; day 1 discussion 2 / vote 3 (2026-11-20 10:00 – 11-21 21:00, +08:00); day 2
 * discussion 4 / votes 5 and 7 (2026-11-22 10:00 – 21:00).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseGame } from '../../src/game/game-file.js';
import type { Game } from '../../src/game/types.js';
import { familyBase, type SynthPost, type SynthThread } from '../../src/replay/synth.js';
import type { StoreData } from '../../src/store/types.js';
import { storeFromSynth } from '../auction/synth-store.js';

export const FORUM = familyBase('utf8');
export const PLAYERS = ['饺子', '包子', '馒头', '烧卖', '汤圆', '春卷', '油条', '豆浆'] as const;
export const UID: Record<string, number> = { 导演A: 2, 饺子: 101, 包子: 102, 小笼包: 102, 馒头: 103, 烧卖: 104, 汤圆: 105, 春卷: 106, 油条: 107, 豆浆: 108, 花卷: 109 };
export const SUBSTITUTE_AT = '2026-11-22 12:00';

/** The game file: the substitution and nothing else about the accounts (uids are learned from the posts). */
export const SEATS_YAML = [
  `forum: ${FORUM}`,
  'timezone: Asia/Shanghai',
  'ruleset: m107',
  'directors: [导演A]',
  `players: [${PLAYERS.join(', ')}]`,
  'process: 6',
  'days:',
  '  - {day: 1, discussion: 2, vote: 3, opens: "2026-11-20 10:00", closes: "2026-11-21 21:00"}',
  '  - {day: 2, discussion: 4, vote: [5, 7], opens: "2026-11-22 10:00", closes: "2026-11-22 21:00"}',
  'events:',
  `  - {player: 馒头, substitute: 花卷, at: "${SUBSTITUTE_AT}"}`,
  '',
].join('\n');

const ballot = (target: string, why: string) => `投票对象：${target}\n投票理由：${why}`;

/** Named posts of the world (pids), for assertions. */
export const PID = {
  d2SubstituteTalk: 4105,
  d2OldAccountTalk: 4106,
  d2RenamedTalk: 4107,
  d2MisplacedBallot: 4110,
  d2OldAccountBallot: 5106,
  d2SubstituteBallot: 5105,
  d2RenamedBallot: 5102,
  d2ByNewName: 5103,
  d2SecondThread: 7101,
  accelTraditional: 6201,
  accelVariant: 6202,
  accelFirst: 6203,
  accelAgain: 6204,
  accelOldAccount: 6205,
} as const;

function threads(): SynthThread[] {
  let opener = 90_000;
  const post = (pid: number, author: string, at: string, body: string): SynthPost => ({ pid, author, uid: UID[author], at: `${at}:00`, body });
  const open = (tid: number, title: string, at: string, rest: SynthPost[]): SynthThread => ({
    family: 'utf8', tid, title, base: FORUM,
    posts: [{ pid: opener++, author: '导演A', uid: 2, at: `${at}:00`, body: `${title}：请按格式发言。` }, ...rest],
  });
  // Day 1: everybody but 豆浆 talks five times; 馒头 only once (a 发言不足 card for the seat).
  const d1talk: SynthPost[] = [];
  let pid = 2001;
  for (const [i, p] of ['饺子', '包子', '烧卖', '汤圆', '春卷', '油条'].entries()) {
    for (let k = 0; k < 5; k++) d1talk.push(post(pid++, p, `2026-11-20 ${String(11 + k).padStart(2, '0')}:${String(10 + i).padStart(2, '0')}`, `${p}第一天的第${k + 1}句发言。`));
  }
  d1talk.push(post(pid++, '馒头', '2026-11-20 18:00', '馒头来过。'));
  d1talk.sort((a, b) => String(a.at).localeCompare(String(b.at)));
  const d1vote = [
    post(3001, '饺子', '2026-11-21 12:00', ballot('包子', '包子先当')),
    post(3002, '包子', '2026-11-21 12:10', ballot('包子', '自荐')),
    post(3003, '馒头', '2026-11-21 12:20', ballot('饺子', '饺子稳')),
    post(3004, '烧卖', '2026-11-21 12:30', ballot('包子', '跟')),
    post(3005, '汤圆', '2026-11-21 12:40', ballot('饺子', '看好')),
    post(3006, '春卷', '2026-11-21 12:50', ballot('包子', '同')),
    post(3007, '油条', '2026-11-21 13:00', ballot('弃权', '不熟')),
  ];
  const d2talk: SynthPost[] = [];
  pid = 4200;
  for (const [i, p] of ['饺子', '烧卖', '春卷', '油条'].entries()) {
    for (let k = 0; k < 5; k++) d2talk.push(post(pid++, p, `2026-11-22 ${String(10 + k).padStart(2, '0')}:${String(20 + i).padStart(2, '0')}`, `${p}第二天的第${k + 1}句发言。`));
  }
  d2talk.push(
    post(4101, '馒头', '2026-11-22 10:30', '馒头早上好，中午有事要走。'),
    post(4102, '馒头', '2026-11-22 11:00', '下午有人接着玩。'),
    post(4103, '小笼包', '2026-11-22 10:40', '改了个名字，还是我。'),
    post(4104, '小笼包', '2026-11-22 11:40', '继续发言。'),
    post(PID.d2SubstituteTalk, '花卷', '2026-11-22 12:30', '花卷报到，接着玩。'),
    post(PID.d2OldAccountTalk, '馒头', '2026-11-22 13:00', '我是前任，来看看。'),
    post(PID.d2RenamedTalk, '小笼包', '2026-11-22 13:10', '第三句。'),
    post(4108, '汤圆', '2026-11-22 13:20', '汤圆说一句。'),
    post(PID.d2MisplacedBallot, '汤圆', '2026-11-22 14:00', ballot('春卷', '发错帖了')),
  );
  d2talk.sort((a, b) => String(a.at).localeCompare(String(b.at)) || a.pid - b.pid);
  const d2vote = [
    post(5101, '饺子', '2026-11-22 15:00', ballot('春卷', '可疑')),
    post(PID.d2RenamedBallot, '小笼包', '2026-11-22 15:10', ballot('春卷', '同上')),
    post(PID.d2ByNewName, '春卷', '2026-11-22 15:20', ballot('小笼包', '改名的最可疑')),
    post(5104, '油条', '2026-11-22 15:30', ballot('春卷', '跟')),
    post(PID.d2SubstituteBallot, '花卷', '2026-11-22 15:40', ballot('包子', '接手后投包子')),
    post(PID.d2OldAccountBallot, '馒头', '2026-11-22 15:50', ballot('饺子', '前任还想投')),
  ];
  const d2vote2 = [post(PID.d2SecondThread, '烧卖', '2026-11-22 16:00', ballot('春卷', '投在第二个投票帖'))];
  const process = [
    post(6101, '油条', '2026-11-21 10:00', '申请加速'),
    post(PID.accelTraditional, '春卷', '2026-11-22 11:00', '申請加速'),
    post(PID.accelVariant, '花卷', '2026-11-22 12:40', '申请加快'),
    post(PID.accelFirst, '饺子', '2026-11-22 13:00', '申请加速'),
    post(PID.accelAgain, '饺子', '2026-11-22 14:00', '再次申请加速！'),
    post(PID.accelOldAccount, '馒头', '2026-11-22 14:30', '申请加速'),
  ];
  return [
    open(6, '[M902]进程帖', '2026-11-20 09:00', process),
    open(2, '[M902]第一日讨论', '2026-11-20 10:00', d1talk),
    open(3, '[M902]第一日投票', '2026-11-20 10:00', d1vote),
    open(4, '[M902]第二日讨论', '2026-11-22 10:00', d2talk),
    open(5, '[M902]第二日投票', '2026-11-22 10:00', d2vote),
    open(7, '[M902]第二日投票（二）', '2026-11-22 10:00', d2vote2),
  ];
}

export interface SeatsWorld {
  game: Game;
  store: StoreData;
  yaml: string;
}

/** The world: game file parsed as if at `file`, every page of every thread parsed and recorded. */
export function seatsWorld(yaml = SEATS_YAML, file = '/tmp/bansha-seats/game.yaml'): SeatsWorld {
  return { game: parseGame(yaml, file), store: storeFromSynth(FORUM, threads()), yaml };
}

/** Writes the world as a game file and its store in `dir` (what the CLI reads); returns the game file. */
export function writeSeatsWorld(world: SeatsWorld, dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'game.yaml');
  fs.writeFileSync(file, world.yaml);
  fs.writeFileSync(path.join(dir, 'game.store.json'), JSON.stringify(world.store));
  return file;
}
