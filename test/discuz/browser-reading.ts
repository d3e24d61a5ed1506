/**
 * An independent reading of a Discuz thread page, for tests: the tree parse5 builds with its own
 * default tree adapter (the HTML5 algorithm a browser runs; not the htmlparser2 adapter, css-select or
 * selectors/*.json bansha uses) and a small DOM walk written here from the page markup. Expectations
 * for the real-world pages come from this, never from bansha's output.
 *
 * What is read: the post blocks the browser places in the post list (desktop: the children of
 * #postlist with id post_N; touch: div.plc#pidN), each one's floor label, author and uid (the first
 * link to a user's space with a name), time (the title of the time span, else the time line's own
 * text) and the text a reader sees as the author's: text nodes in document order, leaving out what a
 * browser hides (inline display:none, script, style, ruby readings) and the chrome Discuz puts
 * in the message (quotes, edit marker, attachment tips — but not what an unclosed tip holds after its
 * own lines, afterTip —, guest thumbnails, the copy button, the
 * group line, a spoiler box's 收起 button, the 回复 N# header of the reply button; the spoiler's
 * content is the author's and stays).
 */
import { parse, type DefaultTreeAdapterMap } from 'parse5';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

export interface BrowserPost {
  pid: number;
  label: string | null;
  author: string;
  uid: number | null;
  /** As the page writes it ("2019-4-15 13:32:28", "2025-4-30 17:11"). */
  time: string;
  /** The author's words with every white-space character removed (layout differs, characters do not). */
  chars: string;
}

export interface BrowserReading {
  posts: BrowserPost[];
  /** Every pid that some element id (post_N / postmessage_N / pidN) names, anywhere in the tree. */
  idPids: Set<number>;
  /** The page links 正序浏览 (ordertype=2): it is shown newest-first. */
  newestFirst: boolean;
}

const isEl = (n: Node): n is Element => 'tagName' in n;
const attr = (e: Element, name: string) => e.attrs.find((a) => a.name === name)?.value ?? null;
const classes = (e: Element) => (attr(e, 'class') ?? '').split(/\s+/);
const kids = (n: Node): Node[] => ('childNodes' in n ? n.childNodes : []);

/** The elements under `n` in document order. */
function walk(n: Node): Element[] {
  const out: Element[] = [];
  const stack = [...kids(n)].reverse();
  while (stack.length) {
    const c = stack.pop()!;
    if (!isEl(c)) continue;
    out.push(c);
    for (let i = c.childNodes.length - 1; i >= 0; i--) stack.push(c.childNodes[i]);
  }
  return out;
}
const find = (root: Node, pred: (e: Element) => boolean): Element | null => walk(root).find(pred) ?? null;
const byId = (root: Node, id: string) => find(root, (e) => attr(e, 'id') === id);

function text(n: Node, skip: (e: Element) => boolean = () => false): string {
  if (n.nodeName === '#text') return (n as DefaultTreeAdapterMap['textNode']).value;
  if (!isEl(n) && n.nodeName !== '#document') return '';
  if (isEl(n) && skip === notAuthors && classes(n).includes('tip')) return afterTip(n);
  if (isEl(n) && skip(n)) return '';
  return kids(n).map((c) => text(c, skip)).join('');
}

/**
 * Discuz's image tip (div.tip, display:none) that a guest view's guestviewthumb leaves unclosed: the
 * browser nests the rest of the message inside it, which the reader of a logged-in page sees. The
 * tip's own parts — its leading <p> lines (file name, 下载附件, 上传), white space, div.tip_horn,
 * the same shell one div down — are chrome; whatever follows them is the author's.
 */
function afterTip(e: Element): string {
  let chrome = true;
  let firstDiv = true;
  let out = '';
  for (const c of kids(e)) {
    if (chrome) {
      if (c.nodeName === '#text' && !text(c).trim()) continue;
      if (!isEl(c) && c.nodeName !== '#text') continue;
      if (isEl(c) && (c.tagName === 'p' || classes(c).includes('tip_horn'))) continue;
      if (isEl(c) && c.tagName === 'div' && firstDiv) {
        firstDiv = false;
        out += afterTip(c);
        continue;
      }
      chrome = false;
    }
    out += text(c, notAuthors);
  }
  return out;
}


/** Not the author's words, or not shown at all. */
function notAuthors(e: Element): boolean {
  const style = (attr(e, 'style') ?? '').replace(/\s/g, '').toLowerCase();
  if (style.includes('display:none')) return true;
  if (['script', 'style', 'rt', 'rp', 'blockquote'].includes(e.tagName)) return true;
  if ((attr(e, 'onclick') ?? '').startsWith('copycode')) return true; // 复制代码
  // The header Discuz's reply button writes (回复 <a findpost>3#</a> <i>name</i>): the reply target, not words.
  if (e.tagName === 'strong' && /^\s*回复\s*\d+\s*#/.test(text(e)) && find(e, (x) => /findpost/.test(attr(x, 'href') ?? '')) !== null) return true;
  const c = classes(e);
  return ['quote', 'pstatus', 'tip', 'aimg_tip', 'attach_nopermission', 'guestviewthumb', 'locked', 'jammer', 'a_pr', 'a_pt', 'a_pb', 'mbn', 'showcollapse_gather'].some((k) =>
    c.includes(k),
  );
}

const INLINE = new Set(['a', 'b', 'big', 'br', 'code', 'del', 'em', 'font', 'i', 'img', 'q', 'ruby', 's', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'u']);

/**
 * The message as the browser lays it out: when a stray end tag pushed some of the author's text out
 * of the message element, it sits beside it in the enclosing box (desktop div.t_fsz, touch
 * div.display): text and inline elements there count, in tree order; the box's block chrome does not.
 */
function messageChars(msg: Element, block: Element): string {
  let holder: Element = msg;
  let box = msg.parentNode as Element | null;
  while (box && box !== block && !classes(box).some((c) => c === 't_fsz' || c === 'display')) {
    holder = box;
    box = box.parentNode as Element | null;
  }
  const parts = !box || box === block ? [msg] : box.childNodes.filter((c) => c === holder || c.nodeName === '#text' || (isEl(c) && INLINE.has(c.tagName)));
  const all = parts.map((p) => text(p, notAuthors)).join('');
  // The group thread's line Discuz appends (来自群组: <a>group</a>) is not the author's.
  return all.replace(/来自群组[:：][^\n]*\s*$/, '').replace(/\s+/g, '');
}

function postOf(block: Element, pid: number, touch: boolean): BrowserPost {
  const labelEl = touch ? find(block, (e) => e.tagName === 'li' && classes(e).includes('mtit')) : byId(block, `postnum${pid}`);
  const labelNode = labelEl && touch ? find(labelEl, (e) => e.tagName === 'span' && classes(e).includes('y')) : labelEl;
  const label = labelNode ? text(labelNode).replace(/\s+/g, '') || null : null;
  const who = find(block, (e) => e.tagName === 'a' && /uid[=-]\d+/.test(attr(e, 'href') ?? '') && text(e).trim() !== '');
  const uid = who ? +/uid[=-](\d+)/.exec(attr(who, 'href')!)![1] : null;
  let time: string;
  if (touch) {
    const line = find(block, (e) => e.tagName === 'li' && classes(e).includes('mtime'))!;
    time = line.childNodes.filter((c) => c.nodeName === '#text').map((c) => text(c)).join('').trim();
  } else {
    const em = byId(block, `authorposton${pid}`);
    const titled = em ? find(em, (e) => attr(e, 'title') !== null) : null;
    time = titled ? attr(titled, 'title')! : em ? text(em).replace(/^\s*发表于\s*/, '').trim() : ''; // none: a deleted post's slot
  }
  const msg = touch ? find(block, (e) => e.tagName === 'div' && classes(e).includes('message')) : byId(block, `postmessage_${pid}`);
  return { pid, label, author: who ? text(who).trim() : '', uid, time, chars: msg ? messageChars(msg, block) : '' };
}

/** Read a decoded thread page the way a browser builds it. */
export function readLikeBrowser(html: string): BrowserReading {
  const doc = parse(html);
  const idPids = new Set<number>();
  let newestFirst = false;
  for (const e of walk(doc)) {
    const m = /^(?:post_|postmessage_|pid)(\d+)$/.exec(attr(e, 'id') ?? '');
    if (m) idPids.add(+m[1]);
    if (e.tagName === 'a' && /ordertype=2/.test(attr(e, 'href') ?? '') && text(e).includes('正序')) newestFirst = true;
  }
  const list = byId(doc, 'postlist');
  const posts: BrowserPost[] = [];
  if (list) {
    for (const c of list.childNodes) {
      const m = isEl(c) ? /^post_(\d+)$/.exec(attr(c, 'id') ?? '') : null;
      if (m) posts.push(postOf(c as Element, +m[1], false));
    }
  } else {
    for (const e of walk(doc)) {
      const m = e.tagName === 'div' && classes(e).includes('plc') ? /^pid(\d+)$/.exec(attr(e, 'id') ?? '') : null;
      if (m) posts.push(postOf(e, +m[1], true));
    }
  }
  return { posts, idPids, newestFirst };
}
