/**
 * Results carry forward (issue 13) on the public capture: day 2 puts 月饼 out by vote. When the game
 * file does not record it, every later day's tally says so (a director's note, never applied silently);
 * when the file records it, or records something else, the tally says nothing or shows the mismatch.
 */
import { describe, expect, test } from 'vitest';
import { exitDisagreements, exitsFromTally } from '../../src/votes/carry-forward.js';
import { postsFromStore, tallyDay } from '../../src/votes/tally.js';
import { captureStore, publicGameWith } from './fixtures.js';

const EVENT = '  - {player: 月饼, out: "2026-11-22 21:00", how: vote}\n';
const DAY3 = '  - {day: 3, vote: 99, opens: "2026-11-23 10:00", closes: "2026-11-23 21:00"}\n';
const posts = postsFromStore(captureStore('public'));
const withDay3 = (yaml: string) => yaml.replace(/(  - \{day: 2,[^\n]*\n)/, `$1${DAY3}`);

describe('results carried forward', () => {
  test('the closed day 2 count derives 月饼 out at its close', () => {
    const game = publicGameWith((y) => y);
    expect(exitsFromTally(tallyDay(game, posts, 2))).toEqual([{ day: 2, player: '月饼', out: game.days[1].closes, how: 'vote' }]);
    expect(exitsFromTally(tallyDay(game, posts, 1))).toEqual([]); // an election puts nobody out
    expect(exitsFromTally(tallyDay(game, posts, 2, { at: game.days[1].closes - 3_600_000 }))).toEqual([]); // a running count decides nothing
  });

  test('a later day\'s tally notes the result the game file lacks', () => {
    const game = publicGameWith((y) => withDay3(y.replace(EVENT, '')));
    const t = tallyDay(game, posts, 3);
    expect(t.notes).toContainEqual(expect.stringMatching(/^第 2 日结果：月饼 投票出局（11-22 21:00），但游戏文件 events 中没有记录.*bansha close --day 2 --confirm/));
  });

  test('recorded as the count says: no note; recorded otherwise: the mismatch is shown', () => {
    expect(tallyDay(publicGameWith(withDay3), posts, 3).notes.filter((n) => n.includes('第 2 日'))).toEqual([]);
    const wrong = publicGameWith((y) => withDay3(y.replace(EVENT, '  - {player: 花卷, out: "2026-11-22 21:00", how: vote}\n')));
    const notes = tallyDay(wrong, posts, 3).notes;
    expect(notes).toContainEqual(expect.stringContaining('第 2 日结果：月饼 投票出局'));
    expect(notes).toContainEqual('游戏文件记 花卷 于第 2 日关门时（11-22 21:00）投票出局，但计票结果是 月饼 出局：请核对');
    const g = publicGameWith((y) => y.replace(EVENT, '  - {player: 月饼, out: "2026-11-23 12:00", how: card}\n'));
    expect(exitDisagreements(g, 2, g.days[1].closes, exitsFromTally(tallyDay(g, posts, 2)))).toEqual([
      '第 2 日结果：月饼 投票出局（11-22 21:00），游戏文件记为 11-23 12:00（红牌罚下） 出局：请核对',
    ]);
  });
});
