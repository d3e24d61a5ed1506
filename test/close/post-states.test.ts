/**
 * Discuz's post states at closing time (issue 31), on the captured public game (fixtures/discuz/public,
 * played from fixtures/scenarios/public.yaml) parsed by the real parser and recorded by the real store
 * code, the pages edited first into Discuz's own template markup for each state (test/discuz/discuz-markup.ts),
 * so the parser's marking (Post.state/readable) is what the count reads:
 * - a reply deleted from the discussion thread is a post no longer on the forum: the commands count
 *   without it and list it, --confirm writes the result;
 * - a ballot post the account cannot read (a banned author's) is never "no ballot" nor a no-ballot card;
 *   where such posts could change the result, --confirm refuses until the director rules on them;
 * - a version read before the post became unreadable is the evidence; a moderator's view is read and marked;
 * - a result written by --confirm that a later count no longer gives is shown on every count of the day;
 * - a player both voted out and sent off confirms as one exit; a day with no thread refuses;
 * - a ruling's time reads as forum time.
 * Expectations come from the rules (../shared/docs/rules-spec.md §3, §4, §6) and the scenario's ballots.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parsePage } from '../../src/discuz/parse-page.js';
import type { Page } from '../../src/discuz/types.js';
import type { Ledger } from '../../src/cards/types.js';
import { loadGame } from '../../src/game/game-file.js';
import { applyPage } from '../../src/store/record.js';
import { emptyStore } from '../../src/store/store-file.js';
import type { StoreData } from '../../src/store/types.js';
import { removePost } from '../../src/replay/page-edits.js';
import { FIXTURES, fetched, ids as readIds, manifest, threadPageFiles } from '../helpers/captured.js';
import { NOTICE, deletedSlot, intoActions, replaceMessageBox } from '../discuz/discuz-markup.js';
import { bansha } from '../helpers/cli.js';

const ids = readIds('public');
const TALK = ids.threads.d2talk.tid;
const VOTE = ids.threads.d2vote.tid;
const EVENT = '  - {player: 月饼, out: "2026-11-22 21:00", how: vote}\n';
const FETCHED = new Date('2026-11-30T08:02:00Z');

/** The scenario post of thread `key` by `author` whose text starts with the 投票对象 head (their day-2 vote). */
function votePost(author: string): { pid: number; floor: number } {
  const p = Object.values(ids.posts).find((x) => x.threadKey === 'd2vote' && x.author === author);
  if (!p) throw new Error(`no day-2 vote post by ${author}`);
  return { pid: p.pid, floor: p.floor };
}

/** A page as Discuz shows a banned author's posts `pids` to others: the template's locked notice in place of the message. */
const banned = (...pids: number[]) => (_file: string, html: string): string =>
  pids.reduce((h, pid) => (h.includes(`id="post_${pid}"`) ? replaceMessageBox(h, pid, `<div class="locked">${NOTICE.banned}</div>\n`) : h), html);

/**
 * The capture's thread pages recorded as a crawl records them, each parsed page passed through `edit`
 * (with its file's html, which may be edited first) — at `at`.
 */
function store(edit: (page: Page, file: string) => void = () => undefined, html?: (file: string, text: string) => string, into?: StoreData, at = FETCHED): StoreData {
  const data = into ?? emptyStore(ids.base);
  const files = threadPageFiles('public');
  for (const e of manifest('public').filter((x) => files.includes(x.file))) {
    const f = fetched('public', e, at);
    if (html) f.bytes = new Uint8Array(Buffer.from(html(e.file, Buffer.from(f.bytes).toString('utf8'))));
    const parsed = parsePage(f);
    edit(parsed, e.file);
    applyPage(data, f, parsed);
  }
  return data;
}

/** A game folder: the public game file (edited), its store, and optionally a card ledger. */
function folder(data: StoreData, yaml: (y: string) => string = (y) => y, ledger?: Ledger['cards']): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-states-'));
  const game = path.join(dir, 'public.yaml');
  fs.writeFileSync(game, yaml(fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8')));
  fs.writeFileSync(path.join(dir, 'public.store.json'), JSON.stringify(data));
  if (ledger) fs.writeFileSync(path.join(dir, 'public.cards.json'), JSON.stringify({ version: 1, game, cards: ledger } satisfies Ledger));
  return game;
}

const unrecorded = (y: string) => y.replace(EVENT, '');
type TallyJson = { result: { name: string | null; note: string | null }; totals: Array<{ name: string; votes: number }>; notes: string[]; unreadable?: { pids: number[]; couldChange: boolean }; ballots: Array<{ pid: number; status: string; codes: string[] }> };
type ReportJson = { cards: Array<{ player: string; kind: string }>; notes: string[] };

describe('a reply deleted from the discussion thread', () => {
  // The forum after a moderator deleted one day-2 discussion reply: its floor skipped, page 1 counting one reply fewer.
  const gone = Object.values(ids.posts).filter((p) => p.tid === TALK).sort((a, b) => a.floor - b.floor)[18];
  const replies = Object.values(ids.posts).filter((p) => p.tid === TALK).length - 1;
  const data = store(undefined, (file, text) => {
    if (!file.startsWith(`viewthread-t${TALK}-`)) return text;
    let out = text.includes(`id="post_${gone.pid}" `) ? removePost(text, gone.pid) : text;
    if (file === `viewthread-t${TALK}-p1.html`) out = out.replace(`回复:</span> <span class="xi1">${replies}`, `回复:</span> <span class="xi1">${replies - 1}`);
    return out;
  });

  test('tally, report and close --confirm go on without it, and list it with its floor link', async () => {
    expect(data.posts[String(gone.pid)]).toBeUndefined();
    const game = folder(data, unrecorded);
    const link = `${ids.base}forum.php?mod=redirect&ptid=${TALK}&authorid=0&postno=${gone.floor}`;
    const tally = await bansha(['tally', '--game', game, '--day', '2']);
    expect(tally.code, tally.stderr).toBe(0);
    expect(tally.out).not.toContain('从未见到');
    const report = await bansha(['report', '--game', game, '--day', '2', '--json']);
    expect(report.code, report.stderr).toBe(0);
    expect((JSON.parse(report.stdout) as ReportJson).notes).toContain(`帖子 ${TALK} ${gone.floor}# 已不在论坛上（已删除，或本账号看不到），计数不含此楼：${link}`);
    const close = await bansha(['close', '--game', game, '--day', '2', '--no-crawl', '--confirm']);
    expect(close.code, close.stderr).toBe(0);
    expect(fs.readFileSync(game, 'utf8')).toContain(EVENT);
    expect(fs.readFileSync(path.join(path.dirname(game), 'public-day2', 'report-day2.html'), 'utf8')).toContain(`postno=${gone.floor}`);
  }, 60_000);
});

describe('what the pages say of a post no longer on the vote thread', () => {
  // 汤圆's day-2 vote (for 花卷) deleted: 月饼 keeps the most votes either way (§4), so the count confirms.
  const tangyuan = votePost('汤圆');
  const replies = Object.values(ids.posts).filter((p) => p.tid === VOTE).length - 1;
  const link = `${ids.base}forum.php?mod=redirect&ptid=${VOTE}&authorid=0&postno=${tangyuan.floor}`;
  const votePage = (file: string) => file.startsWith(`viewthread-t${VOTE}-`);
  /** Page 1 of the vote thread counting one reply fewer (Discuz lowers the count on a deletion). */
  const fewer = (file: string, text: string) => (file === `viewthread-t${VOTE}-p1.html` ? text.replace(`回复:</span> <span class="xi1">${replies}`, `回复:</span> <span class="xi1">${replies - 1}`) : text);

  test('a deleted-post slot: the count\'s note gives the notice the forum prints there (escaped in the HTML), with the floor link', async () => {
    // (a forum's own wording of the notice, with characters HTML must escape)
    const notice = '无效楼层，该帖已经被删除 &lt;版主&gt;';
    const data = store(undefined, (file, text) => (votePage(file) && text.includes(`id="post_${tangyuan.pid}" `) ? deletedSlot(text, tangyuan.pid, `${tangyuan.floor}#`, notice) : text));
    const game = folder(data, unrecorded);
    const note = `帖子 ${VOTE} ${tangyuan.floor}# 已不在论坛上：论坛在此楼显示“无效楼层，该帖已经被删除 <版主>”，计数不含此楼：${link}`;
    const t = JSON.parse((await bansha(['tally', '--game', game, '--day', '2', '--json'])).stdout) as TallyJson;
    expect(t.result.name).toBe('月饼');
    expect(t.notes).toContain(note);
    const report = JSON.parse((await bansha(['report', '--game', game, '--day', '2', '--json'])).stdout) as ReportJson;
    expect(report.notes).toContain(note);
    const close = await bansha(['close', '--game', game, '--day', '2', '--no-crawl']);
    expect(close.code, close.stderr).toBe(0);
    const html = fs.readFileSync(path.join(path.dirname(game), 'public-day2', 'report-day2.html'), 'utf8');
    expect(html).toContain('论坛在此楼显示“无效楼层，该帖已经被删除 &lt;版主&gt;”');
    expect(html).not.toContain('<版主>');
  }, 60_000);

  test('a skipped floor where page 1 shows no usable reply count (a 点评): the note says it is judged on whole pages alone', async () => {
    // A 点评 on the thread's first post: Discuz's reply count then counts the 点评 too, so it confirms nothing.
    const first = Object.values(ids.posts).filter((p) => p.tid === VOTE).sort((a, b) => a.floor - b.floor)[0];
    const comment = (text: string) => text.replace(`<div id="comment_${first.pid}" class="cm">`, `<div id="comment_${first.pid}" class="cm"><h3 class="psth xs1">点评</h3><div class="pstl xs1 cl"><div class="psti">好</div></div>`);
    const edit = (withComment: boolean) => (file: string, text: string) => {
      if (!votePage(file)) return text;
      const out = fewer(file, text.includes(`id="post_${tangyuan.pid}" `) ? removePost(text, tangyuan.pid) : text);
      return withComment ? comment(out) : out;
    };
    const weak = folder(store(undefined, edit(true)), unrecorded);
    const t = JSON.parse((await bansha(['tally', '--game', weak, '--day', '2', '--json'])).stdout) as TallyJson;
    expect(t.result.name).toBe('月饼');
    const note = t.notes.find((n) => n.includes(`${tangyuan.floor}#`) && n.includes(link));
    expect(note).toContain('判为已不在论坛上');
    expect(note).toContain('依据仅是整帖每一页都抓全而此楼被跳过');
    expect(note).toContain('第 1 页没有可用的回复数');
    const report = JSON.parse((await bansha(['report', '--game', weak, '--day', '2', '--json'])).stdout) as ReportJson;
    expect(report.notes).toContain(note);
    // The control: the reply count (one fewer) confirms the deletion — the plain note.
    const sure = JSON.parse((await bansha(['tally', '--game', folder(store(undefined, edit(false)), unrecorded), '--day', '2', '--json'])).stdout) as TallyJson;
    expect(sure.notes).toContain(`帖子 ${VOTE} ${tangyuan.floor}# 已不在论坛上（已删除，或本账号看不到），计数不含此楼：${link}`);
  }, 60_000);
});

describe('a floor the reply count still counts (not a deletion as Discuz makes one)', () => {
  test('a gap: refused, and with --allow-incomplete marked missing, never called a post no longer on the forum', async () => {
    const gone = Object.values(ids.posts).filter((p) => p.tid === VOTE).sort((a, b) => a.floor - b.floor)[6];
    const game = folder(store(undefined, (file, text) => (file.startsWith(`viewthread-t${VOTE}-`) && text.includes(`id="post_${gone.pid}" `) ? removePost(text, gone.pid) : text)), unrecorded);
    const refused = await bansha(['tally', '--game', game, '--day', '2']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(`楼层 ${gone.floor} 从未见到`);
    for (const args of [['tally', '--day', '2', '--json'], ['report', '--day', '2', '--json']]) {
      const r = await bansha([...args, '--game', game, '--allow-incomplete']);
      expect(r.code, r.stderr).toBe(0);
      const j = JSON.parse(r.stdout) as { incomplete: Array<{ missingFloors: number[] }>; notes?: string[] };
      expect(j.incomplete[0].missingFloors).toEqual([gone.floor]);
      expect((j.notes ?? []).join('\n')).not.toContain('已不在论坛上');
    }
  }, 60_000);
});

describe('ballot posts the account cannot read', () => {
  test('one that cannot change the result: not counted, never "no ballot", no no-ballot card, --confirm writes the result', async () => {
    // 汤圆's day-2 vote (投票对象：花卷) as others see it once she is banned: 月饼 keeps the most votes either way (§4).
    const tangyuan = votePost('汤圆');
    const game = folder(store(undefined, banned(tangyuan.pid)), unrecorded);
    const t = JSON.parse((await bansha(['tally', '--game', game, '--day', '2', '--json'])).stdout) as TallyJson;
    expect(t.result.name).toBe('月饼');
    expect(t.unreadable).toEqual({ pids: [tangyuan.pid], couldChange: false });
    expect(t.ballots.find((b) => b.pid === tangyuan.pid)).toMatchObject({ status: 'rejected', codes: ['unreadable'] });
    const text = await bansha(['tally', '--game', game, '--day', '2']);
    expect(text.stdout).toContain('汤圆：本账号看不到其投票帖的文字');
    expect(text.stdout).toContain('帖子内容看不到（作者被禁止或删除，内容自动屏蔽）');
    expect(text.stdout).not.toMatch(/汤圆：(没有有效票|未投票)/);
    const report = JSON.parse((await bansha(['report', '--game', game, '--day', '2', '--json'])).stdout) as ReportJson & { activity: Array<{ player: string; voted: unknown; unreadable?: Array<{ pid: number; url: string }> }> };
    expect(report.cards.filter((c) => c.player === '汤圆' && c.kind === 'no-ballot')).toEqual([]);
    // Her only post in the vote thread cannot be read: whether she voted is not known — neither 是 nor 否, with its link.
    const link = `${ids.base}forum.php?mod=redirect&goto=findpost&ptid=${VOTE}&pid=${tangyuan.pid}`;
    expect(report.activity.find((a) => a.player === '汤圆')).toMatchObject({ voted: 'unreadable', unreadable: [{ pid: tangyuan.pid, url: link }] });
    expect(report.activity.find((a) => a.player === '烧卖')?.voted).toBe(true); // (the control: a readable ballot)
    const row = (await bansha(['report', '--game', game, '--day', '2'])).stdout.split('\n').find((l) => /^\s+汤圆\s/.test(l))!;
    expect(row).toContain(`不可读，待确认：${link}`);
    expect(row).not.toMatch(/\s(是|否)$/);
    const close = await bansha(['close', '--game', game, '--day', '2', '--no-crawl', '--confirm']);
    expect(close.code, close.stderr).toBe(0);
    expect(fs.readFileSync(game, 'utf8')).toContain(EVENT);
    const html = fs.readFileSync(path.join(path.dirname(game), 'public-day2', 'report-day2.html'), 'utf8');
    expect(html).toContain(`不可读，待确认（pid ${tangyuan.pid}）`);
  }, 60_000);

  test('ones that could change the result: the result says so, --confirm and tally --post refuse until the director rules on each', async () => {
    // 烧卖's and 春卷's votes for 月饼 unreadable: 月饼 5.5 against 花卷 4, and two unread ballots could move 2 (§4).
    const hidden = [votePost('烧卖'), votePost('春卷')];
    const game = folder(store(undefined, banned(...hidden.map((h) => h.pid))), unrecorded);
    const t = JSON.parse((await bansha(['tally', '--game', game, '--day', '2', '--json'])).stdout) as TallyJson;
    expect(t.totals.filter((x) => x.votes > 0).map((x) => [x.name, x.votes])).toEqual([['月饼', 5.5], ['花卷', 4]]);
    expect(t.unreadable).toEqual({ pids: hidden.map((h) => h.pid), couldChange: true });
    expect(t.result.note).toContain('可能改变结果');
    const html = await bansha(['close', '--game', game, '--day', '2', '--no-crawl']);
    expect(html.code, html.stderr).toBe(0);
    expect(fs.readFileSync(path.join(path.dirname(game), 'public-day2', 'report-day2.html'), 'utf8')).toContain('可能改变结果');
    const confirm = await bansha(['close', '--game', game, '--day', '2', '--no-crawl', '--confirm']);
    expect(confirm.code).toBe(3);
    expect(confirm.stderr).toContain(`--confirm 不会写入第 2 日的结果：投票帖中本账号看不到文字的帖子（pid ${hidden.map((h) => h.pid).join(', ')}）可能改变结果`);
    expect(fs.readFileSync(game, 'utf8')).not.toContain(EVENT);
    for (const args of [['tally', '--day', '2', '--post'], ['close', '--day', '2', '--no-crawl', '--post']]) {
      const post = await bansha([...args, '--game', game]);
      expect(post.code, args.join(' ')).toBe(3);
      expect(post.stderr).toContain('--post 不会发布第 2 日的结果');
    }
    // The director looked: neither holds a ballot that counts.
    for (const h of hidden) {
      const r = await bansha(['rule', 'reject', String(h.pid), '--game', game, '--day', '2', '--why', '被封禁玩家的帖子不计']);
      expect(r.code, r.stderr).toBe(0);
    }
    const ruled = JSON.parse((await bansha(['tally', '--game', game, '--day', '2', '--json'])).stdout) as TallyJson;
    expect(ruled.unreadable).toBeUndefined();
    const done = await bansha(['close', '--game', game, '--day', '2', '--no-crawl', '--confirm']);
    expect(done.code, done.stderr).toBe(0);
    expect(fs.readFileSync(game, 'utf8')).toContain(EVENT);
  }, 120_000);

  test('a tie with nobody out that they could break: --confirm refuses (exit 3) as --post does, though it has nothing to write', async () => {
    // 包子's (the sheriff's, ×1.5), 烧卖's and 油条's votes for 月饼 unreadable: 月饼 4 against 花卷 4, a tie —
    // nobody out (m107, §4) — and the three unread ballots could put 月饼 out.
    const hidden = [votePost('包子'), votePost('烧卖'), votePost('油条')];
    const game = folder(store(undefined, banned(...hidden.map((h) => h.pid))), unrecorded);
    const t = JSON.parse((await bansha(['tally', '--game', game, '--day', '2', '--json'])).stdout) as TallyJson & { result: { tie: string[] } };
    expect(t.totals.filter((x) => x.votes > 0).map((x) => [x.name, x.votes])).toEqual([['花卷', 4], ['月饼', 4]]);
    expect(t.result).toMatchObject({ name: null, tie: ['花卷', '月饼'] });
    expect(t.unreadable).toEqual({ pids: hidden.map((h) => h.pid), couldChange: true });
    const before = fs.readFileSync(game, 'utf8');
    const pids = hidden.map((h) => h.pid).join(', ');
    const post = await bansha(['close', '--game', game, '--day', '2', '--no-crawl', '--post']);
    expect(post.code).toBe(3);
    expect(post.stderr).toContain(`--post 不会发布第 2 日的结果：投票帖中本账号看不到文字的帖子（pid ${pids}）可能改变结果`);
    const confirm = await bansha(['close', '--game', game, '--day', '2', '--no-crawl', '--confirm']);
    expect(confirm.code).toBe(3);
    expect(confirm.stderr).toContain(`--confirm 不会写入第 2 日的结果：投票帖中本账号看不到文字的帖子（pid ${pids}）可能改变结果`);
    expect(confirm.stderr).toContain('bansha rule reject PID --day 2');
    const en = await bansha(['close', '--game', game, '--day', '2', '--no-crawl', '--confirm', '--lang', 'en']);
    expect(en.code).toBe(3);
    expect(en.stderr).toContain(`--confirm will not write day 2's result: posts in the vote thread this account cannot read (pid ${pids}) could change it`);
    expect(fs.readFileSync(game, 'utf8')).toBe(before);
    // The director looked: none holds a ballot that counts. The tie stands; --confirm has nothing to write, and says nothing is wrong.
    for (const h of hidden) expect((await bansha(['rule', 'reject', String(h.pid), '--game', game, '--day', '2', '--why', '被封禁玩家的帖子不计'])).code).toBe(0);
    const done = await bansha(['close', '--game', game, '--day', '2', '--no-crawl', '--confirm']);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain('平票');
    expect(fs.readFileSync(game, 'utf8')).toBe(before);
  }, 120_000);

  test('a version read before the post became unreadable is the evidence, and marked so', async () => {
    const shaomai = votePost('烧卖');
    const data = store();
    store(undefined, banned(shaomai.pid), data, new Date('2026-11-30T09:00:00Z'));
    expect(data.posts[String(shaomai.pid)].versions.length).toBe(2);
    const game = folder(data, unrecorded);
    const t = JSON.parse((await bansha(['tally', '--game', game, '--day', '2', '--json'])).stdout) as TallyJson;
    expect(t.ballots.find((b) => b.pid === shaomai.pid)?.status).toBe('counted');
    expect(t.unreadable).toBeUndefined();
    expect((await bansha(['tally', '--game', game, '--day', '2'])).stdout).toContain('当前版本看不到（作者被禁止或删除，内容自动屏蔽）：按其变为看不到之前读到的文字计');
  }, 60_000);

  test('a moderator\'s view (the text shown with its state) is read, and the state marked', async () => {
    const chunjuan = votePost('春卷');
    // A moderator's view of a post awaiting moderation: (待审核) in its action bar, the text shown.
    const game = folder(store(undefined, (_file, html) => (html.includes(`id="post_${chunjuan.pid}"`) ? intoActions(html, chunjuan.pid, `<span class="xg1">(${NOTICE.pending})</span>`) : html)), unrecorded);
    const t = JSON.parse((await bansha(['tally', '--game', game, '--day', '2', '--json'])).stdout) as TallyJson;
    expect(t.ballots.find((b) => b.pid === chunjuan.pid)?.status).toBe('counted');
    expect((await bansha(['tally', '--game', game, '--day', '2'])).stdout).toContain('帖子状态：待审核');
  }, 60_000);
});

describe('a banned author\'s posts in the discussion thread', () => {
  test('count as posts, and their notice (no avatar, no signature) is no profile change', async () => {
    // Discuz shows a banned author's posts with the notice and without the author's avatar and signature.
    const mine = Object.values(ids.posts).filter((p) => p.tid === TALK && p.author === '汤圆').map((p) => p.pid);
    const last = mine[mine.length - 1];
    const data = store((page) => {
      const p = page.posts.find((x) => x.pid === last);
      if (p) Object.assign(p, { avatar: null, signature: null }); // (the template leaves them out; the notice is the markup's)
    }, banned(last));
    const plain = JSON.parse((await bansha(['report', '--game', folder(store(), unrecorded), '--day', '2', '--json'])).stdout) as ReportJson & { activity: Array<{ player: string; posts: number }>; flags: Array<{ kind: string; player: string }> };
    const r = JSON.parse((await bansha(['report', '--game', folder(data, unrecorded), '--day', '2', '--json'])).stdout) as typeof plain;
    expect(r.activity.find((a) => a.player === '汤圆')?.posts).toBe(plain.activity.find((a) => a.player === '汤圆')?.posts);
    expect(r.flags.filter((f) => f.player === '汤圆' && /avatar|signature/.test(f.kind))).toEqual([]);
  }, 60_000);
});

describe('acceleration requests the account cannot read', () => {
  const PROCESS = ids.threads.process.tid;
  const request = (author: string) => Object.values(ids.posts).find((x) => x.tid === PROCESS && x.author === author)!.pid;
  type Acc = { acceleration: { requests: Array<{ pid: number; counted: boolean }> }; notes: string[] };

  test('never read: not counted, and said whether it could change the day\'s acceleration', async () => {
    // 5 of 11 alive asked (6 needed, §5); 饺子's request unreadable leaves 4: with it 5, still short.
    const pid = request('饺子');
    const game = folder(store(undefined, banned(pid)), unrecorded);
    const t = JSON.parse((await bansha(['tally', '--game', game, '--day', '2', '--json'])).stdout) as Acc;
    expect(t.acceleration.requests.filter((r) => r.counted).map((r) => r.pid)).not.toContain(pid);
    expect(t.notes).toContain(`进程帖中有本账号看不到文字的帖子（pid ${pid}），未计入加速申请：即使都是申请也改变不了加速与否`);
  }, 60_000);

  test('ones that could change whether the day is accelerated: the result says so, --confirm and --post refuse until the director rules', async () => {
    // 豆浆 and 麻花 out at night before day 2 as well: 9 alive, more than half is 5 (§5, m107 l.202); 饺子, 包子,
    // 汤圆, 春卷 and 油条 asked (馒头 was out): accelerated. With 饺子's request unreadable 4 are read — one short,
    // and the unread post may be the fifth request: whether the day is accelerated is not known.
    const pid = request('饺子');
    const deaths = (y: string) => unrecorded(y).replace('events:\n', 'events:\n  - {player: 豆浆, out: "2026-11-22 10:00", how: night}\n  - {player: 麻花, out: "2026-11-22 10:00", how: night}\n');
    const accelerated = JSON.parse((await bansha(['tally', '--game', folder(store(), deaths), '--day', '2', '--json'])).stdout) as Acc & { accelerated: boolean };
    expect(accelerated.accelerated).toBe(true); // (the control: read, the requests accelerate the day)
    const game = folder(store(undefined, banned(pid)), deaths);
    const t = JSON.parse((await bansha(['tally', '--game', game, '--day', '2', '--json'])).stdout) as TallyJson & Acc & { unreadableProcess?: { pids: number[]; couldChange: boolean } };
    expect(t.unreadableProcess).toEqual({ pids: [pid], couldChange: true });
    expect(t.result.note).toContain(`进程帖中有本账号看不到文字的帖子（pid ${pid}）`);
    const confirm = await bansha(['close', '--game', game, '--day', '2', '--no-crawl', '--confirm']);
    expect(confirm.code).toBe(3);
    expect(confirm.stderr).toContain(`--confirm 不会写入第 2 日的结果：进程帖中本账号看不到文字的帖子（pid ${pid}，可能是加速申请或撤回）可能改变结果`);
    const before = fs.readFileSync(game, 'utf8');
    for (const args of [['tally', '--day', '2', '--post'], ['close', '--day', '2', '--no-crawl', '--post']]) {
      const post = await bansha([...args, '--game', game]);
      expect(post.code, args.join(' ')).toBe(3);
      expect(post.stderr).toContain('--post 不会发布第 2 日的结果');
    }
    // What an unread post asks cannot be accepted; the director looked: it is no request.
    const accept = await bansha(['rule', 'accept', String(pid), '--game', game, '--day', '2', '--why', '是申请']);
    expect(accept.code).toBe(2);
    expect(accept.stderr).toContain('accelerated: true/false');
    const reject = await bansha(['rule', 'reject', String(pid), '--game', game, '--day', '2', '--why', '帖子与加速无关']);
    expect(reject.code, reject.stderr).toBe(0);
    expect(reject.stdout).toContain(`进程帖 pid ${pid}`);
    const ruled = JSON.parse((await bansha(['tally', '--game', game, '--day', '2', '--json'])).stdout) as typeof t & { accelerated: boolean };
    expect(ruled.unreadableProcess).toBeUndefined();
    expect(ruled.accelerated).toBe(false);
    expect(ruled.notes.join('\n')).not.toContain('进程帖中有本账号看不到');
    expect(fs.readFileSync(game, 'utf8')).toBe(before);
    const done = await bansha(['close', '--game', game, '--day', '2', '--no-crawl', '--confirm']);
    expect(done.code, done.stderr).toBe(0);
  }, 120_000);

  test('read before it became unreadable: the request counts', async () => {
    const pid = request('饺子');
    const data = store();
    store(undefined, banned(pid), data, new Date('2026-11-30T09:00:00Z'));
    const t = JSON.parse((await bansha(['tally', '--game', folder(data, unrecorded), '--day', '2', '--json'])).stdout) as Acc;
    expect(t.acceleration.requests.find((r) => r.pid === pid)?.counted).toBe(true);
    expect(t.notes.join('\n')).not.toContain('进程帖中有本账号看不到');
  }, 60_000);
});

describe('recorded results stay honest', () => {
  test('a result --confirm wrote that a later count no longer gives is shown on the day\'s count', async () => {
    // The game file records 月饼 out by vote; rulings void four of her votes: 月饼 3.5, 花卷 4 — 花卷 is out now (§4).
    const game = folder(store(), (y) => y.replace(/(  - \{day: 2,[^\n]*\n)/, `$1  - {day: 3, discussion: ${ids.threads.d3talk.tid}, opens: "2026-11-23 10:00", closes: "2026-11-23 21:00"}\n`));
    for (const who of ['包子', '烧卖', '油条', '粽子']) {
      const r = await bansha(['rule', 'reject', String(votePost(who).pid), '--game', game, '--day', '2', '--why', '复核']);
      expect(r.code, r.stderr).toBe(0);
    }
    const t = JSON.parse((await bansha(['tally', '--game', game, '--day', '2', '--json'])).stdout) as TallyJson;
    expect(t.result.name).toBe('花卷');
    expect(t.notes).toContain('游戏文件记 月饼 于第 2 日关门时（11-22 21:00）投票出局，但计票结果是 花卷 出局：请核对');
    const close = await bansha(['close', '--game', game, '--day', '2', '--no-crawl']);
    expect(close.code, close.stderr).toBe(0);
    expect(close.stdout.split('游戏文件记 月饼 于第 2 日关门时（11-22 21:00）投票出局，但计票结果是 花卷 出局').length - 1).toBe(1);
    const report = JSON.parse((await bansha(['report', '--game', game, '--day', '2', '--json'])).stdout) as ReportJson;
    expect(report.notes).toContain('游戏文件记 月饼 于第 2 日关门时（11-22 21:00）投票出局，但计票结果是 花卷 出局：请核对');
    // Later days' counts and floors say it too (carried forward: carry-forward.ts).
    const later = await bansha(['elevator', '--game', game, '--day', '3']);
    expect(later.out).toContain('游戏文件记 月饼 于第 2 日关门时（11-22 21:00）投票出局，但计票结果是 花卷 出局');
  }, 60_000);

  test('a ruling\'s time reads as forum time, in the terminal and the HTML', async () => {
    const game = folder(store(), unrecorded);
    const r = await bansha(['rule', 'reject', String(votePost('饺子').pid), '--game', game, '--day', '2', '--why', '复核']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
    const tally = await bansha(['tally', '--game', game, '--day', '2']);
    expect(tally.stdout).toMatch(/裁定 #1（导演A，\d\d-\d\d \d\d:\d\d(:\d\d)?）/);
    await bansha(['close', '--game', game, '--day', '2', '--no-crawl']);
    const html = fs.readFileSync(path.join(path.dirname(game), 'public-day2', 'report-day2.html'), 'utf8');
    expect(html).toContain('裁定 #1');
    expect(html).not.toMatch(/裁定 #1[^<]*\d{4}-\d\d-\d\dT/);
  }, 60_000);
});

describe('closing edges', () => {
  test('a player both voted out and sent off at the close confirms as one exit', async () => {
    const game = folder(store(), unrecorded, [
      { id: 'C1', day: 2, player: '月饼', color: 'red', kind: 'zombie-post', kinds: ['zombie-post'], reason: '诈尸', evidence: [], status: 'confirmed', proposedAt: '2026-11-22T13:00:00Z' },
    ]);
    const r = await bansha(['close', '--game', game, '--day', '2', '--no-crawl', '--confirm']);
    expect(r.code, r.stderr).toBe(0);
    const text = fs.readFileSync(game, 'utf8');
    expect(text.match(/player: 月饼/g)).toHaveLength(1);
    expect(text).toContain('  - {player: 月饼, out: "2026-11-22 21:00", how: card}\n');
    expect(loadGame(game).events.filter((e) => e.player === '月饼')).toHaveLength(1);
    const again = await bansha(['close', '--game', game, '--day', '2', '--no-crawl']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).not.toContain('不一致');
  }, 60_000);

  test('a stale --confirm refuses (exit 7) before the day is assembled: no folder, no proposals, the game file as it was', async () => {
    // Every page fetched at 20:00 on day 2, an hour before its close (21:00): the count is not as of the close.
    const game = folder(store(undefined, undefined, undefined, new Date('2026-11-22T12:00:00Z')), unrecorded);
    const before = fs.readFileSync(game, 'utf8');
    const r = await bansha(['close', '--game', game, '--day', '2', '--no-crawl', '--confirm']);
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('--confirm 拒绝');
    expect(r.stderr).toContain(`帖子 ${VOTE}（第 2 日投票帖）：只抓到截至 11-22 20:00 的状态`);
    expect(fs.existsSync(path.join(path.dirname(game), 'public-day2'))).toBe(false);
    expect(fs.existsSync(path.join(path.dirname(game), 'public.cards.json'))).toBe(false);
    expect(fs.readFileSync(game, 'utf8')).toBe(before);
    // Without --confirm the same store gives the day's files, each saying as of when (the control).
    const files = await bansha(['close', '--game', game, '--day', '2', '--no-crawl', '--allow-incomplete']);
    expect(files.code, files.stderr).toBe(0);
    expect(fs.existsSync(path.join(path.dirname(game), 'public-day2', 'summary.txt'))).toBe(true);
  }, 60_000);

  test('a day whose entry names no thread refuses: no count, no cards', async () => {
    const game = folder(store(), (y) => y.replace(/(  - \{day: 2,[^\n]*\n)/, '$1  - {day: 3, opens: "2026-11-23 10:00", closes: "2026-11-23 21:00"}\n'));
    for (const args of [['report', '--day', '3'], ['close', '--day', '3', '--no-crawl']]) {
      const r = await bansha([...args, '--game', game]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('第 3 天没有任何帖子');
    }
    expect(fs.existsSync(path.join(path.dirname(game), 'public.cards.json'))).toBe(false);
  }, 60_000);
});
