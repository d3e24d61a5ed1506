/**
 * Hostile content (issue 8): player names and posts carrying HTML/JS, BBCode tricks, terminal escape
 * sequences and odd Unicode, played through the real pipeline (real captured markup → parser → store →
 * tally / report / elevator) and every output checked:
 *
 * - HTML report: no live <script>, no on* handler, no javascript: URL — checked on the markup and in
 *   real Chromium (no dialog, no payload ran, no script element, every link http(s));
 * - terminal (tally and report): no raw ESC or other control character, no bidi override reaches stdout;
 * - BBCode (tally --bbcode, report --bbcode, elevator floor): the tags and link targets are exactly the
 *   ones bansha means to write; player text cannot open, close or add a tag;
 * - ballots: a hidden or look-alike ballot cannot be forged, a ballot of a director's look-alike is not
 *   a 代投, and quoting/signatures are covered in test/fuzz/quoted-ballot.fuzz.test.ts.
 *
 * Decisions taken here (documented in notes/guarantees.md):
 * - zero-width characters inside a ballot's heads or target are invisible on the forum, so what the
 *   reader sees is a normal ballot: it counts (normalisation drops them);
 * - a look-alike letter (Cyrillic В/о, Greek Ο...) is not the name: the ballot is rejected as an unknown
 *   target and the real name is given only as a hint for the director; two players whose names are
 *   look-alikes of each other each get exactly the ballots written with their own letters.
 *
 * Bugs this review found (terminal/BBCode escaping, "@" names, bidi overrides in a target) were pinned
 * as `test.fails` and are fixed: they are plain tests now and guard against regressions.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as cheerio from 'cheerio';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { closingDay, type ClosingDay } from '../../src/day/closing-day.js';
import { dayHtml } from '../../src/day/day-page.js';
import { CHROMIUM_ARGS } from '../../src/crawl/login.js';
import { authorOnlyUrl, elevatorFloor } from '../../src/elevator/index.js';
import { renderElevatorBBCode } from '../../src/render/elevator-bbcode.js';
import { renderDayReportBBCode } from '../../src/render/report-bbcode.js';
import { renderDayReportTerminal } from '../../src/render/report-terminal.js';
import { renderTallyBBCode } from '../../src/render/tally-bbcode.js';
import { renderTallyJson } from '../../src/render/tally-json.js';
import type { DayReport } from '../../src/report/day-report.js';
import { postUrl } from '../../src/store/slice.js';
import { readBallot } from '../../src/votes/ballot.js';
import { postsFromStore, tallyDay } from '../../src/votes/tally.js';
import type { TallyResult } from '../../src/votes/types.js';
import { buildWorld, DIRECTOR, FORUM, TID, type World, type WorldPost } from './world.js';

/** Forum names a player could pick (Discuz allows [ ] = / : @ { } in names) and worse ones. */
const N = {
  script: '<script>window.__pwned=1</script>',
  img: '<img src=x onerror="window.__pwned=2;alert(2)">',
  url: '[url=javascript:alert(1)]点我[/url]',
  closeUrl: 'a[/url]b',
  bracket: 'x]y[',
  quote: '[quote]引用[/quote]',
  at: '@全体成员',
  smiley: '{:1_1:}',
  bob: 'Bob',
  cyr: 'Вob', // Cyrillic capital В: a look-alike of Bob, and a player of its own
  rlo: 'n\u202eevil', // a bidi override inside a name
  plain: '饺子',
  plain2: '包子',
} as const;
const PLAYERS = Object.values(N);
/** A name that looks like the director's (zero-width space at the end): not a director, not a player. */
const FAKE_DIRECTOR = `${DIRECTOR}\u200b`;

const ESC_PAYLOAD = '\u001b[2J\u001b[31m红\u001b[0m\u001b]8;;http://evil.example/\u0007链接\u001b]8;;\u0007\u0008\u0007';
const JS_PAYLOAD = '<script>window.__pwned=3;alert(3)</script><img src=x onerror="window.__pwned=4"><svg onload="window.__pwned=5">';
const BB_PAYLOAD = '[/url][url=javascript:alert(1)]伪造[/url][url=http://evil.example/]钓鱼[/url][img]http://evil.example/x.png[/img][/b][quote]';

const at = (min: number) => `2026-11-20 ${String(12 + Math.floor(min / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}:00`;

const VOTES: WorldPost[] = [
  { pid: 3001, author: N.bob, at: at(0), body: `投票对象：${N.bracket}\n投票理由：${JS_PAYLOAD} ${BB_PAYLOAD} ${ESC_PAYLOAD}` },
  { pid: 3002, author: N.script, at: at(1), body: `投票对象：<img src=x onerror="window.__pwned=6">\n投票理由：${BB_PAYLOAD}` },
  { pid: 3003, author: N.url, at: at(2), body: `投票对象：${N.closeUrl}\n投票理由：[/b][/url]${ESC_PAYLOAD}` },
  { pid: 3004, author: N.cyr, at: at(3), body: `投票对象：${N.bob}\n投票理由：look-alike voter` },
  { pid: 3005, author: N.at, at: at(4), body: `投票对象：${N.cyr}\n投票理由：the Cyrillic one` },
  { pid: 3006, author: N.quote, at: at(5), body: `投票对象：Bоb\n投票理由：Cyrillic о in a Latin name` },
  { pid: 3007, author: N.smiley, at: at(6), body: `投\u200b票对象：${N.plain}\u200d\n投票理由：零宽字符` },
  { pid: 3008, author: FAKE_DIRECTOR, at: at(7), body: `代投：${N.plain2}\n投票对象：${N.plain}\n投票理由：冒充导演` },
  { pid: 3009, author: N.bracket, at: at(8), body: `投票对象：\u001b[31m${N.plain}\n投票理由：${ESC_PAYLOAD}` },
  { pid: 3010, author: N.rlo, at: at(9), body: `投票对象：${N.img}\n投票理由：${JS_PAYLOAD}` },
  { pid: 3011, author: N.plain2, at: at(10), body: `投票对象：${N.rlo}\n投票理由：@${N.plain} {:1_1:}` },
];
const TALK: WorldPost[] = PLAYERS.map((p, i) => ({
  pid: 2100 + i,
  author: p,
  at: at(20 + i),
  body:
    i === 0 ? `我发誓 ${JS_PAYLOAD} [url=JavaScript:alert(7)]JS[/url] [url=http://evil.example/x]外链[/url]`
    : i === 1 ? `[color=red]${BB_PAYLOAD}${ESC_PAYLOAD}[/color]`
    : `大家好 ${p}`,
}));

let world: World;
let tally: TallyResult;
let report: DayReport;
let closing: ClosingDay;
let tmp: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-hostile-'));
  world = buildWorld({ players: PLAYERS, threads: { [TID.d1vote]: VOTES, [TID.d1talk]: TALK } }, path.join(tmp, 'game.yaml'));
  tally = tallyDay(world.game, postsFromStore(world.store), 1);
  closing = closingDay(world.game, world.store, 1, { ledgerFile: null });
  report = closing.report;
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const counted = (voter: string) => tally.ballots.find((b) => b.voter === voter && b.status === 'counted') ?? null;

describe('the pipeline read the hostile posts as written', () => {
  test('names survive the real markup exactly (authors and uids)', () => {
    const authors = new Set(Object.values(world.store.posts).map((p) => p.versions.at(-1)!.post.author));
    for (const p of PLAYERS) expect(authors, p).toContain(p);
    for (const p of PLAYERS) expect(world.store.users[p], p).toBe(world.uids[p]);
  });
});

describe('ballots cannot be forged', () => {
  test('a hostile-named player is voted like any other; hostile text in a reason changes nothing', () => {
    expect(counted(N.bob)?.target).toBe(N.bracket);
    expect(counted(N.url)?.target).toBe(N.closeUrl);
    expect(counted(N.plain2)?.target).toBe(N.rlo);
  });

  test('zero-width characters in the heads and target: the forum shows a normal ballot, and it counts', () => {
    expect(counted(N.smiley)?.target).toBe(N.plain);
  });

  test('look-alike letters: Вob is its own player, Bоb (Cyrillic о) is nobody — hint only', () => {
    expect(counted(N.cyr)?.target).toBe(N.bob); // Вob votes Bob
    expect(counted(N.at)?.target).toBe(N.cyr); // the Cyrillic name gets only ballots written with it
    const fake = tally.ballots.find((b) => b.pid === 3006)!;
    expect(fake.status).toBe('rejected');
    expect(fake.parsed).toBeNull();
    expect(fake.reason).not.toContain(N.bob); // the public sentence names no guess
    expect(fake.note).toContain(N.bob); // the hint, in the note only the director reads
    expect(tally.totals.find((l) => l.name === N.bob)?.votes).toBe(1);
  });

  test('a 代投 by a look-alike of the director is not a proxy ballot', () => {
    expect(counted(N.plain2)?.pid).toBe(3011); // 包子's own ballot, not the fake proxy
    expect(tally.ballots.filter((b) => b.pid === 3008 && b.status === 'counted')).toEqual([]);
  });

  test('an escape sequence in the target is not a name; unknown names never count', () => {
    expect(tally.ballots.find((b) => b.pid === 3009)?.status).toBe('rejected');
    expect(tally.ballots.find((b) => b.pid === 3002)?.status).toBe('rejected');
  });

  // Was a bug (src/votes/ballot.ts matchTarget): a leading "@" was stripped from what was written (so
  // "@饺子" works) but not from the players' names, so a player whose name starts with "@" could not be voted.
  test('a player named "@全体成员" can be voted for', () => {
    const r = readBallot(`投票对象：${N.at}\n投票理由：x`, { kind: 'players', players: PLAYERS });
    expect(r.ok && r.target).toEqual({ kind: 'player', name: N.at });
  });

  // Was a bug (src/votes/ballot.ts + src/text/normalize.ts): bidi overrides were silently dropped, so
  // "\u202e狸阿" — which the forum DISPLAYS as 阿狸 — counted for 狸阿. Now rejected (target-bidi-control).
  test('a right-to-left override cannot make the forum show one name while another is counted', () => {
    const r = readBallot('投票对象：\u202e狸阿\n投票理由：看上去是阿狸', { kind: 'players', players: ['阿狸', '狸阿'] });
    expect(r.ok).toBe(false);
  });

  test('bidi controls: rejected with their own reason, unless exactly a player\'s name; harmless trailing ones dropped', () => {
    const ctx = { kind: 'players', players: ['阿狸', '狸阿', N.rlo] } as const;
    const r = readBallot('投票对象：\u202e狸阿\n投票理由：看上去是阿狸', ctx);
    expect(!r.ok && r.detail.code).toBe('target-bidi-control');
    expect(!r.ok && r.problem).toBe('unknown-target');
    expect(!r.ok && r.reason).toContain('改变文字方向');
    expect(!r.ok && r.reason).toContain('U+202E');
    // the whole line reversed by an override before the head
    const line = readBallot('\u202e投票对象：阿狸\n投票理由：x', ctx);
    expect(!line.ok && line.detail.code).toBe('target-bidi-control');
    // a head split by an override is no head (the forum shows it scrambled)
    expect(readBallot('投\u202e票对象：阿狸\n投票理由：x', ctx).ok).toBe(false);
    // exactly a player's name, override included: that player
    expect(readBallot(`投票对象：${N.rlo}\n投票理由：x`, ctx)).toMatchObject({ ok: true, target: { kind: 'player', name: N.rlo } });
    // the same letters without the override are not that name (the forum shows them differently)
    expect(readBallot('投票对象：nevil\n投票理由：x', ctx).ok).toBe(false);
    // an override after the name, with nothing of the name behind it, changes nothing shown
    expect(readBallot('投票对象：阿狸\u202e\n投票理由：x', ctx)).toMatchObject({ ok: true, target: { kind: 'player', name: '阿狸' } });
    // "@" is ignored on both sides
    expect(readBallot('投票对象：@阿狸\n投票理由：x', ctx)).toMatchObject({ ok: true, target: { kind: 'player', name: '阿狸' } });
    expect(readBallot('投票对象：全体成员\n投票理由：x', { kind: 'players', players: [N.at, N.plain] })).toMatchObject({ ok: true, target: { kind: 'player', name: N.at } });
  });
});

// ---------------------------------------------------------------------------------------------------
// HTML

const JS_URL = /^\s*(javascript|vbscript|data):/i;

function assertInertHtml(html: string): void {
  const $ = cheerio.load(html);
  expect($('script').length).toBe(0);
  expect($('iframe, object, embed, form, base, meta[http-equiv=refresh]').length).toBe(0);
  const styles = $('style');
  expect(styles.length).toBe(1); // the report's own, allowed by hash in the CSP
  $('*').each((_, el) => {
    for (const [name, value] of Object.entries((el as { attribs?: Record<string, string> }).attribs ?? {})) {
      expect(/^on/i.test(name), `${(el as { name: string }).name} has ${name}`).toBe(false);
      if (/^(href|src|xlink:href|action|formaction|srcset|poster)$/i.test(name)) {
        expect(JS_URL.test(value.replace(/[\u0000-\u001f]/g, '')), `${name}=${value}`).toBe(false);
        expect(value, `${name}=${value}`).toMatch(/^https?:\/\/127\.0\.0\.1:8081\/|^#|^http:\/\/www\.w3\.org\/2000\/svg$/);
      }
    }
  });
  expect($('meta[http-equiv="Content-Security-Policy"]').attr('content')).toContain("default-src 'none'");
}

describe('HTML report: hostile text is shown, never run', () => {
  let html: string;
  beforeAll(() => {
    html = dayHtml(world.game, world.store, closing, Date.parse('2026-11-22T00:00:00Z'));
  });

  test('no script, no handler, no javascript: URL in the markup — and the hostile text is visible as text', () => {
    assertInertHtml(html);
    const text = cheerio.load(html)('body').text();
    expect(text).toContain(N.script);
    expect(text).toContain(N.img);
  });

  test('real Chromium: no dialog, no payload ran, no script element, every link http(s)', async () => {
    const exe = process.env.BANSHA_CHROMIUM ?? '/usr/bin/chromium';
    if (!fs.existsSync(exe)) return; // no browser on this machine: the markup checks above still hold
    const file = path.join(tmp, 'report.html');
    fs.writeFileSync(file, html);
    const browser = await chromium.launch({ executablePath: exe, headless: true, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      const dialogs: string[] = [];
      const requests: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(`file://${file}`);
      await page.waitForTimeout(300);
      const seen = await page.evaluate(() => {
        const all = Array.from(document.querySelectorAll('*'));
        return {
          pwned: (window as unknown as { __pwned?: number }).__pwned ?? null,
          scripts: document.scripts.length,
          handlers: all.flatMap((el) => Array.from(el.attributes).filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName}.${a.name}`)),
          links: Array.from(document.querySelectorAll('a')).map((a) => a.getAttribute('href') ?? ''),
          title: document.title,
        };
      });
      expect(dialogs).toEqual([]);
      expect(seen.pwned).toBeNull();
      expect(seen.scripts).toBe(0);
      expect(seen.handlers).toEqual([]);
      // every link goes to the forum over http(s), or (a chart dot) to a ballot's row on the page itself
      expect(seen.links.filter((h) => !/^https?:\/\//.test(h) && !/^#ballot-\d+$/.test(h))).toEqual([]);
      expect(requests.filter((u) => !u.startsWith('file://'))).toEqual([]); // nothing loaded from anywhere
    } finally {
      await browser.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------
// Terminal

/** Control characters (C0 except \n, DEL, C1) and bidi overrides/isolates: none may reach a terminal. */
const UNSAFE_TERMINAL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
const SGR = /\u001b\[[0-9;]*m/g;

describe('terminal output: no raw escape or control character', () => {
  test('report (terminal renderer), plain and coloured (only its own colour codes)', () => {
    expect(renderDayReportTerminal(report)).not.toMatch(UNSAFE_TERMINAL);
    expect(renderDayReportTerminal(report, { color: true }).replace(SGR, '')).not.toMatch(UNSAFE_TERMINAL);
    // the hostile flags are really in there (so the check is not vacuous)
    expect(report.flags.some((f) => f.player === N.script)).toBe(true);
  });

  test('tally JSON escapes every control character (JSON.stringify), so it is inert too', () => {
    expect(renderTallyJson(tally)).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/); // \n: the JSON's own line breaks
    expect(renderTallyJson(tally)).toContain('\\u001b'); // the ESC is there, escaped
  });
  // tally's terminal view (and the other CLI views): test/reliability/terminal-cli.test.ts
});

// ---------------------------------------------------------------------------------------------------
// BBCode

/** The tags Discuz X3 parses (discuzcode()), plus [quote]/[code]/[hide]/[free] and media. */
const DISCUZ_TAGS = 'url|img|quote|code|b|i|u|s|color|size|font|align|email|media|flash|audio|hide|free|table|tr|td|list|\\*|float|backcolor|p|attach|attachimg|qq|hr|indent|password|postbg|sup|sub|strike|em';
const TAG = new RegExp(`\\[(\\/?)(${DISCUZ_TAGS})(=[^\\]\\r\\n]*)?\\]`, 'gi');

/** Every tag Discuz would see in `bb`: name (with / for closing) and the url= target. */
function tagsOf(bb: string): Array<{ tag: string; arg: string | null }> {
  return [...bb.matchAll(TAG)].map((m) => ({ tag: `${m[1]}${m[2].toLowerCase()}`, arg: m[3] ? m[3].slice(1) : null }));
}
/** Bare URLs Discuz's parseurl() would turn into links at post time (outside [url]…[/url]). */
function bareUrls(bb: string): string[] {
  return bb.replace(/\[url(=[^\]]*)?\][\s\S]*?\[\/url\]/gi, '').match(/(?:https?|ftp):\/\/[^\s[\]]+|www\.[\w-]+\.[^\s[\]]+/gi) ?? [];
}
const count = (xs: Array<{ tag: string }>, t: string) => xs.filter((x) => x.tag === t).length;

describe('BBCode: player text cannot open, close or add a tag', () => {
  test('tally --bbcode: only [b] and the intended floor links, each to its ballot', () => {
    const bb = renderTallyBBCode(tally);
    const tags = tagsOf(bb);
    expect(new Set(tags.map((t) => t.tag))).toEqual(new Set(['b', '/b', 'url', '/url']));
    expect(count(tags, 'b')).toBe(count(tags, '/b'));
    const intended = [
      ...tally.players.flatMap((p) => (p.counted ? [p.counted.url, ...p.others.filter((o) => o.status === 'superseded').slice(0, 1).map((o) => o.url)] : [])),
      ...tally.ballots.filter((b) => b.status === 'rejected').map((b) => b.url),
    ];
    expect(tags.filter((t) => t.tag === 'url').map((t) => t.arg).sort()).toEqual(intended.sort());
    expect(count(tags, '/url')).toBe(intended.length);
    for (const u of intended) expect(u.startsWith(`${FORUM}forum.php?mod=redirect&goto=findpost&ptid=${TID.d1vote}&pid=`)).toBe(true);
    // the names are all still there, looking the same (zero-width guards only)
    for (const p of [N.url, N.closeUrl, N.bracket, N.rlo]) expect(bb.replaceAll('\u200b', '')).toContain(p);
    // no @mention, no smiley code
    expect(bb).not.toMatch(/@(?!\u200b)/);
    expect(bb).not.toContain('{:');
  });

  test('report --bbcode: confirmed cards carry exactly their evidence links', () => {
    const card = { id: 'c1', player: N.url, color: 'yellow' as const, reason: `理由 ${BB_PAYLOAD} @全体 {:1_1:}`, evidence: [3001, 3003], status: 'confirmed' as const, kind: 'banned-wording' as const, kinds: ['banned-wording' as const] };
    const withCard: DayReport = { ...report, cards: [...report.cards.map((c) => ({ ...c, status: 'proposed' as const })), card] };
    const bb = renderDayReportBBCode(withCard, (pid) => postUrl(FORUM, TID.d1vote, pid));
    const tags = tagsOf(bb);
    expect(new Set(tags.map((t) => t.tag))).toEqual(new Set(['b', '/b', 'url', '/url']));
    expect(tags.filter((t) => t.tag === 'url').map((t) => t.arg)).toEqual([postUrl(FORUM, TID.d1vote, 3001), postUrl(FORUM, TID.d1vote, 3003)]);
    expect(count(tags, '/url')).toBe(2);
    expect(bb).not.toMatch(/@(?!\u200b)/);
    expect(bb).not.toContain('{:');
  });

  test('elevator floor: one link per player, to that player\'s only-author view; names cannot break it', () => {
    const floor = elevatorFloor(world.store, world.game, 1);
    const tags = tagsOf(renderElevatorBBCode(floor));
    expect(new Set(tags.map((t) => t.tag))).toEqual(new Set(['b', '/b', 'url', '/url']));
    expect(tags.filter((t) => t.tag === 'url').map((t) => t.arg)).toEqual(PLAYERS.map((p) => authorOnlyUrl(FORUM, TID.d1talk, world.uids[p])));
    expect(count(tags, '/url')).toBe(PLAYERS.length);
    // each line still reads as the player's name
    const lines = renderElevatorBBCode(floor).trim().split('\n').slice(1).map((l) => l.replace(/^\d+\. \[url=[^\]]*\]|\[\/url\]$/g, '').replaceAll('\u200b', ''));
    expect(lines).toEqual(PLAYERS);
  });

  // Was a bug (src/render/elevator-bbcode.ts neutraliseBBCode): the elevator guarded [ and ] but not "@" or "{:",
  // so "@全体成员" posted as an @mention and "{:1_1:}" as a smiley. It now uses the shared escapeBBCode.
  test('the elevator floor leaves no @mention or {: smiley code live', () => {
    const bb = renderElevatorBBCode(elevatorFloor(world.store, world.game, 1));
    expect(bb).not.toMatch(/@(?!\u200b)/);
    expect(bb).not.toContain('{:');
  });

  // Was a bug (escapeBBCode): Discuz's parseurl() turns bare URLs into links when the director posts
  // (unless 禁用 URL 识别 is ticked), so a target written as "http://evil.example/phish" became a live link.
  test('a bare URL written by a player does not become a link when the announcement is posted', () => {
    const w = buildWorld({ players: [N.plain, N.plain2], threads: { [TID.d1vote]: [{ pid: 4001, author: N.plain, at: at(0), body: '投票对象：http://evil.example/phish\n投票理由：www.evil.example' }] } });
    const t = tallyDay(w.game, postsFromStore(w.store), 1);
    expect(t.ballots.map((b) => b.target)).toEqual(['http://evil.example/phish']); // it is in the output…
    expect(bareUrls(renderTallyBBCode(t))).toEqual([]);
  });
});
