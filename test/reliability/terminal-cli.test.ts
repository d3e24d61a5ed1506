/**
 * No raw ESC or control character reaches stdout, whatever a player wrote (issue 8, hostile content):
 * the hostile game of test/reliability/world.ts — ballots and posts carrying CSI/OSC escape sequences,
 * backspace, bell and a bidi override — written to disk and every command that prints player text run
 * through the real CLI (the director runs these in a terminal, including the --bbcode views they copy).
 *
 * FIXED lists the commands that leaked when this review ran (pinned then as KNOWN BUG) with the place
 * the fix went: each is a plain test now, like the ones that were always clean.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { renderThreadPageHtml } from '../../src/replay/synth.js';
import { bansha } from '../helpers/cli.js';
import { buildWorld, FORUM, TID, writeWorld, type WorldPost } from './world.js';

/** C0 controls except \n, DEL, C1 controls, bidi overrides/embeddings/isolates. */
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
const ESC = '\u001b[2J\u001b[31m红\u001b[0m\u001b]8;;http://evil.example/\u0007链接\u001b]8;;\u0007\u0008\u0007';
const PLAYERS = ['饺子', '包子', '馒头', '烧卖'];

const at = (m: number) => `2026-11-20 12:${String(m).padStart(2, '0')}:00`;
const VOTES: WorldPost[] = [
  { pid: 5001, author: '饺子', at: at(0), body: `投票对象：包子\n投票理由：${ESC}` },
  { pid: 5002, author: '包子', at: at(1), body: `投票对象：${ESC}\n投票理由：乱码` },
  { pid: 5003, author: '馒头', at: at(2), body: `投票对象：饺子\u202e\n投票理由：右到左` },
];
const TALK: WorldPost[] = PLAYERS.map((p, i) => ({ pid: 5100 + i, author: p, at: at(10 + i), body: i === 0 ? `我发誓 ${ESC}` : `[color=red]${ESC}[/color] ${p}` }));

let dir: string;
let game: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bansha-terminal-'));
  const world = buildWorld({ players: PLAYERS, threads: { [TID.d1vote]: VOTES, [TID.d1talk]: TALK } }, path.join(dir, 'game.yaml'));
  game = writeWorld(world, dir);
  // a saved page for `bansha parse`, with its manifest entry (the command reads the URL from it)
  const html = renderThreadPageHtml({ family: 'utf8', tid: TID.d1vote, title: '投票', base: FORUM, posts: VOTES.map((v, i) => ({ ...v, uid: 100 + i })) }, 1);
  fs.writeFileSync(path.join(dir, 'vote.html'), html);
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify([{ file: 'vote.html', url: `${FORUM}forum.php?mod=viewthread&tid=${TID.d1vote}&page=1`, status: 200, content_type: 'text/html; charset=utf-8' }]));
  fs.writeFileSync(path.join(dir, 'lastwords.txt'), `我是好人 ${ESC} [b]再见[/b]`);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function stdoutOf(args: string[]): Promise<string> {
  const r = await bansha(args);
  expect(r.code === 0 || (args[0] === 'lastwords' && r.code === 1), r.out).toBe(true);
  return r.stdout;
}

const CLEAN: Array<[string, string[]]> = [
  ['report (terminal)', ['report', '--day', '1', '--no-ledger']],
  ['elevator', ['elevator', '--day', '1']],
  ['lastwords', ['lastwords']],
];
/** JSON views: JSON.stringify escapes every C0 control (ESC included); bidi characters stay, as data. */
const JSON_VIEWS: Array<[string, string[]]> = [
  ['report --json', ['report', '--day', '1', '--json', '--no-ledger']],
  ['tally --json', ['tally', '--day', '1', '--json']],
  ['parse --json', ['parse', '--json']],
];
const FIXED: Array<[string, string[], string]> = [
  ['tally (terminal)', ['tally', '--day', '1'], 'src/render/tally-terminal.ts: terminalSafe() on targets, reasons, edits, names'],
  ['tally --bbcode', ['tally', '--day', '1', '--bbcode'], 'src/text/safe-text.ts escapeBBCode(): control characters removed'],
  ['report --markdown', ['report', '--day', '1', '--markdown', '--no-ledger'], 'src/render/report-markdown.ts: escapeMarkdown() is terminal-safe'],
  ['parse (table)', ['parse'], 'src/cli/commands/parse.ts pageTable(): post text through terminalSafe()'],
];

function argv(args: string[]): string[] {
  if (args[0] === 'parse') return [...args, path.join(dir, 'vote.html'), '--fetched-at', '2026-11-23T00:00:00Z'];
  if (args[0] === 'lastwords') return [...args, path.join(dir, 'lastwords.txt')];
  return [...args.slice(0, 1), '--game', game, ...args.slice(1)];
}

describe('no raw control character reaches stdout', () => {
  test.each(CLEAN)('%s', async (_name, args) => {
    const out = await stdoutOf(argv(args));
    expect(out.length).toBeGreaterThan(0);
    expect(out).not.toMatch(UNSAFE);
  });

  test.each(JSON_VIEWS)('%s (JSON-escaped)', async (_name, args) => {
    const out = await stdoutOf(argv(args));
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(out).toContain('\\u001b'); // the escape sequence is there, inert
  });

  // Were KNOWN BUGS (they printed player text without stripping control characters): fixed.
  test.each(FIXED)('%s (fixed in %s)', async (_name, args) => {
    const out = await stdoutOf(argv(args));
    expect(out.length).toBeGreaterThan(0);
    expect(out).not.toMatch(UNSAFE);
  });
});
