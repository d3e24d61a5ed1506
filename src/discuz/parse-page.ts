/**
 * One fetched Discuz! page (bytes + URL + fetch time) → a typed Page: its kind decided from the page's
 * own markers (discuz-notes.md "Charset, errors, login", "Anti-scraping", "Other views"), thread id,
 * title, pager, and every post with pid, floor, author, uid, time, own text and the rest.
 * What parses what: parse5 builds the browser's (HTML5) tree once, as domhandler nodes (tree.ts).
 * Thread pages (the hot path of a long game) are read with css-select predicates compiled once from
 * selectors/*.json (selectors.ts): one walk for the page-level selectors and post containers, then
 * one walk per post (select.ts `scan`) and one per message (message.ts). cheerio wraps that same DOM (cheerio.load(doc), no reparse) only on
 * pages that are not threads — error, message, login and printable-detection queries.
 */
import * as cheerio from 'cheerio';
import { selectAll, selectOne } from 'css-select';
import { isTag, type AnyNode, type Document, type Element } from 'domhandler';
import { innerText as textOf, textContent } from 'domutils';
import { DateTime } from 'luxon';
import { decodeBody } from './decode.js';
import { ParseError } from './errors.js';
import { t } from '../i18n/index.js';
import { detachPost } from './flat-string.js';
import { compileSelector, scan, textWithout, type Matcher } from './select.js';
import { emptyMessageParts, readMessage, tidyText, type HiddenMarks } from './message.js';
import { buildTree } from './tree.js';
import { bundledSelectorSets, type SelectorSet } from './selectors.js';
import { DEFAULT_FORUM_ZONE, resolvePostTime, wallIso } from './times.js';
import type { Attachment, FetchedPage, Page, PageInfo, PageKind, Post, PostState, Template, VanishedSlot } from './types.js';

/** Options for parsePage. */
export interface ParseOptions {
  /** The forum's IANA zone or fixed offset ("Asia/Shanghai", "UTC+8"); default Asia/Shanghai (+08:00). */
  timezone?: string;
  /** Use only this selector set (or these, in order) instead of the bundled desktop + mobile sets. */
  selectors?: SelectorSet | SelectorSet[];
}

const TITLE_ATTR = compileSelector('[title]');
const TITLE = compileSelector('title');
const BODY = compileSelector('body');
const validZones = new Set<string>();
const ANCHOR = compileSelector('a[href]');

type $T = cheerio.CheerioAPI;

function collapse(s: string): string {
  return s.replace(/\u00a0/g, ' ').replace(/\s+/g, ' ').trim();
}

/** The query parameter of a URL, tolerant of relative/file URLs. */
function queryParam(url: string, name: string): string | null {
  const m = new RegExp(`[?&;]${name}=([^&#;]*)`).exec(url);
  return m ? decodeURIComponent(m[1]) : null;
}

/** Rewrite-form thread URL thread-TID-PAGE-N.html. */
function rewriteTid(url: string): number | null {
  const m = /thread-(\d+)-(\d+)-\d+\.html/.exec(url);
  return m ? +m[1] : null;
}

/** The request URL Discuz embeds (base64) as REPORTURL in every page's script: a page marker. */
function reportUrl(text: string): string | null {
  const m = /REPORTURL\s*=\s*'([A-Za-z0-9+/=]+)'/.exec(text);
  if (!m) return null;
  try {
    return Buffer.from(m[1], 'base64').toString('utf8');
  } catch {
    return null;
  }
}

/** Does the document consist of nothing but a script that navigates (the antitheft redirect)? */
function isBareScriptRedirect(doc: Document): boolean {
  let scripts = 0;
  let navigates = false;
  let otherContent = false;
  const visit = (n: AnyNode): void => {
    if (otherContent) return;
    if (n.type === 'text') {
      if (n.data.trim()) otherContent = true;
      return;
    }
    if (n.type === 'script') {
      scripts++;
      const src = textContent(n);
      if (/location|window\s*\[/.test(src) && /href|assign|replace/.test(src)) navigates = true;
      return;
    }
    if (!isTag(n)) return;
    if (['html', 'head', 'body', 'meta', 'title', 'style', 'link'].includes(n.name)) {
      if (n.name === 'title' && textOf(n).trim()) return;
      for (const c of n.children) visit(c);
      return;
    }
    otherContent = true;
  };
  for (const c of doc.children) visit(c);
  return !otherContent && scripts > 0 && navigates;
}

/** Where the last </html> ends, or -1: a cut body never carries it. */
function documentEnd(text: string): number {
  const re = /<\/html\s*>/gi;
  re.lastIndex = Math.max(0, text.length - 4096);
  let end = -1;
  for (let m = re.exec(text); m; m = re.exec(text)) end = m.index + m[0].length;
  if (end < 0) for (const m of text.matchAll(/<\/html\s*>/gi)) end = m.index + m[0].length; // something long after it
  return end;
}

/**
 * What follows </html> that a reader would see: text or markup other than scripts, styles and
 * comments (which some hosts append). A second page pasted after the first is not one page.
 */
function visibleAfterEnd(text: string, end: number): string {
  return text
    .slice(end)
    .replace(/<script\b[\s\S]*?<\/script\s*>|<style\b[\s\S]*?<\/style\s*>|<!--[\s\S]*?-->/gi, '')
    .trim();
}

/** A Discuz mobile-API response (api/mobile/index.php …): JSON with Version and Variables. */
function isMobileApiJson(text: string): boolean {
  const head = text.trimStart();
  if (!head.startsWith('{')) return false;
  try {
    const v = JSON.parse(head) as Record<string, unknown> | null;
    return v !== null && typeof v === 'object' && 'Variables' in v;
  } catch {
    return false;
  }
}

const offsetMemo = new Map<string, number | null>();

/** The zone's UTC offset in minutes at an instant (memoised per zone and hour). */
function offsetMinutes(zone: string, at: Date): number | null {
  const key = `${zone}|${Math.floor(at.getTime() / 3_600_000)}`;
  let off = offsetMemo.get(key);
  if (off === undefined) {
    const dt = DateTime.fromJSDate(at, { zone });
    off = dt.isValid ? dt.offset : null;
    if (offsetMemo.size > 10_000) offsetMemo.clear();
    offsetMemo.set(key, off);
  }
  return off;
}

interface Ctx {
  fetched: FetchedPage;
  text: string;
  doc: Document;
  zone: string;
  base: string | null;
  info: PageInfo;
}

function matchNum(re: RegExp | null, s: string | null | undefined): number | null {
  if (!re || !s) return null;
  const m = re.exec(s);
  return m && m[1] ? +m[1] : null;
}

function tidFromText(sel: SelectorSet, text: string): number | null {
  for (const re of sel.tidPatterns) {
    const n = matchNum(re, text);
    if (n !== null) return n;
  }
  return null;
}

/** Read the pager: current page and page count; 1/1 when the thread page has no pager. */
function readPager(ctx: Ctx, sel: SelectorSet, pgEl: Element | null): { page: number; pageCount: number } {
  if (!pgEl) return { page: 1, pageCount: 1 };
  const curEl = selectOne(sel.page.pagerCurrent, pgEl);
  const cur = curEl ? matchNum(/(\d+)/, textOf(curEl)) : null;
  let total: number | null = null;
  for (const el of selectAll(sel.page.pagerTotal, pgEl)) total ??= matchNum(sel.pagerTotalPattern, el.attribs.title);
  if (total === null) {
    // No "共 N 页" label: the largest page number linked.
    let max = cur ?? 1;
    for (const a of selectAll(ANCHOR, pgEl)) {
      const n = matchNum(/(\d+)/, textOf(a));
      if (n !== null && n > max) max = n;
    }
    total = max;
  }
  if (cur === null) throw new ParseError(t('page.noCurrentPage'), ctx.fetched.url);
  return { page: cur, pageCount: total };
}

function readFooterTime(ctx: Ctx, sel: SelectorSet, el: Element | null): void {
  if (!sel.footerTimePattern) return;
  const footer = el ? collapse(textOf(el)) : null;
  const m = footer ? sel.footerTimePattern.exec(footer) : null;
  if (!m) return;
  const hours = parseFloat(m[1]);
  const zoneFixed = `UTC${hours >= 0 ? '+' : '-'}${Math.floor(Math.abs(hours))}${Math.abs(hours) % 1 ? ':' + String(Math.round((Math.abs(hours) % 1) * 60)).padStart(2, '0') : ''}`;
  const dm = /(\d{4})-(\d{1,2})-(\d{1,2})\s+(\d{1,2}):(\d{2})/.exec(m[2]);
  if (!dm) return;
  const renderedAt = wallIso(zoneFixed, +dm[1], +dm[2], +dm[3], +dm[4], +dm[5], 0);
  if (!renderedAt) return;
  ctx.info.renderedAt = renderedAt;
  const forumOffset = offsetMinutes(ctx.zone, new Date(renderedAt));
  if (forumOffset !== null && forumOffset !== Math.round(hours * 60)) {
    ctx.info.warnings!.push(t('warn.zoneMismatch', m[1], ctx.zone, `${forumOffset >= 0 ? '+' : ''}${forumOffset / 60}`));
  }
}

function authorOf(a: Element | null, g: Element | null): { author: string; authorId: number | null } {
  if (a) {
    const uid = /uid[=-](\d+)/.exec(a.attribs.href ?? '');
    return { author: collapse(textOf(a)), authorId: uid ? +uid[1] : null };
  }
  const name = g ? collapse(textOf(g)).replace(/\s*该用户已被删除\s*$/, '') : '';
  return { author: name, authorId: null };
}

function readAttachments(found: Element[], base: string | null): Attachment[] {
  const out: Attachment[] = [];
  for (const el of found) {
    const a = selectOne(ANCHOR, el) ?? (el.name === 'a' ? el : null);
    const name = collapse(a ? textOf(a) : textOf(el));
    if (!name) continue;
    const href = a?.attribs.href ?? null;
    out.push({ name, url: href ? (base ? new URL(href, base).href : href) : null });
  }
  return out;
}

/** Inline (phrasing) elements: the author's markup, never the block chrome Discuz puts beside a message. */
const PHRASING = new Set([
  'a', 'abbr', 'b', 'big', 'br', 'cite', 'code', 'del', 'em', 'font', 'i', 'img', 'ins', 'kbd', 'mark', 'q', 'ruby', 's',
  'samp', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'tt', 'u', 'wbr',
]);

const hasText = (n: AnyNode): boolean => (n.type === 'text' ? n.data.trim() !== '' : isTag(n) && textOf(n).trim() !== '');

/**
 * What to read as the message: the message element, or — when a stray tag in the author's HTML
 * pushed part of it out (the browser foster-parents text before the table, opens a second cell, or
 * continues after a closed div) — everything of the message's child of the box (the whole table)
 * plus the box's text and inline children around it, in the order the browser shows them.
 * `escaped` tells the caller to warn.
 */
function messageRoot(msgEl: Element, item: Element, box: Matcher | null): { root: Element; escaped: boolean } {
  let at: Element | null = msgEl.parent as Element | null;
  let holder: Element = msgEl;
  let escaped = false;
  while (box && at && at !== item && !box(at)) {
    for (const c of at.children) if (c !== holder && hasText(c)) escaped = true; // a second cell, text beside the cell
    holder = at;
    at = at.parent as Element | null;
  }
  if (!box || !at || at === item) return { root: msgEl, escaped: false };
  const kept: AnyNode[] = [];
  for (const c of at.children) {
    if (c === holder) kept.push(c);
    else if (c.type === 'text' ? c.data.trim() !== '' : isTag(c) && PHRASING.has(c.name)) {
      kept.push(c);
      escaped = true;
    }
  }
  if (!escaped) return { root: msgEl, escaped };
  return { root: { type: 'tag', name: 'div', attribs: {}, children: kept, parent: null } as unknown as Element, escaped };
}

/**
 * Cross-check a post block's ids: every element found for the post (already at hand from the post's
 * one walk) whose id matches `pattern` must carry exactly `pid` (group 1). A byte changed inside
 * div#post_101 would otherwise renumber the post; a disagreement is a ParseError naming the post.
 */
function checkPidIds(pattern: RegExp, pid: number, container: Element, els: (Element | null)[], url: string): void {
  const want = String(pid);
  for (const el of els) {
    const id = el?.attribs.id;
    if (id === undefined) continue;
    const m = pattern.exec(id);
    if (m && m[1] !== want) {
      const shown = (e: Element) => `${e.name}#${JSON.stringify(e.attribs.id ?? '').slice(1, -1)}`; // ids may hold control characters
      throw new ParseError(t('page.idsDisagree', pid, shown(container), shown(el!)), url);
    }
  }
}

/** A post or a deleted post's slot, in page order: the sequence floors are read and derived over. */
interface Entry {
  pid: number;
  label: string | null;
  /** The floor its label gives (null: not a number nor a known name). */
  floor: number | null;
  /** The label is a known name (floorNames: 楼主, 沙发 …), not a number: a secondary hint. */
  word: boolean;
  post: Post | null;
  slot: VanishedSlot | null;
}

/** A password post's input (viewthread_node_body.htm: input#postpw_PID): structure, not words. */
const PASSWORD_INPUT = compileSelector('input[id^=postpw_]');
/** A paid thread's payment links (viewthread_pay.htm: action=pay, action=viewpayments). */
const PAY_LINK = compileSelector('a[href*="action=pay"], a[href*="action=viewpayments"]');

/**
 * The state a post-level notice names: a password input or a payment link by structure, else the
 * words of the selectors' statePatterns (the language packs' strings, tried in order); null when
 * nothing fits.
 */
function noticeState(sel: SelectorSet, el: Element, text: string): PostState | null {
  if (selectOne(PASSWORD_INPUT, el)) return 'password';
  if (selectOne(PAY_LINK, el)) return 'paid';
  for (const [state, re] of sel.statePatterns) if (re.test(text)) return state;
  return null;
}

/** The message's only content is one element matching `m` (a placeholder in place of the text). */
function onlyChild(msgEl: Element, m: Matcher, strip: Matcher): Element | null {
  let found: Element | null = null;
  for (const c of msgEl.children) {
    if (c.type === 'text') {
      if (c.data.trim()) return null;
      continue;
    }
    if (!isTag(c) || strip(c)) continue;
    if (found || !m(c)) return null;
    found = c;
  }
  // A placeholder is a word or two (待审核), never a message's worth of text.
  return found && collapse(textOf(found)).length <= 40 ? found : null;
}

/**
 * Is the page whole, on any template? It reached </html> (parsePage checked). Then, after the post
 * list: the selectors' page.footer, or else the text Discuz prints on every page's end
 * (page.endTextPattern: "Powered by Discuz!"), must follow the last post — a page cut inside the
 * list, or whose footer an unclosed tag in a post swallowed, has neither there; and a pager after the
 * list must show the page the one before it shows. Sets info.wholeBy; refuses naming what is missing.
 */
function checkWhole(ctx: Ctx, sel: SelectorSet, items: Element[], pagerTop: Element | null, page: number): void {
  if (!items.length) return; // no post list at all: parseThread refuses it as such (page.noPosts)
  const last = items[items.length - 1];
  const itemSet = new Set(items);
  let after = false;
  let footer = false;
  let pagerAfter: Element | null = null;
  const texts: string[] = [];
  const stack: AnyNode[] = [];
  for (let i = ctx.doc.children.length - 1; i >= 0; i--) stack.push(ctx.doc.children[i]);
  while (stack.length) {
    const n = stack.pop()!;
    if (n === last) {
      after = true;
      continue;
    }
    if (n.type === 'text') {
      if (after) texts.push(n.data);
      continue;
    }
    if (n.type !== 'tag' || itemSet.has(n)) continue; // scripts, styles and comments are not what a reader sees
    if (after) {
      if (!footer && sel.page.footer?.(n)) footer = true;
      if (!pagerAfter && n !== pagerTop && sel.page.pager(n)) pagerAfter = n;
    }
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
  const signals = ['html-end'];
  if (footer) signals.push('footer');
  else if (sel.endTextPattern?.test(collapse(texts.join(' ')))) signals.push('end-text');
  else throw new ParseError(t('page.noFooter', sel.source, sel.data.page.footer, sel.data.page.endTextPattern), ctx.fetched.url);
  if (pagerAfter && pagerTop) {
    // The thread's own pager again (same page count) must show the same page; another widget's pager
    // (a sidebar list of its own) says nothing either way.
    const curEl = selectOne(sel.page.pagerCurrent, pagerAfter);
    const cur = curEl ? matchNum(/(\d+)/, textOf(curEl)) : null;
    const total = cur === null ? null : readPager(ctx, sel, pagerAfter).pageCount;
    if (cur !== null && total === ctx.info.pageCount) {
      if (cur !== page) throw new ParseError(t('page.pagersDisagree', page, cur), ctx.fetched.url);
      signals.push('pager');
    }
  }
  ctx.info.wholeBy = signals.join('+');
}

function parseThread(ctx: Ctx, sel: SelectorSet): Post[] {
  const { fetched, zone, base, doc } = ctx;
  const url = fetched.url;
  if (!sel.post.item) throw new ParseError(t('page.noItemSelector', sel.source), url);
  // One walk of the document for every page-level selector and the post containers.
  const pageScan = scan(doc, [sel.page.title, sel.page.pager, sel.page.footerTime, sel.page.replies, sel.page.orderAscLink], sel.post.item);
  const [titleEl, pagerEl, footerTimeEl, repliesEl, orderAscEl] = pageScan.first;
  let orderAsc = orderAscEl !== null;
  const tid = tidFromText(sel, ctx.text) ?? (queryParam(url, 'tid') ? +queryParam(url, 'tid')! : rewriteTid(url));
  ctx.info.tid = tid;
  ctx.info.title = titleEl ? collapse(sel.page.titleIgnore ? textWithout(titleEl, sel.page.titleIgnore) : textOf(titleEl)) || null : null;
  const { page, pageCount } = readPager(ctx, sel, pagerEl);
  ctx.info.page = page;
  ctx.info.pageCount = pageCount;
  checkWhole(ctx, sel, pageScan.all, pagerEl, page);
  readFooterTime(ctx, sel, footerTimeEl);
  ctx.info.replies = repliesEl ? matchNum(sel.repliesPattern, collapse(textOf(repliesEl))) : null;
  ctx.info.comments = false;
  const af = matchNum(sel.authorFilterPattern, ctx.text) ?? matchNum(/[?&]authorid=(\d+)/, reportUrl(ctx.text));
  ctx.info.authorFilter = af;
  ctx.info.kind = af !== null ? 'author-only' : 'thread';

  const posts: Post[] = [];
  const entries: Entry[] = [];
  const vanished: VanishedSlot[] = [];
  const seen = new Set<number>();
  const copyPids = new Set<number>();
  let copies = 0;
  const items = pageScan.all;
  const P = sel.post;
  for (const item of items) {
    const idm = P.itemId.exec(item.attribs.id ?? '');
    if (!idm) continue;
    const pid = +idm[1];
    const postScan = scan(
      item,
      [P.floor, P.author, P.guestAuthor, P.time, P.message, P.locked, P.signature, P.avatar, P.pidCarrier, P.comments, orderAsc ? null : sel.page.orderAscLink, P.warned, P.pending],
      P.attachments,
      P.message,
    );
    const [floorEl, authorEl, guestEl, timeEl, msgEl, lockedEl, signEl, avatarEl, carrierEl, commentsEl, orderAscEl, warnedMark, pendingEl] = postScan.first;
    // The touch template prints its warning mark as the message's own child (the post walk does not enter the message).
    const warnedEl = warnedMark ?? (msgEl && P.warned ? (msgEl.children.find((c): c is Element => isTag(c) && P.warned!(c)) ?? null) : null);
    orderAsc ||= orderAscEl !== null; // the desktop template puts 正序浏览 in the first post's header
    // The block's other ids must name the same post: a damaged container id must not rename it.
    if (P.pidId) checkPidIds(P.pidId, pid, item, [carrierEl, floorEl, timeEl, msgEl, commentsEl], url);
    if (commentsEl && (P.commentsMark ? selectOne(P.commentsMark, commentsEl) !== null : commentsEl.children.some(isTag))) ctx.info.comments = true;
    const floorLabel = floorEl ? collapse(textOf(floorEl)) : null;
    if ((floorLabel && sel.copyFloorPattern.test(floorLabel)) || (floorEl && P.copyMark && selectOne(P.copyMark, floorEl))) {
      copies++;
      copyPids.add(pid);
      continue; // hot-reply (推荐) or stuck (来自 N#) copy: the original is on its own page
    }
    if (seen.has(pid)) continue;
    // A deleted post's slot (viewthread_node.htm when $post['deleted']): the block keeps its floor and a
    // one-line notice, with no author, time, message or notice cell. Not a post: listed in vanished.
    if (!timeEl && !msgEl && !lockedEl && !authorEl && !guestEl) {
      const labelEl = floorEl ?? (P.slotFloor ? selectOne(P.slotFloor, item) : null);
      const label = labelEl ? collapse(textOf(labelEl)) || null : null;
      const notice = collapse(P.slotFloor ? textWithout(item, P.slotFloor) : textOf(item));
      if (notice.length <= 200) {
        seen.add(pid);
        const slot: VanishedSlot = { pid, floor: labelFloor(sel, label), notice };
        vanished.push(slot);
        entries.push({ pid, label, floor: slot.floor, word: isName(sel, label), post: null, slot });
        continue;
      }
    }
    seen.add(pid);
    const floor = labelFloor(sel, floorLabel);
    const { author, authorId } = authorOf(authorEl, guestEl);
    if (!timeEl) throw new ParseError(t('page.noTime', pid, sel.source), url);
    const titled = selectOne(TITLE_ATTR, timeEl);
    const timeText = collapse(sel.post.timeIgnore ? textWithout(timeEl, sel.post.timeIgnore) : textOf(timeEl));
    const time = resolvePostTime(titled?.attribs.title ?? null, timeText, fetched.fetchedAt, zone);
    if (!time) throw new ParseError(t('page.badTime', pid, timeText), url);
    // The post-level notice: div.locked beside the message (desktop), or a notice the template prints
    // as the message's own first children (touch: div.quote without a blockquote).
    let noticeEl = lockedEl;
    if (!noticeEl && msgEl && P.messageNotice) noticeEl = msgEl.children.find((c): c is Element => isTag(c) && P.messageNotice!(c)) ?? null;
    if (!msgEl && !noticeEl) throw new ParseError(t('page.noMessage', pid, sel.source), url);
    let locked = noticeEl ? collapse(textOf(noticeEl)) : null;
    const marks: HiddenMarks = { missing: [], shown: false };
    let msg = emptyMessageParts();
    const placeholder = msgEl && P.pendingPlaceholder ? onlyChild(msgEl, P.pendingPlaceholder, sel.message.strip) : null;
    if (msgEl && !placeholder) {
      const { root, escaped } = messageRoot(msgEl, item, P.messageBox);
      if (escaped) ctx.info.warnings!.push(t('warn.escapedMessage', pid));
      msg = readMessage(root, sel, zone, base, marks);
    }
    // Discuz's post states (viewthread_node_body.htm; the touch viewthread.htm): a notice with no text
    // after it is an unreadable post; a notice followed by the text is a moderator's or the author's
    // view (read, marked); a 待审核 placeholder as the whole message is a pending post as its author sees it.
    const shown = msg.text !== '' || msg.images.length > 0 || msg.attachments.length > 0;
    let state: PostState = 'normal';
    let readable = true;
    if (noticeEl) {
      let s = noticeState(sel, noticeEl, locked!);
      if (s === null) {
        s = 'shielded';
        ctx.info.warnings!.push(t('warn.unknownNotice', pid, locked!));
      }
      state = s;
      readable = shown;
    } else if (placeholder) {
      state = 'pending';
      readable = false;
      locked = collapse(textOf(placeholder));
    } else if (pendingEl) state = 'pending';
    else if (marks.missing.length || marks.shown) {
      state = 'hidden';
      readable = shown;
    } else if (warnedEl) state = 'warned';
    const deleted = state === 'banned' || state === 'shielded' || (locked !== null && sel.deletedPattern.test(locked));
    if (!readable) msg = { ...emptyMessageParts(), attachments: msg.attachments };
    const post: Post = {
      pid,
      tid,
      floor,
      floorLabel,
      author,
      authorId,
      postedAt: time.iso,
      timePrecision: time.precision,
      timeSource: time.source,
      ...msg,
      attachments: [...msg.attachments, ...readAttachments(postScan.all, base)],
      signature: signEl ? tidyText(textOf(signEl)) || null : null,
      avatar: avatarEl?.attribs.src ?? null,
      deleted,
      locked,
    };
    if (time.earliest) post.timeEarliest = time.earliest;
    if (state !== 'normal') post.state = state;
    if (!readable) post.readable = false;
    if (marks.missing.length) {
      post.state = state === 'normal' || state === 'warned' ? 'hidden' : state;
      post.hiddenParts = marks.missing;
    }
    const detached = detachPost(post); // flat copies: no string may keep the page alive (flat-string.ts)
    posts.push(detached);
    entries.push({ pid, label: floorLabel, floor, word: isName(sel, floorLabel), post: detached, slot: null });
  }
  if (!posts.length && !copies) {
    // A page of nothing but slots is possible (every post on it deleted), but so is a template whose
    // posts the selectors do not read at all: only slots whose notice says "deleted" are believed.
    if (!vanished.length || !sel.vanishedPattern || !vanished.every((v) => sel.vanishedPattern!.test(v.notice))) {
      throw new ParseError(vanished.length ? t('page.onlySlots', vanished.length, sel.source) : t('page.noPosts', sel.source), url);
    }
  }
  checkCensus(ctx, sel, seen, copyPids);
  if (vanished.length) ctx.info.vanished = vanished;
  return orderFloors(ctx, sel, posts, entries, orderAsc);
}

/**
 * The census (issue #12): every pid the raw page gives a post id must have been read as a post
 * (or a hot-reply copy). A post the tree lost — markup that closed the post list early, a template
 * the selectors half fit — refuses the page naming the pids, never a shorter list.
 */
function checkCensus(ctx: Ctx, sel: SelectorSet, parsed: Set<number>, copies: Set<number>): void {
  const missing = new Set<number>();
  for (const m of ctx.text.matchAll(sel.post.census)) {
    const pid = +m[1];
    if (!parsed.has(pid) && !copies.has(pid)) missing.add(pid);
  }
  if (missing.size) {
    const list = [...missing].sort((a, b) => a - b);
    throw new ParseError(t('page.census', list.length, list.join(', '), sel.source), ctx.fetched.url);
  }
}

/** Is the label one of the known floor names (楼主, 沙发 …) rather than a number? */
function isName(sel: SelectorSet, label: string | null): boolean {
  return label !== null && Object.hasOwn(sel.data.floorNames, label);
}

/** The label's floor number: 楼主/沙发/… by name, else "N#"; null when it shows none. */
function labelFloor(sel: SelectorSet, label: string | null): number | null {
  if (!label) return null;
  return sel.data.floorNames[label] ?? matchNum(sel.floorPattern, label);
}

/**
 * Floors from the page's structure where the labels do not give them (a language pack's or an admin's
 * own names for floors 1–4: Discuz's postno / postnocustom settings). What fixes a floor: the first post
 * of page 1 is floor 1; a full page N (N < the page count) starts at (N − 1) × its length + 1 where the
 * number labels agree; a label that is a number. Between two such anchors the floors follow by
 * position when the positions leave no gap; after the last or before the first, by position from one
 * side (warned: a gap there could not be seen). A known name (楼主, 沙发 …) is a secondary hint: kept
 * where it fits between the anchors, overruled where two anchors fix the floor (warned), unknown
 * where it does not fit and they do not. A floor nothing fixes stays null with a warning.
 * Slots (deleted posts) hold their places like posts.
 */
function deriveFloors(ctx: Ctx, entries: Entry[]): void {
  const n = entries.length;
  const anchor: (number | null)[] = entries.map((e) => (e.word ? null : e.floor));
  const { page, pageCount } = ctx.info;
  // The first post of page 1 is floor 1 — unless its label names another floor (then the page is not
  // as Discuz rendered it, or the names are not what they seem: the other anchors decide).
  if (n && anchor[0] === null && page === 1 && (entries[0].floor === null || entries[0].floor === 1)) anchor[0] = 1;
  if (n && anchor[0] === null && page !== null && pageCount !== null && page > 1 && page < pageCount) {
    const start = (page - 1) * n + 1;
    if (entries.every((e, i) => e.word || e.floor === null || e.floor === start + i)) anchor[0] = start;
  }
  const derived: string[] = [];
  // A page length taken for the forum's posts per page cannot see a post missing from the page: said.
  if (n && anchor[0] !== null && entries[0].floor === null && page !== 1) derived.push(`pid ${entries[0].pid} "${entries[0].label ?? ''}" → ${anchor[0]}`);
  const unknown: string[] = [];
  const set = (e: Entry, floor: number | null) => {
    e.floor = floor;
    if (e.post) e.post.floor = floor;
    if (e.slot) e.slot.floor = floor;
  };
  for (let i = 0; i < n; i++) {
    const e = entries[i];
    const what = `pid ${e.pid} "${e.label ?? ''}"`;
    if (anchor[i] !== null) {
      if (e.floor !== anchor[i]) {
        if (e.floor !== null) derived.push(`${what} → ${anchor[i]}`); // a name the structure overrules
        set(e, anchor[i]);
      }
      continue;
    }
    let k = i;
    while (k >= 0 && anchor[k] === null) k--;
    let j = i;
    while (j < n && anchor[j] === null) j++;
    // What the anchors allow: a gap (a post deleted without a slot, in a thread that saves positions)
    // only ever pushes a floor up after an anchor and down before one.
    const lo = k >= 0 ? anchor[k]! + (i - k) : 1;
    const hi = j < n ? anchor[j]! - (j - i) : Infinity;
    if (e.word) {
      // The name fits the page: between the anchors, or — with none before it (no page start to bound it)
      // — exactly where the anchor after it puts it; with no anchor at all nothing can check it.
      const fits = k >= 0 ? e.floor! >= lo && e.floor! <= hi : j < n ? e.floor === hi : true;
      if (fits) continue;
      if (lo === hi) {
        derived.push(`${what} → ${lo}`);
        set(e, lo);
      } else {
        unknown.push(what);
        set(e, null);
      }
      continue;
    }
    if (lo === hi) set(e, lo);
    else if (k >= 0 && j >= n) {
      derived.push(`${what} → ${lo}`);
      set(e, lo);
    } else if (k < 0 && j < n && hi >= 1) {
      derived.push(`${what} → ${hi}`);
      set(e, hi);
    } else unknown.push(what);
  }
  if (derived.length) ctx.info.warnings!.push(t('warn.floorsDerived', derived.join('; ')));
  if (unknown.length) ctx.info.warnings!.push(t('warn.floorUnknown', unknown.join('; ')));
}

/**
 * Floors in chronological order. A thread shown newest-first (倒序, ordertype=1) lists the first post,
 * then the replies newest first, and Discuz's forum_viewthread.php numbers them one low (the first
 * post 0, shown "#"; each reply position − 1) unless the thread saves positions (then the labels are
 * right and the first post is 楼主). Whether the page runs newest-first is read from the page itself:
 * the 正序浏览 link (ordertype=2) it then shows, the first post labelled "#", and the replies' pids,
 * times and floor labels running down. The link alone decides; without it two of the others must
 * agree (one alone refuses the page: a wrong floor must never be stored). Page 1 shows the shift
 * (the first post's label); renumbered from it, checked to run strictly down with the pids, and
 * returned oldest first; a later reversed page or a label that is not a number refuses the page.
 * Chronological pages get the floors their labels do not give from their structure (deriveFloors).
 */
function orderFloors(ctx: Ctx, sel: SelectorSet, posts: Post[], entries: Entry[], ascLink: boolean): Post[] {
  const url = ctx.fetched.url;
  const zero = (p: Post) => p.floorLabel !== null && sel.zeroFloorPattern.test(p.floorLabel);
  const replies = ctx.info.page === 1 ? posts.slice(1) : posts;
  const down = (xs: (number | null)[], strict: boolean) =>
    xs.length >= 2 && xs.every((x, i) => x !== null && (i === 0 || (strict ? x < xs[i - 1]! : x <= xs[i - 1]!))) && xs.some((x, i) => i > 0 && x! < xs[i - 1]!);
  const refetch = t('page.refetchAsc');
  if (!ascLink) {
    const signals = [
      posts.some(zero) ? t('order.zeroLabel') : null,
      down(replies.map((p) => p.pid), true) ? t('order.pids') : null,
      down(replies.map((p) => Date.parse(p.postedAt)), false) ? t('order.times') : null,
      down(replies.map((p) => labelFloor(sel, p.floorLabel)), true) ? t('order.floors') : null,
    ].filter((s): s is string => s !== null);
    if (!signals.length) {
      deriveFloors(ctx, entries);
      return posts;
    }
    if (signals.length < 2) throw new ParseError(t('page.looksReversed', refetch), url);
    ctx.info.warnings!.push(t('warn.reversedNoLink', signals.join(t('order.join'))));
  }
  ctx.info.reversed = true;
  const first = posts[0];
  if (ctx.info.page !== 1 || !first) {
    throw new ParseError(t('page.reversedNoFirst', ctx.info.page, refetch), url);
  }
  const shift = zero(first) ? 1 : labelFloor(sel, first.floorLabel) === 1 ? 0 : null;
  if (shift === null) throw new ParseError(t('page.reversedFirstLabel', first.floorLabel ?? '', refetch), url);
  const out: Post[] = [{ ...first, floor: 1 }];
  let prev: Post | null = null;
  for (const p of replies) {
    const shown = labelFloor(sel, p.floorLabel);
    const floor = shown === null ? null : shown + shift;
    if (floor === null || floor < 2 || (prev && (floor >= prev.floor! || p.pid! >= prev.pid!))) {
      throw new ParseError(t('page.reversedLabel', p.pid!, p.floorLabel ?? '', refetch), url);
    }
    prev = { ...p, floor };
    out.push(prev);
  }
  for (const v of ctx.info.vanished ?? []) if (v.floor !== null && v.floor > 0) v.floor += shift;
  const lost = (ctx.info.vanished ?? []).filter((v) => v.floor === null);
  if (lost.length) ctx.info.warnings!.push(t('warn.floorUnknown', lost.map((v) => `pid ${v.pid}`).join('; ')));
  ctx.info.vanished?.reverse();
  ctx.info.warnings!.push(t('warn.reversed', shift === 1));
  return [out[0], ...out.slice(1).reverse()];
}

/** The printable view: posts are runs of body children separated by <hr>; no pid/uid/floor. */
function parsePrintable(ctx: Ctx, sel: SelectorSet): Post[] {
  const { doc, fetched, zone, base } = ctx;
  const url = fetched.url;
  const p = sel.data.printable;
  const body = selectOne(BODY, doc);
  if (!body) throw new ParseError(t('page.printableNoBody'), url);
  const rep = reportUrl(ctx.text);
  const tid = matchNum(/[?&]tid=(\d+)/, rep) ?? matchNum(/[?&]tid=(\d+)/, url) ?? tidFromText(sel, ctx.text);
  ctx.info.tid = tid;
  const sep = compileSelector(p.separator);
  const end = compileSelector(p.end);
  const label = (n: AnyNode): string | null => (isTag(n) && n.name === 'b' ? collapse(textOf(n)).replace(/\s/g, '') : null);

  interface Raw {
    author: string;
    timeTitle: string | null;
    timeText: string;
    nodes: AnyNode[];
  }
  const raws: Raw[] = [];
  let cur: Raw | null = null;
  let state: 'none' | 'author' | 'time' | 'head' | 'subject' | 'body' = 'none';
  let sawEnd = false;
  for (const n of body.children) {
    const lab = label(n);
    if (lab === p.authorLabel) {
      cur = { author: '', timeTitle: null, timeText: '', nodes: [] };
      raws.push(cur);
      state = 'author';
      continue;
    }
    if (end(n)) {
      sawEnd = true;
      break;
    }
    if (!cur) {
      if (lab === p.subjectLabel && ctx.info.title === null) state = 'subject';
      else if (state === 'subject' && n.type === 'text') {
        ctx.info.title = collapse(n.data) || null;
        state = 'none';
      }
      continue;
    }
    if (state === 'author') {
      if (lab === p.timeLabel) state = 'time';
      else cur.author += n.type === 'text' ? n.data : textOf(n);
      continue;
    }
    if (state === 'time') {
      if (isTag(n) && n.name === 'br') {
        state = 'head';
        continue;
      }
      if (isTag(n) && n.attribs.title) cur.timeTitle = n.attribs.title;
      cur.timeText += n.type === 'text' ? n.data : textOf(n);
      continue;
    }
    if (state === 'head' && n.type === 'text' && !n.data.trim()) continue;
    if (state === 'head' && lab === p.subjectLabel) {
      state = 'subject';
      continue;
    }
    if (state === 'subject') {
      if (isTag(n) && n.name === 'br') state = 'body';
      continue;
    }
    if (sep(n)) {
      state = 'none';
      cur = null;
      continue;
    }
    state = 'body';
    cur.nodes.push(n);
  }
  if (!sawEnd) throw new ParseError(t('page.printableNoEnd'), url);
  return raws.map((r, i) => {
    const time = resolvePostTime(r.timeTitle, collapse(r.timeText), fetched.fetchedAt, zone);
    if (!time) throw new ParseError(t('page.printableBadTime', i + 1, collapse(r.timeText)), url);
    const root = { type: 'tag', name: 'div', attribs: {}, children: r.nodes, parent: null } as unknown as Element;
    const msg = readMessage(root, sel, zone, base);
    const post: Post = {
      pid: null,
      tid,
      floor: null,
      floorLabel: null,
      author: collapse(r.author),
      authorId: null,
      postedAt: time.iso,
      timePrecision: time.precision,
      timeSource: time.source,
      ...msg,
      signature: null,
      avatar: null,
      deleted: false,
      locked: null,
    };
    if (time.earliest) post.timeEarliest = time.earliest;
    return detachPost(post); // flat copies: no string may keep the page alive (flat-string.ts)
  });
}

/**
 * Parse one fetched page. Throws ParseError (exit code 3) for an undecodable or truncated page, a
 * thread page without posts, or a post the selectors cannot read — never returns fewer posts.
 */
export function parsePage(fetched: FetchedPage, opts: ParseOptions = {}): Page {
  const zone = opts.timezone ?? DEFAULT_FORUM_ZONE;
  if (!validZones.has(zone)) {
    if (!DateTime.now().setZone(zone).isValid) throw new ParseError(t('page.badZone', zone));
    validZones.add(zone);
  }
  const sets = opts.selectors ? (Array.isArray(opts.selectors) ? opts.selectors : [opts.selectors]) : bundledSelectorSets();
  const url = fetched.url;
  const base = /^https?:/i.test(url) ? url : null;
  const info: PageInfo = {
    kind: 'unknown',
    template: 'desktop',
    tid: null,
    title: null,
    page: null,
    pageCount: null,
    url,
    authorFilter: null,
    charset: 'utf-8',
    message: null,
    warnings: [],
    renderedAt: null,
    replies: null,
    comments: false,
  };
  const status = fetched.status;
  let empty = true;
  for (let i = 0; i < fetched.bytes.length; i++) {
    const b = fetched.bytes[i];
    if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) {
      empty = false;
      break;
    }
  }
  if (empty) {
    if (status !== undefined && status >= 300 && status < 400) {
      info.message = t('page.emptyRedirect', status);
      return { page: info, posts: [] };
    }
    if (status !== undefined && status >= 500) {
      info.kind = 'server-error';
      info.message = t('page.emptyServerError', status);
      return { page: info, posts: [] };
    }
    throw new ParseError(t('page.emptyBody', status ?? null), url);
  }
  const decoded = decodeBody(fetched.bytes, fetched.contentType, url);
  info.charset = decoded.charset;
  info.warnings!.push(...decoded.warnings);
  const text = decoded.text;
  if (isMobileApiJson(text)) {
    throw new ParseError(t('page.mobileApi'), url);
  }
  const doc = buildTree(text);
  // cheerio over the same DOM, created on first use: the thread hot path never needs it.
  let cached: $T | null = null;
  const $ = (): $T => (cached ??= cheerio.load(doc));
  const ctx: Ctx = { fetched, text, doc, zone, base, info };
  const k = sets[0].data.kinds;
  const titleEl = selectOne(TITLE, doc);
  const title = titleEl ? collapse(textOf(titleEl)) : '';
  const set = (kind: PageKind, message: string | null): Page => {
    info.kind = kind;
    info.message = message;
    return { page: info, posts: [] };
  };

  // Challenges and server errors first: they are not truncated threads, whatever their shape.
  if (isBareScriptRedirect(doc)) return set('challenge', t('page.scriptRedirect'));
  const threadSet = sets.find((s) => selectOne(s.detect, doc) !== null) ?? null;
  if (!threadSet) {
    if (k.challengeTitles.some((t) => title.includes(t))) return set('challenge', title);
    if (k.serverErrorTitles.some((t) => title.includes(t)) || (status !== undefined && status >= 500)) {
      const msg = collapse($()('#message, .info, body').first().text()).slice(0, 200);
      return set('server-error', msg || title || `HTTP ${status}`);
    }
    const bodyText = collapse($()('body').text());
    if (bodyText.length < 2000 && k.challengeTexts.some((t) => bodyText.includes(t))) return set('challenge', bodyText.slice(0, 200));
  }
  const end = documentEnd(text);
  // An HTTP error whose body is no Discuz page (a web server's bare "404 Not Found", a proxy's text):
  // named for its status, never "truncated" (which would advise fetching again). Not 'not-found':
  // Discuz answers a missing thread with its own page; a bare 404 is a wrong address, not a deleted thread.
  if (end < 0 && !threadSet && status !== undefined && status >= 400) {
    const bodyEl = selectOne(BODY, doc);
    const shown = bodyEl ? collapse(textOf(bodyEl)).slice(0, 200) : '';
    return set('unknown', shown ? `HTTP ${status}: ${shown}` : `HTTP ${status}`);
  }
  if (end < 0) throw new ParseError(t('page.truncated'), url);
  const after = visibleAfterEnd(text, end);
  if (after) {
    throw new ParseError(t('page.afterEnd', after.length, collapse(after).slice(0, 40)), url);
  }
  if (threadSet) {
    info.template = threadSet.template as Template;
    const posts = parseThread(ctx, threadSet);
    return { page: info, posts };
  }
  const msgEl = $()(k.message).first();
  if (msgEl.length) {
    const msg = collapse(msgEl.find('p').first().text() || msgEl.text());
    if ((status === 404 && !k.noPermissionTexts.some((t) => msg.includes(t))) || k.notFoundTexts.some((t) => msg.includes(t))) {
      return set('not-found', msg);
    }
    if (k.noPermissionTexts.some((t) => msg.includes(t)) || $()(k.noPermissionMarker).length) return set('no-permission', msg);
    return set('unknown', msg);
  }
  if (status === 404) return set('not-found', title || 'HTTP 404');
  if ($()(k.login).length) return set('login', title || null);
  if ($()(k.printable).length) {
    info.kind = 'printable';
    const posts = parsePrintable(ctx, sets[0]);
    return { page: info, posts };
  }
  return set('unknown', title || null);
}
