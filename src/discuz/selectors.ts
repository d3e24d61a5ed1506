/**
 * Selector sets: how one Discuz template family lays out its pages, as data in selectors/*.json so a
 * director can adapt bansha to a forum's theme by editing a file. discuz-x3-desktop.json (default
 * desktop template + printable view) comes first, discuz-x3-mobile.json (touch template, mobile=2)
 * second. Loaded once and validated with zod. The page, post and message selectors are compiled once
 * into css-select predicates (select.ts) for the thread hot path; the kinds.* selectors stay strings,
 * run through cheerio on the few non-thread pages, but are compiled at load too so that a bad
 * selector anywhere fails at load time with the file name.
 */
import { z } from 'zod';
import { UserError } from '../errors.js';
import { t } from '../i18n/index.js';
import { readJsonFile, zodProblem } from '../i18n/parser-problems.js';
import { useZodLanguage } from '../i18n/zod-language.js';
import { packagePath } from '../paths.js';
import { compileSelector as compile, type Matcher } from './select.js';
import type { Template } from './types.js';

const selectorSetSchema = z.object({
  name: z.string(),
  template: z.enum(['desktop', 'mobile']),
  notes: z.string().optional(),
  detect: z.string(),
  page: z.object({
    title: z.string(),
    /** Parts of the title element that are not the subject (the touch template's [分类] prefix). */
    titleIgnore: z.string().default(''),
    pager: z.string(),
    pagerCurrent: z.string(),
    pagerTotal: z.string(),
    pagerTotalPattern: z.string(),
    tidPatterns: z.array(z.string()),
    authorFilterPattern: z.string(),
    footer: z.string(),
    footerTime: z.string(),
    footerTimePattern: z.string(),
    /** The element whose text shows the thread's reply count (page 1 only in the default templates). */
    replies: z.string().default(''),
    /** Pattern on that element's collapsed text; group 1 is the count. */
    repliesPattern: z.string().default(''),
    /**
     * The 正序浏览 link (Discuz's ordertype=2): shown only on a thread displayed newest-first
     * (ordertype=1, 倒序), whose floor labels are then off (parse-page.ts readReversed).
     */
    orderAscLink: z.string().default(''),
    /**
     * Text that Discuz prints after the post list on a whole page whatever the template (its licence
     * line, "Powered by Discuz!"): with page.footer, what tells a whole page from a cut one
     * (parse-page.ts wholePage). Empty: only page.footer counts.
     */
    endTextPattern: z.string().default('Powered by\\s*Discuz'),
  }),
  post: z.object({
    item: z.string(),
    itemIdPattern: z.string(),
    /**
     * The census: every id the page's bytes give a post (post_N, postmessage_N, pidN), group 1 the
     * pid. A pid found here but not parsed (nor recognised as a hot-reply copy) refuses the page.
     */
    censusPattern: z.string(),
    /** An element of the post block (besides the container) whose id carries the pid (table#pidN). */
    pidCarrier: z.string().default(''),
    /**
     * Ids carrying the pid: on the carrier and on the floor, time, message and comment elements, an id
     * matching this pattern must have exactly the pid as group 1, else the page is refused.
     */
    pidIdPattern: z.string().default(''),
    floor: z.string(),
    author: z.string(),
    guestAuthor: z.string(),
    time: z.string(),
    timeIgnore: z.string(),
    message: z.string(),
    /**
     * The element around the message where the browser puts what a stray end tag in the author's
     * HTML pushed out of it (</td> or </table> out of td.t_f, </div> out of the touch div.message):
     * text and inline markup found there beside the message is read with it, in the browser's order.
     */
    messageBox: z.string().default(''),
    locked: z.string(),
    signature: z.string(),
    avatar: z.string(),
    attachments: z.string(),
    /** The post's 点评 (comment) block: any element inside it means the post shows comments. */
    comments: z.string().default(''),
    /**
     * Inside that block, what only a real 点评 list has (its 点评 header): a block that merely holds
     * other elements (markup a missing </div> pushed into it) is not a comment.
     */
    commentsMark: z.string().default(''),
    /**
     * Where a deleted post's slot prints its floor (viewthread_node.htm's `<div class="pi"><strong><a>5#`,
     * an anchor without the postnum id): a post block with no author, time, message or notice is such
     * a slot (PageInfo.vanished), its notice the block's other text.
     */
    slotFloor: z.string().default('div.pi strong, strong'),
    /**
     * Inside the floor label, what marks a stuck reply's copy (viewthread_node.htm: `<em class="replystick">`
     * before 来自 N#): a copy by structure, whatever the language pack calls it (copyFloorPattern is the words).
     */
    copyMark: z.string().default(''),
    /**
     * Notices a template prints as the message's own children in place of (or before) the author's
     * text (the touch template's `<div class="quote">作者被禁止或删除…</div>`, which has no blockquote).
     */
    messageNotice: z.string().default(''),
    /** The warning mark on a post (受到警告: desktop a.warnicon). */
    warned: z.string().default(''),
    /** The 待审核 mark a moderator sees beside a post awaiting moderation (desktop div.pob em span.xg1). */
    pending: z.string().default(''),
    /**
     * The element a post awaiting moderation shows as its whole message to its author (desktop
     * `<td class="t_f"><span class="xg1">待审核</span></td>`): the message's only content.
     */
    pendingPlaceholder: z.string().default(''),
  }),
  message: z.object({
    strip: z.string(),
    /** A last line Discuz appends to the message that the author did not write (来自群组: …). */
    trailerPattern: z.string().default(''),
    quote: z.string(),
    quoteLink: z.string(),
    editMarker: z.string(),
    editPattern: z.string(),
    replyHeader: z.string(),
    replyPattern: z.string(),
    replyLink: z.string(),
    smilie: z.string(),
    /**
     * A [hide] block the account may not see, printed inside the message in place of that part
     * (discuzcode's tpl_hide_reply_hidden / creditshide: div.locked): read as a missing part.
     */
    hiddenPart: z.string().default(''),
    /** A [hide] block the account may see (div.showhide): the text is read, the post marked 'hidden'. */
    hiddenShown: z.string().default(''),
    /**
     * The words of a hiddenPart element that announce the text following it instead of replacing it
     * (以下内容需要积分高于 N 才可浏览, shown to an account that has the credits).
     */
    hiddenShownPattern: z.string().default(''),
    /**
     * Chrome Discuz may leave unclosed inside a message (the image tip div.tip of a guest view): its
     * own leading parts are skipped, what the browser nested after them is read (message.ts).
     */
    openChrome: z.string().default(''),
  }),
  floorNames: z.record(z.string(), z.number().int()),
  floorPattern: z.string(),
  /** The first post's label on a newest-first page, where Discuz numbers it 0 ("#"). */
  zeroFloorPattern: z.string().default('^0?\\s*#$'),
  copyFloorPattern: z.string(),
  deletedPattern: z.string(),
  /**
   * The words of a post-level notice (div.locked), state by state, in Discuz's language packs: the
   * secondary hint that tells a banned author from a shielded post (the markup is the same); tried in
   * this order after the structural signs (a password input, a payment link). A notice none of them
   * matches is read as 'shielded' with a page warning. Compared case-blind.
   */
  statePatterns: z
    .object({
      'author-only': z.string().default(''),
      pending: z.string().default(''),
      password: z.string().default(''),
      paid: z.string().default(''),
      banned: z.string().default(''),
      shielded: z.string().default(''),
      hidden: z.string().default(''),
    })
    .default({ 'author-only': '', pending: '', password: '', paid: '', banned: '', shielded: '', hidden: '' }),
  /** A deleted post's slot notice (无效楼层，该帖已经被删除): trusted only where a page holds nothing but slots. */
  vanishedPattern: z.string().default(''),
  kinds: z.object({
    challengeTitles: z.array(z.string()),
    challengeTexts: z.array(z.string()),
    serverErrorTitles: z.array(z.string()),
    message: z.string(),
    notFoundTexts: z.array(z.string()),
    noPermissionTexts: z.array(z.string()),
    noPermissionMarker: z.string(),
    login: z.string(),
    printable: z.string(),
  }),
  printable: z.object({
    authorLabel: z.string(),
    timeLabel: z.string(),
    subjectLabel: z.string(),
    separator: z.string(),
    end: z.string(),
  }),
});

/** The post states a notice's words can name (statePatterns' keys). */
export type NoticeState = 'author-only' | 'pending' | 'password' | 'paid' | 'banned' | 'shielded' | 'hidden';

/** A selector set as written in selectors/*.json. */
export type SelectorSetData = z.infer<typeof selectorSetSchema>;

/** Keys of `post` that are patterns, not selectors. */
type PostPatternKey = 'itemIdPattern' | 'pidIdPattern' | 'censusPattern';
const POST_PATTERN_KEYS = new Set<string>(['itemIdPattern', 'pidIdPattern', 'censusPattern']);

/** A selector set with its selectors compiled to css-select predicates (what parsePage takes). */
export interface SelectorSet {
  data: SelectorSetData;
  template: Template;
  /** Where it was loaded from (for error messages). */
  source: string;
  post: Record<Exclude<keyof SelectorSetData['post'], PostPatternKey>, Matcher | null> & { itemId: RegExp; pidId: RegExp | null; census: RegExp };
  message: {
    strip: Matcher;
    trailer: RegExp | null;
    quote: Matcher;
    quoteLink: Matcher;
    editMarker: Matcher;
    editPattern: RegExp;
    replyHeader: Matcher;
    replyPattern: RegExp;
    replyLink: Matcher;
    smilie: Matcher;
    hiddenPart: Matcher | null;
    hiddenShown: Matcher | null;
    hiddenShownPattern: RegExp | null;
    openChrome: Matcher | null;
  };
  /** statePatterns compiled, in the order they are tried. */
  statePatterns: [NoticeState, RegExp][];
  vanishedPattern: RegExp | null;
  endTextPattern: RegExp | null;
  floorPattern: RegExp;
  zeroFloorPattern: RegExp;
  copyFloorPattern: RegExp;
  deletedPattern: RegExp;
  tidPatterns: RegExp[];
  authorFilterPattern: RegExp | null;
  footerTimePattern: RegExp | null;
  /** The reply count's pattern (null: the set does not read the count). */
  repliesPattern: RegExp | null;
  pagerTotalPattern: RegExp;
  /** Compiled page-level selectors used on the hot path. */
  detect: Matcher;
  page: {
    title: Matcher;
    titleIgnore: Matcher | null;
    orderAscLink: Matcher | null;
    pager: Matcher;
    pagerCurrent: Matcher;
    pagerTotal: Matcher;
    footer: Matcher | null;
    footerTime: Matcher | null;
    replies: Matcher | null;
  };
}

/**
 * Validate and compile a selector set (from JSON data). A bad file is the director's to fix: a
 * UserError (exit 2) naming the file, the key, what is wrong and, quoted, what css-select or the
 * regular-expression engine said.
 */
export function compileSelectorSet(raw: unknown, source = '<inline>'): SelectorSet {
  useZodLanguage();
  const parsed = selectorSetSchema.safeParse(raw);
  if (!parsed.success) throw new UserError(t('selectors.badField', source, zodProblem(parsed.error, raw)));
  const d = parsed.data;
  const css = (key: string, sel: string): Matcher => {
    try {
      return compile(sel);
    } catch (e) {
      throw new UserError(t('selectors.badSelector', source, key, sel, (e as Error).message));
    }
  };
  const maybe = (key: string, sel: string): Matcher | null => (sel.trim() ? css(key, sel) : null);
  const re = (key: string, p: string, flags?: string): RegExp => {
    try {
      return new RegExp(p, flags);
    } catch (e) {
      throw new UserError(t('selectors.badPattern', source, key, p, (e as Error).message));
    }
  };
  const maybeRe = (key: string, p: string): RegExp | null => (p ? re(key, p) : null);
  const post = {} as SelectorSet['post'];
  for (const [k, v] of Object.entries(d.post)) {
    if (POST_PATTERN_KEYS.has(k)) continue;
    (post as unknown as Record<string, Matcher | null>)[k] = maybe(`post.${k}`, v);
  }
  post.itemId = re('post.itemIdPattern', d.post.itemIdPattern);
  post.pidId = maybeRe('post.pidIdPattern', d.post.pidIdPattern);
  post.census = re('post.censusPattern', d.post.censusPattern, 'g');
  const m = d.message;
  // The kinds.* and printable.* selectors run through cheerio later: compiled here only to fail early.
  const cheerioSelectors = {
    'kinds.message': d.kinds.message,
    'kinds.noPermissionMarker': d.kinds.noPermissionMarker,
    'kinds.login': d.kinds.login,
    'kinds.printable': d.kinds.printable,
    'printable.separator': d.printable.separator,
    'printable.end': d.printable.end,
  };
  for (const [key, sel] of Object.entries(cheerioSelectors)) maybe(key, sel);
  return {
    data: d,
    template: d.template,
    source,
    post,
    message: {
      strip: css('message.strip', m.strip),
      trailer: maybeRe('message.trailerPattern', m.trailerPattern),
      quote: css('message.quote', m.quote),
      quoteLink: css('message.quoteLink', m.quoteLink),
      editMarker: css('message.editMarker', m.editMarker),
      editPattern: re('message.editPattern', m.editPattern),
      replyHeader: css('message.replyHeader', m.replyHeader),
      replyPattern: re('message.replyPattern', m.replyPattern),
      replyLink: css('message.replyLink', m.replyLink),
      smilie: css('message.smilie', m.smilie),
      hiddenPart: maybe('message.hiddenPart', m.hiddenPart),
      hiddenShown: maybe('message.hiddenShown', m.hiddenShown),
      hiddenShownPattern: maybeRe('message.hiddenShownPattern', m.hiddenShownPattern),
      openChrome: maybe('message.openChrome', m.openChrome),
    },
    statePatterns: (Object.entries(d.statePatterns) as [NoticeState, string][]).filter(([, p]) => p).map(([k, p]) => [k, re(`statePatterns.${k}`, p, 'i')]),
    vanishedPattern: d.vanishedPattern ? re('vanishedPattern', d.vanishedPattern, 'i') : null,
    endTextPattern: maybeRe('page.endTextPattern', d.page.endTextPattern),
    floorPattern: re('floorPattern', d.floorPattern),
    zeroFloorPattern: re('zeroFloorPattern', d.zeroFloorPattern),
    copyFloorPattern: re('copyFloorPattern', d.copyFloorPattern),
    deletedPattern: re('deletedPattern', d.deletedPattern),
    tidPatterns: d.page.tidPatterns.map((p, i) => re(`page.tidPatterns[${i}]`, p)),
    authorFilterPattern: maybeRe('page.authorFilterPattern', d.page.authorFilterPattern),
    footerTimePattern: maybeRe('page.footerTimePattern', d.page.footerTimePattern),
    repliesPattern: maybeRe('page.repliesPattern', d.page.repliesPattern),
    pagerTotalPattern: re('page.pagerTotalPattern', d.page.pagerTotalPattern),
    detect: css('detect', d.detect),
    page: {
      title: css('page.title', d.page.title),
      titleIgnore: maybe('page.titleIgnore', d.page.titleIgnore),
      orderAscLink: maybe('page.orderAscLink', d.page.orderAscLink),
      pager: css('page.pager', d.page.pager),
      pagerCurrent: css('page.pagerCurrent', d.page.pagerCurrent),
      pagerTotal: css('page.pagerTotal', d.page.pagerTotal),
      footer: maybe('page.footer', d.page.footer),
      footerTime: maybe('page.footerTime', d.page.footerTime),
      replies: maybe('page.replies', d.page.replies),
    },
  };
}

/** Load one selector file by path: unreadable or not JSON is a UserError (exit 2) naming the place. */
export function loadSelectorSet(file: string): SelectorSet {
  return compileSelectorSet(readJsonFile(file, t('selectors.what')), file);
}

/** The bundled selector files, in the order they are tried. */
export const BUNDLED_SELECTOR_FILES = ['discuz-x3-desktop.json', 'discuz-x3-mobile.json'];

let bundled: SelectorSet[] | null = null;

/** The bundled selector sets (desktop first, then mobile), loaded once. */
export function bundledSelectorSets(): SelectorSet[] {
  bundled ??= BUNDLED_SELECTOR_FILES.map((f) => loadSelectorSet(packagePath('selectors', f)));
  return bundled;
}

/** A forum's own selector files (a director's template), tried before the bundled sets, in order. */
export function selectorSetsWith(files: readonly string[]): SelectorSet[] {
  return [...files.map(loadSelectorSet), ...bundledSelectorSets()];
}
