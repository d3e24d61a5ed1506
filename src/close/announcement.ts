/**
 * Where a day's announcement is published: as an edit of the tool's own earlier announcement of that
 * day and vote when the store holds one (found by its mark, src/votes/own-posts.ts), else as a reply in
 * the vote thread — so publishing twice edits, never posts again. The store must have seen the earlier
 * post: `bansha close` crawls the day's threads before it posts.
 */
import { UserError } from '../errors.js';
import type { Game } from '../game/types.js';
import { editPostPlan, replyPlan, type PublishPlan } from '../publish/plan.js';
import { threadPosts } from '../store/slice.js';
import { incompleteLines } from '../render/incomplete.js';
import type { Completeness, StoreData } from '../store/types.js';
import { announcementMark, isOwnPost } from '../votes/own-posts.js';
import type { TallyResult } from '../votes/types.js';
import { t } from '../i18n/index.js';

/** The plan that publishes `bbcode`, the announcement of `tally`, in its thread. */
export function announcementPlan(store: StoreData, game: Game, tally: TallyResult, bbcode: string): PublishPlan {
  if (tally.tid === null) throw new Error('a count without a thread has no announcement to publish');
  const what = t('tally.postWhat', tally.day, tally.kind === 'rule');
  const mark = announcementMark(tally.day, tally.kind);
  const own = threadPosts(store, tally.tid).filter((p) => !p.missing && isOwnPost(game, p) && p.text.includes(mark)).at(-1);
  return own
    ? editPostPlan(store, game.forum, tally.tid, own.pid, bbcode, t('close.editingEarlier', what, own.pid))
    : replyPlan(store, game.forum, tally.tid, bbcode, what);
}

/**
 * --post never publishes a partial count (issue 13): exit 3 naming what is missing — nor (issue 31) a
 * count that posts this account cannot read could change, before the director ruled on each (`tally`).
 */
export function refuseIncompletePost(incomplete: readonly Completeness[], tally?: TallyResult | null): void {
  if (incomplete.length) throw new UserError(t('close.postIncomplete', incompleteLines(incomplete).join('\n  ')), 3);
  if (tally) refuseUnruled(tally, 'post');
}

/**
 * `--post` and `--confirm` refuse (exit 3) a count that posts this account cannot read could change —
 * in its vote thread (TallyResult.unreadable: a ballot), in the process thread (unreadableProcess: an
 * acceleration request or withdrawal), or one a sheriff's handover waits on (unreadableSuccession: it may
 * name the successor) — naming them, until the director rules on each.
 */
export function refuseUnruled(tally: Pick<TallyResult, 'day' | 'unreadable' | 'unreadableProcess' | 'unreadableSuccession'>, what: 'post' | 'confirm'): void {
  const vote = tally.unreadable?.couldChange ? tally.unreadable.pids : [];
  const process = tally.unreadableProcess?.couldChange ? tally.unreadableProcess.pids : [];
  const successor = tally.unreadableSuccession?.couldChange ? tally.unreadableSuccession.pids : [];
  if (!vote.length && !process.length && !successor.length) return;
  throw new UserError(t('close.unreadableRefusal', what === 'post', tally.day, vote.join(', '), process.join(', '), successor.join(', ')), 3);
}
