/**
 * A flag's detail line in each audience's language, on the public captured game's real flags: the
 * director's (--lang en) has no Chinese but what the players wrote; the public one (card reasons) is
 * Chinese whatever the director's language; both come from the same facts. And the director's notes
 * (a day report's, the game file's disagreements with the results) in the director's language.
 */
import { describe, expect, test } from 'vitest';
import { withLanguage } from '../../src/i18n/index.js';
import { buildDayReport } from '../../src/report/day-report.js';
import { dayReportJson } from '../../src/render/report-json.js';
import { htmlDayInput } from '../../src/render/html-day.js';
import { escapeMarkdown, renderDayReportMarkdown } from '../../src/render/report-markdown.js';
import { flagDetail, publicFlagDetail } from '../../src/violations/details.js';
import type { Flag } from '../../src/violations/flag.js';
import { violationFlags } from '../../src/violations/scan.js';
import { loadWordLists } from '../../src/violations/word-lists.js';
import { pidOf, postsByThread, publicStore } from '../activity/captured.js';
import { publicGame } from '../helpers/captured.js';
import { chineseLeft } from '../helpers/language.js';
import { exitDisagreements } from '../../src/votes/carry-forward.js';

const game = publicGame();
const posts = postsByThread(publicStore(), [2, 3, 4, 5, 6, 7]);
const reports = [1, 2].map((day) => buildDayReport(game, posts, day, { accelerated: { 1: false, 2: false } }));

/** What the players wrote that a flag's facts quote: every string in them but the category's name. */
function quoted(f: Flag): string[] {
  const out: string[] = [f.player];
  const walk = (v: unknown, key = ''): void => {
    if (typeof v === 'string' && key !== 'category') out.push(v);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, Array.isArray(v) ? key : k);
  };
  walk(f.facts);
  return out;
}

describe('flag details per audience', () => {
  const flags = reports.flatMap((r) => r.flags);

  test('the game has flags of many kinds to check', () => {
    expect(new Set(flags.map((f) => f.kind)).size).toBeGreaterThanOrEqual(7);
  });

  test('in English no Chinese is left but the players\' own words', () => {
    for (const f of flags) {
      const en = withLanguage('en', () => flagDetail(f, game.timezone));
      expect({ kind: f.kind, en, left: chineseLeft(en.replace(/[“”]/g, ' '), quoted(f)) }).toEqual({ kind: f.kind, en, left: [] });
    }
  });

  test('in Chinese by default, and the card reasons are Chinese in an English run too', () => {
    for (const f of flags) expect(flagDetail(f, game.timezone)).toBe(publicFlagDetail(f, game.timezone));
    const inEnglish = withLanguage('en', () => buildDayReport(game, posts, 1, { accelerated: { 1: false, 2: false } }));
    expect(inEnglish.cards.map((c) => c.reason)).toEqual(reports[0].cards.map((c) => c.reason));
    const few = reports[0].cards.find((c) => c.kind === 'few-posts')!;
    expect(few.reason).toMatch(/^潜水（发言不足）；潜水：第1日发言 \d+ 帖，未加速的讨论日不足5帖$/);
  });

  test('--json: detail in the director\'s language, facts the same in both, times as ISO', () => {
    const zh = dayReportJson(reports[1]);
    const en = withLanguage('en', () => dayReportJson(reports[1]));
    expect(en.flags.map((f) => f.facts)).toEqual(zh.flags.map((f) => f.facts));
    const zombie = en.flags.find((f) => f.kind === 'zombie-post')!;
    expect(zombie.detail).toMatch(/^post after going out: 馒头 went out at 2026-11-22 10:00 and posted this at 2026-11-22 \d\d:\d\d$/);
    expect(zombie.facts).toMatchObject({ kind: 'zombie-post', out: '2026-11-22T10:00:00+08:00' });
  });

  test('a violation only an edited-away version shows says so, in each language', () => {
    const red = pidOf('d1talk-6');
    const edited = new Map([...posts].map(([tid, list]) => [tid, list.map((p) => {
      if (p.pid !== red) return p;
      const plain = { ...p.versions.at(-1)!, hash: 'edited', firstSeen: '2026-11-20T13:00:00.000Z', post: { ...p, colors: [] } };
      return { ...p, colors: [], versions: [...p.versions, plain] };
    })]));
    const day = game.days[0];
    const f = violationFlags({ game, day, posts: edited, lists: loadWordLists(game.rules.bannedCategories) }).find((x) => x.pid === red && x.kind === 'red-font')!;
    expect(f.earlierVersion).toBe(posts.get(day.discussion!.tid)!.find((p) => p.pid === red)!.versions[0].firstSeen);
    expect(publicFlagDetail(f, game.timezone)).toBe(`红色字体：Red（ΔE 0.0），阈值 ΔE ≤ 10（见于编辑前的版本，${f.earlierVersion} 抓取）`);
    expect(withLanguage('en', () => flagDetail(f, game.timezone))).toBe(`red font: Red (ΔE 0.0), threshold ΔE ≤ 10 (in a version an edit replaced, fetched ${f.earlierVersion})`);
  });
});

describe('the director\'s notes follow the director\'s language', () => {
  const cjk = /[\u3400-\u9fff]/;
  const names = [...game.players, ...game.directors];
  const bare = (n: string) => names.reduce((x, p) => x.split(p).join(''), n).replace(/\([\u3400-\u9fff]+\)/g, '');

  test('a day report\'s notes (an accelerated day)', () => {
    const zh = buildDayReport(game, posts, 1, { accelerated: { 1: true, 2: false } }).notes;
    const en = withLanguage('en', () => buildDayReport(game, posts, 1, { accelerated: { 1: true, 2: false } }).notes);
    expect(zh.some((n) => n.startsWith('第1日已加速'))).toBe(true);
    expect(en.length).toBe(zh.length);
    expect(en.filter((n) => cjk.test(bare(n)))).toEqual([]);
  });

  test("an English run's reports written in Chinese (HTML, Markdown) show them in Chinese", () => {
    const zh = buildDayReport(game, posts, 1, { accelerated: { 1: true, 2: false } });
    const en = withLanguage('en', () => buildDayReport(game, posts, 1, { accelerated: { 1: true, 2: false } }));
    expect(zh.publicNotes).toEqual(zh.notes);
    expect(en.publicNotes).toEqual(zh.notes);
    expect(en.notes).not.toEqual(zh.notes);
    expect(htmlDayInput(en, null).notes).toEqual(zh.notes);
    const markdown = withLanguage('en', () => renderDayReportMarkdown(en));
    for (const n of zh.notes) expect(markdown).toContain(`> ${escapeMarkdown(n)}`);
    for (const n of en.notes) expect(markdown).not.toContain(escapeMarkdown(n));
  });

  test('where the game file and the results disagree', () => {
    const closes = game.days[1].closes;
    const derived = [{ day: 2, player: '花卷', out: closes, how: 'vote' as const }];
    const zh = exitDisagreements(game, 2, closes, derived);
    const en = withLanguage('en', () => exitDisagreements(game, 2, closes, derived));
    expect(zh).toEqual([expect.stringMatching(/^第 2 日结果：花卷 投票出局/), expect.stringMatching(/^游戏文件记 月饼 于第 2 日关门时/)]);
    expect(en).toEqual([expect.stringMatching(/^day 2's result: 花卷 out by the vote/), expect.stringMatching(/^the game file has 月饼 voted out at day 2's close .*puts 花卷 out: please check$/)]);
    expect(en.filter((n) => cjk.test(bare(n)))).toEqual([]);
  });
});
