/**
 * One post message (td.t_f / div.message) read in a single walk: the author's own text with quote
 * blocks, reply-to-floor headers, jammer filler, hidden spans, the edit marker, ads and scripts
 * removed (line breaks kept as \n), plus the quoted/replied pids, the edit marker, the font colours
 * and sizes exactly as written with the text they apply to, links, images and attachments.
 * The message.* selectors are css-select predicates (selectors.ts), tested node by node in this walk.
 * Only the author's words: guest chrome (登录/注册后可看大图), a code block's 复制代码 button, ruby
 * readings (<rt>/<rp>; the base text stays) are in message.strip; the line Discuz appends to a group
 * thread's post (来自群组: …) is message.trailerPattern, dropped when it is the message's last line (wherever
 * broken markup put it: an unclosed div or a second cell).
 */
import { selectAll, selectOne } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import { innerText } from 'domutils';
import type { Attachment, FontUse, Post } from './types.js';
import { textWithout } from './select.js';
import type { SelectorSet } from './selectors.js';
import { absoluteIso } from './times.js';

/** What a message yields: the Post fields read from the message body, its lists grown here (a Post's are read-only). */
export type MessageParts = Pick<Post, 'text' | 'replyTo' | 'edited'> & {
  quotes: number[];
  colors: FontUse[];
  sizes: FontUse[];
  links: string[];
  images: string[];
  attachments: Attachment[];
};

/**
 * What a message shows about parts of it the account was not given ([hide]): the notices printed in
 * place of hidden parts (message.hiddenPart), and whether a [hide] block was shown (message.hiddenShown,
 * or a hiddenPart notice that announces the text after it).
 */
export interface HiddenMarks {
  missing: string[];
  shown: boolean;
}

/** The parts of a post without a message element: no text, nothing quoted, found or linked. */
export function emptyMessageParts(): MessageParts {
  return { text: '', quotes: [], replyTo: null, edited: null, colors: [], sizes: [], links: [], images: [], attachments: [] };
}

const BLOCK = new Set([
  'div', 'p', 'blockquote', 'li', 'ul', 'ol', 'table', 'tbody', 'tr', 'td', 'th', 'dl', 'dt', 'dd',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'pre', 'center',
]);
const PID_IN_HREF = /[?&;]pid=(\d+)/;

/**
 * A text node that starts a line of the message: Discuz appends the trailer to the message element,
 * but broken author markup can leave it inside an unclosed div or a second table cell instead.
 */
const lineOfItsOwn = (n: AnyNode, root: Element): boolean => n.parent === root || (n.parent?.type === 'tag' && BLOCK.has((n.parent as Element).name));

/** Tidy extracted text: white space per line trimmed, no leading/trailing blank lines. */
export function tidyText(raw: string): string {
  const lines = raw.replace(/\u00a0/g, ' ').split('\n');
  const out: string[] = [];
  for (const l of lines) out.push(l.replace(/[ \t\f\r]+/g, ' ').trim());
  let a = 0;
  let b = out.length;
  while (a < b && out[a] === '') a++;
  while (b > a && out[b - 1] === '') b--;
  return out.slice(a, b).join('\n');
}

function styleProp(style: string, prop: 'color' | 'font-size'): string | null {
  for (const decl of style.split(';')) {
    const i = decl.indexOf(':');
    if (i < 0) continue;
    if (decl.slice(0, i).trim().toLowerCase() === prop) {
      const v = decl.slice(i + 1).trim();
      if (v) return v;
    }
  }
  return null;
}

/** Resolve a link against the page URL when the page came over http(s); else keep it as written. */
function absolutize(href: string, base: string | null): string {
  if (!base) return href;
  try {
    return new URL(href, base).href;
  } catch {
    return href;
  }
}

/**
 * Read one message element. `zone` is the forum zone (for the edit marker's minutes), `base` the
 * page URL used to resolve relative links (null to keep them as written).
 */
export function readMessage(root: Element, sel: SelectorSet, zone: string, base: string | null, marks?: HiddenMarks): MessageParts {
  const ms = sel.message;
  const parts = emptyMessageParts();
  let out = '';
  const newline = () => {
    if (out.length && out[out.length - 1] !== '\n') out += '\n';
  };

  // Where a trailer line (来自群组: …) began: its text and links are dropped if nothing follows it.
  let trailer: { at: number; links: number } | null = null;
  const walk = (n: AnyNode): void => {
    if (n.type === 'text') {
      // At a line's start: its own block, or after a line break (inside an inline element a player's
      // unclosed <font> wrapped around the rest of the message).
      if (ms.trailer && (lineOfItsOwn(n, root) || out === '' || out.endsWith('\n')) && ms.trailer.test(n.data.trim())) {
        newline();
        trailer = { at: out.length, links: parts.links.length };
      }
      out += n.data.replace(/[ \t\r\n\f]+/g, ' ');
      return;
    }
    if (n.type !== 'tag') return;
    const name = n.name;
    if (name === 'br') {
      out += '\n';
      return;
    }
    if (ms.editMarker(n)) {
      const m = ms.editPattern.exec(innerText(n).replace(/\u00a0/g, ' '));
      if (m && !parts.edited) {
        parts.edited = { by: m[1], at: absoluteIso(m[2], zone) ?? m[2] };
      }
      return;
    }
    if (n.parent === root && sel.post.messageNotice?.(n)) return; // a post-level notice (parse-page.ts reads it)
    if (ms.hiddenPart?.(n)) {
      const notice = innerText(n).replace(/\s+/g, ' ').trim();
      if (ms.hiddenShownPattern?.test(notice)) {
        if (marks) marks.shown = true;
      } else if (marks) marks.missing.push(notice);
      newline();
      return;
    }
    if (ms.hiddenShown?.(n) && marks) marks.shown = true;
    if (ms.openChrome?.(n)) {
      walkAfterChrome(n);
      return;
    }
    if (ms.quote(n)) {
      for (const a of selectAll(ms.quoteLink, n)) {
        const pm = PID_IN_HREF.exec(a.attribs.href ?? '');
        if (pm && !parts.quotes.includes(+pm[1])) parts.quotes.push(+pm[1]);
      }
      newline();
      return;
    }
    if (ms.strip(n)) return;
    if (parts.replyTo === null && out.trim() === '' && ms.replyHeader(n)) {
      const t = textWithout(n, ms.strip);
      if (ms.replyPattern.test(t)) {
        const link = selectOne(ms.replyLink, n);
        const pm = link ? PID_IN_HREF.exec(link.attribs.href ?? '') : null;
        if (pm) {
          parts.replyTo = +pm[1];
          return;
        }
      }
    }
    const a = n.attribs;
    const block = BLOCK.has(name);
    if (block) newline();
    let color: string | null = null;
    let size: string | null = null;
    if (name === 'font') {
      if (a.color) color = a.color;
      if (a.size) size = a.size;
    }
    if (a.style) {
      color ??= styleProp(a.style, 'color');
      size ??= styleProp(a.style, 'font-size');
    }
    if (name === 'a' && a.href && !a.href.startsWith('javascript:')) parts.links.push(absolutize(a.href, base));
    if (name === 'img') {
      if (!ms.smilie(n)) {
        const src = a.zoomfile || a.file || a.src;
        if (src) {
          const url = absolutize(src, base);
          parts.images.push(url);
          if (a.aid) parts.attachments.push({ name: a.title || a.alt || `attachment ${a.aid}`, url });
        }
      }
      return;
    }
    const start = out.length;
    for (const c of n.children) walk(c);
    if (color !== null || size !== null) {
      const text = tidyText(out.slice(start));
      if (color !== null) parts.colors.push({ value: color, text });
      if (size !== null) parts.sizes.push({ value: size, text });
    }
    if (block) newline();
  };

  /**
   * A chrome block Discuz leaves unclosed (the image tip `<div class="tip aimg_tip"><div class="xs0"><p>…`
   * of a guest view's guestviewthumb, whose closing tags the template omits): the browser nests the
   * rest of the message inside it. Its own parts — leading <p> lines, the tip_horn, white space, the
   * same shell one div down — are chrome; whatever follows them is the author's and is read.
   */
  const walkAfterChrome = (n: Element): void => {
    let chrome = true;
    let firstDiv = true;
    for (const c of n.children) {
      if (chrome) {
        if (c.type === 'text' && !c.data.trim()) continue;
        if (c.type === 'tag' && (c.name === 'p' || ms.strip(c) || ms.openChrome!(c))) continue;
        if (c.type === 'tag' && c.name === 'div' && firstDiv) {
          firstDiv = false;
          walkAfterChrome(c);
          continue;
        }
        if (c.type !== 'text' && c.type !== 'tag') continue;
        chrome = false;
        newline();
      }
      walk(c);
    }
  };

  for (const c of root.children) walk(c);
  const t = trailer as { at: number; links: number } | null;
  if (t && !out.slice(t.at).trim().includes('\n')) {
    out = out.slice(0, t.at);
    parts.links.length = t.links;
  }
  parts.text = tidyText(out);
  return parts;
}
