import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_DEMO_OUT, DEMO_CRAWL_DELAY_MS, register, runDemo } from '../../src/cli/commands/demo.js';
import { loadGame } from '../../src/game/game-file.js';
import { readLedger } from '../../src/cards/ledger.js';
import { defaultCloseDir } from '../../src/close/index.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TMP = path.resolve(import.meta.dirname, '../.tmp');
const hasChromium = fs.existsSync(process.env.BANSHA_CHROMIUM ?? '/usr/bin/chromium');

/** Every file under `dir` with its modification time. */
function tree(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) {
      const p = path.join(e.parentPath, e.name);
      out.set(p, fs.statSync(p).mtimeMs);
    }
  }
  return out;
}

describe('bansha demo', () => {
  it.skipIf(!hasChromium)('public: logs in in Chromium, crawls, closes each day as `bansha close` does (ledger in the output dir, floor, HTML) — quickly, touching nothing else', async () => {
    const out = path.join(TMP, 'demo-public');
    const fixturesBefore = tree(path.join(ROOT, 'fixtures'));
    const r = await runDemo({ preset: 'public', out });
    expect(r.login).toBe('browser');
    expect(r.elapsedMs).toBeLessThan(20_000);
    const game = loadGame(r.gameFile);
    expect(game.forum).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(r.forum).toBe(game.forum);

    // Everything it wrote is in the output directory; the fixtures are untouched.
    for (const f of r.files) {
      expect(fs.existsSync(f.path), f.path).toBe(true);
      expect(f.path.startsWith(`${out}${path.sep}`), f.path).toBe(true);
    }
    expect(tree(path.join(ROOT, 'fixtures'))).toEqual(fixturesBefore);

    const text = r.summary.join('\n');
    expect(text).toContain(`请求间隔 ${DEMO_CRAWL_DELAY_MS} 毫秒`);
    expect(text).toMatch(/抓取：\d+ 个帖子，\d+ 页，\d+ 次请求，全部完整/);
    for (const d of r.days) {
      const day = game.days.find((x) => x.day === d.day)!;
      // Each day is `bansha close --day N`: its folder beside the game file, its summary printed whole.
      expect(d.close.out).toBe(defaultCloseDir(r.gameFile, d.day));
      expect(text).toContain(d.close.summary.join('\n'));
      const html = fs.readFileSync(path.join(d.close.out, `report-day${d.day}.html`), 'utf8');
      expect(html).toContain('<svg');
      expect(html).toContain('<table class="activity">');
      expect((html.match(/<tr class="warn">/g) ?? []).length).toBe(new Set(d.report.flags.filter((f) => ['few-posts', 'low-streak', 'no-ballot'].includes(f.kind)).map((f) => f.player)).size);
      expect(fs.readFileSync(path.join(d.close.out, `tally-day${d.day}.txt`), 'utf8')).toContain(`第 ${d.day} 日`);
      expect(fs.readFileSync(path.join(d.close.out, `report-day${d.day}.txt`), 'utf8')).toContain(`第 ${d.day} 日报告`);
      // the report's acceleration is the tally's
      expect(d.report.accelerated).toBe(d.tally!.accelerated);
      expect(d.report.opens).toBe(day.opens);
      // lurkers named in the summary are the report's few-posts flags
      const few = d.report.flags.filter((f) => f.kind === 'few-posts').map((f) => f.player);
      expect(few.length).toBeGreaterThan(0);
      expect(text).toContain(`第 ${d.day} 日：潜水 —— 不足 ${game.rules.lurking.minPostsPerDay} 帖：${few.join('、')}`);
    }
    // The proposed cards went into the ledger beside the demo's game file, with ids shown in the reports.
    expect(r.ledgerPath).toBe(path.join(out, 'game.cards.json'));
    const ledger = readLedger(game, r.ledgerPath);
    expect(ledger.cards.length).toBe(r.days.reduce((n, d) => n + d.report.cards.length, 0));
    expect(r.days.every((d) => d.report.cards.every((c) => c.id !== null))).toBe(true);

    // the floor links to the replay server's only-author views
    expect(fs.readFileSync(path.join(out, 'game-day1', 'elevator-day2.bbcode.txt'), 'utf8')).toContain(`${game.forum}forum.php?mod=viewthread&tid=4&page=1&authorid=`);
    // day 1 elects the sheriff; the day-2 result matches the game file's vote-out
    expect(text).toContain(`第 1 日：警长 ${r.days[1].tally!.sheriff}`);
    const votedOut = game.events.find((e) => e.how === 'vote')!.player;
    expect(text).toContain(`第 2 日：出局 ${votedOut}`);
  });

  it('a second run into the same directory starts afresh (no stale store, session or ledger)', async () => {
    const out = path.join(TMP, 'demo-public-twice');
    const first = await runDemo({ preset: 'public', out, browser: false });
    const second = await runDemo({ preset: 'public', out, browser: false });
    expect(second.login).toBe('http');
    const game = loadGame(second.gameFile);
    expect(readLedger(game, second.ledgerPath).cards.map((c) => c.id)).toEqual(readLedger(game, first.ledgerPath).cards.map((c) => c.id));
    expect(second.summary.find((s) => s.startsWith('crawl:'))).toBe(first.summary.find((s) => s.startsWith('crawl:')));
  });

  it('the command prints the summary and where it wrote; the default output dir is git-ignored', async () => {
    const out = path.join(TMP, 'demo-cli');
    const program = new Command().exitOverride();
    register(program);
    let stdout = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((stdout += String(s)), true));
    try {
      await program.parseAsync(['node', 'bansha', 'demo', '--no-browser', '--out', out]);
    } finally {
      vi.restoreAllMocks();
    }
    expect(stdout).toContain(`已写入 ${out}：`);
    expect(stdout).toContain(`${path.join(out, 'game-day2')}${path.sep}`);
    expect(stdout).toContain('第 2 日：出局 月饼');
    expect(stdout).toMatch(/用时 \d+\.\d 秒/);
    expect(fs.readFileSync(path.join(ROOT, '.gitignore'), 'utf8').split('\n')).toContain(`${DEFAULT_DEMO_OUT}/`);
  });

  /** Runs a preset demo and checks what its game decides (the same with either login). */
  async function presetDemo(preset: 'wuhui' | '120b', browser: boolean) {
    const out = path.join(TMP, `demo-${preset}${browser ? '-browser' : ''}`);
    const r = await runDemo({ preset, out, browser });
    expect(r.login).toBe(browser ? 'browser' : 'http');
    const text = r.summary.join('\n');
    expect(text).toContain(`登录：导演A，经论坛登录表单（${browser ? 'Chromium' : '普通 HTTP 表单'}）`);
    expect(text).toMatch(/抓取：\d+ 个帖子，\d+ 页，\d+ 次请求，全部完整/);
    if (preset === 'wuhui') {
      expect(text).toContain('第 1 日：对战规则 规则3');
      expect(text).toMatch(/第 1 日：拍卖 .*3号 阿狸 20G/);
      expect(text).toContain('第 1 日对战：阿狸–白泽');
      expect(fs.readFileSync(path.join(out, 'game-day2', 'auction-day2.txt'), 'utf8')).toContain('金蝉 被投票出局：47G');
    } else {
      expect(text).toContain('第 1 日：无公开投票');
      expect(text).toContain('仲裁者范围（从 雷电 起）：雷电、马里奥');
      expect(fs.readFileSync(path.join(out, 'game-day1', 'report-day1.html'), 'utf8')).toContain('水帖');
    }
    for (const d of r.days) expect(fs.existsSync(path.join(d.close.out, `report-day${d.day}.html`))).toBe(true);
    return r;
  }

  it.each(['wuhui', '120b'] as const)('%s: runs end to end over plain HTTP', async (preset) => {
    await presetDemo(preset, false);
  });

  // The browser login checks forum.php, which the replay server answers with the demo site's board listing.
  it.skipIf(!hasChromium).each(['wuhui', '120b'] as const)('%s: logs in in Chromium and runs end to end', async (preset) => {
    const r = await presetDemo(preset, true);
    expect(r.elapsedMs).toBeLessThan(20_000);
  });
});
