/**
 * One fetched Discuz! page (bytes + URL + fetch time) → a typed Page: its kind decided from the page's
 * own markers (discuz-notes.md "Charset, errors, login", "Anti-scraping", "Other views"), thread id,
 * title, pager, and every post with pid, floor, author, uid, time, own text and the rest.
 * What parses what: parse5 builds the browser's (HTML5) tree once as domhandler nodes (tree.ts). Thread pages (the hot path of a long game) are
 * read with css-select predicates compiled once from selectors/*.json (selectors.ts): one walk for
 * the page-level selectors and post containers, then one walk per post (select.ts `scan`) and one
 * per message (message.ts). cheerio wraps that same DOM (cheerio.load(doc), no reparse) only on
 * pages that are not threads — error, message, login and printable-detection queries.
 */
import * as cheerio from 'cheerio';
import { selectAll, selectOne } from 'css-select';
import { isTag, type AnyNode, type Document, type Element } from 'domhandler';
import { innerText as textOf, textContent } from 'domutils';
import { DateTime } from 'luxon';
import { decodeBody } from './decode.js';
import { ParseError } from './errors.js';
import { detachPost } from './flat-string.js';
import { compileSelector, scan, textWithout } from './select.js';
import { emptyMessageParts, readMessage, tidyText } from './message.js';
import { buildTree } from './tree.js';
import { bundledSelectorSets, type SelectorSet } from './selectors.js';
import { DEFAULT_FORUM_ZONE, resolvePostTime, wallIso } from './times.js';
import type { Attachment, FetchedPage, Page, PageInfo, PageKind, Post, Template } from './types.js';

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

/** Is the end of the document present? A cut body never carries </html>. */
function hasDocumentEnd(text: string): boolean {
  const tail = text.slice(-4096).toLowerCase();
  return tail.includes('</html>');
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
  if (cur === null) throw new ParseError('pager present but shows no current page', ctx.fetched.url);
  return { page: cur, pageCount: total };
}

function readFooterTime(ctx: Ctx, sel: SelectorSet, el: Element | null): void {
  if (!sel.footerTimePattern) return;
  const t = el ? collapse(textOf(el)) : null;
  const m = t ? sel.footerTimePattern.exec(t) : null;
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
    ctx.info.warnings!.push(
      `the page renders times in GMT${m[1]} but the forum zone ${ctx.zone} is UTC${forumOffset >= 0 ? '+' : ''}${forumOffset / 60}: set --timezone to match the viewing account`,
    );
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
      throw new ParseError(`post ${pid}: the post block's ids disagree (${shown(container)} holds ${shown(el!)}): the page is damaged`, url);
    }
  }
}

function parseThread(ctx: Ctx, sel: SelectorSet): Post[] {
  const { fetched, zone, base, doc } = ctx;
  const url = fetched.url;
  if (!sel.post.item) throw new ParseError(`selector file ${sel.source} has no post.item selector`, url);
  // One walk of the document for every page-level selector and the post containers.
  const pageScan = scan(doc, [sel.page.title, sel.page.pager, sel.page.footer, sel.page.footerTime, sel.page.replies], sel.post.item);
  const [titleEl, pagerEl, footerEl, footerTimeEl, repliesEl] = pageScan.first;
  if (sel.page.footer && !footerEl) {
    throw new ParseError('thread page has no footer: the page is truncated', url);
  }
  const tid = tidFromText(sel, ctx.text) ?? (queryParam(url, 'tid') ? +queryParam(url, 'tid')! : rewriteTid(url));
  ctx.info.tid = tid;
  ctx.info.title = titleEl ? collapse(textOf(titleEl)) : null;
  const { page, pageCount } = readPager(ctx, sel, pagerEl);
  ctx.info.page = page;
  ctx.info.pageCount = pageCount;
  readFooterTime(ctx, sel, footerTimeEl);
  ctx.info.replies = repliesEl ? matchNum(sel.repliesPattern, collapse(textOf(repliesEl))) : null;
  ctx.info.comments = false;
  const af = matchNum(sel.authorFilterPattern, ctx.text) ?? matchNum(/[?&]authorid=(\d+)/, reportUrl(ctx.text));
  ctx.info.authorFilter = af;
  ctx.info.kind = af !== null ? 'author-only' : 'thread';

  const posts: Post[] = [];
  const seen = new Set<number>();
  let copies = 0;
  const items = pageScan.all;
  for (const item of items) {
    const idm = sel.post.itemId.exec(item.attribs.id ?? '');
    if (!idm) continue;
    const pid = +idm[1];
    const P = sel.post;
    const postScan = scan(
      item,
      [P.floor, P.author, P.guestAuthor, P.time, P.message, P.locked, P.signature, P.avatar, P.pidCarrier, P.comments],
      P.attachments,
      P.message,
    );
    const [floorEl, authorEl, guestEl, timeEl, msgEl, lockedEl, signEl, avatarEl, carrierEl, commentsEl] = postScan.first;
    // The block's other ids must name the same post: a damaged container id must not rename it.
    if (P.pidId) checkPidIds(P.pidId, pid, item, [carrierEl, floorEl, timeEl, msgEl, commentsEl], url);
    if (commentsEl && commentsEl.children.some(isTag)) ctx.info.comments = true;
    const floorLabel = floorEl ? collapse(textOf(floorEl)) : null;
    if (floorLabel && sel.copyFloorPattern.test(floorLabel)) {
      copies++;
      continue; // hot-reply (推荐) or stuck (来自 N#) copy: the original is on its own page
    }
    if (seen.has(pid)) continue;
    seen.add(pid);
    let floor: number | null = null;
    if (floorLabel) {
      floor = sel.data.floorNames[floorLabel] ?? matchNum(sel.floorPattern, floorLabel);
    }
    const { author, authorId } = authorOf(authorEl, guestEl);
    if (!timeEl) throw new ParseError(`post ${pid} has no time element (template changed or page truncated)`, url);
    const titled = selectOne(TITLE_ATTR, timeEl);
    const timeText = collapse(sel.post.timeIgnore ? textWithout(timeEl, sel.post.timeIgnore) : textOf(timeEl));
    const time = resolvePostTime(titled?.attribs.title ?? null, timeText, fetched.fetchedAt, zone);
    if (!time) throw new ParseError(`post ${pid}: unreadable post time "${timeText}"`, url);
    if (!msgEl && !lockedEl) throw new ParseError(`post ${pid} has neither a message nor a locked notice`, url);
    const locked = lockedEl ? collapse(textOf(lockedEl)) : null;
    const msg = msgEl ? readMessage(msgEl, sel, zone, base) : emptyMessageParts();
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
      deleted: locked !== null && sel.deletedPattern.test(locked),
      locked,
    };
    if (time.earliest) post.timeEarliest = time.earliest;
    posts.push(detachPost(post)); // flat copies: no string may keep the page alive (flat-string.ts)
  }
  if (!posts.length && !copies) {
    throw new ParseError('thread page without any post: truncated page or a template the selectors do not fit', url);
  }
  return posts;
}

/** The printable view: posts are runs of body children separated by <hr>; no pid/uid/floor. */
function parsePrintable(ctx: Ctx, sel: SelectorSet): Post[] {
  const { doc, fetched, zone, base } = ctx;
  const url = fetched.url;
  const p = sel.data.printable;
  const body = selectOne(BODY, doc);
  if (!body) throw new ParseError('printable page without a body', url);
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
  if (!sawEnd) throw new ParseError('printable page has no closing footer: the page is truncated', url);
  return raws.map((r, i) => {
    const time = resolvePostTime(r.timeTitle, collapse(r.timeText), fetched.fetchedAt, zone);
    if (!time) throw new ParseError(`printable post ${i + 1}: unreadable time "${collapse(r.timeText)}"`, url);
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
    if (!DateTime.now().setZone(zone).isValid) throw new ParseError(`unknown time zone "${zone}"`);
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
      info.message = `HTTP ${status} redirect with an empty body`;
      return { page: info, posts: [] };
    }
    if (status !== undefined && status >= 500) {
      info.kind = 'server-error';
      info.message = `HTTP ${status} with an empty body`;
      return { page: info, posts: [] };
    }
    throw new ParseError(`empty page body${status ? ` (HTTP ${status})` : ''}`, url);
  }
  const decoded = decodeBody(fetched.bytes, fetched.contentType, url);
  info.charset = decoded.charset;
  info.warnings!.push(...decoded.warnings);
  const text = decoded.text;
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
  if (isBareScriptRedirect(doc)) return set('challenge', 'antitheft script redirect (follow it in a real browser)');
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
  if (!hasDocumentEnd(text)) {
    throw new ParseError('page ends before </html>: the body is truncated', url);
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
