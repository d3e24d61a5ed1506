/**
 * The director-facing text of the flags issue #15 changed, one function per flag kind, so that what a
 * flag says lives in one place (a public sentence / director note split can start here).
 */
import type { WordingHit } from './wording.js';
import { describeHit } from './wording.js';
import type { ProfileChange } from './profile.js';

/** banned-wording: the category, the player's words and what they disguise, and the rule-post line. */
export function wordingDetail(hit: WordingHit, ruleset: string): string {
  const lines = hit.cites.filter((c) => c.split(':')[0] === ruleset).map((c) => `l.${c.split(':')[1]}`);
  return lines.length ? `${describeHit(hit)}（规则帖 ${lines.join('、')}）` : describeHit(hit);
}

/** Where a post is, for a director: 帖 12 的 30 楼. */
function where(p: { tid: number; floor: number | null }): string {
  return `帖 ${p.tid} 的 ${p.floor ?? '?'} 楼`;
}

/** avatar-changed / signature-changed: what changed, the posts before and after, how it is timed. */
export function profileDetail(c: ProfileChange, local: (ms: number) => string): string {
  const what = c.what === 'avatar' ? '头像' : '签名档';
  const before = `${c.before === null ? `原无${what}` : `原${what}`}见${where(c.beforePost)}（${local(c.beforePost.at)}）`;
  const after = `${c.after === null ? `${what}已去掉` : `新${what}`}见${where(c.post)}（${local(c.post.at)}）`;
  const timing = c.postedAfter
    ? '此帖发于最后一次看到原值之后'
    : `此前的帖子是重新抓取时才显示新值的：更换发生在 ${local(c.oldLastSeen)} 与 ${local(c.newFirstSeen)} 两次抓取之间`;
  return `游戏期间更换${what}：${before}，${after}；${timing}`;
}

/** The snippet of a profile flag: the new signature's words; never an avatar's URL. */
export function profileSnippet(c: ProfileChange): string {
  if (c.what === 'signature') return c.after ?? '（签名档已去掉）';
  return c.after === null ? '（头像已去掉）' : '（头像已更换）';
}
