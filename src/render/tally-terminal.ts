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
import { sheriffSourceText } from '../votes/reasons.js';
import { forumTime } from '../game/forum-time.js';
import type { BallotRecord, TallyResult } from '../votes/types.js';
import { goneText, incompleteText, staleText } from './incomplete.js';
import { t } from '../i18n/index.js';
import { displayWidth, padDisplay as pad } from '../text/width.js';
import { revealBidi, terminalSafe as s } from '../text/safe-text.js';

export interface TerminalOptions {
  color?: boolean;
}

/** Marks what only the director reads (never in BBCode or a post). */

const KIND = { election: 'tally.kind.election', elimination: 'tally.kind.elimination', rule: 'tally.kind.rule', none: 'tally.kind.none' } as const;

/** The report as lines of text ending in a newline. */
export function renderTallyTerminal(r: TallyResult, opts: TerminalOptions = {}): string {
  const c = pc.createColors(opts.color ?? false);
  const time = (ms: number) => forumTime(ms, r.timezone);
  if (r.kind === 'none') return `${t('tally.noPublic', r.day, s(r.reason ?? ''))}\n`;
  const out: string[] = [...incompleteText(r.incomplete), ...staleText(r.stale, r.timezone), ...goneText(r.gone, r.timezone)].map((l) => c.red(l));
  if (r.running) out.push(c.yellow(t('fresh.asOfLine', time(r.countedAt), time(r.closes))));
  const when = r.running ? t('tally.running', time(r.countedAt), time(r.closes)) : t('tally.closed', time(r.closes));
  out.push(c.bold(t('tally.heading', r.day, t(KIND[r.kind]), r.tid, when, r.timezone)));
  const source = s(sheriffSourceText(r.sheriffFrom, r.timezone));
  out.push(t('tally.sheriff', r.sheriff ? t('tally.sheriffWeight', s(r.sheriff), source, fmt(r.sheriffWeight)) : source));
  if (r.acceleration) {
    out.push(t('tally.acceleration', s(r.acceleration.explanation)));
    // Who asked, when, where — and why a request did not count (the audit, src/votes/acceleration.ts).
    for (const q of r.acceleration.audit) {
      const where = `${q.floor ?? '?'}# ${time(q.at)}  ${s(q.url)}`;
      out.push(q.counted ? `  ${c.green('✓')} ${s(q.player)}  ${where}` : `  ${c.red('✗')} ${s(q.player)}  ${where}  ${c.red(s(q.reason ?? ''))}`);
    }
  } else if (r.accelerated) out.push(t('tally.accelerationDeclared'));

  out.push('', c.bold(t('tally.totals')));
  const width = Math.max(4, displayWidth(t('tally.abstain')), ...r.totals.map((l) => displayWidth(s(l.name))));
  for (const l of r.totals) out.push(`  ${pad(s(l.name), width)}  ${fmt(l.votes).padStart(4)}   ${l.voters.map(s).join(', ')}`);
  if (r.abstentions.length) out.push(`  ${pad(t('tally.abstain'), width)}     -   ${r.abstentions.map(s).join(', ')}`);
  if (!r.totals.length && !r.abstentions.length) out.push(t('tally.noBallots'));

  // Before the close: who leads, not a result (no 出局/当选 wording, no rule deciding it).
  const name = r.result.name !== null ? s(r.result.name) : r.running ? t('tally.noLeader') : r.kind === 'elimination' ? t('tally.nobodyOut') : t('tally.noResult');
  const tie = r.result.tie.length ? t('tally.tie', r.result.tie.map(s).join(', ')) : '';
  if (r.running) out.push('', `${c.bold(t('tally.leaders'))}${c.bold(name)}${tie}`);
  else out.push('', `${c.bold(t('tally.result'))}${c.bold(name)}${tie}`, t('tally.why', s(r.result.rule)));
  if (r.result.note) out.push(c.yellow(`  ${t('note.director')}${s(r.result.note)}`));

  out.push('', c.bold(t('tally.players')));
  for (const p of r.players) {
    const tag = p.state === 'out' ? c.dim(t('tally.out')) : p.state === 'idiot' ? c.dim(t('tally.idiot')) : '';
    if (p.counted) {
      out.push(`  ${c.green('✓')} ${s(p.player)}${tag} → ${s(p.counted.target ?? '')}${weightNote(p.counted)}  ${line(p.counted, time)}${p.counted.reason ? c.yellow(`  ! ${s(p.counted.reason)}`) : ''}`);
      if (p.counted.note) out.push(c.yellow(`        ${t('note.director')}${s(p.counted.note)}`));
    }
    else if (p.state === 'unreadable') out.push(`  ${c.yellow('?')} ${s(p.player)}${tag}${t('tally.colon')}${t('tally.unreadableVoter')}`);
    else out.push(`  ${c.red('·')} ${s(p.player)}${tag}${t('tally.colon')}${t(p.state === 'out' ? 'tally.noVoteOut' : p.state === 'idiot' ? 'tally.noVote' : p.others.length ? 'tally.noValidBallot' : 'tally.castNothing')}`);
    for (const b of p.others) {
      const mark = b.status === 'superseded' ? c.dim('↺') : c.red('✗');
      out.push(`      ${mark} ${t(`tally.status.${b.status}`)}${t('tally.colon')}${b.target !== null ? s(revealBidi(b.target)) : t('tally.noneRead')}  ${line(b, time)}`);
      if (b.reason) out.push(`        ${b.status === 'rejected' ? c.red(s(b.reason)) : c.dim(s(b.reason))}`);
      if (b.note) out.push(c.yellow(`        ${t('note.director')}${s(b.note)}`));
      if (b.edit) out.push(c.dim(`        ${t('tally.edit', oneLine(b.edit.before), oneLine(b.edit.after))}`));
    }
    if (p.counted?.edit) out.push(c.dim(`        ${t('tally.edit', oneLine(p.counted.edit.before), oneLine(p.counted.edit.after))}`));
  }
  const strays = r.ballots.filter((b) => !r.players.some((p) => p.player === b.voter));
  if (strays.length) {
    out.push('', c.bold(t('tally.notPlayers')));
    for (const b of strays) out.push(`  ${c.red('✗')} ${s(b.voter)}${t('tally.colon')}${line(b, time)}  ${s(b.reason ?? '')}${b.note ? `  ${t('note.director')}${s(b.note)}` : ''}`);
  }
  if (r.misplaced?.length) {
    out.push('', c.bold(t('tally.misplaced')));
    for (const m of r.misplaced) {
      out.push(`  ${c.yellow('?')} ${s(m.player)} → ${m.target === null ? t('tally.noneRead') : s(revealBidi(m.target))}  ${t(m.thread === 'discussion' ? 'tally.discussionThread' : 'tally.processThread')} ${m.tid} ${m.floor ?? '?'}# ${time(m.at)}  ${s(m.url)}`);
    }
  }
  const flagged = r.ballots.filter((b) => b.flags.length);
  if (r.notes.length || flagged.length) {
    out.push('', c.bold(t('tally.forDirector')));
    for (const n of r.notes) out.push(`  - ${s(n)}`);
    for (const b of flagged) for (const f of b.flags) out.push(`  - ${s(b.voter)} ${b.floor ?? '?'}#: ${s(f)}`);
  }
  return `${out.join('\n')}\n`;
}

function line(b: BallotRecord, time: (ms: number) => string): string {
  return `${b.floor ?? '?'}# ${time(b.at)}${b.proxyBy ? t('tally.proxy', s(b.proxyBy)) : ''}  ${s(b.url)}`;
}

function weightNote(b: BallotRecord): string {
  return b.weight !== 1 && b.target !== '弃权' ? ` (×${fmt(b.weight)})` : '';
}

/** Player text on one line, terminal-safe. */
function oneLine(text: string): string {
  return s(text).replace(/\s*\n\s*/g, ' / ');
}
