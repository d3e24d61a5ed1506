/**
 * The demo games for the two presets whose days work differently (issue 9): 无回之城 (wuhui: duel-rule
 * vote, auction, sheriff tie-break) and 120B (no public vote, 仲裁者, filler posts). Their threads are
 * pages rendered from the REAL captured markup of fixtures/discuz/public by src/replay/synth.ts, and so is
 * the board listing (forumdisplay) that lists them — the replay server answers forum.php with it, which is
 * what a browser login checks. They are written as a replayable site (manifest.json + pages + the captured
 * login/not-found pages and the guest's board-denied page) under
 * fixtures/discuz/demo-<name>/, which `bansha demo --preset <name>` serves. Writing the same game again
 * gives the same bytes (test/cli/demo-games.test.ts checks the committed files against this code).
 * After changing this file or src/replay/synth.ts, regenerate both sites with
 * `npx tsc -p . && node dist/demo/synth-games.js`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBoardPage, buildThreadPages, type SynthPost, type SynthThread } from '../replay/synth.js';
import { packagePath } from '../paths.js';

/** A demo game: its threads and the accounts that post in them. */
export interface DemoSite {
  name: 'wuhui' | '120b';
  /** Board tag in thread titles. */
  tag: string;
  users: Record<string, number>;
  threads: SynthThread[];
}

const DIRECTOR = '导演A';
const DIRECTOR_UID = 2; // the captured director, whose password the replay server's login form accepts

function accounts(names: string[], firstUid: number): Record<string, number> {
  return Object.fromEntries([[DIRECTOR, DIRECTOR_UID], ...names.map((n, i) => [n, firstUid + i])]);
}

/** Builds posts with increasing pids and times (minutes after `start`, "YYYY-MM-DD HH:mm"). */
class Poster {
  #pid: number;
  constructor(firstPid: number, readonly users: Record<string, number>) {
    this.#pid = firstPid;
  }
  post(author: string, at: string, body: string, extra: Partial<SynthPost> = {}): SynthPost {
    const uid = this.users[author];
    if (uid === undefined) throw new Error(`demo: no account ${author}`);
    return { pid: this.#pid++, author, uid, at: `${at}:00`, body, ...extra };
  }
}

export const WUHUI_PLAYERS = ['阿狸', '白泽', '苍龙', '丹青', '饿虎', '飞燕', '孤鸿', '海棠', '火凤', '金蝉', '青鸾', '玄武'];

/** 无回之城 demo: two days, each with discussion, duel-rule vote, auction and vote threads. */
export function wuhuiSite(): DemoSite {
  const users = accounts(WUHUI_PLAYERS, 31);
  const p = new Poster(2001, users);
  const [阿狸, 白泽, 苍龙, 丹青, 饿虎, 飞燕, 孤鸿, 海棠, 火凤, 金蝉, 青鸾, 玄武] = WUHUI_PLAYERS;
  const tag = '[W01]无回之城';
  const ballot = (target: string, why: string) => `投票对象：${target}\n投票理由：${why}`;
  const talk = (day: string, tid: number, n: number): SynthThread => ({
    family: 'utf8', tid, title: `${tag}——第${n}日讨论帖`,
    posts: [
      p.post(DIRECTOR, `${day} 10:00`, `第${n}日讨论帖开门。\n二楼电梯，请大家文明讨论。`),
      ...WUHUI_PLAYERS.map((x, i) => p.post(x, `${day} ${String(10 + (i % 9)).padStart(2, '0')}:${String(5 + i * 4).padStart(2, '0')}`, `${x}报到，今天先看看拍卖。`)),
    ],
  });
  const d1 = '2026-12-01';
  const d2 = '2026-12-02';
  const threads: SynthThread[] = [
    talk(d1, 21, 1),
    {
      family: 'utf8', tid: 22, title: `${tag}——第1日对战规则投票帖`,
      posts: [
        p.post(DIRECTOR, `${d1} 10:00`, '第1日对战规则投票，21:00关门。\n格式：投票对象：规则N 投票理由：……'),
        p.post(阿狸, `${d1} 10:30`, ballot('规则3', '赌注大，刺激')),
        p.post(白泽, `${d1} 10:42`, ballot('对战规则1', '稳一点')),
        p.post(苍龙, `${d1} 11:05`, ballot('3号规则', '同阿狸')),
        p.post(丹青, `${d1} 11:20`, ballot('规则1', '同白泽')),
        p.post(饿虎, `${d1} 12:00`, ballot('规则3', '跟')),
        p.post(飞燕, `${d1} 12:30`, ballot('规则5', '平局继续')),
        p.post(孤鸿, `${d1} 13:00`, ballot('规则9', '随便')),
        p.post(海棠, `${d1} 13:40`, ballot('规则3', '想赢钻石')),
        p.post(火凤, `${d1} 14:10`, ballot('规则1', '保守')),
        p.post(孤鸿, `${d1} 14:15`, ballot('规则3', '重投，上一票写错了')),
      ],
    },
    {
      family: 'utf8', tid: 23, title: `${tag}——第1日拍卖贴`,
      posts: [
        p.post(DIRECTOR, `${d1} 10:00`, '拍卖贴开启，当天21点结束。\n1号物品：1张手牌，底价3G\n2号物品：2张手牌，底价6G\n3号物品：3张手牌，底价9G\n4号物品：4张手牌，底价12G\n5号物品：5张手牌，底价15G\n6号物品：1颗钻石，底价30G\n抵押钻石今日每颗35G'),
        p.post(阿狸, `${d1} 10:20`, '3号物品 出价15G'),
        p.post(白泽, `${d1} 10:35`, '物品3：15G\n物品1：4G'),
        p.post(苍龙, `${d1} 11:00`, '3号 18G'),
        p.post(丹青, `${d1} 11:30`, '1号物品 出价2G'),
        p.post(饿虎, `${d1} 12:00`, '抵押1颗钻石\n6号物品 出价40G'),
        p.post(飞燕, `${d1} 12:20`, '5号物品好贵啊'),
        p.post(阿狸, `${d1} 13:00`, '3号物品 出价20G'),
        p.post(阿狸, `${d1} 14:00`, '3号物品 出价22G'),
        p.post(孤鸿, `${d1} 15:00`, '2号 6G，4号 12G'),
        p.post(海棠, `${d1} 16:00`, '6号 40G'),
        p.post(火凤, `${d1} 17:00`, '2号 6G'),
        p.post(金蝉, `${d1} 21:00`, '4号物品 出价30G'),
      ],
    },
    {
      family: 'utf8', tid: 24, title: `${tag}——第1日警长竞选投票帖`,
      posts: [
        p.post(DIRECTOR, `${d1} 15:00`, '第1日警长竞选投票，21:00关门。'),
        p.post(阿狸, `${d1} 15:10`, ballot(白泽, '稳重')),
        p.post(苍龙, `${d1} 15:20`, ballot(白泽, '同上')),
        p.post(丹青, `${d1} 15:30`, ballot(海棠, '海棠发言好')),
        p.post(饿虎, `${d1} 15:40`, ballot(白泽, '跟票')),
        p.post(飞燕, `${d1} 16:00`, ballot(海棠, '支持')),
        p.post(孤鸿, `${d1} 16:30`, ballot(玄武, '随便')),
        p.post(火凤, `${d1} 17:00`, ballot(白泽, '白泽')),
        p.post(金蝉, `${d1} 17:30`, ballot(海棠, '海棠')),
        p.post(青鸾, `${d1} 18:00`, ballot('弃权', '不熟')),
      ],
    },
    talk(d2, 25, 2),
    {
      family: 'utf8', tid: 26, title: `${tag}——第2日对战规则投票帖`,
      posts: [
        p.post(DIRECTOR, `${d2} 10:00`, '第2日对战规则投票，规则3已在第1日使用。'),
        p.post(阿狸, `${d2} 10:30`, ballot('规则3', '还想要规则3')),
        p.post(白泽, `${d2} 10:40`, ballot('规则6', '平局继续')),
        p.post(苍龙, `${d2} 11:00`, ballot('规则1', '稳')),
        p.post(丹青, `${d2} 11:10`, ballot('规则6', '同白泽')),
        p.post(饿虎, `${d2} 11:30`, ballot('规则1', '跟苍龙')),
        p.post(海棠, `${d2} 12:00`, ballot('规则2', '两张手牌')),
      ],
    },
    {
      family: 'utf8', tid: 27, title: `${tag}——第2日拍卖贴`,
      posts: [
        p.post(DIRECTOR, `${d2} 10:00`, '拍卖贴开启，当天21点结束。抵押钻石今日每颗30G'),
        p.post(青鸾, `${d2} 10:15`, '1号 3G\n5号 15G'),
        p.post(玄武, `${d2} 10:45`, '1号 5G'),
        p.post(青鸾, `${d2} 11:00`, '物品5：出价20G'),
        p.post(玄武, `${d2} 11:30`, '抵押两颗钻石'),
        p.post(苍龙, `${d2} 12:00`, '6号物品 出价35G'),
      ],
    },
    {
      family: 'utf8', tid: 28, title: `${tag}——第2日投票帖`,
      posts: [
        p.post(DIRECTOR, `${d2} 15:00`, '第2日投票，21:00关门。平票时警长所投的角色出局。'),
        p.post(阿狸, `${d2} 15:10`, ballot(饿虎, '可疑')),
        p.post(白泽, `${d2} 15:20`, ballot(金蝉, '金蝉拍卖晚了')),
        p.post(苍龙, `${d2} 15:30`, ballot(饿虎, '同阿狸')),
        p.post(丹青, `${d2} 15:40`, ballot(金蝉, '同白泽')),
        p.post(饿虎, `${d2} 16:00`, ballot(金蝉, '不是我')),
        p.post(金蝉, `${d2} 16:10`, ballot(饿虎, '是你')),
        p.post(海棠, `${d2} 16:30`, ballot('弃权', '再看看')),
      ],
    },
  ];
  return { name: 'wuhui', tag, users, threads };
}

export const PLAYERS_120B = ['马里奥', '林克', '萨姆斯', '卡比', '皮卡丘', '索尼克', '洛克人', '士官长', '奎托斯', '劳拉', '吉尔', '雷电'];

/** 120B demo: two discussion days, no public vote; some filler posts for the director to judge. */
export function site120b(): DemoSite {
  const users = accounts(PLAYERS_120B, 61);
  const p = new Poster(3001, users);
  const tag = '[120B]电子游戏';
  const day = (date: string, tid: number, n: number, alive: string[]): SynthThread => ({
    family: 'utf8', tid, title: `${tag}——第${n}日讨论帖`,
    posts: [
      p.post(DIRECTOR, `${date} 10:00`, `第${n}日讨论帖开门，投票请私聊导演。`),
      ...alive.map((x, i) => p.post(x, `${date} ${String(10 + (i % 10)).padStart(2, '0')}:${String(3 + i * 4).padStart(2, '0')}`, `${x}：我昨晚查了一个人，结果稍后公布。`)),
      p.post(alive[1], `${date} 20:10`, '顶'),
      p.post(alive[2], `${date} 20:20`, '哈哈哈哈'),
      p.post(alive[3], `${date} 20:30`, '。。。'),
      p.post(alive[0], `${date} 20:40`, `${alive[0]}：我昨晚查了一个人，结果稍后公布。`),
    ],
  });
  const threads = [
    day('2026-12-10', 41, 1, PLAYERS_120B),
    day('2026-12-11', 42, 2, PLAYERS_120B.filter((x) => x !== '卡比')),
  ];
  return { name: '120b', tag, users, threads };
}

/** Where a demo site's pages live in the package. */
export function demoSiteDir(name: DemoSite['name']): string {
  return packagePath('fixtures', 'discuz', `demo-${name}`);
}

/**
 * The files of a demo site: rendered thread pages and board listing (forumdisplay-fF.html), manifest.json,
 * ids.json, site.json, and the captured login, not-found and guest board-denied pages.
 */
export function demoSiteFiles(site: DemoSite): Map<string, Uint8Array | string> {
  const files = new Map<string, Uint8Array | string>();
  const publicDir = packagePath('fixtures', 'discuz', 'public');
  const publicManifest = JSON.parse(fs.readFileSync(path.join(publicDir, 'manifest.json'), 'utf8')) as Array<Record<string, unknown>>;
  const manifest: Array<Record<string, unknown>> = [];
  for (const t of site.threads) {
    for (const page of buildThreadPages(t)) {
      const file = `viewthread-t${page.tid}-p${page.page}.html`;
      files.set(file, page.bytes);
      manifest.push({ file, url: page.path, status: 200, content_type: page.contentType, charset: 'utf-8', thread: t.title, page: page.page, notes: 'synthesised from the captured markup (src/demo/synth-games.ts)' });
    }
  }
  // The board listing of the demo's threads, at the captured board's URL (the replay server also answers
  // forum.php with it); guests get the captured board's login-required page, as on the public site.
  const board = buildBoardPage({ family: 'utf8', threads: site.threads });
  const boardFile = `forumdisplay-f${board.fid}.html`;
  files.set(boardFile, board.bytes);
  manifest.push({ file: boardFile, url: board.path, status: 200, content_type: board.contentType, charset: 'utf-8', thread: null, page: null, notes: 'board listing, synthesised from the captured markup (src/demo/synth-games.ts)' });
  for (const name of ['login.html', 'notfound.html', `guest-forumdisplay-f${board.fid}.html`]) {
    files.set(name, new Uint8Array(fs.readFileSync(path.join(publicDir, name))));
    manifest.push({ ...publicManifest.find((e) => e.file === name)!, notes: 'copied from fixtures/discuz/public' });
  }
  files.set('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
  files.set('site.json', fs.readFileSync(path.join(publicDir, 'site.json'), 'utf8'));
  const ids = {
    base: 'http://127.0.0.1:8081/',
    users: site.users,
    threads: Object.fromEntries(site.threads.map((t) => [t.tid, { tid: t.tid, title: t.title, posts: t.posts.length, first_pid: t.posts[0]?.pid }])),
  };
  files.set('ids.json', `${JSON.stringify(ids, null, 2)}\n`);
  return files;
}

/** Writes a demo site's files into `dir` (created when missing). */
export function writeDemoSite(site: DemoSite, dir = demoSiteDir(site.name)): string {
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, body] of demoSiteFiles(site)) fs.writeFileSync(path.join(dir, name), body);
  return dir;
}

/** The demo sites by preset name. */
export const demoSites = { wuhui: wuhuiSite, '120b': site120b } as const;

// Run as a script (`node dist/demo/synth-games.js`): rewrite every demo site's committed files.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const make of Object.values(demoSites)) console.log(`wrote ${writeDemoSite(make())}`);
}
