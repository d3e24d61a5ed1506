/**
 * The game file's cross-field refusals (issues 14 and 18): names that mean two seats, days whose
 * windows overlap, a thread doing two jobs. Each error names both lines. Linear in the file's size
 * (one index, one sort): a 200-player file loads as fast as a 12-player one.
 */
import { UserError } from '../cli/errors.js';
import { normalizeName } from '../text/normalize.js';
import type { GameDay, ThreadRef } from './types.js';

/** "file:line" of a path in the game file. */
export type LineOf = (p: Array<string | number>) => string;

/**
 * Every name the file gives a seat (its name, aliases, substitutes) and every uid, indexed by what the
 * forum shows: two names equal after normalisation (饺子 / 饺\u200b子, Bob / bob) would read as one
 * in a ballot, so they are refused, as is a name with nothing visible in it.
 */
export class NameIndex {
  readonly #names = new Map<string, { seat: number; written: string; where: string }>();
  readonly #uids = new Map<number, { name: string; where: string }>();
  constructor(private readonly at: LineOf) {}

  add(name: string, seat: number, p: Array<string | number>): void {
    const key = normalizeName(name);
    const where = this.at(p);
    if (key === '') throw new UserError(`${where}: ${fieldName(p)}: 名字「${JSON.stringify(name).slice(1, -1)}」去掉空白与不可见字符后为空`);
    const seen = this.#names.get(key);
    if (seen) {
      const same = seen.written === name ? '重复列出' : `与 ${seen.written} 在论坛上看起来相同（规范化后都是「${key}」）`;
      throw new UserError(`${where}: ${fieldName(p)}: ${name} ${same}（${seen.where}）`);
    }
    this.#names.set(key, { seat, written: name, where });
  }

  addUid(uid: number, name: string, p: Array<string | number>): void {
    const where = this.at(p);
    const seen = this.#uids.get(uid);
    if (seen) throw new UserError(`${where}: ${fieldName(p)}: uid ${uid} 已属于 ${seen.name}（${seen.where}）：同一账号改名请写作 aliases`);
    this.#uids.set(uid, { name, where });
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
      throw new UserError(
        `${at(['days', cur.i, 'opens'])}: days[${cur.i}].opens: 第${cur.d.day}日在第${prev.d.day}日关门（${at(['days', prev.i, 'closes'])}）之前就开门了：两天的时间不能重叠`,
      );
    }
  }
}

/**
 * One thread, one job: a vote (or duel-rule vote, or auction) thread belongs to one day, and no thread
 * is both a day's vote and a discussion or the process thread. A discussion thread may run over days.
 */
export function checkThreads(days: readonly GameDay[], process: ThreadRef | undefined, at: LineOf): void {
  const uses = new Map<number, { role: string; day: number | null; where: string }>();
  const use = (tid: number, role: string, day: number | null, p: Array<string | number>) => {
    const seen = uses.get(tid);
    const where = at(p);
    if (seen && !(seen.role === 'discussion' && role === 'discussion')) {
      const what = (r: string, d: number | null) => (d === null ? '进程帖 (process)' : `第${d}日的 ${r}`);
      throw new UserError(`${where}: ${fieldName(p)}: 帖子 ${tid} 已是${what(seen.role, seen.day)}（${seen.where}），不能再作${what(role, day)}`);
    }
    if (!seen) uses.set(tid, { role, day, where });
  };
  if (process) use(process.tid, 'process', null, ['process']);
  days.forEach((d, i) => {
    if (d.discussion) use(d.discussion.tid, 'discussion', d.day, ['days', i, 'discussion']);
    d.votes.forEach((v, j) => use(v.tid, 'vote', d.day, d.votes.length > 1 ? ['days', i, 'vote', j] : ['days', i, 'vote']));
    if (d.rules) use(d.rules.tid, 'rules', d.day, ['days', i, 'rules']);
    if (d.auction) use(d.auction.tid, 'auction', d.day, ['days', i, 'auction']);
  });
}

/** A path in the file as a field name: days[1].closes. */
export function fieldName(p: PropertyKey[]): string {
  return p.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i ? '.' : ''}${String(k)}`)).join('') || '(top level)';
}
