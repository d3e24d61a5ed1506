import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplayServer, type ReplayServer } from '../../src/replay/index.js';
import { runInit } from '../../src/cli/commands/init.js';
import { saveSession } from '../../src/crawl/session.js';
import { classifyTitle, parseBoardListing } from '../../src/init/board.js';
import { decodeBody } from '../../src/discuz/index.js';
import { loadGame, parseGame } from '../../src/game/game-file.js';
import { closingFromText } from '../../src/init/closing-words.js';
import { withLanguage } from '../../src/i18n/index.js';
import { FIXTURES, ids as idsOf } from '../helpers/captured.js';
import { chineseLeft, englishLeft } from '../helpers/language.js';

const TMP = path.resolve(import.meta.dirname, '../.tmp/init');

describe('board listing', () => {
  it.each([['public', 'forumdisplay-f3.html'], ['public-gbk', 'forum-6-1.html']])('%s %s: every captured thread with its title', (dir, file) => {
    const bytes = new Uint8Array(fs.readFileSync(path.join(FIXTURES, 'discuz', dir, file)));
    const threads = parseBoardListing(decodeBody(bytes).text);
    const ids = idsOf(dir);
    expect(threads.map((t) => [t.tid, t.title]).sort()).toEqual(Object.values(ids.threads).map((t) => [t.tid, t.title]).sort());
  });
  it('reads the titles directors write', () => {
    expect(classifyTitle('[M901]第一日讨论帖')).toEqual({ tag: '[M901]', role: 'discussion', day: 1 });
    expect(classifyTitle('[M901]第一日警长竞选投票帖')).toEqual({ tag: '[M901]', role: 'vote', day: 1 });
    expect(classifyTitle('[W01]无回之城——第2日对战规则投票帖')).toEqual({ tag: '[W01]无回之城', role: 'rules', day: 2 });
    expect(classifyTitle('[W01]无回之城——第十二日拍卖贴')?.day).toBe(12);
    expect(classifyTitle('[M901]进程帖')?.role).toBe('process');
    expect(classifyTitle('[M901]饺子馆——规则帖')?.role).toBe('rulebook');
    expect(classifyTitle('闲聊水楼')).toBeNull();
  });
});

describe('the closing time a first post states', () => {
  it.each([
    ['关门时间：11月21日21:00。', '2026-11-20', '2026-11-21 21:00'],
    ['第一日讨论开始，当日21:00关门。', '2026-11-25', '2026-11-25 21:00'],
    ['投票帖开门，明晚9点关门，格式见规则帖', '2026-11-25', '2026-11-26 21:00'],
    ['本帖 2026-11-27 20:30 截止投票', '2026-11-25', '2026-11-27 20:30'],
    ['关门：1月2日 21：00', '2026-12-31', '2027-01-02 21:00'],
    ['今晚21点半关门', '2026-11-25', '2026-11-25 21:30'],
    ['关门 11/28 21:00', '2026-11-25', '2026-11-28 21:00'],
  ])('%s (posted %s) → %s', (text, postedOn, at) => {
    expect(closingFromText(text, postedOn)?.at).toBe(at);
  });

  it('nothing about closing, or no time with it: null', () => {
    expect(closingFromText('第三日讨论帖开门。昨日放逐出局：月饼。', '2026-11-29')).toBeNull();
    expect(closingFromText('21:00 前请投票。', '2026-11-29')).toBeNull();
    expect(closingFromText('关门时间另行通知', '2026-11-29')).toBeNull();
  });
});

describe('bansha init on the GBK board', () => {
  it('reads day 1\'s close from its vote thread\'s words (当日21:00关门), not a day off', async () => {
    const server = await startReplayServer({ root: path.join(FIXTURES, 'discuz', 'public-gbk') });
    try {
      const session = path.join(TMP, 's-gbk.json');
      fs.mkdirSync(TMP, { recursive: true });
      await saveSession(session, server.sessionState());
      const out = path.join(TMP, 'gbk.yaml');
      await runInit({ board: `${server.url}forum-6-1.html`, out, session });
      const draft = parseGame(fs.readFileSync(out, 'utf8'), out);
      const first = (iso: string) => Date.parse(iso.replace(' ', 'T') + ':00+08:00');
      expect(draft.days[0].opens).toBe(first('2026-11-25 09:00'));
      expect(draft.days[0].closes).toBe(first('2026-11-25 21:00'));
      expect(fs.readFileSync(out, 'utf8')).toContain('「第一日警长竞选投票，当日21:00关门」');
    } finally {
      await server.close();
    }
  });
});

describe('bansha init against the replay server', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    fs.rmSync(TMP, { recursive: true, force: true });
    fs.mkdirSync(TMP, { recursive: true });
    server = await startReplayServer();
  });
  afterAll(async () => server?.close());

  it('drafts the public game: threads by title, players from day 1, TODOs for times; never overwrites', async () => {
    const session = path.join(TMP, 's.json');
    await saveSession(session, server.sessionState());
    const out = path.join(TMP, 'game.yaml');
    const r = await runInit({ board: `${server.url}forum.php?mod=forumdisplay&fid=3`, out, session });
    const text = fs.readFileSync(out, 'utf8');
    expect(text).toContain('TODO');
    const ids = idsOf('public').threads;
    // With the TODO times replaced, the draft is a valid game file with the captured threads.
    const reference = loadGame(path.join(FIXTURES, 'games', 'public.yaml'));
    const draft = parseGame(text, out);
    expect(draft.process?.tid).toBe(ids.process.tid);
    expect(draft.days.map((d) => [d.day, d.discussion?.tid, d.vote?.tid])).toEqual([
      [1, ids.d1talk.tid, ids.d1vote.tid], [2, ids.d2talk.tid, ids.d2vote.tid], [3, ids.d3talk.tid, undefined],
    ]);
    expect(draft.directors).toEqual(reference.directors);
    expect([...draft.players].sort()).toEqual([...reference.players].sort());
    expect(r.players).toEqual(draft.players);
    // Every drafted player carries the uid their posts show (the elevator's links need it).
    const users = idsOf('public').users;
    expect(draft.seats.map((s) => s.accounts[0].uid)).toEqual(draft.players.map((p) => users[p]));
    await expect(runInit({ board: `${server.url}forum.php?mod=forumdisplay&fid=3`, out, session })).rejects.toThrow(/从不覆盖文件/);
    // Each day closes when its vote thread's first post says (关门时间：11月21日21:00): the captured game's times.
    expect(draft.days.slice(0, 2).map((d) => d.closes)).toEqual(reference.days.map((d) => d.closes));
    expect(text).toContain('closes: "2026-11-21 21:00"  # TODO：核对关门时间（读自帖子 3 一楼：「关门时间：11月21日21:00」）');
    // day 3's first post names no closing time: a guess, said to be one
    expect(text).toMatch(/closes: "2026-11-29 21:00" {2}# TODO：核对关门时间（帖子一楼没有写明，这是推测：开门当天 21:00）/);
    // The comments are Chinese: no English word but the names of things (TODO, the presets, the keys)
    const comments = text.split('\n').map((l) => l.replace(/^[^#]*#?/, '')).join('\n').replace(/「[^」]*」|\[M901\][^\n]*|"[^"]*"|\{[^}]*\}|https?:\S+/g, ' ');
    expect(englishLeft(comments)).toEqual([]);
  });

  it('in English, the draft\'s comments are English', async () => {
    const session = path.join(TMP, 's-en.json');
    await saveSession(session, server.sessionState());
    const out = path.join(TMP, 'game-en.yaml');
    await withLanguage('en', () => runInit({ board: `${server.url}forum.php?mod=forumdisplay&fid=3`, out, session }));
    const text = fs.readFileSync(out, 'utf8');
    expect(text).toContain('closes: "2026-11-21 21:00"  # TODO: check the closing time (read from the first post of thread 3: "关门时间：11月21日21:00")');
    const titles = [...text.matchAll(/# (\[M901\].*)$/gm)].map((m) => m[1]);
    expect(chineseLeft(text.replace(/^[^#]*/gm, ''), [...titles, '关门时间：11月21日21:00', '饺子馆——规则帖'])).toEqual([]);
  });

  it('says a login is needed when the board refuses a guest (exit 4)', async () => {
    const out = path.join(TMP, 'guest.yaml');
    await expect(runInit({ board: `${server.url}forum.php?mod=forumdisplay&fid=3`, out, session: path.join(TMP, 'none.json') })).rejects.toMatchObject({ exitCode: 4 });
    expect(fs.existsSync(out)).toBe(false);
  });
});
