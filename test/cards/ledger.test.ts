/**
 * The card ledger: proposals from the public game's day reports, the director's decisions, upgrades
 * (3 blue → yellow, 3 yellow → red = 罚下), repeats, and the CLI round trip on a store file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { describe, expect, test } from 'vitest';
import { decide, emptyLedger, ledgerPath, mergeProposals, readLedger, writeLedger } from '../../src/cards/ledger.js';
import { standings, standingText, upgradesText } from '../../src/cards/standing.js';
import type { CardProposal, Ledger } from '../../src/cards/types.js';
import { register as registerCards } from '../../src/cli/commands/cards.js';
import { register as registerReport } from '../../src/cli/commands/report.js';
import { buildDayReport } from '../../src/report/day-report.js';
import { renderDayReportBBCode } from '../../src/render/report-bbcode.js';
import { dayReportJson } from '../../src/render/report-json.js';
import { renderDayReportMarkdown } from '../../src/render/report-markdown.js';
import { renderDayReportTerminal } from '../../src/render/report-terminal.js';
import { FIXTURES, publicGame } from '../helpers/captured.js';
import { pidOf, postsByThread, publicStore } from '../activity/captured.js';
import { withLanguage } from '../../src/i18n/index.js';

const game = publicGame();
const posts = postsByThread(publicStore(), [2, 3, 4, 5, 6, 7]);
const now = new Date('2026-11-23T00:00:00Z');

function proposalsOf(day: number, ledger: Ledger | null): CardProposal[] {
  const r = buildDayReport(game, posts, day, { accelerated: false, ledger });
  return r.cards.filter((c) => c.status === 'proposed').map((c) => ({ day, player: c.player, color: c.color, kind: c.kind, kinds: c.kinds, reason: c.reason, evidence: c.evidence, ...(c.category ? { category: c.category } : {}) }));
}

describe('ledger', () => {
  test('merging is idempotent; decided cards keep their decision; ids are stable', () => {
    const first = mergeProposals(emptyLedger(game), proposalsOf(1, null), now);
    const again = mergeProposals(first.ledger, proposalsOf(1, first.ledger), now);
    expect(again.ledger.cards).toEqual(first.ledger.cards);
    const id = first.entries.find((e) => e.player === '花卷' && e.kind === 'red-font')!.id;
    const decided = decide(first.ledger, id, 'dismissed', now, '首次，口头提醒');
    const third = mergeProposals(decided, proposalsOf(1, decided), now);
    expect(third.ledger.cards.find((c) => c.id === id)).toMatchObject({ status: 'dismissed', note: '首次，口头提醒' });
    expect(() => decide(first.ledger, 'C999', 'confirmed', now)).toThrow(/C999/);
  });

  test('upgrades: 3 blue → 1 yellow, 3 yellow → 1 red (罚下)', () => {
    const mk = (n: number, color: 'blue' | 'yellow', day: number): CardProposal => ({ day, player: '饺子', color, kind: 'banned-wording', kinds: ['banned-wording'], category: `c${n}`, reason: 'x', evidence: [] });
    let ledger = mergeProposals(emptyLedger(game), [mk(1, 'blue', 1), mk(2, 'blue', 1), mk(3, 'blue', 2)], now).ledger;
    for (const c of ledger.cards) ledger = decide(ledger, c.id, 'confirmed', now);
    let s = standings(game, ledger).find((x) => x.player === '饺子')!;
    expect([s.blue, s.yellow, s.red, s.sentOff]).toEqual([0, 1, 0, false]);
    expect(s.upgrades).toEqual([{ from: 'blue', cards: 3, into: 1 }]);
    expect(upgradesText(s)).toBe('3 张蓝牌升级为 1 张黄牌');
    expect(withLanguage('en', () => upgradesText(s))).toBe('3 blue cards upgraded to 1 yellow');
    ledger = mergeProposals(ledger, [mk(4, 'yellow', 2), mk(5, 'yellow', 2)], now).ledger;
    for (const c of ledger.cards.filter((k) => k.status === 'proposed')) ledger = decide(ledger, c.id, 'confirmed', now);
    s = standings(game, ledger).find((x) => x.player === '饺子')!;
    expect([s.yellow, s.red, s.sentOff]).toEqual([0, 1, true]);
    expect(standingText(s)).toContain('罚下');
  });

  test('a second offence of a kind already carded proposes yellow instead of blue', () => {
    let ledger = mergeProposals(emptyLedger(game), proposalsOf(1, null), now).ledger;
    const fonts = ledger.cards.find((c) => c.player === '春卷' && c.kind === 'red-font')!;
    ledger = decide(ledger, fonts.id, 'confirmed', now);
    const enlarged1 = ledger.cards.find((c) => c.player === '饺子' && c.kind === 'enlarged-font')!;
    ledger = decide(ledger, enlarged1.id, 'confirmed', now);
    // 春卷 enlarges on day 2 (size 4): a different kind from the confirmed red font → still blue.
    const day2 = buildDayReport(game, posts, 2, { accelerated: false, ledger });
    expect(day2.cards.find((c) => c.player === '春卷' && c.kind === 'enlarged-font')!.color).toBe('blue');
    // Same kind again: pretend 饺子's day-1 enlarged card, then 月饼 has none → blue; 春卷 red twice → yellow.
    const fake: Ledger = { ...ledger, cards: [...ledger.cards, { ...enlarged1, id: 'C900', player: '月饼', kind: 'enlarged-font', status: 'confirmed' }] };
    const day2b = buildDayReport(game, posts, 2, { accelerated: false, ledger: fake });
    expect(day2b.cards.find((c) => c.player === '月饼' && c.kind === 'enlarged-font')!).toMatchObject({ color: 'yellow' });
    expect(day2b.cards.find((c) => c.player === '月饼' && c.kind === 'enlarged-font')!.directorNote).toContain('再犯');
  });

  test('a ruleset without blue cards (120b l.497) reminds first, then proposes yellow after a confirmed reminder', () => {
    const noBlue = { ...game, rules: { ...game.rules, name: '120b', cards: { ...game.rules.cards, blue: false } } };
    const day1 = buildDayReport(noBlue, posts, 1, { accelerated: false });
    const font = day1.cards.find((c) => c.player === '花卷' && c.kind === 'red-font')!;
    expect(font).toMatchObject({ color: 'reminder', kinds: ['red-font'] });
    expect(font.directorNote).toContain('先提醒');
    for (const c of day1.cards) expect(c.color, c.kind).toBe(['few-posts', 'low-streak', 'no-ballot'].includes(c.kind) ? 'yellow' : 'reminder');
    const day2 = buildDayReport(noBlue, posts, 2, { accelerated: false });
    const again = day2.cards.find((c) => c.color === 'reminder')!;
    const ledger: Ledger = { version: 1, game: game.file, cards: [{ day: 1, player: again.player, color: 'reminder', kind: again.kind, kinds: [again.kind], ...(again.category ? { category: again.category } : {}), reason: 'x', evidence: [], id: 'C1', status: 'confirmed', proposedAt: now.toISOString() }] };
    const repeat = buildDayReport(noBlue, posts, 2, { accelerated: false, ledger }).cards.find((c) => c.player === again.player && c.kind === again.kind)!;
    expect(repeat.color).toBe('yellow');
    expect(repeat.directorNote).toContain('提醒后再犯');
    expect(standings(noBlue, ledger).find((s) => s.player === again.player)!.given).toEqual({ blue: 0, yellow: 0, red: 0 });
  });

  test('written atomically beside the game file, read back equal', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-ledger-'));
    const file = ledgerPath(path.join(dir, 'g.yaml'));
    expect(file).toBe(path.join(dir, 'g.cards.json'));
    const l = mergeProposals(emptyLedger(game), proposalsOf(1, null), now).ledger;
    await writeLedger(l, file);
    expect(readLedger(game, file)).toEqual(l);
    expect(fs.readdirSync(dir)).toEqual(['g.cards.json']);
  });
});

describe('renderers escape player text for their format', () => {
  const r = buildDayReport(game, posts, 1, { accelerated: false });
  const evil = { ...r, flags: [{ ...r.flags.find((f) => f.kind === 'red-font')!, player: '[b]x|y*z\u001b[31m', snippet: '[url=http://e]a[/url] @all |x|' }] };
  evil.cards = [{ ...r.cards[0], player: '[b]x|y*z\u001b[31m', reason: '[color=Red]r[/color]', status: 'confirmed' }];
  test('JSON has exactly the documented keys', () => {
    const j = dayReportJson(r);
    expect(Object.keys(j)).toEqual(['day', 'activity', 'flags', 'cards']);
    expect(Object.keys(j.activity[0])).toEqual(['player', 'posts', 'voted', 'exempt']);
    expect(Object.keys(j.flags[0])).toEqual(['kind', 'player', 'pid', 'floor', 'at', 'snippet', 'detail', 'facts']);
    expect(Object.keys(j.cards[0])).toEqual(['player', 'color', 'kinds', 'reason', 'note', 'evidence', 'status']);
    for (const c of j.cards) expect(c.kinds.length).toBeGreaterThan(0);
    const red = j.flags.find((f) => f.pid === pidOf('d1talk-6'))!;
    expect(red.at).toBe('2026-11-20T12:48:39+08:00');
    expect(red.facts).toEqual({ kind: 'red-font', colors: [{ value: 'Red', deltaE: 0 }], maxDeltaE: 10 });
    expect(red.detail).toBe('红色字体：Red（ΔE 0.0），阈值 ΔE ≤ 10');
    expect(withLanguage('en', () => dayReportJson(r)).flags.find((f) => f.pid === red.pid)!.detail).toBe('red font: Red (ΔE 0.0), threshold ΔE ≤ 10');
  });
  test('BBCode: no tag can open; only confirmed cards are published', () => {
    const b = renderDayReportBBCode(evil);
    expect(b).not.toMatch(/\[b\]x/);
    expect(b).not.toMatch(/\[color=Red\]r/);
    expect(renderDayReportBBCode(r)).toContain('[b]判罚[/b]\n无');
  });
  test('Markdown: table cells cannot be broken', () => {
    const m = renderDayReportMarkdown(evil);
    const row = m.split('\n').find((l) => l.includes('x\\|y'))!;
    expect(row).toContain('\\[b\\]x\\|y\\*z');
  });
  test('terminal: escape sequences from players are dropped', () => {
    expect(renderDayReportTerminal(evil)).not.toContain('\u001b');
  });
});

describe('CLI: report → ledger → confirm → list', () => {
  test('round trip on a store file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-cli-'));
    const gameFile = path.join(dir, 'game.yaml');
    fs.writeFileSync(gameFile, fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8'));
    fs.writeFileSync(path.join(dir, 'game.store.json'), JSON.stringify(publicStore()));
    const out: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((s: string) => (out.push(String(s)), true)) as typeof process.stdout.write;
    const run = async (...args: string[]) => {
      const program = new Command().exitOverride();
      registerReport(program);
      registerCards(program);
      await program.parseAsync(['node', 'bansha', ...args]);
    };
    try {
      await run('report', '--game', gameFile, '--day', '1', '--json');
      const json = JSON.parse(out.join(''));
      expect(json.day).toBe(1);
      const ledger = readLedger({ file: gameFile });
      expect(ledger.cards.length).toBe(json.cards.length);
      // a rerun proposing the same cards gives the same ids and leaves the ledger file as it was
      const file = ledgerPath(gameFile);
      const stat = (f: string) => (({ ino, mtimeMs, size }) => ({ ino, mtimeMs, size }))(fs.statSync(f));
      const written = stat(file);
      out.length = 0;
      await run('report', '--game', gameFile, '--day', '1', '--json');
      expect(JSON.parse(out.join('')).cards.map((c: { id: string }) => c.id)).toEqual(json.cards.map((c: { id: string }) => c.id));
      expect(stat(file)).toEqual(written);
      const id = ledger.cards.find((c) => c.player === '月饼' && c.kind === 'no-ballot')!.id;
      out.length = 0;
      await run('cards', 'confirm', id, '--game', gameFile, '--note', '确认');
      expect(out.join('')).toContain(`${id} 已确认`);
      expect(readLedger({ file: gameFile }).cards.find((c) => c.id === id)!.status).toBe('confirmed');
      out.length = 0;
      await run('report', '--game', gameFile, '--day', '1', '--bbcode');
      expect(out.join('')).toMatch(/月饼：黄牌/);
      out.length = 0;
      await run('cards', 'list', '--game', gameFile);
      expect(out.join('')).toContain('月饼: 黄牌 1');
    } finally {
      process.stdout.write = write;
    }
  });
});
