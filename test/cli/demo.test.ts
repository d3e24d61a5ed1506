import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDemo } from '../../src/cli/commands/demo.js';
import { loadGame } from '../../src/game/game-file.js';

const TMP = path.resolve(import.meta.dirname, '../.tmp');
const hasChromium = fs.existsSync(process.env.BANSHA_CHROMIUM ?? '/usr/bin/chromium');

describe('bansha demo', () => {
  it.skipIf(!hasChromium)('public: logs in through the replay server in Chromium, crawls, tallies, writes the floor and the HTML reports', async () => {
    const out = path.join(TMP, 'demo-public');
    const r = await runDemo({ preset: 'public', out });
    expect(r.login).toBe('browser');
    const game = loadGame(r.gameFile);
    expect(game.forum).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    for (const d of game.days) {
      expect(fs.readFileSync(path.join(out, `report-day${d.day}.html`), 'utf8')).toContain('<svg');
      expect(fs.readFileSync(path.join(out, `tally-day${d.day}.txt`), 'utf8')).toContain(`Day ${d.day}`);
    }
    // the floor links to the replay server's only-author views
    expect(fs.readFileSync(path.join(out, 'elevator-day2.txt'), 'utf8')).toContain(`${game.forum}forum.php?mod=viewthread&tid=4&page=1&authorid=`);
    // the day-2 result matches the game file's vote-out
    const votedOut = game.events.find((e) => e.how === 'vote')!.player;
    expect(r.summary.join('\n')).toContain(`day 2: out ${votedOut}`);
    for (const f of r.files) expect(fs.existsSync(f.path), f.path).toBe(true);
  });

  it.each(['wuhui', '120b'] as const)('%s: runs end to end over plain HTTP', async (preset) => {
    const out = path.join(TMP, `demo-${preset}`);
    const r = await runDemo({ preset, out, browser: false });
    expect(r.login).toBe('http');
    const text = r.summary.join('\n');
    if (preset === 'wuhui') {
      expect(text).toContain('day 1: duel rule 规则3');
      expect(text).toMatch(/day 1: auction .*3号 阿狸 20G/);
      expect(text).toContain('day 1 duels: 阿狸–白泽');
      expect(fs.readFileSync(path.join(out, 'auction-day2.txt'), 'utf8')).toContain('金蝉 被投票出局：47G');
    } else {
      expect(text).toContain('day 1: no public vote');
      expect(text).toContain('仲裁者 range from 雷电: 雷电、马里奥');
      expect(fs.readFileSync(path.join(out, 'report-day1.html'), 'utf8')).toContain('filler');
    }
  });
});
