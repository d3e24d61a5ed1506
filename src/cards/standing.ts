/**
 * A player's cards with the ruleset's upgrades (rules-spec §8; m107 l.237–238 三张【蓝牌】升级为一张
 * 【黄牌】, 三张【黄牌】升级为一张【红牌】; 062 l.285/288; 120b l.503, no blue). Only confirmed cards count.
 * A red card, given or by upgrade, means 罚下 (out, no last words).
 */
import type { Game } from '../game/types.js';
import { t } from '../i18n/index.js';
import type { Ledger, Standing } from './types.js';

/**
 * The standing of every player, in elevator order. A player is a seat (src/game/roster.ts): a substitute
 * inherits every card of the seat (120b l.630 替补玩家…继承前任玩家受到的一切判罚).
 */
export function standings(game: Game, ledger: Ledger, throughDay?: number): Standing[] {
  const { bluesPerYellow, yellowsPerRed } = game.rules.cards;
  return game.players.map((player) => {
    const mine = ledger.cards.filter((c) => c.player === player && c.status === 'confirmed' && (throughDay === undefined || c.day <= throughDay));
    const given = {
      blue: mine.filter((c) => c.color === 'blue').length,
      yellow: mine.filter((c) => c.color === 'yellow').length,
      red: mine.filter((c) => c.color === 'red').length,
    };
    const upgrades: Standing['upgrades'] = [];
    const yellowFromBlue = Math.floor(given.blue / bluesPerYellow);
    if (yellowFromBlue) upgrades.push({ from: 'blue', cards: yellowFromBlue * bluesPerYellow, into: yellowFromBlue });
    const yellowTotal = given.yellow + yellowFromBlue;
    const redFromYellow = Math.floor(yellowTotal / yellowsPerRed);
    if (redFromYellow) upgrades.push({ from: 'yellow', cards: redFromYellow * yellowsPerRed, into: redFromYellow });
    const red = given.red + redFromYellow;
    return {
      player,
      blue: given.blue - yellowFromBlue * bluesPerYellow,
      yellow: yellowTotal - redFromYellow * yellowsPerRed,
      red,
      given,
      sentOff: red > 0,
      upgrades,
    };
  });
}

/** True when the player has been given any confirmed card (the standings a notice lists). */
export function hasCards(s: Standing): boolean {
  return s.given.blue + s.given.yellow + s.given.red > 0;
}

/**
 * How a standing reads in the current language: "蓝牌 1 · 黄牌 2", "红牌 1（罚下）" (the BBCode notice and
 * Markdown ask for Chinese: withLanguage('zh', …)).
 */
export function standingText(s: Standing): string {
  if (s.sentOff) return t('standing.sentOff', s.red);
  const parts = [s.blue ? t('standing.blue', s.blue) : '', s.yellow ? t('standing.yellow', s.yellow) : ''].filter(Boolean);
  return parts.join(' · ') || t('standing.none');
}

/** The upgrades of a standing in the current language, joined: "3 张蓝牌升级为 1 张黄牌；…" (empty when none). */
export function upgradesText(s: Standing): string {
  return s.upgrades.map((u) => t(u.from === 'blue' ? 'standing.blueToYellow' : 'standing.yellowToRed', u.cards, u.into)).join(t('standing.upgradeSep'));
}
