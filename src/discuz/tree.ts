/**
 * The document tree, built as a browser builds it. Discuz pages carry the players' own HTML, which
 * does not balance (a stray `</div>` in a post, Discuz's own unclosed `<div class="tip">` inside
 * `<ignore_js_op>`): the HTML5 tree-construction algorithm ignores or repairs such tags, a plain tag
 * stacker (htmlparser2's parseDocument) closes the post list there and loses every later post.
 * parse5 is the HTML5 reference implementation in Node; its htmlparser2 tree adapter yields the same
 * domhandler nodes css-select, domutils and cheerio read, so the selectors in selectors/*.json work
 * unchanged on a browser's tree (which adds <tbody> to tables, as the live DOM does).
 */
import { parse } from 'parse5';
import { adapter } from 'parse5-htmlparser2-tree-adapter';
import type { Document } from 'domhandler';

/** The HTML5 (browser) tree of a decoded page. */
export function buildTree(html: string): Document {
  return parse(html, { treeAdapter: adapter });
}
