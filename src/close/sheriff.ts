/**
 * The badge at a day's close (issue 13: the sheriff passed on carries forward like the other results):
 * when the closed day's derived results put its sheriff out (voted out, 罚下), the badge passes by the
 * game's rules (src/votes/succession.ts), and the successor the posts name becomes the next day's
 * `sheriff:` — written by `--confirm`, compared with what the game file says, never silently resolved.
 * When the posts name none, the summary says what to check instead of guessing.
 */
import { t } from '../i18n/index.js';
import type { Game } from '../game/types.js';
import type { DerivedExit } from '../votes/carry-forward.js';
import { citer } from '../votes/citations.js';
import { successionNote } from '../votes/reasons.js';
import { completeness } from '../store/completeness.js';
import type { StoreData } from '../store/types.js';
import { sheriffHandover, successionThreads, type SheriffHandover } from '../votes/succession.js';
import { postsFromStore } from '../votes/tally.js';
import type { TallyResult } from '../votes/types.js';

/** The handover the closed day's results imply: its sheriff (day 1: the one just elected) among the derived exits; else null. */
export function handoverAtClose(game: Game, store: StoreData, tally: TallyResult | null, derived: readonly DerivedExit[]): SheriffHandover | null {
  if (!tally || tally.running) return null;
  const sheriff = tally.kind === 'election' ? tally.result.name : tally.sheriff;
  const exit = sheriff === null ? undefined : derived.find((x) => x.player === sheriff);
  if (!exit) return null;
  // A successor read from a half-fetched thread could miss the post that names another: read none then.
  const unread = successionThreads(game, exit.out).filter((tid) => !store.threads[String(tid)] || !completeness(store, tid).complete);
  return sheriffHandover(game, postsFromStore(store), { player: exit.player, at: exit.out, how: exit.how }, { alsoOut: derived, unread });
}

/** The summary's lines on the badge after day `day` (`written`: --confirm wrote the successor just now) and the disagreements with the file. */
export function sheriffSummary(game: Game, day: number, h: SheriffHandover, written: boolean): { lines: string[]; disagreements: string[] } {
  const next = game.days.find((d) => d.day === day + 1);
  const lines: string[] = [];
  const disagreements: string[] = [];
  if (h.successor) {
    const by = h.claims.find((c) => c.problem === null && c.name === h.successor)!;
    const state = written ? 'written' : !next ? 'no-day' : next.sheriff === h.successor ? 'recorded' : h.unreadable.length ? 'unreadable' : 'missing';
    lines.push(t('close.sheriffPassed', h.from, h.how, h.successor, `${by.floor ?? '?'}#`, by.by === 'director', day + 1, state));
  } else if (next?.sheriff && next.sheriff !== h.from) {
    lines.push(t('close.sheriffNamed', h.from, h.how, day + 1, next.sheriff));
  } else {
    lines.push(t('close.sheriffUnknown', successionNote(h, citer(game.preset)('succession-no-contact'), game.timezone)));
  }
  // Posts the handover waits on that this account cannot read: any may name another successor (never written by --confirm).
  if (h.unreadable.length) lines.push(t('close.sheriffUnreadable', h.unreadable.map((u) => `pid ${u.pid} ${u.url}`).join(t('list.sep')), day + 1));
  if (next?.sheriff && (next.sheriff === h.from || (h.successor && next.sheriff !== h.successor))) {
    disagreements.push(t('close.sheriffDisagrees', day + 1, next.sheriff, h.from, next.sheriff === h.from ? null : h.successor));
  }
  return { lines, disagreements };
}
