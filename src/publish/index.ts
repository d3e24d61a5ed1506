/**
 * `--post`: publish the elevator floor or the tally announcement on the forum through the logged-in
 * browser session — a reply, or an edit of floor 2. A dry run by default (exactly what would be
 * posted, where, and as whom; nothing is posted); `--yes` posts, checks it landed and prints the link.
 */
import type { Game } from '../game/types.js';
import { t } from '../i18n/index.js';
import { terminalSafe } from '../text/safe-text.js';
import { publish, type PublishResult } from './browser.js';
import { renderDryRun, sessionIdentity, type PublishPlan } from './plan.js';

export { publish, postCarries, comparableText, messageLinks, type PublishOptions, type PublishResult } from './browser.js';
export {
  replyPlan, editFloor2Plan, editPostPlan, editRefusal, sessionIdentity, renderDryRun, messageOf, threadUrl,
  type PublishPlan, type PublishKind, type Poster,
} from './plan.js';
export { publishSelectors, editPath, PUBLISH_SELECTOR_FILE, type PublishSelectors } from './selectors.js';

/** What `--post` printed: the dry run, or the posted result. */
export type PostOutcome = { dryRun: true; plan: PublishPlan; text: string } | { dryRun: false; plan: PublishPlan; result: PublishResult; text: string };

/**
 * The `--post` step of a command: without `yes` the dry run (identity read with a plain GET, nothing
 * posted); with `yes` the post in Chromium and its link. `text` is what the command prints (JSON when
 * `json`). Throws UserErrors (refused edit, login needed, forum refused).
 */
export async function runPost(plan: PublishPlan, game: Game, opts: { yes?: boolean; json?: boolean; log?: (line: string) => void } = {}): Promise<PostOutcome> {
  if (!opts.yes) {
    const who = await sessionIdentity(plan.forum, plan.tid, game.sessionPath, game.file);
    const text = opts.json
      ? `${JSON.stringify({ dryRun: true, kind: plan.kind, tid: plan.tid, pid: plan.target?.pid ?? null, what: plan.what, as: who.poster, problem: who.problem, message: plan.message }, null, 2)}\n`
      : renderDryRun(plan, who, game.sessionPath);
    return { dryRun: true, plan, text };
  }
  const result = await publish(plan, { sessionPath: game.sessionPath, gameFile: game.file, browserPath: game.browser, log: opts.log });
  const how = plan.kind === 'reply' ? t('post.replied', plan.tid) : t('post.edited', plan.target?.floor ?? 2, result.pid, plan.tid);
  const text = opts.json
    ? `${JSON.stringify({ dryRun: false, kind: plan.kind, tid: plan.tid, pid: result.pid, url: result.url, as: result.poster }, null, 2)}\n`
    : terminalSafe(`${t('post.posted', how, result.poster.name, result.poster.uid)}\n${result.url}\n`);
  return { dryRun: false, plan, result, text };
}
