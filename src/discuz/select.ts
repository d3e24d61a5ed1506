/**
 * The thin glue between the selectors in selectors/*.json and css-select (cheerio's own selector
 * engine) over the htmlparser2/domhandler DOM. css-select compiles each selector once into a
 * predicate on an element; what css-select has no equivalent for lives here: `scan`, one walk of a
 * subtree answering several selectors at once (the per-post hot path), and `textWithout`, an
 * element's text leaving out the parts a selector names. Plain queries use css-select's
 * selectOne/selectAll and domutils' innerText directly.
 */
import { compile, type Options } from 'css-select';
import { isTag, type AnyNode, type Element, type ParentNode } from 'domhandler';

/** A compiled selector list: css-select's predicate, true for the elements the selector matches. */
export type Matcher = (node: AnyNode) => boolean;

/** HTML semantics (lower-cased tag and attribute names, HTML's case-insensitive attribute values). */
const CSS_SELECT_OPTIONS: Options<AnyNode, Element> = { xmlMode: false, cacheResults: false };

/** Compile a CSS selector list with css-select. Throws on syntax css-select rejects. */
export function compileSelector(selector: string): Matcher {
  return compile<AnyNode, Element>(selector, CSS_SELECT_OPTIONS);
}

/**
 * Text of a node as the reader sees it (domutils innerText: script/style left out), also leaving out
 * every element matching `skip` (e.g. the time line's links, a reply header's stripped parts).
 */
export function textWithout(n: AnyNode, skip: Matcher): string {
  // Same walk as domutils innerText (text of 'tag' elements only), plus the skip test.
  if (n.type === 'text') return n.data;
  if (n.type !== 'tag' || skip(n)) return '';
  let s = '';
  for (const c of n.children) s += textWithout(c, skip);
  return s;
}

/**
 * One walk for several selectors: the first descendant (root excluded, document order) matching
 * each of `firsts` (null when none) and, when `all` is given, every match of it (not searched
 * inside). `noDescend` elements are tested but not entered (e.g. the message body, read by its own
 * walk). css-select's selectOne/selectAll would walk the subtree once per selector.
 */
export function scan(
  root: ParentNode,
  firsts: (Matcher | null)[],
  all: Matcher | null = null,
  noDescend: Matcher | null = null,
): { first: (Element | null)[]; all: Element[] } {
  const first: (Element | null)[] = firsts.map(() => null);
  let missing = firsts.filter((m) => m !== null).length;
  const found: Element[] = [];
  const stack: AnyNode[] = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push(root.children[i]);
  while (stack.length) {
    const n = stack.pop()!;
    if (!isTag(n)) continue;
    let descend = true;
    if (missing) {
      for (let i = 0; i < firsts.length; i++) {
        const m = firsts[i];
        if (m && first[i] === null && m(n)) {
          first[i] = n;
          missing--;
        }
      }
    }
    if (all && all(n)) {
      found.push(n);
      descend = false;
    }
    if (noDescend && descend && noDescend(n)) descend = false;
    if (!missing && !all) break;
    if (!descend) continue;
    const ch = n.children;
    for (let i = ch.length - 1; i >= 0; i--) stack.push(ch[i]);
  }
  return { first, all: found };
}
