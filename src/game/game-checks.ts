/**
 * The game file's cross-field refusals (issues 14 and 18): names that mean two seats, days whose
 * windows overlap, a thread doing two jobs. Each error names both lines. Linear in the file's size
 * (one index, one sort): a 200-player file loads as fast as a 12-player one.
 */
import { UserError } from '../errors.js';
import { t } from '../i18n/index.js';
import { fieldPath as fieldName } from '../i18n/parser-problems.js';
import { normalizeName } from '../text/normalize.js';
import type { GameDay, ThreadRef } from './types.js';

/** A path in the file as a field name: days[1].closes. */
export { fieldName };

/** "file:line" of a path in the game file. */
export type LineOf = (p: Array<string | number>) => string;

/**
 * Every name the file gives a seat (its name, aliases, substitutes) and every uid, indexed by what the
 * forum shows: two names equal after normalisation (饺子 / 饺\u200b子, Bob / bob) would read as one
 * in a ballot, so they are refused, as is a name with nothing visible in it.
 */
export class NameIndex {
  // Paths, not lines: a line is looked up only for a message (the lookup walks the YAML document).
  readonly #names = new Map<string, { seat: number; written: string; p: Array<string | number> }>();
  readonly #uids = new Map<number, { name: string; p: Array<string | number> }>();
  constructor(private readonly at: LineOf) {}

  add(name: string, seat: number, p: Array<string | number>): void {
    const key = normalizeName(name);
    if (key === '') throw new UserError(t('game.blankName', this.at(p), fieldName(p), visible(name)));
    const seen = this.#names.get(key);
    if (seen) {
      throw new UserError(
        seen.written === name
          ? t('game.nameListedTwice', this.at(p), fieldName(p), visible(name), fieldName(seen.p), this.at(seen.p))
          : t('game.nameLooksSame', this.at(p), fieldName(p), visible(name), visible(seen.written), key, fieldName(seen.p), this.at(seen.p)),
      );
    }
    this.#names.set(key, { seat, written: name, p });
  }

  addUid(uid: number, name: string, p: Array<string | number>): void {
    const seen = this.#uids.get(uid);
    if (seen) throw new UserError(t('game.uidTwice', this.at(p), fieldName(p), uid, seen.name, this.at(seen.p)));
    this.#uids.set(uid, { name, p });
  }

  /** The seat index a name means: exactly as written, or equal after normalisation. */
  seatOf(name: string): number | undefined {
    return this.#names.get(normalizeName(name))?.seat;
  }
}

/** Days whose windows [opens, closes) overlap are refused, naming both days. */
export function checkDays(days: readonly GameDay[], at: LineOf): void {
  const order = days.map((d, i) => ({ d, i })).sort((a, b) => a.d.opens - b.d.opens);
  for (let k = 1; k < order.length; k++) {
    const prev = order[k - 1];
    const cur = order[k];
    if (cur.d.opens < prev.d.closes) {
      const p = ['days', cur.i, 'opens'];
      throw new UserError(t('game.daysOverlap', at(p), fieldName(p), cur.d.day, prev.d.day, at(['days', prev.i, 'closes'])));
    }
  }
}

/**
 * One thread, one job: a vote (or duel-rule vote, or auction) thread belongs to one day, and no thread
 * is both a day's vote and a discussion or the process thread. A discussion thread may run over days.
 */
export function checkThreads(days: readonly GameDay[], process: ThreadRef | undefined, at: LineOf): void {
  const uses = new Map<number, { role: string; day: number | null; p: Array<string | number> }>();
  const use = (tid: number, role: string, day: number | null, p: Array<string | number>) => {
    const seen = uses.get(tid);
    if (seen && !(seen.role === 'discussion' && role === 'discussion')) {
      throw new UserError(t('game.threadTwice', at(p), fieldName(p), tid, t('game.threadJob', seen.role, seen.day), at(seen.p), t('game.threadJob', role, day)));
    }
    if (!seen) uses.set(tid, { role, day, p });
  };
  if (process) use(process.tid, 'process', null, ['process']);
  days.forEach((d, i) => {
    if (d.discussion) use(d.discussion.tid, 'discussion', d.day, ['days', i, 'discussion']);
    d.votes.forEach((v, j) => use(v.tid, 'vote', d.day, d.votes.length > 1 ? ['days', i, 'vote', j] : ['days', i, 'vote']));
    if (d.rules) use(d.rules.tid, 'rules', d.day, ['days', i, 'rules']);
    if (d.auction) use(d.auction.tid, 'auction', d.day, ['days', i, 'auction']);
  });
}

/** A name with its invisible and control characters written out (\u200b), so a message shows them. */
function visible(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

