/**
 * Synthetic Discuz! thread pages built from REAL captured pages: the page skeleton (head, navigation,
 * pager, footer) and the per-post markup (div#post_PID > table#pidPID, favatar/authi author link,
 * postnum floor label, em#authorposton, td.t_f#postmessage_PID) are cut out of a fixture page and only
 * the values change, so the parser sees exactly the markup Discuz serves. Bodies are written in a
 * BBCode subset and rendered the way Discuz's discuzcode() renders them (font tags, quote blocks with
 * their findpost link, <br /> line breaks, jammer filler on boards that turn it on).
 *
 * Two template families, one per captured site (fixtures/discuz/<dir>/site.json):
 * - 'utf8': fixtures/discuz/public (UTF-8, plain forum.php URLs, no jammer);
 * - 'gbk':  fixtures/discuz/public-gbk (GBK, rewrite URLs thread-T-P-1.html, jammer on).
 *
 * Used by the bench (src/bench) and the replay server to serve games of any size.
 */
import { seededRandom } from '../seeded-random.js';
import { readFileSync } from 'node:fs';
import iconv from 'iconv-lite';
import { packagePath } from '../paths.js';

/** Which captured site's markup to copy. */
export type SynthFamily = 'utf8' | 'gbk';

/** One post to put on a synthetic page. */
export interface SynthPost {
  pid: number;
  author: string;
  uid: number;
  /** Epoch ms, or "YYYY-MM-DD HH:mm:ss" forum time (Asia/Shanghai, UTC+8, no DST). */
  at: number | string;
  /** The message as typed: plain text with [color=X] [size=N] [b] [i] [u] [s] [url] BBCode, "\n" lines. */
  body: string;
  /** pid of a post this one replies to with Discuz's 引用 (quote): it must be in the same build. */
  quote?: number;
  /** An "本帖最后由 NAME 于 TIME 编辑" marker, as Discuz prepends it to edited messages. */
  edited?: { by: string; at: number | string };
}

/** A whole thread to render; posts in thread order (the first one is the thread's opening post). */
export interface SynthThread {
  family: SynthFamily;
  tid: number;
  title: string;
  /** Posts per page; the family's captured value (10 utf8, 20 gbk) when omitted. */
  ppp?: number;
  posts: SynthPost[];
  /** Forum root URL ending in "/"; the family's captured base_url when omitted. */
  base?: string;
  /**
   * The 查看 (views) count page 1's header shows; the reply count (posts − 1) when omitted, as on the
   * captured pages. Never shown below the reply count (every reply is a view).
   */
  views?: number;
  /** Quotable posts from elsewhere (other threads), looked up when `quote` is not in `posts`. */
  quotable?: ReadonlyMap<number, SynthPost & { tid: number }>;
}

/** One rendered page, as a server would serve it. */
export interface SynthPage {
  tid: number;
  page: number;
  pageCount: number;
  /** Request path relative to the forum root ("forum.php?mod=viewthread&tid=2&page=1", "thread-13-1-1.html"). */
  path: string;
  /** Absolute URL (base + path). */
  url: string;
  bytes: Uint8Array;
  contentType: string;
}

/** What each family copies from. */
interface FamilySource {
  dir: string;
  /** The skeleton + first-post page (page 1 of a multi-page thread). */
  file: string;
  /** A later page of a captured thread: its header cell holds "楼主: NAME" instead of the counts. */
  laterFile: string;
  /** pid/uid of the opening post and of a reply by someone else (no quote, one line) on that page. */
  firstPid: number;
  replyPid: number;
  charset: 'utf-8' | 'gbk';
  rewrite: boolean;
  jammer: boolean;
  /** The captured board listing (forumdisplay) whose thread rows the board builder copies, if the family has one. */
  boardFile?: string;
}

const SOURCES: Record<SynthFamily, FamilySource> = {
  utf8: { dir: 'public', file: 'viewthread-t4-p1.html', laterFile: 'viewthread-t2-p2.html', firstPid: 84, replyPid: 0, charset: 'utf-8', rewrite: false, jammer: false, boardFile: 'forumdisplay-f3.html' },
  gbk: { dir: 'public-gbk', file: 'thread-13-1-1.html', laterFile: 'thread-13-2-1.html', firstPid: 409, replyPid: 411, charset: 'gbk', rewrite: true, jammer: true },
};

const FORUM_OFFSET_MS = 8 * 3600_000;

/** A family's fixture directory, its site.json, and one of its captured files decoded from the family's charset. */
function familyDir(src: FamilySource): string {
  return packagePath('fixtures', 'discuz', src.dir);
}
function readSite(src: FamilySource): { base_url: string; ppp: number } {
  return JSON.parse(readFileSync(`${familyDir(src)}/site.json`, 'utf8')) as { base_url: string; ppp: number };
}
function readFamilyHtml(src: FamilySource, file: string): string {
  const raw = readFileSync(`${familyDir(src)}/${file}`);
  return src.charset === 'utf-8' ? raw.toString('utf8') : iconv.decode(raw, 'gbk');
}

/** HTML in a family's charset, as the bytes a server sends. */
function encodeFamily(family: SynthFamily, html: string): Uint8Array {
  const bytes = SOURCES[family].charset === 'utf-8' ? Buffer.from(html, 'utf8') : iconv.encode(html, 'gbk');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}

// ---------------------------------------------------------------------------------------------------
// Templates: a real page cut into constant parts and named holes.

type Part = string | { hole: Hole };
type Hole =
  | 'TID' | 'TITLE' | 'PAGE' | 'PAGER' | 'DESCRIPTION' | 'PID' | 'UID' | 'AUTHOR' | 'FLOOR' | 'POSTNUM_HREF'
  | 'TIME' | 'MESSAGE' | 'AUTHICON' | 'PGBTN' | 'PIDLIST' | 'REPORTURL' | 'KEYSCROLL'
  | 'THREADHEAD' | 'VIEWS' | 'REPLIES'
  | 'ROWS' | 'THREADS' | 'TODAY' | 'DATE' | 'TPS' | 'LASTPOSTER' | 'LASTPOSTER_URL' | 'LASTPOST';
const HOLES = new Set<string>(['TID', 'TITLE', 'PAGE', 'PAGER', 'DESCRIPTION', 'PID', 'UID', 'AUTHOR', 'FLOOR',
  'POSTNUM_HREF', 'TIME', 'MESSAGE', 'AUTHICON', 'PGBTN', 'PIDLIST', 'REPORTURL', 'KEYSCROLL',
  'THREADHEAD', 'VIEWS', 'REPLIES',
  'ROWS', 'THREADS', 'TODAY', 'DATE', 'TPS', 'LASTPOSTER', 'LASTPOSTER_URL', 'LASTPOST']);
const MARK = '\u0000';

/** A template string with holes marked MARK+NAME+MARK, split into parts once. */
function compile(marked: string): Part[] {
  const out: Part[] = [];
  const bits = marked.split(MARK);
  for (let i = 0; i < bits.length; i++) {
    if (i % 2 === 1) {
      if (!HOLES.has(bits[i])) throw new Error(`synth: unknown hole ${bits[i]}`);
      out.push({ hole: bits[i] as Hole });
    } else if (bits[i]) out.push(bits[i]);
  }
  return out;
}

function fill(parts: Part[], values: Partial<Record<Hole, string>>): string {
  let s = '';
  for (const p of parts) {
    if (typeof p === 'string') s += p;
    else {
      const v = values[p.hole];
      if (v === undefined) throw new Error(`synth: no value for ${p.hole}`);
      s += v;
    }
  }
  return s;
}

const hole = (name: Hole): string => MARK + name + MARK;

interface Template {
  src: FamilySource;
  base: string;
  ppp: number;
  head: Part[];
  firstPost: Part[];
  reply: Part[];
  tail: Part[];
  /**
   * The left header cell above the posts (td.pls of #postlist's first table), which differs by page as in
   * Discuz's viewthread.htm: page 1 shows "查看: VIEWS | 回复: REPLIES", later pages the thread author
   * ("楼主: AUTHOR" with a small avatar, UID).
   */
  firstHeader: Part[];
  laterHeader: Part[];
  /** The 楼主 marker Discuz shows on the thread author's replies, and the ordinary online icon. */
  opIcon: string;
  plainIcon: string;
}

const templates = new Map<SynthFamily, Template>();

/** The post block (div#post_PID up to the next post block or the reply box) of a pid in a page. */
function cutBlock(html: string, pid: number): { start: number; end: number } {
  const start = html.indexOf(`<div id="post_${pid}" >`);
  if (start < 0) throw new Error(`synth: template has no post ${pid}`);
  const re = /<div id="post_\d+" >/g;
  re.lastIndex = start + 10;
  const nextPost = re.exec(html)?.index ?? -1;
  const listEnd = html.indexOf('<div id="postlistreply"', start);
  const candidates = [nextPost, listEnd].filter((i) => i > start);
  return { start, end: Math.min(...candidates) };
}

/** The author link of a desktop post block (div.authi): group 1 the uid, group 2 the name. */
export const AUTHOR_LINK = /<div class="authi"><a href="(?:home\.php\?mod=space&amp;uid=|space-uid-)(\d+)(?:\.html)?" target="_blank" class="xw1">([^<]+)<\/a>/;

/** Values of a post block in the captured page, read with the same regexes the block is templated by. */
function blockFacts(block: string, pid: number): { uid: number; author: string; tid: number } {
  const m = AUTHOR_LINK.exec(block);
  const t = /ptid=(\d+)|tid=(\d+)/.exec(block);
  if (!m || !t) throw new Error(`synth: cannot read author/tid of template post ${pid}`);
  return { uid: Number(m[1]), author: m[2], tid: Number(t[1] ?? t[2]) };
}

/** Turn one real post block into a template with PID/UID/AUTHOR/FLOOR/TIME/MESSAGE holes. */
function templateBlock(block: string, pid: number, page: number): Part[] {
  const { uid, author, tid } = blockFacts(block, pid);
  let b = block;
  // the message: everything inside td.t_f up to its closing </td>
  b = b.replace(new RegExp(`(<td class="t_f" id="postmessage_${pid}">\\r?\\n)([\\s\\S]*?)(</td></tr></table>)`), `$1${hole('MESSAGE')}$3`);
  // the time: the whole content of em#authorposton (absolute, or a relative span with a title)
  b = b.replace(new RegExp(`(<em id="authorposton${pid}">)[\\s\\S]*?(</em>)`), `$1${hole('TIME')}$2`);
  // the floor label and its link
  b = b.replace(
    new RegExp(`<a href="([^"]*)"(\\s+id="postnum${pid}"[^>]*>)(\\r?\\n)[\\s\\S]*?</a>`),
    `<a href="${hole('POSTNUM_HREF')}"$2$3${hole('FLOOR')}</a>`,
  );
  // the author icon line: 楼主 marker for the thread author, online icon otherwise
  b = b.replace(
    new RegExp(`<img class="authicn vm" id="authicon${pid}"[^>]*/>\\r?\\n|<em class="authicn fico-person[^>]*id="authicon${pid}"[^>]*></em>\\r?\\n&nbsp;楼主<span class="pipe">\\|</span>\\r?\\n`),
    hole('AUTHICON'),
  );
  // author name wherever it is the link text
  b = b.split(`>${author}</a>`).join(`>${hole('AUTHOR')}</a>`);
  // the current page in reply/comment links
  b = b.replace(/(extra=(?:page%3D\d+)?&amp;page=)(\d+)/g, (_m, pre: string, p: string) => (Number(p) === page ? pre + hole('PAGE') : _m));
  // uid contexts
  b = b.replace(new RegExp(`(uid=|uid-|touid=|showmsg_|authorid=)${uid}(?!\\d)`, 'g'), `$1${hole('UID')}`);
  // tid contexts
  b = b.replace(new RegExp(`(ptid=|tid=|thread-)${tid}(?!\\d)`, 'g'), `$1${hole('TID')}`);
  // pid contexts: ids and query parameters carrying the pid
  b = b.replace(
    new RegExp(`(post_|pid|pid=|favatar|userinfo|g_up|upgradeprogress_|postnum|authicon|authorposton|postmessage_|comment_|post_rate_div_|_postposition|manage|repquote=|reppost=|rid=|miscreport|modclick\\(this, |value="|innerHTML, )${pid}(?!\\d)`, 'g'),
    `$1${hole('PID')}`,
  );
  if (!b.includes(hole('MESSAGE')) || !b.includes(hole('TIME')) || !b.includes(hole('FLOOR'))) {
    throw new Error(`synth: template post ${pid} does not have the expected Discuz markup`);
  }
  return compile(b);
}

/** The div in #postlist's first td.pls: the counts on page 1, "楼主: NAME" (div#tath) on later pages. */
const HEADER_RE = /<div (?:class="hm ptn"|id="tath" class="cl")>[\s\S]*?<\/div>/;

/** Page 1's header cell of a captured page, with the view and reply counts as VIEWS and REPLIES holes. */
function templateFirstHeader(head: string, file: string): { at: number; text: string; parts: Part[] } {
  const m = HEADER_RE.exec(head);
  if (!m || !m[0].startsWith('<div class="hm ptn">')) throw new Error(`synth: ${file} lacks page 1's 查看/回复 header`);
  const t = m[0]
    .replace(/(查看:<\/span> <span class="xi1">)\d+/, `$1${hole('VIEWS')}`)
    .replace(/(回复:<\/span> <span class="xi1">)\d+/, `$1${hole('REPLIES')}`);
  if (!t.includes(hole('VIEWS')) || !t.includes(hole('REPLIES'))) throw new Error(`synth: ${file}'s header has no 查看/回复 counts`);
  return { at: m.index, text: m[0], parts: compile(t) };
}

/** A later page's header cell ("楼主: NAME" with the thread author's avatar), with UID and AUTHOR holes. */
function templateLaterHeader(html: string, file: string): Part[] {
  const m = HEADER_RE.exec(html);
  const who = m && /楼主: <a href="(?:home\.php\?mod=space&amp;uid=|space-uid-)(\d+)(?:\.html)?" title="([^"]*)">([^<]*)<\/a>/.exec(m[0]);
  if (!m || !who || !m[0].startsWith('<div id="tath"')) throw new Error(`synth: ${file} lacks a later page's 楼主 header`);
  const [, uid, , name] = who;
  const t = m[0]
    .split(`title="${name}"`).join(`title="${hole('AUTHOR')}"`)
    .split(`>${name}</a>`).join(`>${hole('AUTHOR')}</a>`)
    .replace(new RegExp(`(uid=|uid-)${uid}(?!\\d)`, 'g'), `$1${hole('UID')}`);
  return compile(t);
}

/** The pager div Discuz's multi() prints, cut out of head/tail so it can be rebuilt per page. */
const PAGER_RE = /<div class="pg">[\s\S]*?(?:<\/label>|<\/a>)<\/div>/g;

function loadTemplate(family: SynthFamily): Template {
  const cached = templates.get(family);
  if (cached) return cached;
  const src = SOURCES[family];
  const site = readSite(src);
  const html = readFamilyHtml(src, src.file);

  const first = cutBlock(html, src.firstPid);
  const firstBlock = html.slice(first.start, first.end);
  const facts = blockFacts(firstBlock, src.firstPid);
  // a reply by someone other than the thread author, with a plain one-line message
  let replyPid = src.replyPid;
  if (!replyPid) {
    const re = /<div id="post_(\d+)" >/g;
    for (let m = re.exec(html); m; m = re.exec(html)) {
      const pid = Number(m[1]);
      if (pid === src.firstPid) continue;
      const { start, end } = cutBlock(html, pid);
      const blk = html.slice(start, end);
      const f = blockFacts(blk, pid);
      const msg = new RegExp(`id="postmessage_${pid}">\\r?\\n([^<]*)</td>`).exec(blk);
      if (f.uid !== facts.uid && msg && f.uid !== pid && f.uid !== facts.tid && pid !== facts.tid) {
        replyPid = pid;
        break;
      }
    }
  }
  const reply = cutBlock(html, replyPid);
  const replyBlock = html.slice(reply.start, reply.end);

  const opIconM = new RegExp(`<em class="authicn fico-person[^>]*id="authicon\\d+"[^>]*></em>\\r?\\n&nbsp;楼主<span class="pipe">\\|</span>\\r?\\n`).exec(html);
  const plainIconM = /<img class="authicn vm" id="authicon\d+"[^>]*\/>\r?\n/.exec(html);
  if (!opIconM || !plainIconM) throw new Error('synth: template lacks the author icons');

  let head = html.slice(0, first.start);
  const firstHeader = templateFirstHeader(head, src.file);
  head = head.slice(0, firstHeader.at) + hole('THREADHEAD') + head.slice(firstHeader.at + firstHeader.text.length);
  const laterHeader = templateLaterHeader(readFamilyHtml(src, src.laterFile), src.laterFile);
  const lastBlockEnd = html.indexOf('<div id="postlistreply"');
  const tail = html.slice(lastBlockEnd);
  const page = 1;
  const title = /<span id="thread_subject">([^<]*)<\/span>/.exec(head)?.[1];
  if (!title) throw new Error('synth: template lacks the thread subject');

  const templ = (s: string): Part[] => {
    let t = s.replace(PAGER_RE, hole('PAGER'));
    // the big "下一页 »" button under the posts, only when there is a next page
    t = t.replace(/<div class="pgbtn"><a href="[^"]*" hidefocus="true" class="bm_h">下一页 &raquo;<\/a><\/div>/, hole('PGBTN'));
    // the avatar fix-up script lists the page's pids
    t = t.replace(/fixed_avatar\(\[[\d,]*\]/, `fixed_avatar([${hole('PIDLIST')}]`);
    // the request URL, base64, that every Discuz page embeds; and the arrow-key pager's state
    t = t.replace(/(REPORTURL = ')[A-Za-z0-9+/=]*(')/, `$1${hole('REPORTURL')}$2`);
    t = t.replace(/keyPageScroll\(e, \d, \d, ('[^']*'), \d+\)/, `keyPageScroll(e, ${hole('KEYSCROLL')})`);
    t = t.split(title).join(hole('TITLE'));
    t = t.replace(/(<meta name="description" content=")[^"]*(")/, `$1${hole('DESCRIPTION')}$2`);
    t = t.replace(new RegExp(`(ptid=|tid=|thread-|tid%3D|tid = parseInt\\('|'tid' : |tid:\\s*'?)${facts.tid}(?!\\d)`, 'g'), `$1${hole('TID')}`);
    t = t.replace(new RegExp(`(readmode\\(\\$\\('thread_subject'\\)\\.innerHTML, )${src.firstPid}(?!\\d)`, 'g'), `$1${hole('PID')}`);
    return compile(t);
  };

  const t: Template = {
    src,
    base: site.base_url,
    ppp: site.ppp,
    head: templ(head),
    firstPost: templateBlock(firstBlock, src.firstPid, page),
    reply: templateBlock(replyBlock, replyPid, page),
    tail: templ(tail),
    firstHeader: firstHeader.parts,
    laterHeader,
    opIcon: opIconM[0].replace(/authicon\d+/, `authicon${hole('PID')}`),
    plainIcon: plainIconM[0].replace(/authicon\d+/, `authicon${hole('PID')}`),
  };
  templates.set(family, t);
  return t;
}

// ---------------------------------------------------------------------------------------------------
// Times

/** Epoch ms of a forum time "YYYY-MM-DD HH:mm[:ss]" (Asia/Shanghai), or the number itself. */
export function forumTimeMs(at: number | string): number {
  if (typeof at === 'number') return at;
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(at.trim());
  if (!m) throw new Error(`synth: bad forum time ${JSON.stringify(at)}`);
  return Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] ?? 0)) - FORUM_OFFSET_MS;
}

const pad2 = (n: number): string => (n < 10 ? '0' : '') + n;

/** Discuz's dgmdate in the forum zone: "Y-n-j H:i:s" (seconds) or "Y-n-j H:i" (minutes). */
export function formatForumTime(ms: number, seconds = true): string {
  const d = new Date(ms + FORUM_OFFSET_MS);
  const s = `${d.getUTCFullYear()}-${d.getUTCMonth() + 1}-${d.getUTCDate()} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
  return seconds ? `${s}:${pad2(d.getUTCSeconds())}` : s;
}

// ---------------------------------------------------------------------------------------------------
// Message rendering (discuzcode subset)

/** Text for HTML content and attribute values: & < > " escaped. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A small deterministic PRNG: jammer filler and synthetic games are the same on every run. */
export const rng = seededRandom;

/** Discuz's jammer(): random "c c" pairs, in a hidden span before the line or a jammer font after it. */
function jammerFor(rand: () => number): { before: string; after: string } {
  const int = (lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));
  let s = '';
  const n = int(5, 15);
  for (let i = 0; i < n; i++) s += String.fromCharCode(int(32, 59)) + ' ' + String.fromCharCode(int(63, 126));
  return rand() < 0.5 ? { before: '', after: `<font class="jammer">${s}</font>` } : { before: `<span style="display:none">${s}</span>`, after: '' };
}

/** Inline BBCode of one escaped line to HTML. */
function inlineBbcode(escaped: string, base: string): string {
  let s = escaped;
  const abs = (href: string): string => (/^[a-z][a-z0-9+.-]*:/i.test(href) ? href : base + href);
  // bare URLs become links at post time (Discuz's parseurl), [url] forms render to the same anchor
  s = s.replace(/\[url=([^\]]+)\]([\s\S]*?)\[\/url\]/gi, (_m, href: string, text: string) => `<a href="${abs(href)}" target="_blank">${text}</a>`);
  s = s.replace(/\[url\]([\s\S]*?)\[\/url\]/gi, (_m, href: string) => `<a href="${abs(href)}" target="_blank">${href}</a>`);
  s = s.replace(/(^|[^"=>])(https?:\/\/[^\s[\]<>"]+)/g, (_m, pre: string, href: string) => `${pre}<a href="${href}" target="_blank">${href}</a>`);
  s = s.replace(/\[color=([#\w(), ]+?)\]/gi, '<font color="$1">').replace(/\[\/color\]/gi, '</font>');
  s = s.replace(/\[size=(\d+(?:\.\d+)?(?:px|pt)?)\]/gi, (_m, v: string) => (/p[xt]$/i.test(v) ? `<font style="font-size:${v}">` : `<font size="${v}">`));
  s = s.replace(/\[\/size\]/gi, '</font>');
  s = s.replace(/\[b\]/gi, '<strong>').replace(/\[\/b\]/gi, '</strong>');
  s = s.replace(/\[i\]/gi, '<i>').replace(/\[\/i\]/gi, '</i>');
  s = s.replace(/\[u\]/gi, '<u>').replace(/\[\/u\]/gi, '</u>');
  s = s.replace(/\[s\]/gi, '<strike>').replace(/\[\/s\]/gi, '</strike>');
  return s;
}

/** Discuz's space handling: tabs and runs of spaces become &nbsp; pairs. */
function spaces(s: string): string {
  return s.replace(/\t/g, '&nbsp; &nbsp; &nbsp; &nbsp; ').replace(/ {3}/g, '&nbsp; &nbsp;').replace(/ {2}/g, '&nbsp;&nbsp;');
}

/** Join rendered lines with Discuz's line breaks (and the jammer filler, where the board has it on). */
function joinLines(lines: string[], jam: (() => number) | null): string {
  if (!jam) return lines.join('<br />\n');
  let out = lines[0];
  for (let i = 1; i < lines.length; i++) {
    const j = jammerFor(jam);
    out += spaces(j.after) + '<br />\n' + spaces(j.before) + lines[i];
  }
  return out;
}

/** messagecutstr(): the quoted message without BBCode, cut to 100 units (CJK counts 2) with " ...". */
function quoteExcerpt(body: string): string {
  const plain = body.replace(/\[\/?[a-z]+(?:=[^\]]*)?\]/gi, '').trim();
  let units = 0;
  let i = 0;
  for (const ch of plain) {
    units += ch.charCodeAt(0) < 0x80 ? 1 : 2;
    if (units > 100) return plain.slice(0, i) + ' ...';
    i += ch.length;
  }
  return plain;
}

/** The message HTML of a post inside td.t_f, as discuzcode() renders it. */
export function renderMessage(
  post: SynthPost,
  opts: { family: SynthFamily; tid: number; base?: string; quoted?: (SynthPost & { tid: number }) | null },
): string {
  const src = SOURCES[opts.family];
  const base = opts.base ?? loadTemplate(opts.family).base;
  const jam = src.jammer ? rng(post.pid * 2654435761) : null;
  const lines: string[] = [];
  let prefix = '';
  if (post.edited) {
    prefix = `<i class="pstatus"> 本帖最后由 ${escapeHtml(post.edited.by)} 于 ${formatForumTime(forumTimeMs(post.edited.at), false)} 编辑 </i><br />\n`;
  }
  if (opts.quoted) {
    const q = opts.quoted;
    const head =
      `<div class="quote"><blockquote><font size="2"><a href="${base}forum.php?mod=redirect&amp;goto=findpost&amp;pid=${q.pid}&amp;ptid=${q.tid}" target="_blank">` +
      `<font color="#999999">${escapeHtml(q.author)} 发表于 ${formatForumTime(forumTimeMs(q.at), false)}</font></a></font>`;
    const qLines = quoteExcerpt(q.body).split('\n').map((l) => spaces(escapeHtml(l)));
    // the quote is message text too: its line breaks (and jammer) come from the same pass
    const quoteHtml = joinLines([head, ...qLines], jam) + '</blockquote></div>';
    lines.push(quoteHtml);
  }
  for (const l of post.body.replace(/\r\n?/g, '\n').split('\n')) lines.push(inlineBbcode(spaces(escapeHtml(l)), base));
  return prefix + joinLines(lines, jam);
}

// ---------------------------------------------------------------------------------------------------
// Pages

/** The floor label Discuz prints in the postnum link. */
export function floorLabel(floor: number): string {
  return floor === 1 ? '楼主' : floor === 2 ? '沙发' : floor === 3 ? '板凳' : floor === 4 ? '地板' : `<em>${floor}</em><sup>#</sup>`;
}

/** Request path of page `page` of thread `tid` in a family's URL scheme. */
export function threadPagePath(family: SynthFamily, tid: number, page: number): string {
  return SOURCES[family].rewrite ? `thread-${tid}-${page}-1.html` : `forum.php?mod=viewthread&tid=${tid}&page=${page}`;
}

/** Discuz X3.5 multi(): the pager for page `cur` of `pages`, '' for a single page. */
export function renderPager(family: SynthFamily, tid: number, cur: number, pages: number): string {
  if (pages <= 1) return '';
  const rewrite = SOURCES[family].rewrite;
  const href = (p: number): string =>
    rewrite ? `thread-${tid}-${p}-1.html` : `forum.php?mod=viewthread&tid=${tid}&amp;extra=&amp;page=${p}`;
  const jump = rewrite ? `forum.php?mod=viewthread&tid=${tid}&amp;extra=page%3D1&amp;page=` : `forum.php?mod=viewthread&tid=${tid}&amp;extra=&amp;page=`;
  const shown = 10;
  const offset = Math.floor(shown * 0.5);
  let from: number;
  let to: number;
  if (shown > pages) {
    from = 1;
    to = pages;
  } else {
    from = cur - offset;
    to = from + shown - 1;
    if (from < 1) {
      to = cur + 1 - from;
      from = 1;
      if (to - from < shown) to = shown;
    } else if (to > pages) {
      from = pages - shown + 1;
      to = pages;
    }
  }
  let s = '';
  if (cur - offset > 1 && pages > shown) s += `<a href="${href(1)}" class="first">1 ...</a>`;
  if (cur > 1) s += `<a href="${href(cur - 1)}" class="prev">&nbsp;&nbsp;</a>`;
  for (let i = from; i <= to; i++) s += i === cur ? `<strong>${i}</strong>` : `<a href="${href(i)}">${i}</a>`;
  if (to < pages) s += `<a href="${href(pages)}" class="last">... ${pages}</a>`;
  s += `<label><input type="text" name="custompage" class="px" size="2" title="输入页码，按回车快速跳转" value="${cur}" onkeydown="if(event.keyCode==13) {window.location='${jump}'+this.value;; doane(event);}" /><span title="共 ${pages} 页"> / ${pages} 页</span></label>`;
  if (cur < pages) s += `<a href="${href(cur + 1)}" class="nxt">下一页</a>`;
  return `<div class="pg">${s}</div>`;
}

/** Number of pages a thread of `postCount` posts has at `ppp` posts a page. */
export function pageCountOf(postCount: number, ppp: number): number {
  return Math.max(1, Math.ceil(postCount / ppp));
}

/** Posts-per-page a family uses when the thread does not say. */
export function familyPpp(family: SynthFamily): number {
  return loadTemplate(family).ppp;
}

/** The forum root URL a family's pages claim. */
export function familyBase(family: SynthFamily): string {
  return loadTemplate(family).base;
}

/** Content-Type header a family's pages are served with. */
export function familyContentType(family: SynthFamily): string {
  return `text/html; charset=${SOURCES[family].charset}`;
}

/** The page's HTML as text (before encoding), for callers that want to inspect or re-encode it. */
export function renderThreadPageHtml(thread: SynthThread, page: number): string {
  const t = loadTemplate(thread.family);
  const ppp = thread.ppp ?? t.ppp;
  const pages = pageCountOf(thread.posts.length, ppp);
  if (page < 1 || page > pages) throw new RangeError(`synth: thread ${thread.tid} has ${pages} pages, not ${page}`);
  const base = thread.base ?? t.base;
  const opUid = thread.posts[0]?.uid;
  const byPid = new Map<number, SynthPost>();
  const quoteOf = (pid: number): (SynthPost & { tid: number }) | null => {
    if (byPid.size === 0) for (const p of thread.posts) byPid.set(p.pid, p);
    const local = byPid.get(pid);
    if (local) return { ...local, tid: thread.tid };
    const other = thread.quotable?.get(pid);
    if (other) return other;
    throw new Error(`synth: post quotes pid ${pid}, which is not in the build`);
  };
  const title = escapeHtml(thread.title);
  const pager = renderPager(thread.family, thread.tid, page, pages);
  const nextHref = page < pages
    ? (t.src.rewrite ? `thread-${thread.tid}-${page + 1}-1.html` : `forum.php?mod=viewthread&amp;tid=${thread.tid}&amp;extra=&amp;page=${page + 1}`)
    : null;
  const url = base + threadPagePath(thread.family, thread.tid, page);
  const scrollUrl = `forum.php?mod=viewthread&tid=${thread.tid}&amp;extra=${t.src.rewrite ? 'page%3D1' : ''}`;
  const common = {
    REPORTURL: Buffer.from(url, 'utf8').toString('base64'),
    KEYSCROLL: `${page > 1 ? 1 : 0}, ${page < pages ? 1 : 0}, '${scrollUrl}', ${page}`,
    TID: String(thread.tid),
    TITLE: title,
    PAGE: String(page),
    PAGER: pager,
    PGBTN: nextHref ? `<div class="pgbtn"><a href="${nextHref}" hidefocus="true" class="bm_h">下一页 &raquo;</a></div>` : '',
    PIDLIST: thread.posts.slice((page - 1) * ppp, page * ppp).map((p) => p.pid).join(','),
  };
  const opener = thread.posts[0];
  const replies = Math.max(0, thread.posts.length - 1);
  // Discuz's viewthread.htm: the counts on page 1, the thread author on every later page
  const threadHead = page === 1
    ? fill(t.firstHeader, { VIEWS: String(Math.max(replies, thread.views ?? replies)), REPLIES: String(replies) })
    : fill(t.laterHeader, { UID: String(opener?.uid ?? 0), AUTHOR: escapeHtml(opener?.author ?? '') });
  const firstBody = thread.posts[0] ? quoteExcerpt(thread.posts[0].body).replace(/\s+/g, ' ') : '';
  let html = fill(t.head, { ...common, DESCRIPTION: escapeHtml(`${firstBody} ${thread.title} ,Discuz! Board`), PID: String(thread.posts[0]?.pid ?? 0), THREADHEAD: threadHead });
  const startIdx = (page - 1) * ppp;
  const end = Math.min(thread.posts.length, startIdx + ppp);
  for (let i = startIdx; i < end; i++) {
    const post = thread.posts[i];
    const floor = i + 1;
    const pid = String(post.pid);
    const message = renderMessage(post, {
      family: thread.family,
      tid: thread.tid,
      base,
      quoted: post.quote !== undefined ? quoteOf(post.quote) : null,
    });
    const values: Partial<Record<Hole, string>> = {
      ...common,
      PID: pid,
      UID: String(post.uid),
      AUTHOR: escapeHtml(post.author),
      FLOOR: floorLabel(floor),
      POSTNUM_HREF: floor === 1 ? `forum.php?mod=viewthread&tid=${thread.tid}` : `forum.php?mod=redirect&goto=findpost&ptid=${thread.tid}&pid=${pid}`,
      TIME: `发表于 ${formatForumTime(forumTimeMs(post.at))}`,
      MESSAGE: message,
      // the 楼主 marker sits on the thread author's replies, not on the opening post itself
      AUTHICON: (floor > 1 && post.uid === opUid ? t.opIcon : t.plainIcon).split(hole('PID')).join(pid),
    };
    html += fill(floor === 1 ? t.firstPost : t.reply, values);
  }
  html += fill(t.tail, { ...common, PID: String(thread.posts[0]?.pid ?? 0) });
  return html;
}

/** One page of a thread, encoded in the family's charset. */
export function buildThreadPage(thread: SynthThread, page: number): SynthPage {
  const t = loadTemplate(thread.family);
  const html = renderThreadPageHtml(thread, page);
  const path = threadPagePath(thread.family, thread.tid, page);
  const ppp = thread.ppp ?? t.ppp;
  return {
    tid: thread.tid,
    page,
    pageCount: pageCountOf(thread.posts.length, ppp),
    path,
    url: (thread.base ?? t.base) + path,
    bytes: encodeFamily(thread.family, html),
    contentType: familyContentType(thread.family),
  };
}

/** Every page of a thread, in order. */
export function buildThreadPages(thread: SynthThread): SynthPage[] {
  const t = loadTemplate(thread.family);
  const pages = pageCountOf(thread.posts.length, thread.ppp ?? t.ppp);
  const out: SynthPage[] = [];
  for (let p = 1; p <= pages; p++) out.push(buildThreadPage(thread, p));
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Board listing (forum.php?mod=forumdisplay&fid=F)

/** A board listing to render: the threads it lists (any order; Discuz lists them by last post, newest first). */
export interface SynthBoard {
  family: SynthFamily;
  threads: SynthThread[];
  /** The 今日 (posts today) count in the board header; 0 when omitted (a finished game's board). */
  todayPosts?: number;
}

/** A rendered board listing, as a server would serve it. */
export interface SynthBoardPage {
  /** The captured board's fid (the listing keeps the captured board: its name, fid and forms). */
  fid: number;
  /** Request path relative to the forum root ("forum.php?mod=forumdisplay&fid=3"). */
  path: string;
  url: string;
  bytes: Uint8Array;
  contentType: string;
}

interface BoardTemplate {
  fid: number;
  base: string;
  ppp: number;
  head: Part[];
  row: Part[];
  /** One link of span.tps, the page links Discuz prints after a multi-page thread's title. */
  pageLink: Part[];
  /** The line ending after span.tps in the captured row (the capture mixes CRLF and LF). */
  tpsEol: string;
  tail: Part[];
}

const boardTemplates = new Map<SynthFamily, BoardTemplate>();

/** A replacement that must hit: the board template is useless if the captured markup is not what we expect. */
function mustReplace(s: string, re: RegExp, to: string, what: string): string {
  const out = s.replace(re, to);
  if (out === s) throw new Error(`synth: board template lacks ${what}`);
  return out;
}

/**
 * The family's captured board listing cut into head, one thread row and tail. The row is a real
 * tbody#normalthread_TID of a multi-page thread (so it carries span.tps) without the per-viewer "New"
 * link or a stamp image; its values become holes.
 */
function loadBoardTemplate(family: SynthFamily): BoardTemplate {
  const cached = boardTemplates.get(family);
  if (cached) return cached;
  const src = SOURCES[family];
  if (!src.boardFile) throw new Error(`synth: no captured board listing for the ${family} family`);
  const site = readSite(src);
  const html = readFamilyHtml(src, src.boardFile);
  const fid = Number(/<table summary="forum_(\d+)"[^>]*id="threadlisttableid">/.exec(html)?.[1]);
  if (!fid) throw new Error(`synth: ${src.boardFile} has no thread list table`);

  const rows = [...html.matchAll(/<tbody id="normalthread_(\d+)">[\s\S]*?<\/tbody>\r?\n/g)];
  if (rows.length === 0) throw new Error(`synth: ${src.boardFile} lists no threads`);
  const start = rows[0].index;
  const last = rows[rows.length - 1];
  const end = last.index + last[0].length;
  const pick = rows.find((r) => r[0].includes('<span class="tps">') && !r[0].includes('class="xi1">New</a>') && !r[0].includes('static/image/stamp/'));
  if (!pick) throw new Error(`synth: ${src.boardFile} has no plain multi-page thread row to copy`);
  const tid = pick[1];
  let row = pick[0];

  // span.tps: cut out whole (with its line break); keep one of its links as the page-link template
  const tps = /<span class="tps">&nbsp;\.\.\.([\s\S]*?)<\/span>\r?\n/.exec(row)!;
  const link = /<a href="[^"]*?page=2" onclick="atarget\(this\)">2<\/a>/.exec(tps[1]);
  if (!link) throw new Error(`synth: ${src.boardFile}'s page links lack page 2`);
  const pageLink = compile(
    mustReplace(link[0], new RegExp(`(tid=|thread-)${tid}(?!\\d)`), `$1${hole('TID')}`, 'a tid in the page link')
      .replace(/page=2"/, `page=${hole('PAGE')}"`).replace(/>2<\/a>/, `>${hole('PAGE')}</a>`),
  );
  row = row.replace(tps[0], hole('TPS'));
  // the thread author, the post date, the counts and the last post
  row = mustReplace(
    row,
    /(<td class="by">\r?\n<cite>\r?\n<a href="(?:home\.php\?mod=space&amp;uid=|space-uid-))\d+((?:\.html)?" c="1">)[^<]*(<\/a><\/cite>\r?\n<em><span>)[^<]*(<\/span><\/em>)/,
    `$1${hole('UID')}$2${hole('AUTHOR')}$3${hole('DATE')}$4`,
    'the thread author cell',
  );
  row = mustReplace(row, /(class="xi2">)\d+(<\/a><em>)\d+(<\/em>)/, `$1${hole('REPLIES')}$2${hole('VIEWS')}$3`, 'the reply/view counts');
  row = mustReplace(
    row,
    /(<cite><a href="(?:home\.php\?mod=space&username=|space-username-))[^"]*?((?:\.html)?" c="1">)[^<]*(<\/a><\/cite>\r?\n<em><a href="[^"]*#lastpost">)[^<]*(<\/a><\/em>)/,
    `$1${hole('LASTPOSTER_URL')}$2${hole('LASTPOSTER')}$3${hole('LASTPOST')}$4`,
    'the last post cell',
  );
  row = mustReplace(row, /(class="s xst">)[^<]*(<\/a>)/, `$1${hole('TITLE')}$2`, 'the title link');
  row = mustReplace(
    row,
    new RegExp(`(tid=|thread-|normalthread_|content_|CONTENT_TID=')${tid}(?!\\d)`, 'g'),
    `$1${hole('TID')}`,
    'the tid',
  );

  let head = html.slice(0, start);
  head = mustReplace(head, /(主题: <strong class="xi1">)\d+/, `$1${hole('THREADS')}`, 'the 主题 count');
  head = mustReplace(head, /(今日: <strong class="xi1">)\d+/, `$1${hole('TODAY')}`, 'the 今日 count');
  const t: BoardTemplate = {
    fid,
    base: site.base_url,
    ppp: site.ppp,
    head: compile(head),
    row: compile(row),
    pageLink,
    tpsEol: tps[0].endsWith('\r\n') ? '\r\n' : '\n',
    tail: compile(html.slice(end)),
  };
  boardTemplates.set(family, t);
  return t;
}

/** PHP's rawurlencode (Discuz's link to a user by name): encodeURIComponent plus !*'(). */
function rawUrlEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The board listing's request path (the captured board's fid, query form: forum.php?mod=forumdisplay&fid=F). */
export function boardPagePath(family: SynthFamily): string {
  return `forum.php?mod=forumdisplay&fid=${loadBoardTemplate(family).fid}`;
}

/** Discuz lists at most this many threads on a board page (topicperpage's default); there is no captured pager to copy. */
export const BOARD_THREADS_PER_PAGE = 20;

/**
 * The board listing's HTML: the captured page with one copied thread row per thread, ordered as
 * Discuz's forumdisplay orders them (last post, newest first; tid, newest first, on a tie). Each row
 * holds the title, the author with the opening post's date, replies (posts − 1) and views, the last
 * poster with the last post's time, and span.tps page links (pages 2–6, then "..N") for threads longer
 * than one page, as forum_forumdisplay.php prints them.
 */
export function renderBoardPageHtml(board: SynthBoard): string {
  const t = loadBoardTemplate(board.family);
  if (board.threads.length > BOARD_THREADS_PER_PAGE) {
    throw new RangeError(`synth: a board page lists at most ${BOARD_THREADS_PER_PAGE} threads, not ${board.threads.length}`);
  }
  const lastAt = (th: SynthThread): number => forumTimeMs(th.posts[th.posts.length - 1]?.at ?? 0);
  const ordered = [...board.threads].sort((a, b) => lastAt(b) - lastAt(a) || b.tid - a.tid);
  let rows = '';
  for (const th of ordered) {
    const op = th.posts[0];
    const last = th.posts[th.posts.length - 1];
    if (!op || !last) throw new Error(`synth: thread ${th.tid} has no posts to list`);
    const replies = th.posts.length - 1;
    const pages = pageCountOf(th.posts.length, th.ppp ?? t.ppp);
    let links = '';
    for (let i = 2; i <= 6 && i <= pages; i++) links += fill(t.pageLink, { TID: String(th.tid), PAGE: String(i) });
    if (pages > 6) links += `..${fill(t.pageLink, { TID: String(th.tid), PAGE: String(pages) })}`;
    rows += fill(t.row, {
      TID: String(th.tid),
      TITLE: escapeHtml(th.title),
      TPS: pages > 1 ? `<span class="tps">&nbsp;...${links}</span>${t.tpsEol}` : '',
      UID: String(op.uid),
      AUTHOR: escapeHtml(op.author),
      DATE: formatForumTime(forumTimeMs(op.at), false).split(' ')[0],
      REPLIES: String(replies),
      VIEWS: String(Math.max(replies, th.views ?? replies)),
      LASTPOSTER_URL: rawUrlEncode(last.author),
      LASTPOSTER: escapeHtml(last.author),
      LASTPOST: formatForumTime(forumTimeMs(last.at), false),
    });
  }
  return fill(t.head, { THREADS: String(board.threads.length), TODAY: String(board.todayPosts ?? 0) }) + rows + fill(t.tail, {});
}

/** The board listing page, encoded in the family's charset. */
export function buildBoardPage(board: SynthBoard): SynthBoardPage {
  const t = loadBoardTemplate(board.family);
  const html = renderBoardPageHtml(board);
  const path = boardPagePath(board.family);
  const base = board.threads[0]?.base ?? t.base;
  return { fid: t.fid, path, url: base + path, bytes: encodeFamily(board.family, html), contentType: familyContentType(board.family) };
}
