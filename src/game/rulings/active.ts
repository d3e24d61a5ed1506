/**
 * Which rulings are in force, as pure functions of the rulings file's entries: an undo takes an entry
 * back, a later ruling on the same ballot, flag or card replaces an earlier one.
 */
import type { Ruling, RulingEntry, RulingsFile, RulingSubject } from './types.js';

/** The file with one more entry (the next id); the caller writes it. */
export function appendEntry<E extends Omit<RulingEntry, 'id'>>(data: RulingsFile, entry: E): { data: RulingsFile; entry: E & { id: number } } {
  const id = data.entries.reduce((m, e) => Math.max(m, e.id), 0) + 1;
  const full = { ...entry, id } as E & { id: number };
  return { data: { ...data, entries: [...data.entries, full as unknown as RulingEntry] }, entry: full };
}

/** The rulings in force: every accept/reject not undone, oldest first; a later ruling on the same subject replaces an earlier one. */
export function activeRulings(data: RulingsFile): Ruling[] {
  const undone = new Set(data.entries.flatMap((e) => (e.verb === 'undo' ? [e.undoes] : [])));
  const latest = new Map<string, Ruling>();
  for (const e of data.entries) {
    if (e.verb === 'undo' || undone.has(e.id)) continue;
    latest.delete(subjectKey(e));
    latest.set(subjectKey(e), e);
  }
  return [...latest.values()];
}

/** One key per thing ruled on: a ballot's pid, a flag's pid, a card's id, a thread for one day's count. */
export function subjectKey(r: Pick<Ruling, 'subject' | 'pid' | 'card' | 'tid' | 'day'>): string {
  if (r.subject === 'thread') return `thread:${r.tid}@${r.day}`;
  return `${r.subject}:${r.subject === 'card' ? (r.card ?? '').toUpperCase() : r.pid}`;
}

/** The rulings in force on one kind of subject for one day, by pid (ballots and flags). */
export function rulingsByPid(rulings: readonly Ruling[] | undefined, subject: Exclude<RulingSubject, 'card' | 'thread'>, day: number): Map<number, Ruling> {
  const out = new Map<number, Ruling>();
  for (const r of rulings ?? []) if (r.subject === subject && r.day === day && r.pid !== undefined) out.set(r.pid, r);
  return out;
}

/** The entry the bare `rule undo` takes back: the latest ruling still in force. */
export function latestActive(data: RulingsFile): Ruling | null {
  const active = new Set(activeRulings(data).map((r) => r.id));
  for (let i = data.entries.length - 1; i >= 0; i--) {
    const e = data.entries[i];
    if (e.verb !== 'undo' && active.has(e.id)) return e;
  }
  return null;
}
