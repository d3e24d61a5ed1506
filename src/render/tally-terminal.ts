/**
 * The tally for the terminal: totals, the result and why (with the tie rule), then every player — the
 * counted ballot (floor, time, link) and each rejected or superseded attempt with its reason — and the
 * players who cast nothing. Colour only when asked (the CLI passes it for a TTY).
 *
 * Every piece of text that comes from players or the forum (names, targets as written, reasons, edits,
 * notes quoting them) goes through terminalSafe (safe-text.ts): no escape sequence, control or bidi
 * character reaches the terminal. A target rejected for its bidi characters shows them as ⟨U+202E⟩ tags.
 */
import pc from 'picocolors';
import { fmt } from '../votes/count.js';
import { forumTime } from '../votes/time.js';
import type { BallotRecord, TallyResult } from '../votes/types.js';
import { incompleteText } from './incomplete.js';
import { revealBidi, terminalSafe as s } from './safe-text.js';

export interface TerminalOptions {
  color?: boolean;
}

/** Marks what only the director reads (never in BBCode or a post). */
export const DIRECTOR = '[导演备注] ';

const KIND = { election: 'sheriff election', elimination: 'elimination vote', rule: 'duel-rule vote', none: 'vote' } as const;

/** The report as lines of text ending in a newline. */
export function renderTallyTerminal(t: TallyResult, opts: TerminalOptions = {}): string {
  const c = pc.createColors(opts.color ?? false);
  const time = (ms: number) => forumTime(ms, t.timezone);
  if (t.kind === 'none') return `Day ${t.day}: no public vote to count — ${s(t.reason ?? '')}\n`;
  const out: string[] = incompleteText(t.incomplete).map((l) => c.red(l));
  out.push(c.bold(`Day ${t.day} — ${KIND[t.kind]} (thread ${t.tid}), ${t.running ? `running count as of ${time(t.countedAt)} (closes ${time(t.closes)})` : `closed ${time(t.closes)}`} [${t.timezone}]`));
  out.push(`Sheriff: ${t.sheriff ? `${s(t.sheriff)} — ${s(t.sheriffSource)}; weight ${fmt(t.sheriffWeight)}` : s(t.sheriffSource)}`);
  if (t.acceleration) {
    out.push(`Acceleration: ${s(t.acceleration.explanation)}`);
    // Who asked, when, where — and why a request did not count (the audit, src/votes/acceleration.ts).
    for (const r of t.acceleration.audit) {
      const where = `${r.floor ?? '?'}# ${time(r.at)}  ${s(r.url)}`;
      out.push(r.counted ? `  ${c.green('✓')} ${s(r.player)}  ${where}` : `  ${c.red('✗')} ${s(r.player)}  ${where}  ${c.red(s(r.reason ?? ''))}`);
    }
  } else if (t.accelerated) out.push('Acceleration: declared in the game file');

  out.push('', c.bold('Totals'));
  const width = Math.max(4, ...t.totals.map((l) => s(l.name).length * 2));
  for (const l of t.totals) out.push(`  ${pad(s(l.name), width)}  ${fmt(l.votes).padStart(4)}   ${l.voters.map(s).join(', ')}`);
  if (t.abstentions.length) out.push(`  ${pad('弃权', width)}     -   ${t.abstentions.map(s).join(', ')}`);
  if (!t.totals.length && !t.abstentions.length) out.push('  (no valid ballots)');

  const name = t.result.name !== null ? s(t.result.name) : t.kind === 'elimination' ? 'nobody is out' : 'no result';
  out.push('', `${c.bold('Result:')} ${c.bold(name)}${t.result.tie.length ? ` (tie: ${t.result.tie.map(s).join(', ')})` : ''}`, `  why: ${s(t.result.rule)}`);
  if (t.result.note) out.push(c.yellow(`  ${DIRECTOR}${s(t.result.note)}`));

  out.push('', c.bold('Players'));
  for (const p of t.players) {
    const tag = p.state === 'out' ? c.dim(' (out)') : p.state === 'idiot' ? c.dim(' (装傻: may not vote)') : '';
    if (p.counted) {
      out.push(`  ${c.green('✓')} ${s(p.player)}${tag} → ${s(p.counted.target ?? '')}${weightNote(p.counted)}  ${line(p.counted, time)}${p.counted.reason ? c.yellow(`  ! ${s(p.counted.reason)}`) : ''}`);
      if (p.counted.note) out.push(c.yellow(`        ${DIRECTOR}${s(p.counted.note)}`));
    }
    else out.push(`  ${c.red('·')} ${s(p.player)}${tag}: ${p.state === 'out' ? 'no vote (out of the game)' : p.state === 'idiot' ? 'no vote' : p.others.length ? 'no valid ballot' : 'cast nothing'}`);
    for (const b of p.others) {
      const mark = b.status === 'superseded' ? c.dim('↺') : c.red('✗');
      out.push(`      ${mark} ${b.status}: ${b.target !== null ? s(revealBidi(b.target)) : '(none read)'}  ${line(b, time)}`);
      if (b.reason) out.push(`        ${b.status === 'rejected' ? c.red(s(b.reason)) : c.dim(s(b.reason))}`);
      if (b.note) out.push(c.yellow(`        ${DIRECTOR}${s(b.note)}`));
      if (b.edit) out.push(c.dim(`        edit: «${oneLine(b.edit.before)}» → «${oneLine(b.edit.after)}»`));
    }
    if (p.counted?.edit) out.push(c.dim(`        edit: «${oneLine(p.counted.edit.before)}» → «${oneLine(p.counted.edit.after)}»`));
  }
  const strays = t.ballots.filter((b) => !t.players.some((p) => p.player === b.voter));
  if (strays.length) {
    out.push('', c.bold('Not players'));
    for (const b of strays) out.push(`  ${c.red('✗')} ${s(b.voter)}: ${line(b, time)}  ${s(b.reason ?? '')}${b.note ? `  ${DIRECTOR}${s(b.note)}` : ''}`);
  }
  if (t.misplaced?.length) {
    out.push('', c.bold('投票发错帖（不计票，请导演裁定）'));
    for (const m of t.misplaced) {
      out.push(`  ${c.yellow('?')} ${s(m.player)} → ${m.target === null ? '(none read)' : s(revealBidi(m.target))}  ${m.thread === 'discussion' ? '讨论帖' : '进程帖'} ${m.tid} ${m.floor ?? '?'}# ${time(m.at)}  ${s(m.url)}`);
    }
  }
  const flagged = t.ballots.filter((b) => b.flags.length);
  if (t.notes.length || flagged.length) {
    out.push('', c.bold('For the director'));
    for (const n of t.notes) out.push(`  - ${s(n)}`);
    for (const b of flagged) for (const f of b.flags) out.push(`  - ${s(b.voter)} ${b.floor ?? '?'}#: ${s(f)}`);
  }
  return `${out.join('\n')}\n`;
}

function line(b: BallotRecord, time: (ms: number) => string): string {
  return `${b.floor ?? '?'}# ${time(b.at)}${b.proxyBy ? ` (代投 by ${s(b.proxyBy)})` : ''}  ${s(b.url)}`;
}

function weightNote(b: BallotRecord): string {
  return b.weight !== 1 && b.target !== '弃权' ? ` (×${fmt(b.weight)})` : '';
}

/** Player text on one line, terminal-safe. */
function oneLine(text: string): string {
  return s(text).replace(/\s*\n\s*/g, ' / ');
}

/** Pads by display width (CJK characters count 2). */
function pad(text: string, width: number): string {
  const w = [...text].reduce((n, ch) => n + (/[\u1100-\uffff]/.test(ch) ? 2 : 1), 0);
  return text + ' '.repeat(Math.max(0, width - w));
}
