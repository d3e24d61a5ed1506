/**
 * Every command a director runs, through the real CLI against the captured public game served by the
 * replay server: the default output (stdout and stderr) is Chinese — no English word is left apart
 * from names that stay as they are (bansha, Discuz, BBCode, pid, URLs, paths, options…) — and
 * `--lang en` / LANG=en_US.UTF-8 switch the same commands to English.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { saveSession } from '../../src/crawl/session.js';
import { startReplayServer, type ReplayServer } from '../../src/replay/index.js';
import { bansha, type CliRun } from '../helpers/cli.js';
import { DISCUZ, FIXTURES } from '../helpers/captured.js';
import { englishLeft, playerContent } from '../helpers/language.js';

const TMP = path.resolve(import.meta.dirname, '../.tmp/i18n');
const ZH = { LANG: 'zh_CN.UTF-8', LC_ALL: '', LC_MESSAGES: '' };

/**
 * Text that is Chinese in every language because it is the forum's: what bansha posts (the BBCode of
 * the announcement and the elevator floor, and the announcement's own mark, which it reads back), the
 * rule posts it quotes (the Discuz! code rule of last words), and the auction's public sentence of a
 * tie (src/auction/reasons.ts tieText, which no JSON field holds).
 */
const PUBLIC_TEXT = /\[\/?(b|s|url)\b|^bansha 计票 · |\(遗言中禁止使用Discuz!代码\)|也出价 \d+G，\S+ 先叫价（无回之城 拍卖：/;
/** The pieces of Chinese in a line, split where punctuation or other text breaks them. */
function chinesePieces(line: string): string[] {
  // A gloss of a term in brackets, as the English catalogue writes one (out (投票出局)), is not a leftover.
  return line.replace(/\([\u3400-\u9fff]+\)/g, ' ').match(/[\u3400-\u9fff]+/g) ?? [];
}

/**
 * Text bansha wrote for the forum (Chinese in every language): every BBCode file under `dirs` and the
 * reasons in the games' card ledgers, as lines.
 */
function publicText(dirs: readonly string[], games: readonly string[]): Set<string> {
  const out = new Set<string>();
  const files = dirs.flatMap((d) => (fs.existsSync(d) ? fs.readdirSync(d, { recursive: true, encoding: 'utf8' }).map((f) => path.join(d, f)) : []));
  for (const f of files.filter((x) => x.endsWith('.bbcode.txt'))) for (const l of fs.readFileSync(f, 'utf8').split('\n')) out.add(l);
  for (const g of games) {
    const ledger = g.replace(/\.ya?ml$/, '.cards.json');
    if (fs.existsSync(ledger)) for (const c of (JSON.parse(fs.readFileSync(ledger, 'utf8')) as { cards: Array<{ reason: string }> }).cards) out.add(c.reason);
  }
  return out;
}

/** The public sentences (`reason`, `rule`) anywhere in a tally's or auction's JSON, added to `out`. */
function publicSentences(v: unknown, out: Set<string>): void {
  if (Array.isArray(v)) for (const x of v) publicSentences(x, out);
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if ((k === 'reason' || k === 'rule') && typeof x === 'string') out.add(x);
      else publicSentences(x, out);
    }
  }
}

let server: ReplayServer;
let game: string;
let session: string;

beforeAll(async () => {
  fs.rmSync(TMP, { recursive: true, force: true });
  fs.mkdirSync(TMP, { recursive: true });
  server = await startReplayServer();
  game = path.join(TMP, 'game.yaml');
  const template = fs.readFileSync(path.join(FIXTURES, 'games', 'public.yaml'), 'utf8');
  fs.writeFileSync(game, template.replace(/^forum: .*$/m, `forum: ${server.url}`));
  session = path.join(TMP, 'game.session.json');
  await saveSession(session, server.sessionState());
  fs.writeFileSync(path.join(TMP, 'lastwords.txt'), '我是好人。\n[b]投我的都是狼[/b]\n');
});
afterAll(async () => server?.close());

/**
 * The director's commands in the order of a closing time, each with the exit code it should give;
 * `tag` names the output folders apart, so a second run in another language writes its own.
 */
function closingTime(tag = ''): Array<{ args: string[]; code?: number; env?: Record<string, string> }> {
  const wuhui = path.join(TMP, `demo-wuhui${tag}`);
  return [
    { args: ['login', '-g', game], env: { BANSHA_USERNAME: '导演A', BANSHA_PASSWORD: 'lab123456' } },
    { args: ['crawl', '-g', game, '--delay-ms', '0', '--no-progress'] },
    { args: ['tally', '-g', game, '--day', '1'] },
    { args: ['tally', '-g', game, '--day', '2'] },
    { args: ['tally', '-g', game, '--day', '2', '--post'] },
    { args: ['report', '-g', game, '--day', '2'] },
    { args: ['report', '-g', game, '--day', '2', '--html', '--out', path.join(TMP, `day2${tag}.html`)] },
    { args: ['cards', 'list', '-g', game] },
    { args: ['cards', 'confirm', 'C1', '-g', game] },
    { args: ['elevator', '-g', game, '--day', '2'] },
    { args: ['close', '-g', game, '--day', '2', '--no-crawl', '--out', path.join(TMP, `close-day2${tag}`)] },
    { args: ['close', '-g', game, '--day', '1', '--out', path.join(TMP, `close-day1${tag}`)] },
    { args: ['rule', 'list', '-g', game] },
    { args: ['rule', 'accept', '999999999', '-g', game, '--day', '2', '--why', '测试'], code: 2 },
    { args: ['rule', 'reject', 'C99', '-g', game, '--why', '测试'], code: 2 },
    { args: ['rule', 'undo', '-g', game], code: 2 },
    { args: ['elevator', '-g', game, '--day', '2', '--post', 'edit'] },
    { args: ['watch', '-g', game, '--day', '2'] },
    { args: ['parse', path.join(DISCUZ, 'public', 'viewthread-t2-p1.html')] },
    { args: ['lastwords', path.join(TMP, 'lastwords.txt')], code: 1 },
    { args: ['init', '--board', `${server.url}forum.php?mod=forumdisplay&fid=3`, '--session', session, '--out', path.join(TMP, `draft${tag}.yaml`)] },
    { args: ['demo', '--no-browser', '--out', path.join(TMP, `demo${tag}`)] },
    { args: ['demo', '--preset', 'wuhui', '--no-browser', '--out', wuhui] },
    { args: ['auction', '-g', path.join(wuhui, 'game.yaml'), '--day', '1'] },
    { args: ['tally', '-g', path.join(wuhui, 'game.yaml'), '--day', '1', '--rules'] },
    { args: ['tally', '-g', game] , code: 2 },
    { args: ['tally', '-g', game, '--day', '9'], code: 2 },
    { args: ['report', '-g', game, '--day', '2', '--json', '--bbcode'], code: 2 },
    { args: ['crawl', '-g', game, '--bogus'], code: 2 },
  ];
}

describe('the default language is Chinese', () => {
  test('every command of a closing time prints no English', async () => {
    const runs: Array<{ args: string[]; run: CliRun }> = [];
    for (const c of closingTime()) {
      const run = await bansha(c.args, { ...ZH, ...c.env });
      expect({ args: c.args, code: run.code, out: run.out }).toMatchObject({ args: c.args, code: c.code ?? 0 });
      runs.push({ args: c.args, run });
    }
    const left = runs.map((r) => ({ args: r.args.slice(0, 2).join(' '), english: englishLeft(r.run.out) })).filter((r) => r.english.length);
    expect(left).toEqual([]);
  });

  test('every command\'s --help is Chinese, with examples', async () => {
    const names = ['demo', 'init', 'login', 'crawl', 'watch', 'parse', 'tally', 'report', 'cards', 'cards list', 'cards confirm', 'elevator', 'auction', 'lastwords', 'store', 'store check', 'close', 'rule', 'rule accept', 'rule list', 'rule undo'];
    const main = await bansha(['--help'], ZH);
    expect(main.code).toBe(0);
    expect(englishLeft(main.out)).toEqual([]);
    for (const name of names) {
      const r = await bansha([...name.split(' '), '--help'], ZH);
      expect(r.code).toBe(0);
      expect(r.out).toContain('用法：');
      expect(r.out).toContain('示例：');
      expect({ name, english: englishLeft(r.out) }).toEqual({ name, english: [] });
    }
  });

  test('with --lang en, no Chinese is left but what players and the forum wrote', async () => {
    const EN = { LANG: 'en_US.UTF-8', LC_ALL: '', LC_MESSAGES: '' };
    const left: Array<{ args: string; line: string }> = [];
    const runs: Array<{ args: string[]; out: string }> = [];
    for (const c of closingTime('-en')) {
      const run = await bansha(c.args, { ...EN, ...c.env });
      expect({ args: c.args, code: run.code, out: run.out }).toMatchObject({ args: c.args, code: c.code ?? 0 });
      runs.push({ args: c.args, out: run.out });
    }
    // What the players and the forum wrote (names, titles, post text) is read only now: the runs stored it;
    // and what bansha posts for them, which is Chinese in every language: the BBCode the closings wrote and
    // the cards' reasons (public once confirmed).
    const wuhui = path.join(TMP, 'demo-wuhui-en', 'game.yaml');
    const games = [path.join(TMP, 'game.yaml'), wuhui, path.join(TMP, 'demo-en', 'game.yaml')];
    const posted = publicText(['close-day1-en', 'close-day2-en', 'demo-en', 'demo-wuhui-en'].map((d) => path.join(TMP, d)), games);
    // The public sentences of every ballot, result and bid, also those no BBCode shows (a superseded ballot).
    for (const args of [['tally', '-g', game, '--day', '1'], ['tally', '-g', game, '--day', '2'], ['tally', '-g', wuhui, '--day', '1', '--rules'], ['auction', '-g', wuhui, '--day', '1']]) {
      const json = await bansha([...args, '--json'], EN);
      expect(json.code).toBe(0);
      publicSentences(JSON.parse(json.stdout), posted);
    }
    const content = [...playerContent(games), ...posted];
    for (const r of runs) {
      for (const line of r.out.split('\n')) {
        if (PUBLIC_TEXT.test(line)) continue;
        // Each piece of Chinese must be one of the game's (a quoted word, a name, a cut snippet) or posted text.
        if (chinesePieces(line).some((p) => !content.some((c) => c.includes(p)))) left.push({ args: r.args.slice(0, 2).join(' '), line });
      }
    }
    expect(left).toEqual([]);
  });

  test('--lang en and LANG=en_US.UTF-8 give English', async () => {
    const a = await bansha(['tally', '-g', game, '--day', '2', '--lang', 'en'], ZH);
    expect(a.out).toContain('Totals');
    expect(a.out).toContain('Result:');
    const b = await bansha(['tally', '-g', game, '--day', '2'], { LANG: 'en_US.UTF-8', LC_ALL: '', LC_MESSAGES: '' });
    expect(b.out).toBe(a.out);
    const help = await bansha(['report', '--help'], { LANG: 'en_US.UTF-8', LC_ALL: '', LC_MESSAGES: '' });
    expect(help.out).toContain('Usage:');
    expect(help.out).toContain('Examples:');
  });
});
