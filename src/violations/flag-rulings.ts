/**
 * The director's rulings on flagged posts, applied to a day's flags (pure): a rejected flag is dropped
 * (no card is proposed for it) and the report says so; an accepted one stands and says who confirmed it.
 */
import { t } from '../i18n/index.js';
import { flagKindLabel, type Flag } from './flag.js';
import { rulingsByPid } from '../game/rulings/active.js';
import type { Ruling } from '../game/rulings/types.js';

/** A flag the director ruled on, and the ruling. */
export interface RuledFlag {
  flag: Flag;
  ruling: Ruling;
}

/** The flags that stand after the day's flag rulings, and every flag ruled on (kept or dropped), in flag order. */
export function applyFlagRulings(flags: readonly Flag[], rulings: readonly Ruling[] | undefined, day: number): { flags: Flag[]; ruled: RuledFlag[] } {
  const byPid = rulingsByPid(rulings, 'flag', day);
  const ruled: RuledFlag[] = [];
  const kept = flags.filter((flag) => {
    const ruling = flag.pid !== null ? byPid.get(flag.pid) : undefined;
    if (!ruling) return true;
    ruled.push({ flag, ruling });
    return ruling.verb === 'accept';
  });
  return { flags: kept, ruled };
}

/** The report's note on a ruled flag, in the current language (the report writes it once per audience). */
export function flagRulingNote({ flag, ruling }: RuledFlag): string {
  return t('ruling.flagNote', ruling.id, flag.player, flagKindLabel(flag.kind), flag.pid!, ruling.verb === 'reject', ruling.why);
}
