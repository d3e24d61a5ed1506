/**
 * What `--post` would publish, where, and as whom — everything decided before a browser starts, so the
 * dry run (the default) shows exactly the message and the target and posts nothing. A plan is a reply
 * to a thread, or the replacement of floor 2 of a thread (the elevator floor, rules-spec §9), whose
 * pid and author come from the store.
 */
import { UserError } from '../errors.js';
import { t } from '../i18n/index.js';
import { HostScope, httpGet } from '../crawl/http.js';
import { CookieJar, readSession } from '../crawl/session.js';
import { decodeBody } from '../discuz/index.js';
import { threadPosts } from '../store/slice.js';
import type { StoreData } from '../store/types.js';
import { pageUid, publishSelectors } from './selectors.js';
import { stripControls, terminalSafe } from '../text/safe-text.js';

/** A reply to thread `tid`, or an edit of its floor 2. */
export type PublishKind = 'reply' | 'edit';

/** Everything needed to post, fixed before anything is posted. */
export interface PublishPlan {
  kind: PublishKind;
  /** Forum root, ending in "/". */
  forum: string;
  tid: number;
  /** The thread's title as stored (for the dry run), when known. */
  title: string | null;
  /** What is published, for people: "the day 2 elevator floor (电梯楼)". */
  what: string;
  /** The message exactly as it is typed into the forum's editor (BBCode, "\n" line breaks). */
  message: string;
  /** edit: the post replaced (floor 2, or the tool's own earlier announcement), its author as the store has it, and its page (default 1). */
  target: { pid: number; floor: number; author: string; authorId: number | null; page?: number } | null;
}

/** Who the login session is on the forum. */
export interface Poster {
  uid: number;
  name: string | null;
}

/** The message as posted: the BBCode without its trailing line break(s) (Discuz trims a message). */
export function messageOf(bbcode: string): string {
  return bbcode.replace(/\s+$/u, '');
}

/** The thread page URL (query form, page 1). */
export function threadUrl(forum: string, tid: number, page = 1): string {
  return `${forum}forum.php?mod=viewthread&tid=${tid}${page > 1 ? `&page=${page}` : ''}`;
}

/** A plan to reply to thread `tid` with `bbcode`. */
export function replyPlan(store: StoreData, forum: string, tid: number, bbcode: string, what: string): PublishPlan {
  return { kind: 'reply', forum, tid, title: store.threads[String(tid)]?.title ?? null, what, message: messageOf(bbcode), target: null };
}

/**
 * A plan to replace floor 2 of thread `tid` with `bbcode`. Floor 2 (its pid and author) comes from the
 * store; throws a UserError (exit 3) when the crawl has not seen it.
 */
export function editFloor2Plan(store: StoreData, forum: string, tid: number, bbcode: string, what: string, gameFile: string): PublishPlan {
  const floor2 = threadPosts(store, tid).find((p) => p.floor === 2 && !p.missing);
  if (!floor2) {
    throw new UserError(
      t('post.noFloor2', tid, gameFile),
      3,
    );
  }
  return {
    kind: 'edit',
    forum,
    tid,
    title: store.threads[String(tid)]?.title ?? null,
    what,
    message: messageOf(bbcode),
    target: { pid: floor2.pid, floor: 2, author: floor2.author, authorId: floor2.authorId },
  };
}

/** A plan to replace the stored post `pid` of thread `tid` (the tool's own earlier post) with `bbcode`. */
export function editPostPlan(store: StoreData, forum: string, tid: number, pid: number, bbcode: string, what: string): PublishPlan {
  const post = threadPosts(store, tid).find((p) => p.pid === pid);
  if (!post) throw new UserError(t('err.pidNotStored', pid, tid), 3);
  const page = Object.values(store.threads[String(tid)]?.pages ?? {}).find((r) => r.pids.includes(pid))?.page ?? 1;
  return {
    kind: 'edit', forum, tid, title: store.threads[String(tid)]?.title ?? null, what, message: messageOf(bbcode),
    target: { pid, floor: post.floor ?? 0, author: post.author, authorId: post.authorId, page },
  };
}

/** Why posting as `poster` cannot edit the plan's target, or null when it can (it is the author). */
export function editRefusal(plan: PublishPlan, poster: Poster): string | null {
  if (plan.kind !== 'edit' || !plan.target) return null;
  if (plan.target.authorId !== null && plan.target.authorId === poster.uid) return null;
  return t('publish.notAuthor', plan.target.floor, plan.tid, plan.target.pid, plan.target.author, plan.target.authorId, poster.name ?? '?', poster.uid);
}

/**
 * Who the saved login session is, read from the thread page with a plain GET (nothing is posted):
 * `discuz_uid` and the name in the header. `problem` says why not when it cannot tell (no session,
 * a session others can read, logged out, forum unreachable). Never prints a cookie.
 */
export async function sessionIdentity(
  forum: string,
  tid: number,
  sessionPath: string,
  gameFile?: string,
): Promise<{ poster: Poster | null; problem: string | null }> {
  try {
    const state = await readSession(sessionPath, gameFile);
    const jar = new CookieJar(state.cookies);
    const res = await httpGet(threadUrl(forum, tid), { jar, scope: new HostScope(forum), timeoutMs: 15_000 });
    const html = decodeBody(res.bytes, res.contentType).text;
    const uid = pageUid(publishSelectors(), html);
    if (!uid) return { poster: null, problem: t('post.guestSession', sessionPath, gameFile ?? '<game.yaml>') };
    const name = /<strong class="vwmy[^"]*"><a [^>]*>([^<]+)<\/a>/.exec(html)?.[1] ?? null;
    return { poster: { uid, name }, problem: null };
  } catch (err) {
    return { poster: null, problem: (err as Error).message };
  }
}

/** The dry run: what would be posted (exactly), where, and as whom; says that nothing was posted. */
export function renderDryRun(plan: PublishPlan, who: { poster: Poster | null; problem: string | null }, sessionPath: string): string {
  const title = plan.title ? ` 「${plan.title}」` : '';
  const url = threadUrl(plan.forum, plan.tid);
  const lines = [
    t('post.dryRun'),
    t('post.what', plan.what),
    plan.kind === 'reply' ? t('post.whereReply', plan.tid, title, url) : t('post.whereEdit', plan.target!.floor, plan.target!.pid, plan.target!.author, plan.tid, title, url),
    who.poster ? t('post.as', who.poster.name, who.poster.uid, sessionPath) : t('post.asUnknown', who.problem),
  ];
  const refusal = who.poster ? editRefusal(plan, who.poster) : null;
  if (refusal) lines.push(t('post.wouldRefuse', refusal));
  lines.push(t('post.bbcodeStart', plan.message.split('\n').length));
  // Titles, names and the forum's words through the terminal filter; the message only loses what
  // escapeBBCode already removed (controls), so it stays exactly what --yes would post.
  return `${terminalSafe(lines.join('\n'))}\n${stripControls(plan.message)}\n${t('post.bbcodeEnd')}\n`;
}
