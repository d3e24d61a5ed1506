import { describe, expect, it } from 'vitest';
import { chineseNumeral, readAuctionPost } from '../../src/auction/index.js';

const bids = (t: string) => readAuctionPost(t).bids.map((b) => [b.item, b.price]);

describe('readAuctionPost: what players naturally write', () => {
  it.each([
    ['3号物品 出价15G', [[3, 15]]],
    ['物品3：15G', [[3, 15]]],
    ['物品3:15G', [[3, 15]]],
    ['3号 15G', [[3, 15]]],
    ['3号15G', [[3, 15]]],
    ['３号物品　出价１５Ｇ', [[3, 15]]],
    ['叫价3号物品15g', [[3, 15]]],
    ['3号物品：出价：15', [[3, 15]]],
    ['三号物品出价十五G', [[3, 15]]],
    ['物品6号 出价 30G', [[6, 30]]],
  ])('%s', (text, want) => {
    const r = readAuctionPost(text);
    expect(r.bids.map((b) => [b.item, b.price])).toEqual(want);
    expect(r.unreadable).toEqual([]);
  });

  it('reads several items in one post, on one line or several', () => {
    expect(bids('3号物品 出价15G，4号物品 出价20G')).toEqual([[3, 15], [4, 20]]);
    expect(bids('物品1：3G\n物品2：6G\n物品5：16G')).toEqual([[1, 3], [2, 6], [5, 16]]);
    expect(bids('1号 3G 2号 7G；6号 31G')).toEqual([[1, 3], [2, 7], [6, 31]]);
  });

  it('reads pledges (抵押) and bids in the same post', () => {
    const r = readAuctionPost('抵押1颗钻石\n6号物品 出价60G');
    expect(r.pledges.map((p) => p.diamonds)).toEqual([1]);
    expect(r.bids.map((b) => [b.item, b.price])).toEqual([[6, 60]]);
    expect(readAuctionPost('抵押两颗钻石').pledges.map((p) => p.diamonds)).toEqual([2]);
    expect(readAuctionPost('抵押钻石x2').pledges.map((p) => p.diamonds)).toEqual([2]);
  });

  it('rejects what it cannot read with a reason, never guessing', () => {
    const cases: Array<[string, RegExp]> = [
      ['3号物品好贵', /item 3 without a price/],
      ['出价15G', /without an item/],
      ['3号 15', /no "G"/],
      ['3号 15.5G', /whole numbers/],
      ['抵押钻石', /pledge without a number/],
      ['出价15G 3号物品', /./],
    ];
    for (const [text, reason] of cases) {
      const r = readAuctionPost(text);
      expect(r.bids, text).toEqual([]);
      expect(r.unreadable.length, text).toBeGreaterThan(0);
      expect(r.unreadable.map((u) => u.reason).join(' | '), text).toMatch(reason);
    }
  });

  it('leaves chatter alone', () => {
    const r = readAuctionPost('大家好，今天天气不错\n哈哈哈');
    expect(r).toEqual({ bids: [], pledges: [], unreadable: [] });
  });

  it('reads Chinese numerals', () => {
    expect([chineseNumeral('三'), chineseNumeral('十五'), chineseNumeral('二十'), chineseNumeral('两'), chineseNumeral('一百二十')]).toEqual([3, 15, 20, 2, 120]);
    expect(chineseNumeral('abc')).toBeNull();
  });
});
