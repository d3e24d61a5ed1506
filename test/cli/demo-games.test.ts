import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoSiteDir, demoSiteFiles, demoSites } from '../../src/demo/synth-games.js';
import { loadGame } from '../../src/game/game-file.js';
import { parsePage } from '../../src/discuz/index.js';
import { applyPage, emptyStore } from '../../src/store/index.js';
import { tallyDay, postsFromStore } from '../../src/votes/tally.js';
import { resolveAuction } from '../../src/auction/index.js';
import { threadPosts } from '../../src/store/slice.js';
import { arbiterRange, duelPairs, elevatorFloor } from '../../src/elevator/index.js';
import { FIXTURES } from '../auction/synth-store.js';

/** The committed demo site, parsed and stored as a crawl would. */
function storeOf(name: 'wuhui' | '120b') {
  const dir = demoSiteDir(name);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Array<{ file: string; url: string; content_type: string }>;
  const data = emptyStore('http://127.0.0.1:8081/');
  for (const m of manifest.filter((e) => e.file.startsWith('viewthread-'))) {
    const fetched = { bytes: new Uint8Array(fs.readFileSync(path.join(dir, m.file))), url: data.forum + m.url, fetchedAt: new Date('2027-01-01T00:00:00Z'), status: 200, contentType: m.content_type };
    applyPage(data, fetched, parsePage(fetched));
  }
  return data;
}

describe('demo sites', () => {
  it.each(['wuhui', '120b'] as const)('the committed %s pages are exactly what the generator renders', (name) => {
    const dir = demoSiteDir(name);
    for (const [file, body] of demoSiteFiles(demoSites[name]())) {
      const want = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
      expect(fs.readFileSync(path.join(dir, file)).equals(want), `${file} (regenerate with writeDemoSite)`).toBe(true);
    }
  });

  it('wuhui: the real parser reads every synthesised post, and the presets\' rules decide the days', () => {
    const game = loadGame(path.join(FIXTURES, 'games', 'wuhui.yaml'));
    const site = demoSites.wuhui();
    const data = storeOf('wuhui');
    for (const t of site.threads) expect(threadPosts(data, t.tid).map((p) => p.text)).toEqual(t.posts.map((p) => p.body));

    const posts = postsFromStore(data);
    expect(tallyDay(game, posts, 1).result.name).toBe('白泽');
    expect(tallyDay(game, posts, 1, { rules: true }).result.name).toBe('规则3');
    // day 2: 规则3 was used on day 1; 规则1 and 规则6 tie and the sheriff (白泽) voted 规则6
    const rules2 = tallyDay(game, posts, 2, { rules: true });
    expect(rules2.result.name).toBe('规则6');
    expect(rules2.ballots.find((b) => b.voter === '阿狸')!.status).toBe('rejected');
    // day 2 elimination: 饿虎 and 金蝉 tie; the sheriff's choice goes out — matching the game file's event
    const vote2 = tallyDay(game, posts, 2);
    expect(vote2.result.tie.sort()).toEqual(['金蝉', '饿虎'].sort());
    expect(vote2.result.name).toBe(game.events.find((e) => e.how === 'vote')!.player);

    const a1 = resolveAuction(threadPosts(data, 23), game, 1);
    expect(a1.items.find((i) => i.item === 3)!.winner).toBe('阿狸');
    expect(a1.items.find((i) => i.item === 6)!.winner).toBe('饿虎'); // 10G + a 35G pledge covers 40G
    expect(a1.items.find((i) => i.item === 4)!.bids.map((b) => b.status)).toEqual(['winning', 'rejected']); // 金蝉 at 21:00 is late

    expect(duelPairs(game, 1)).toHaveLength(game.players.length / 2);
    expect(elevatorFloor(data, game, 2).entries).toHaveLength(game.players.length);
  });

  it('120b: no public vote, and the 仲裁者 range walks the ring of the living', () => {
    const game = loadGame(path.join(FIXTURES, 'games', '120b.yaml'));
    const data = storeOf('120b');
    const t = tallyDay(game, postsFromStore(data), 1);
    expect(t.kind).toBe('none');
    const range = arbiterRange(game, 2, '雷电');
    expect(range).toEqual(['雷电', '马里奥']); // ⌈11/6⌉ = 2, head and tail joined
    expect(elevatorFloor(data, game, 2).bbcode).toContain('[s]卡比[/s] (出局)');
  });
});
