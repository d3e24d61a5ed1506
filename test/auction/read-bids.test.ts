import { describe, expect, it } from 'vitest';
import { readAuctionPost } from '../../src/auction/index.js';
import { chineseNumeral } from '../../src/text/chinese-numeral.js';

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
    const cases: Array<[string, string, RegExp]> = [
      ['3号物品好贵', 'item-without-price', /^读不出价格：3号物品 没有写 G 数$/],
      ['出价15G', 'price-without-item', /没有写物品编号/],
      ['3号 15', 'price-without-g', /15 后面没有写 G（请写“3号物品 出价15G”）/],
      ['3号 15.5G', 'fractional-price', /15\.5G 不是整数/],
      ['抵押钻石', 'pledge-without-count', /没有写钻石颗数/],
      ['出价15G 3号物品', '', /./],
    ];
    for (const [text, code, reason] of cases) {
      const r = readAuctionPost(text);
      expect(r.bids, text).toEqual([]);
      expect(r.unreadable.length, text).toBeGreaterThan(0);
      if (code) expect(r.unreadable.map((u) => u.code), text).toContain(code);
      expect(r.unreadable.map((u) => u.reason).join(' | '), text).toMatch(reason);
    }
    expect(readAuctionPost('抵押0颗钻石').unreadable.map((u) => [u.code, u.reason])).toEqual([['pledge-zero', '抵押 0 颗钻石：不计']]);
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
