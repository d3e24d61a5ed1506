/**
 * The tally's citations (src/votes/citations.yaml) are the game's own rule post: every cited line
 * holds the words quoted beside it, and a preset's reasons never name another preset's post.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { citationTable, citer } from '../../src/votes/citations.js';
import { FIXTURES } from '../helpers/captured.js';

const RULE_POST: Record<string, string> = { m107: 'm107-motiandalou.txt', '062': '062-datangshuanglong.txt', wuhui: 'wuhuizhicheng.txt', '120b': '120b-dianziyouxi.txt' };

describe('citations', () => {
  test.each(Object.keys(RULE_POST))('%s: each cited line holds its words', (preset) => {
    const lines = fs.readFileSync(path.join(FIXTURES, 'rules', RULE_POST[preset]), 'utf8').split('\n');
    const own = citationTable()[preset];
    for (const [key, c] of Object.entries(own.lines)) expect(lines[c!.line - 1], `${preset} ${key}`).toContain(c!.words);
  });
  test('a rule the post does not state is not cited; the label is the preset\'s own', () => {
    expect(citer('m107')('change-quote')).toBe('m107 l.205 改票时必须引用原投票帖');
    expect(citer('062')('change-quote')).toBe('062 l.261 改票需回复原投票楼层');
    expect(citer('m107')('correction')).toBeNull(); // only 062 says a wrong ballot is corrected by a new post
    expect(citer('120b')('change-quote')).toBeNull();
  });
});
