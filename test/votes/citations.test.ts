/**
 * The tally's citations (src/votes/citations.yaml) are the game's own rule post: every cited line
 * holds the words quoted beside it, and a preset's reasons never name another preset's post.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { PresetName } from '../../src/game/types.js';
import { citationTable, citer } from '../../src/votes/citations.js';
import { decide, type DecideInput } from '../../src/votes/count.js';
import { outcomeText } from '../../src/votes/reasons.js';
import type { BallotRecord, TallyOutcome, TotalLine } from '../../src/votes/types.js';
import { FIXTURES } from '../helpers/captured.js';

const RULE_POST: Record<string, string> = { m107: 'm107-motiandalou.txt', '062': '062-datangshuanglong.txt', wuhui: 'wuhuizhicheng.txt', '120b': '120b-dianziyouxi.txt' };

describe('citations', () => {
  test.each(Object.keys(RULE_POST))('%s: each cited line holds its words', (preset) => {
    const lines = fs.readFileSync(path.join(FIXTURES, 'rules', RULE_POST[preset]), 'utf8').split('\n');
    const own = citationTable()[preset];
    for (const [key, c] of Object.entries(own.lines)) {
      const line = lines[c!.line - 1];
      if (c!.rule) expect(line, `${preset} ${key}: the rule's name`).toContain(c!.rule);
      // (the parts between `…`, in order on the line)
      let at = 0;
      for (const part of c!.words.split('…').filter(Boolean)) {
        const found = line.indexOf(part, at);
        expect(found, `${preset} ${key}: “${part}” after column ${at} of “${line}”`).toBeGreaterThanOrEqual(0);
        at = found + part.length;
      }
    }
  });
  test('a rule the post does not state is not cited; the label is the preset\'s own', () => {
    expect(citer('m107')('change-quote')).toBe('m107 l.205 改票时必须引用原投票帖');
    expect(citer('062')('change-quote')).toBe('062 l.261 改票需回复原投票楼层');
    expect(citer('m107')('correction')).toBeNull(); // only 062 says a wrong ballot is corrected by a new post
    expect(citer('120b')('change-quote')).toBeNull();
    expect(citer('m107')('election-first-reach')).toBe('m107 l.118 竞岗：最先获得投票数最多的角色当选警长');
    expect(citer('m107')('tie-sheriff-none')).toBeNull(); // wuhui's rule: an m107 reason never cites 无回之城's post
    expect(citer('m107')('tie-no-sheriff')).toBeNull();
  });
  test('a tie decided by the rules cites the game\'s own post: m107 and 062 elections, their ties, wuhui\'s sheriff', () => {
    const ballots = (names: string[]): BallotRecord[] => names.map((target, i) => ({
      voter: `v${i}`, target, at: 1000 + i, pid: i + 1, floor: i + 2, status: 'counted', parsed: true,
    }) as unknown as BallotRecord);
    const input = (preset: PresetName, kind: DecideInput['kind'], sheriff: string | null = null): DecideInput => ({
      kind, preset, totals: [{ name: 'a', votes: 1 }, { name: 'b', votes: 1 }] as TotalLine[], ballots: ballots(['a', 'b']), sheriff, sheriffWeight: 1,
      eliminationTie: preset === 'wuhui' ? 'sheriff-choice' : 'nobody', zone: 'Asia/Shanghai',
    });
    const cite = (o: TallyOutcome) => (o.detail as { cite?: string }).cite;
    expect(cite(decide(input('m107', 'election')))).toBe(citer('m107')('election-first-reach'));
    expect(cite(decide(input('062', 'election')))).toBe(citer('062')('election-first-reach'));
    expect(cite(decide(input('m107', 'elimination')))).toBe(citer('m107')('tie-nobody-out'));
    expect(cite(decide(input('062', 'elimination')))).toBe(citer('062')('tie-nobody-out'));
    expect(cite(decide(input('wuhui', 'elimination', 'c')))).toBe(citer('wuhui')('tie-sheriff-none'));
    expect(cite(decide(input('wuhui', 'rule', 'c')))).toBe(citer('wuhui')('rule-tie-first-reach'));
    expect(cite(decide(input('wuhui', 'elimination')))).toBe('无回之城 l.32 警长未投票则无人出局'); // no known sheriff: as one who voted for none
    expect(outcomeText(decide(input('wuhui', 'elimination')).detail!, 'Asia/Shanghai')).toBe('a、b 平票 1 票，没有已知的警长来决定，按无人出局处理（无回之城 l.32 警长未投票则无人出局）');
    expect(cite(decide(input('120b', 'election')))).toBe('rules-spec §4'); // (its post states no such rule)
  });
});
