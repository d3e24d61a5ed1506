/**
 * The elevator floor (电梯楼, rules-spec §9): for day N, one link per player in the game's player
 * order to the only-this-author view of that day's discussion thread, for floor 2 (src/render/
 * elevator-bbcode.ts writes its BBCode). Players out when the day opens are struck through (`[s]name[/s] (出局)`) or left out, as the
 * ruleset's `elevator.outPlayers` says. A seat played by a substitute (替补) links the account playing it
 * that day. A pure function of (store, game): of the store, the uids learned and the threads' page records.
 */
import { UserError } from '../errors.js';
import { accountAt, findDay, isOut, withKnownUids } from '../game/roster.js';
import type { Game } from '../game/types.js';
import type { StoreData } from '../store/types.js';
import { authorOnlyUrl, forumLinkStyle, type LinkStyle } from './links.js';
import { t } from '../i18n/index.js';

/** One account's link on a seat's line. */
export interface ElevatorLink {
  /** The account's forum name. */
  name: string;
  uid: number | null;
  /** The only-author link; null when the uid is not known yet. */
  url: string | null;
}

/** One player's line on the floor. */
export interface ElevatorEntry {
  /** 1-based seat in the game's player order (the elevator order). */
  seat: number;
  player: string;
  /** Out when the day opened. */
  out: boolean;
  /** The forum uid of the account holding the seat when the day opens (null: out, or not known yet). */
  uid: number | null;
  /** Its only-author link (null for an out player, or an unknown uid). */
  url: string | null;
  /**
   * Every account that plays the seat during the day, in order (one, or the player and a substitute who
   * took over mid-day: the seat's posts that day are under both). Empty for an out player.
   */
  accounts: ElevatorLink[];
}

/** The whole floor: its entries (src/render/elevator-bbcode.ts writes the BBCode to paste). */
export interface ElevatorFloor {
  day: number;
  /** The day's discussion thread. */
  tid: number;
  linkStyle: LinkStyle;
  outPlayers: 'mark' | 'omit';
  /** Every listed line, in elevator order (omitted players are absent). */
  entries: ElevatorEntry[];
  /** What the director must fix: accounts whose uid is not known yet (their line has no link). */
  warnings: string[];
}

/**
 * Builds day `day`'s elevator floor. Throws a UserError when the day has no discussion thread. An account
 * whose uid is not known yet (from the game file or crawled posts) gets its line without a link and a
 * warning naming it: one player who has not posted never holds up everybody else's floor.
 */
export function elevatorFloor(store: Pick<StoreData, 'users' | 'threads'>, gameAsFiled: Game, day: number): ElevatorFloor {
  const game = withKnownUids(gameAsFiled, store.users);
  const gameDay = findDay(game, day);
  if (!gameDay.discussion) throw new UserError(t('err.noDiscussion', day, game.file));
  const tid = gameDay.discussion.tid;
  const mode = game.rules.elevator.outPlayers;
  const entries: ElevatorEntry[] = [];
  const unknown: string[] = [];
  game.seats.forEach((seat, i) => {
    const out = isOut(game, seat.name, gameDay.opens);
    if (out && mode === 'omit') return;
    if (out) {
      entries.push({ seat: i + 1, player: seat.name, out, uid: accountAt(seat, gameDay.opens).uid ?? null, url: null, accounts: [] });
      return;
    }
    const accounts: ElevatorLink[] = seat.accounts
      .filter((a) => (a.from === null || a.from < gameDay.closes) && (a.until === null || a.until > gameDay.opens))
      .map((a) => {
        const uid = a.uid ?? null;
        if (uid === null) unknown.push(a.name === seat.name ? a.name : `${a.name}（${seat.name} 的替补）`);
        return { name: a.name, uid, url: uid === null ? null : authorOnlyUrl(game.forum, tid, uid) };
      });
    entries.push({ seat: i + 1, player: seat.name, out, uid: accounts[0].uid, url: accounts[0].url, accounts });
  });
  const warnings = unknown.length === 0 ? [] : [
    `${unknown.join('、')} 的论坛 uid 尚不知道，电梯里没有链接（标为“暂无链接”）：在游戏文件的 players 里写上 uid，` +
      `或等其在游戏帖里发帖后重新运行 \`bansha crawl --game ${game.file}\``,
  ];
  return { day, tid, linkStyle: forumLinkStyle(store), outPlayers: mode, entries, warnings };
}
