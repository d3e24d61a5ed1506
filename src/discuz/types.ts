/**
 * What one fetched Discuz! page becomes. The parser (src/discuz/parse-page.ts) produces these; the store
 * keeps them; every analysis reads them. Field names here are also the `bansha parse --json` interface.
 */

/** One HTTP response as the crawler (or a file on disk) hands it to the parser. */
export interface FetchedPage {
  /** Raw body bytes: decoding is the parser's job (GBK and UTF-8 both occur). */
  bytes: Uint8Array;
  /** Absolute URL the page was fetched from (after redirects). */
  url: string;
  /** When it was fetched: relative times ("3 分钟前") without a title resolve against it. */
  fetchedAt: Date;
  /** HTTP status, when known (404 for a missing thread, 503 for a System Error). */
  status?: number;
  /** The Content-Type header, when known: its charset wins over the meta tag unless it is wrong. */
  contentType?: string;
}

/**
 * What a page is, decided from its own markers, never from the URL alone, so an error page can never
 * be mistaken for an empty thread.
 */
export type PageKind =
  | 'thread' // a normal thread page (desktop or mobile template)
  | 'author-only' // 只看该作者 view: floors are renumbered
  | 'printable' // action=printable: first 100 posts, no pid/uid/floor
  | 'login' // the login form
  | 'no-permission' // guest refused / 本帖要求阅读权限高于 N
  | 'not-found' // 指定的主题不存在或已被删除或正在被审核
  | 'challenge' // anti-CC reload page or antitheft script redirect
  | 'server-error' // Discuz "System Error" / 5xx
  | 'unknown';

export type Template = 'desktop' | 'mobile';

/** A font colour or size as the author wrote it, with the text it applies to (for evidence). */
export interface FontUse {
  /** As written: "Red", "#FF0000", "rgb(255, 0, 0)", "6", "20px". */
  value: string;
  /** The player's own text inside that font tag (quotes and jammer removed). */
  text: string;
}

export interface EditMarker {
  /** Who edited: usually the author, sometimes a moderator. */
  by: string;
  /** ISO 8601 with offset; the marker shows minutes only. */
  at: string;
}

export interface Attachment {
  name: string;
  url: string | null;
}

export interface Post {
  /** Stable post id. null only on printable pages, which carry none. */
  pid: number | null;
  tid: number | null;
  /**
   * Floor number as the page shows it (renumbered in the only-author view): the label's number or known
   * name (楼主/沙发…, 樓主/沙發…), else — a language pack's or an admin's other words — derived from the
   * page's structure (parse-page.ts deriveFloors, warned where only one side fixes it); null only with a
   * page warning saying the floor cannot be told.
   */
  floor: number | null;
  /** The floor as printed: "楼主", "沙发", "12#"... */
  floorLabel: string | null;
  author: string;
  authorId: number | null;
  /** ISO 8601 with the forum's offset, e.g. "2026-11-22T13:00:27+08:00". */
  postedAt: string;
  timePrecision: 'minute' | 'second';
  /** Where the time came from: an absolute stamp, a title attribute, or resolved against fetchedAt. */
  timeSource: 'absolute' | 'title' | 'relative';
  /**
   * Only for a relative time resolved against fetchedAt ("3 小时前", "5 天前"): the earliest instant the
   * text allows; postedAt is then the latest. Absent when the page gave the time itself.
   */
  timeEarliest?: string;
  /** The author's own text: no quotes, reply headers, jammer, edit marker or signature. Lines kept. */
  text: string;
  /** pids of the posts quoted (引用) in this post. */
  quotes: readonly number[];
  /** pid of the post replied to with a 回复 N# header, when the message carries one. */
  replyTo: number | null;
  edited: EditMarker | null;
  colors: readonly FontUse[];
  sizes: readonly FontUse[];
  links: readonly string[];
  images: readonly string[];
  attachments: readonly Attachment[];
  signature: string | null;
  avatar: string | null;
  /**
   * Discuz blocks this post's body from ordinary readers: its author is banned (作者被禁止或删除 内容自动屏蔽)
   * or a moderator shielded it (该帖被管理员或版主屏蔽) — state 'banned' or 'shielded'. In a moderator's
   * view the text is still there (readable: true); in anyone else's it is not.
   */
  deleted: boolean;
  /**
   * The post-level notice as printed (div.locked: 作者被禁止或删除…, 该帖被管理员或版主屏蔽, 此帖仅作者可见,
   * 本帖为密码帖, 付费主题, 待审核), whether or not the text follows it; null when there is none.
   */
  locked: string | null;
  /**
   * What Discuz marked about this post's body for the viewing account (absent: 'normal'). A state other
   * than 'normal' with `readable: false` means the text is a notice, not what the author wrote: never
   * read it as "no ballot" or "no post". With `readable: true` (a moderator's or the author's own view,
   * which print the notice and then the text) the text is the author's and the state says why others
   * may not see it. Read from the markup first (a notice with or without the message after it, a
   * password input, payment links, the 待审核 placeholder or mark, the warning icon, [hide]'s blocks),
   * the notice's words (selectors' statePatterns) only telling banned from shielded and the like; a
   * notice in no known words reads as 'shielded' with a page warning. The state of the post's body,
   * never of the thread: a later fetch (a moderator's approval) can change it.
   */
  state?: PostState;
  /** The author's text is present in `text` (false for a notice in its place). Absent: true. */
  readable?: boolean;
  /**
   * Parts of the message this account was not shown ([hide] blocks it has not replied to or lacks the
   * credits for): the notice Discuz printed in each part's place, in order. Present only when some
   * part is missing; the post's state is then 'hidden' and `text` holds the rest of the author's words
   * (readable: true when there is any, false when the whole message was hidden). The notices are not
   * in `text`.
   */
  hiddenParts?: string[];
}

/**
 * A post's state as Discuz's templates mark it (viewthread_node.htm, lang_template.php):
 * - banned: 作者被禁止或删除 内容自动屏蔽 (the author is banned or deleted; no message cell)
 * - shielded: 该帖被管理员或版主屏蔽 (a moderator shielded it)
 * - pending: 待审核 / 本帖正在审核中 (awaiting moderation; only its author and moderators see it)
 * - hidden: [hide] content: the part this account has not replied to / lacks the credits for is
 *   missing (Post.hiddenParts), or, with no hiddenParts, the account was shown it (div.showhide)
 * - author-only: 此帖仅作者可见
 * - paid / password: a paid or password-protected post
 * - warned: 受到警告 (the text is shown; the post carries a warning)
 */
export type PostState = 'normal' | 'banned' | 'shielded' | 'pending' | 'hidden' | 'author-only' | 'paid' | 'password' | 'warned';

/**
 * A floor slot Discuz keeps for a post that is no longer on the forum: `div#post_PID` with the floor
 * number and a one-line notice (无效楼层，该帖已经被删除 in Chinese) but no author, time or message.
 * Not a post: a count goes on without it and lists it as a note.
 */
export interface VanishedSlot {
  pid: number | null;
  /**
   * The true floor: from the slot's label (renumbered on a newest-first page), else from its place
   * among the page's posts as a post's would be; null only with a page warning saying so.
   */
  floor: number | null;
  /** The notice as printed, in the forum's language pack. */
  notice: string;
}

export interface PageInfo {
  kind: PageKind;
  template: Template;
  tid: number | null;
  title: string | null;
  /** 1-based page number; null when the page has no pager notion (printable, error pages). */
  page: number | null;
  pageCount: number | null;
  url: string;
  /** The only-author view's uid, when kind is 'author-only'. */
  authorFilter: number | null;
  charset: string;
  /** A short human-readable reason for non-thread kinds ("抱歉，您尚未登录…"). */
  message: string | null;
  /** Things noticed while reading that a director may need to know (charset fixed up, zone mismatch). */
  warnings?: string[];
  /** The render time from the desktop footer ("GMT+8, 2026-11-30 16:02"), ISO with offset, when shown. */
  renderedAt?: string | null;
  /**
   * The thread's reply count as the page shows it: desktop "查看: N | 回复: M" in the thread header,
   * touch "全部回复M" — both on page 1 only (later pages show 楼主 instead); null when the page does
   * not show it. Discuz prints allreplies = replies + 点评 comments, so it equals floors − 1 only on a
   * thread without 点评 (see `comments`).
   */
  replies?: number | null;
  /** Some post on this page shows 点评 comments (which Discuz adds into the shown reply count). */
  comments?: boolean;
  /**
   * The page showed the thread newest-first (倒序, ordertype=1): its posts are returned oldest first
   * with their true floors (the labels as printed stay in floorLabel).
   */
  reversed?: boolean;
  /**
   * Slots of deleted posts the page still shows (see VanishedSlot), in page order with their true
   * floors; absent or empty when none. Their pids are on no Post.
   */
  vanished?: VanishedSlot[];
  /**
   * How the parser knew the page was whole, set on every thread page: the signals that agreed, joined
   * by '+': always 'html-end' (the document reached </html>), then 'footer' (the selectors'
   * page.footer after the post list) or, failing it, 'end-text' (page.endTextPattern — Discuz's
   * "Powered by Discuz!" line — after the post list), then 'pager' when a pager after the post list
   * shows the same page as the one before it. A page where neither footer nor end text follows the
   * post list is refused (ParseError naming both), never returned.
   */
  wholeBy?: string;
}

export interface Page {
  page: PageInfo;
  posts: Post[];
}
