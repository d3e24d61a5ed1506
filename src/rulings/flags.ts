/**
 * The director's rulings on flagged posts, applied to a day's flags (pure): a rejected flag is dropped
 * (no card is proposed for it) and the report says so; an accepted one stands and says who confirmed it.
 */
import { FLAG_KIND_NAMES, type Flag } from '../violations/flag.js';
import { rulingsByPid } from './active.js';
import type { Ruling } from './types.js';

export function applyFlagRulings(flags: readonly Flag[], rulings: readonly Ruling[] | undefined, day: number): { flags: Flag[]; notes: string[] } {
  const byPid = rulingsByPid(rulings, 'flag', day);
  const notes: string[] = [];
  const kept = flags.filter((f) => {
    const r = f.pid !== null ? byPid.get(f.pid) : undefined;
    if (!r) return true;
    const what = `${f.player} ${FLAG_KIND_NAMES[f.kind].short}（pid ${f.pid}）`;
    notes.push(`导演裁定 #${r.id}：${what}${r.verb === 'reject' ? '不予判罚' : '确认'}（${r.why}）`);
    return r.verb === 'accept';
  });
  return { flags: kept, notes };
}
