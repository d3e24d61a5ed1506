import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplayServer, type ReplayServer } from '../../src/replay/index.js';
import { runInit } from '../../src/cli/commands/init.js';
import { saveSession } from '../../src/crawl/session.js';
import { classifyTitle, parseBoardListing } from '../../src/init/board.js';
import { decodeBody } from '../../src/discuz/index.js';
import { loadGame, parseGame } from '../../src/game/game-file.js';
import { FIXTURES, ids as idsOf } from '../helpers/captured.js';

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
  });

  it('says a login is needed when the board refuses a guest (exit 4)', async () => {
    const out = path.join(TMP, 'guest.yaml');
    await expect(runInit({ board: `${server.url}forum.php?mod=forumdisplay&fid=3`, out, session: path.join(TMP, 'none.json') })).rejects.toMatchObject({ exitCode: 4 });
    expect(fs.existsSync(out)).toBe(false);
  });
});
