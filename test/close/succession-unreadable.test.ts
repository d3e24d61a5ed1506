/**
 * Issue 31: a sheriff's successor named in a post the crawling account cannot read. On the captured public
 * game (fixtures/discuz/public) parsed by the real parser and recorded by the real store code, the game file
 * adds a night exit of day 1's elected sheriff (包子, 11-21 23:00): day 2's count reads the handover from
 * the process thread, day 1's discussion and vote threads and day 2's discussion (succession.ts
 * successionThreads). The director's post there after the departure is shown as Discuz shows a shielded
 * post (test/discuz/discuz-markup.ts: 该帖被管理员或版主屏蔽): it may name the successor, so it is never read
 * as naming no one — the count says so with its pid and link, and where another sheriff would change the
 * result --confirm and --post refuse (exit 3) until `bansha rule reject PID` (it names no one).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parsePage } from '../../src/discuz/parse-page.js';
import { applyPage } from '../../src/store/record.js';
import { emptyStore } from '../../src/store/store-file.js';
import type { StoreData } from '../../src/store/types.js';
import { fetched, FIXTURES, ids as readIds, manifest, threadPageFiles } from '../helpers/captured.js';
import { NOTICE, replaceMessage, replaceMessageBox } from '../discuz/discuz-markup.js';
import { bansha } from '../helpers/cli.js';

const ids = readIds('public');
const FETCHED = new Date('2026-11-30T08:02:00Z');
const EVENT = '  - {player: 月饼, out: "2026-11-22 21:00", how: vote}\n';
const NIGHT = 'events:\n  - {player: 包子, out: "2026-11-21 23:00", how: night}\n';

/** The capture's thread pages recorded as a crawl records them, each page's html passed through `html` first. */
function store(html: (file: string, text: string) => string = (_f, t) => t, into?: StoreData, at = FETCHED): StoreData {
  const data = into ?? emptyStore(ids.base);
  const files = threadPageFiles('public');
  for (const e of manifest('public').filter((x) => files.includes(x.file))) {
    const f = fetched('public', e, at);
    f.bytes = new Uint8Array(Buffer.from(html(e.file, Buffer.from(f.bytes).toString('utf8'))));
    applyPage(data, f, parsePage(f));
  }
  return data;
}

/** A page as Discuz shows posts `pids` shielded by a moderator to anyone else: the template's locked notice in place of the message. */
const shielded = (...pids: number[]) => (_file: string, html: string): string =>
  pids.reduce((h, pid) => (h.includes(`id="post_${pid}"`) ? replaceMessageBox(h, pid, `<div class="locked">${NOTICE.shielded}</div>\n`) : h), html);

/** A game folder: the public game file with 包子's night exit (and `yaml`'s edits), and its store. */
function folder(data: StoreData, yaml: (y: string) => string = (y) => y): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-succession-'));
  const game = path.join(dir, 'public.yaml');
  fs.writeFileSync(game, yaml(fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8').replace(EVENT, '').replace(/^events:\n/m, NIGHT)));
  fs.writeFileSync(path.join(dir, 'public.store.json'), JSON.stringify(data));
  return game;
}

type TallyJson = { result: { name: string | null; tie: string[]; note: string | null }; sheriff: string | null; totals: Array<{ name: string; votes: number }>; notes: string[]; unreadableSuccession?: { pids: number[]; couldChange: boolean } };

const DIRECTOR_POST = ids.threads.d2talk.first_pid + 1; // day 2's discussion 2#, the director's (11-22, after 包子 left)
const LINK = `${ids.base}forum.php?mod=redirect&goto=findpost&ptid=${ids.threads.d2talk.tid}&pid=${DIRECTOR_POST}`;
/** 油条's day-2 ballot for 月饼 (7#) turned into one for 花卷 (5 to 5: a sheriff's 1.5 votes would decide it). */
const YOUTIAO = Object.values(ids.posts).find((x) => x.threadKey === 'd2vote' && x.author === '油条')!.pid;
const closer = (_file: string, html: string): string => (html.includes(`id="postmessage_${YOUTIAO}"`) ? replaceMessage(html, YOUTIAO, '投票对象：花卷<br /> 投票理由：划水') : html);
const both = (...edits: Array<(file: string, html: string) => string>) => (file: string, html: string) => edits.reduce((h, e) => e(file, h), html);

describe("a post the handover waits on that the account cannot read", () => {
  test('the control: the same director post readable is no claim and no wait', async () => {
    const t = JSON.parse((await bansha(['tally', '--game', folder(store()), '--day', '2', '--json'])).stdout) as TallyJson;
    expect(t.unreadableSuccession).toBeUndefined();
  }, 60_000);

  test('one that cannot change the result: the count names its pid and link, --confirm writes the result', async () => {
    const game = folder(store(shielded(DIRECTOR_POST)));
    const r = await bansha(['tally', '--game', game, '--day', '2', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const t = JSON.parse(r.stdout) as TallyJson;
    expect(t.result.name).toBe('月饼');
    expect(t.unreadableSuccession).toEqual({ pids: [DIRECTOR_POST], couldChange: false });
    const note = t.notes.find((n) => n.startsWith('警徽移交中有本账号看不到文字的帖子'));
    expect(note).toContain(`包子 离开后导演 导演A 的帖子 pid ${DIRECTOR_POST} ${LINK}`);
    expect(note).toContain('无论警长是谁都改变不了结果');
    expect(t.result.note ?? '').not.toContain('警徽移交');
    const close = await bansha(['close', '--game', game, '--day', '2', '--no-crawl', '--confirm']);
    expect(close.code, close.stderr).toBe(0);
    expect(fs.readFileSync(game, 'utf8')).toContain(EVENT);
  }, 60_000);

  test('one that could: said on the result; --confirm and --post refuse (exit 3) naming it until `rule reject PID`', async () => {
    // The director's 2# names 麻花 (a 花卷 voter: 5.5 to 5, 花卷 out); 包子's own post after leaving (12#) is shielded:
    // it may name another successor, and with no sheriff (or another) the result is another.
    const own = Object.values(ids.posts).find((x) => x.threadKey === 'd2talk' && x.author === '包子')!;
    const names = (_file: string, html: string) => (html.includes(`id="postmessage_${DIRECTOR_POST}"`) ? replaceMessage(html, DIRECTOR_POST, '包子 昨夜出局，警徽移交给 麻花。') : html);
    const game = folder(store(both(closer, names, shielded(own.pid))));
    const t = JSON.parse((await bansha(['tally', '--game', game, '--day', '2', '--json'])).stdout) as TallyJson;
    expect(t.sheriff).toBe('麻花');
    expect(t.result.name).toBe('花卷');
    expect(t.unreadableSuccession).toEqual({ pids: [own.pid], couldChange: true });
    const link = `${ids.base}forum.php?mod=redirect&goto=findpost&ptid=${ids.threads.d2talk.tid}&pid=${own.pid}`;
    expect(t.result.note).toContain(`包子 离开后警长本人 包子 的帖子 pid ${own.pid} ${link}`);
    expect(t.result.note).toContain('之前不能 --confirm 或 --post');
    const before = fs.readFileSync(game, 'utf8');
    const refused = await bansha(['close', '--game', game, '--day', '2', '--no-crawl', '--confirm']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(`--confirm 不会写入第 2 日的结果：警徽移交中本账号看不到文字的帖子（pid ${own.pid}，可能指定了继任警长）可能改变结果`);
    expect(fs.readFileSync(game, 'utf8')).toBe(before);
    const post = await bansha(['close', '--game', game, '--day', '2', '--no-crawl', '--post', '--yes']);
    expect(post.code).toBe(3);
    expect(post.stderr).toContain(`--post 不会发布第 2 日的结果：警徽移交中本账号看不到文字的帖子（pid ${own.pid}`);
    const en = await bansha(['close', '--game', game, '--day', '2', '--no-crawl', '--confirm', '--lang', 'en']);
    expect(en.code).toBe(3);
    expect(en.stderr).toContain(`posts a sheriff's handover waits on that this account cannot read (pid ${own.pid}: each may name the successor)`);
    // an accept cannot stand: whom it names is not known
    const accept = await bansha(['rule', 'accept', String(own.pid), '--day', '2', '--why', '看过了', '--game', game]);
    expect(accept.code).toBe(2);
    expect(accept.stderr).toContain(`不能认可 pid ${own.pid}`);
    const rule = await bansha(['rule', 'reject', String(own.pid), '--day', '2', '--why', '闲聊，没有指定继任者', '--game', game]);
    expect(rule.code, rule.stderr).toBe(0);
    expect(rule.stdout).toContain(`警徽移交帖 pid ${own.pid}（看不到文字）`);
    const after = JSON.parse((await bansha(['tally', '--game', game, '--day', '2', '--json'])).stdout) as TallyJson;
    expect(after.unreadableSuccession).toBeUndefined();
    expect(after.result.name).toBe('花卷');
    const close = await bansha(['close', '--game', game, '--day', '2', '--no-crawl', '--confirm']);
    expect(close.code, close.stderr).toBe(0);
    expect(fs.readFileSync(game, 'utf8')).toContain('{player: 花卷, out: "2026-11-22 21:00", how: vote}');
  }, 60_000);

  test('a version read before it became unreadable is the evidence: its successor passes the badge, nothing waits', async () => {
    const names = (_file: string, html: string) => (html.includes(`id="post_${DIRECTOR_POST}"`) ? replaceMessage(html, DIRECTOR_POST, '包子 昨夜出局，警徽移交给 饺子。') : html);
    const data = store(names);
    store(shielded(DIRECTOR_POST), data, new Date(FETCHED.getTime() + 3_600_000));
    const t = JSON.parse((await bansha(['tally', '--game', folder(data), '--day', '2', '--json'])).stdout) as TallyJson;
    expect(t.sheriff).toBe('饺子');
    expect(t.unreadableSuccession).toBeUndefined();
  }, 60_000);
});
