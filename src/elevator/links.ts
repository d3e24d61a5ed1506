/**
 * Links into a Discuz! forum for the elevator floor: the only-this-author view of a thread (rules-spec §9,
 * docs/discuz-notes.md "Other views").
 *
 * Rewrite forums (thread-T-P-1.html) have no rewrite rule for the only-author view: Discuz X3.5's rewrite
 * rules cover topic, article, forumdisplay, viewthread (without authorid), group, space, blog and archiver,
 * and a rewrite forum's own "只看该作者" links stay in the query form (fixtures/discuz/public-gbk,
 * thread-13-1-1.html). So the link is always the query form, which every Discuz answers; the rewrite
 * detection is still reported so the director knows which style the forum uses.
 */
import type { StoreData } from '../store/types.js';

/** The URL style a forum's thread pages use, as seen in the stored page URLs. */
export type LinkStyle = 'query' | 'rewrite';

const REWRITE_THREAD = /(?:^|\/)thread-\d+-\d+-\d+\.html(?:$|[?#])/;

/** 'rewrite' when the crawl fetched thread pages by their rewrite URL (thread-T-P-1.html), else 'query'. */
export function forumLinkStyle(store: Pick<StoreData, 'threads'>): LinkStyle {
  for (const thread of Object.values(store.threads)) {
    for (const page of Object.values(thread.pages)) {
      if (REWRITE_THREAD.test(page.url)) return 'rewrite';
    }
  }
  return 'query';
}

/** The only-this-author view of thread `tid`, page 1, for user `uid`, on `forum` (root ending in "/"). */
export function authorOnlyUrl(forum: string, tid: number, uid: number): string {
  return `${forum}forum.php?mod=viewthread&tid=${tid}&page=1&authorid=${uid}`;
}
