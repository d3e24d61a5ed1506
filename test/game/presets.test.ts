/**
 * The four presets (src/game/presets/*.yaml): each loads and validates, carries rules-spec's values,
 * and every "quoted words (l.N)" citation points at a line of its rule post that holds those words.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadRuleset, presetNames } from '../../src/game/ruleset.js';
import type { PresetName } from '../../src/game/types.js';

const root = path.resolve(import.meta.dirname, '../..');
const RULE_POST: Record<PresetName, string> = {
  m107: 'm107-motiandalou.txt',
  '062': '062-datangshuanglong.txt',
  wuhui: 'wuhuizhicheng.txt',
  '120b': '120b-dianziyouxi.txt',
};

describe.each(presetNames)('preset %s', (name) => {
  const rules = loadRuleset(name);
  const postLines = fs.readFileSync(path.join(root, 'fixtures', 'rules', RULE_POST[name]), 'utf8').split('\n');
  const yaml = fs.readFileSync(path.join(root, 'src', 'game', 'presets', `${name}.yaml`), 'utf8');

  test('every cited line holds the Chinese words quoted beside it', () => {
    let checked = 0;
    for (const line of yaml.split('\n')) {
      const comment = line.split('#').slice(1).join('#');
      for (const m of comment.matchAll(/([^();]*?)\(([^()]*?)l\.(\d+)(?:[–-](\d+))?\)/g)) {
        const from = Number(m[3]);
        const to = Number(m[4] ?? m[3]);
        expect(from).toBeLessThanOrEqual(postLines.length);
        const text = postLines.slice(from - 1, to).join('\n');
        // Quoted words: runs of CJK characters (at least 3) in the comment before the citation.
        const words = (m[1] + m[2]).match(/[\u4e00-\u9fff]{3,}/g) ?? [];
        for (const w of words) expect(text, `${name}.yaml: "${w}" not on l.${from}${to !== from ? `–${to}` : ''}`).toContain(w);
        checked += words.length;
      }
    }
    expect(checked).toBeGreaterThan(3);
  });

  test('rules-spec values', () => {
    expect(rules.proxyVoteMinutesBeforeClose).toBe(30); // §2 (30 all)
    expect(rules.proxyChangeMinutesBeforeClose).toBe(60); // §2
    expect(rules.maxChanges).toBe(1); // §3 (1 all)
    expect(rules.sheriffWeight).toBe({ m107: 1.5, '062': 2.5, wuhui: 1, '120b': 1 }[name]); // §4
    expect(rules.publicVote).toBe(name !== '120b'); // §4: 120b votes are private
    expect(rules.day1Election).toBe(name !== '120b');
    expect(rules.eliminationTie).toBe(name === 'wuhui' ? 'sheriff-choice' : 'nobody');
    if (name === 'm107' || name === '062') expect(rules.changeMinutesBeforeClose).toBe(60); // §3 (60 m107/062)
    expect(rules.acceleration.cutoffMinutesBeforeClose).toBe(name === '062' ? 180 : 0); // §5
    expect(rules.acceleration.threshold).toBe(name === '062' ? 'at-least-half' : 'more-than-half');
    expect(rules.acceleration.enabled).toBe(name !== 'wuhui');
    expect(rules.lurking.enabled).toBe(name === 'm107' || name === '062'); // §6
    expect(rules.cards.blue).toBe(name !== '120b'); // §8
  });
});

test('wuhui carries its duel rules and auction', () => {
  const w = loadRuleset('wuhui').wuhui!;
  expect(w.ruleCount).toBe(6);
  expect(w.diamondValues).toEqual([35, 30, 27, 23, 20, 15]);
  expect(w.auctionItems.map((i) => i.base)).toEqual([3, 6, 9, 12, 15, 30]);
});

test('a game file may override any value; a typo is an error', () => {
  expect(loadRuleset('m107', { changeMinutesBeforeClose: 30 }).changeMinutesBeforeClose).toBe(30);
  expect(loadRuleset('062', { acceleration: { threshold: 'more-than-half' } }).acceleration.cutoffMinutesBeforeClose).toBe(180);
  expect(() => loadRuleset('m107', { changeMinutesBeforClose: 30 })).toThrow(/changeMinutesBeforClose|Unrecognized/);
});
