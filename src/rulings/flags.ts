/**
 * The director's rulings on flagged posts, applied to a day's flags (pure): a rejected flag is dropped
 * (no card is proposed for it) and the report says so; an accepted one stands and says who confirmed it.
 */
import { t } from '../i18n/index.js';
import { flagKindLabel, type Flag } from '../violations/flag.js';
import { rulingsByPid } from './active.js';
import type { Ruling } from './types.js';

export function applyFlagRulings(flags: readonly Flag[], rulings: readonly Ruling[] | undefined, day: number): { flags: Flag[]; notes: string[] } {
  const byPid = rulingsByPid(rulings, 'flag', day);
  const notes: string[] = [];
  const kept = flags.filter((f) => {
    const r = f.pid !== null ? byPid.get(f.pid) : undefined;
    if (!r) return true;
    notes.push(t('ruling.flagNote', r.id, f.player, flagKindLabel(f.kind), f.pid!, r.verb === 'reject', r.why));
    return r.verb === 'accept';
  });
  return { flags: kept, notes };
}
