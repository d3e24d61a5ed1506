/**
 * A player's cards with the ruleset's upgrades (rules-spec §8; m107 l.237–238 三张【蓝牌】升级为一张
 * 【黄牌】, 三张【黄牌】升级为一张【红牌】; 062 l.285/288; 120b l.503, no blue). Only confirmed cards count.
 * A red card, given or by upgrade, means 罚下 (out, no last words).
 */
import type { Game } from '../game/types.js';
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
    const upgrades: string[] = [];
    const yellowFromBlue = Math.floor(given.blue / bluesPerYellow);
    if (yellowFromBlue) upgrades.push(`${yellowFromBlue * bluesPerYellow} 张蓝牌升级为 ${yellowFromBlue} 张黄牌`);
    const yellowTotal = given.yellow + yellowFromBlue;
    const redFromYellow = Math.floor(yellowTotal / yellowsPerRed);
    if (redFromYellow) upgrades.push(`${redFromYellow * yellowsPerRed} 张黄牌升级为 ${redFromYellow} 张红牌`);
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

/** How a standing reads: "蓝 1 · 黄 2", "红牌（罚下）". */
export function standingText(s: Standing): string {
  if (s.sentOff) return `红牌 ${s.red}（罚下）`;
  const parts = [s.blue ? `蓝牌 ${s.blue}` : '', s.yellow ? `黄牌 ${s.yellow}` : ''].filter(Boolean);
  return parts.join(' · ') || '无';
}
