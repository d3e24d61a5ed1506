/** The message catalogue: both languages hold every key, each message renders, and the language is chosen as documented. */
import { describe, expect, test } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { zh } from '../../src/i18n/zh.js';
import { language, languageFrom, parseLanguage, setLanguage, t, withLanguage } from '../../src/i18n/index.js';
import { parseGame } from '../../src/game/game-file.js';

describe('catalogue', () => {
  test('zh and en hold the same keys, each message of the same kind and arity', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(zh).sort());
    for (const [key, m] of Object.entries(zh)) {
      const other = (en as Record<string, unknown>)[key];
      expect({ key, kind: typeof other }).toEqual({ key, kind: typeof m });
      if (typeof m === 'function') expect({ key, arity: (other as () => string).length }).toEqual({ key, arity: m.length });
    }
  });

  test('the Chinese catalogue is Chinese: every message holds a CJK character, unless it is a command line or a format', () => {
    const samples = (m: unknown): string => (typeof m === 'function' ? String((m as (...a: unknown[]) => string)(1, 2, 3, 4, 5, 6)) : String(m));
    const notChinese = Object.entries(zh).filter(([, m]) => !/[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/.test(samples(m)) && !/^[-\s]*BBCode|^\s*\[|^\d/.test(samples(m)));
    expect(notChinese.map(([k]) => k).filter((k) => !k.endsWith('.examples') && k !== 'parse.kind')).toEqual([]);
  });

  test('the English catalogue is English: Chinese only as a gloss in brackets or a term of the game a director knows by its name', () => {
    // Terms of the forum and the game kept as they are, as directors write them (roles, the forum's own buttons).
    const terms = ['仲裁者', '导演裁定', '正序浏览', '无回之城', '楼主', '导演A', '装傻', '防采集'];
    const samples = (m: unknown): string => (typeof m === 'function' ? String((m as (...a: unknown[]) => string)('x', 'y', 'z', 'w', 'v', 'u', 's')) : String(m));
    const chinese = Object.entries(en)
      .map(([key, m]) => ({ key, rest: terms.reduce((s, w) => s.split(w).join(''), samples(m)).replace(/[（(][^（()）]*[）)]/g, '') }))
      .filter(({ rest }) => /[\u3400-\u9fff]/.test(rest));
    expect(chinese).toEqual([]);
  });

  test('t renders in the language set, and parameters land in the text', () => {
    setLanguage('en');
    expect(t('tally.heading', 2, 'elimination vote', 5, 'closed 11-22 21:00', 'Asia/Shanghai')).toBe('Day 2 — elimination vote (thread 5), closed 11-22 21:00 [Asia/Shanghai]');
    setLanguage('zh');
    expect(language()).toBe('zh');
    expect(t('tally.heading', 2, '放逐投票', 5, '11-22 21:00 关门', 'Asia/Shanghai')).toBe('第 2 日 —— 放逐投票（帖子 5），11-22 21:00 关门 [Asia/Shanghai]');
  });
});

describe('a language per call (library users)', () => {
  test('withLanguage holds across awaits; two calls at once each keep their own; the process default is untouched', async () => {
    setLanguage('zh');
    const broken = 'forum: http://127.0.0.1/\nruleset: m107\nplayers: [甲]\ndays: [{day: 1, opens: "2026-11-20 10:00", closes: "2026-11-21 21:00"}]\noops\n';
    const refusal = () => {
      try {
        parseGame(broken, 'g.yaml');
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    };
    const call = (lang: 'zh' | 'en') =>
      withLanguage(lang, async () => {
        const before = refusal();
        await new Promise((r) => setTimeout(r, lang === 'en' ? 20 : 5)); // the other call runs meanwhile
        return [before, refusal()];
      });
    const [en, zh] = await Promise.all([call('en'), call('zh')]);
    expect(en).toEqual(Array(2).fill('g.yaml: not valid YAML: line 5, column 1: Implicit map keys need to be followed by map values (the line: "oops")'));
    expect(zh[0]).toMatch(/^g\.yaml: 不是有效的 YAML：第 5 行第 1 列：/);
    expect(zh[1]).toBe(zh[0]);
    expect(language()).toBe('zh');
    expect(refusal()).toBe(zh[0]);
  });
});

describe('which language a run speaks', () => {
  test('--lang wins, in both spellings; then LC_ALL, LC_MESSAGES, LANG; Chinese otherwise', () => {
    expect(languageFrom(['tally', '--lang', 'en'], { LANG: 'zh_CN.UTF-8' })).toBe('en');
    expect(languageFrom(['--lang=zh', 'tally'], { LANG: 'en_US.UTF-8' })).toBe('zh');
    expect(languageFrom(['tally'], { LANG: 'en_US.UTF-8' })).toBe('en');
    expect(languageFrom(['tally'], { LANG: 'en_GB.UTF-8', LC_ALL: 'zh_CN.UTF-8' })).toBe('zh');
    expect(languageFrom(['tally'], { LC_MESSAGES: 'en_US', LANG: 'zh_CN' })).toBe('en');
    expect(languageFrom(['tally'], { LANG: 'C.UTF-8' })).toBe('zh');
    expect(languageFrom(['tally'], {})).toBe('zh');
    expect(languageFrom(['parse', '--', '--lang', 'en'], {})).toBe('zh');
    expect(languageFrom(['--lang', 'fr'], {})).toEqual({ invalid: 'fr' });
    expect([parseLanguage('zh-CN'), parseLanguage('EN'), parseLanguage('english'), parseLanguage('')]).toEqual(['zh', 'en', null, null]);
  });
});
