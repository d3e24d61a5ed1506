/**
 * A small CSS selector matcher over htmlparser2/domhandler nodes, for the per-post hot path: selectors
 * from selectors/*.json are compiled once and tested node by node during a single walk, instead of one
 * document traversal per selector. Supported: type, *, #id, .class, [attr], [attr=v], [attr^=v],
 * [attr$=v], [attr*=v], [attr~=v], descendant (space) and child (>) combinators, comma lists.
 * Values of the style attribute are compared with white space removed and lower-cased, so
 * span[style*="display:none"] also matches "display: none".
 */
import type { AnyNode, Element, ParentNode } from 'domhandler';

interface AttrTest {
  name: string;
  op: '' | '=' | '^=' | '$=' | '*=' | '~=';
  value: string;
}
interface Compound {
  tag: string | null;
  id: string | null;
  classes: string[];
  attrs: AttrTest[];
}
/** One comma-free selector, right to left: [compound, combinator to its left]. */
type Chain = { compound: Compound; combinator: ' ' | '>' | null }[];

/** A compiled selector list. */
export interface Matcher {
  source: string;
  chains: Chain[];
}

const TOKEN = /\s*(>)\s*|\s+|([a-zA-Z][\w-]*|\*)|#([\w-]+)|\.([\w-]+)|\[\s*([\w-]+)\s*(?:([~^$*]?=)\s*(?:"([^"]*)"|'([^']*)'|([^\]\s]*))\s*)?\]/y;

function normStyle(name: string, v: string): string {
  return name === 'style' ? v.replace(/\s+/g, '').toLowerCase() : v;
}

function compileOne(sel: string, source: string): Chain {
  const parts: { compound: Compound; combinator: ' ' | '>' | null }[] = [];
  let cur: Compound | null = null;
  let pending: ' ' | '>' | null = null;
  const s = sel.trim();
  TOKEN.lastIndex = 0;
  let pos = 0;
  while (pos < s.length) {
    TOKEN.lastIndex = pos;
    const m = TOKEN.exec(s);
    if (!m || m.index !== pos) throw new Error(`unsupported selector syntax in "${source}" at "${s.slice(pos)}"`);
    pos = TOKEN.lastIndex;
    if (m[1] || (m[0].trim() === '' && m[0].length > 0)) {
      if (cur) {
        parts.push({ compound: cur, combinator: null });
        cur = null;
      }
      pending = m[1] ? '>' : pending === '>' ? '>' : ' ';
      continue;
    }
    if (!cur) {
      cur = { tag: null, id: null, classes: [], attrs: [] };
      if (parts.length) parts[parts.length - 1].combinator = pending ?? ' ';
      pending = null;
    }
    if (m[2]) cur.tag = m[2] === '*' ? null : m[2].toLowerCase();
    else if (m[3]) cur.id = m[3];
    else if (m[4]) cur.classes.push(m[4]);
    else if (m[5]) {
      const name = m[5].toLowerCase();
      const op = (m[6] ?? '') as AttrTest['op'];
      const value = m[7] ?? m[8] ?? m[9] ?? '';
      cur.attrs.push({ name, op, value: normStyle(name, value) });
    }
  }
  if (cur) parts.push({ compound: cur, combinator: null });
  if (!parts.length) throw new Error(`empty selector in "${source}"`);
  // parts[i].combinator is the combinator between parts[i] and parts[i+1]; reverse to right-to-left.
  const chain: Chain = [];
  for (let i = parts.length - 1; i >= 0; i--) {
    chain.push({ compound: parts[i].compound, combinator: i > 0 ? parts[i - 1].combinator : null });
  }
  return chain;
}

/** Compile a selector list ("a, b c, d > e"). Throws on syntax this matcher does not support. */
export function compile(selector: string): Matcher {
  const chains = selector
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => compileOne(s, selector));
  return { source: selector, chains };
}

function matchCompound(el: Element, c: Compound): boolean {
  if (c.tag !== null && el.name !== c.tag) return false;
  const a = el.attribs;
  if (c.id !== null && a.id !== c.id) return false;
  if (c.classes.length) {
    const cls = a.class;
    if (!cls) return false;
    const list = cls.split(/\s+/);
    for (const k of c.classes) if (!list.includes(k)) return false;
  }
  for (const t of c.attrs) {
    const raw = a[t.name];
    if (raw === undefined) return false;
    if (t.op === '') continue;
    const v = normStyle(t.name, raw);
    switch (t.op) {
      case '=':
        if (v !== t.value) return false;
        break;
      case '^=':
        if (!v.startsWith(t.value)) return false;
        break;
      case '$=':
        if (!v.endsWith(t.value)) return false;
        break;
      case '*=':
        if (!v.includes(t.value)) return false;
        break;
      case '~=':
        if (!v.split(/\s+/).includes(t.value)) return false;
        break;
    }
  }
  return true;
}

function isElement(n: AnyNode | null | undefined): n is Element {
  return !!n && (n.type === 'tag' || n.type === 'script' || n.type === 'style');
}

function matchChain(el: Element, chain: Chain, i: number): boolean {
  if (!matchCompound(el, chain[i].compound)) return false;
  const comb = chain[i].combinator;
  if (comb === null) return true;
  let p = el.parent as AnyNode | null;
  if (comb === '>') return isElement(p) && matchChain(p, chain, i + 1);
  while (p) {
    if (isElement(p) && matchChain(p, chain, i + 1)) return true;
    p = p.parent as AnyNode | null;
  }
  return false;
}

/** Does this element match the compiled selector list? */
export function matches(el: Element, m: Matcher): boolean {
  for (const c of m.chains) if (matchChain(el, c, 0)) return true;
  return false;
}

/** First descendant (document order, root excluded) matching m, or null. */
export function findFirst(root: ParentNode, m: Matcher): Element | null {
  const stack: AnyNode[] = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push(root.children[i]);
  while (stack.length) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    if (matches(n, m)) return n;
    const ch = n.children;
    for (let i = ch.length - 1; i >= 0; i--) stack.push(ch[i]);
  }
  return null;
}

/** All descendants matching m, in document order; matches are not searched inside (no nesting). */
export function findAll(root: ParentNode, m: Matcher, descendIntoMatches = false): Element[] {
  const out: Element[] = [];
  const stack: AnyNode[] = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push(root.children[i]);
  while (stack.length) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    if (matches(n, m)) {
      out.push(n);
      if (!descendIntoMatches) continue;
    }
    const ch = n.children;
    for (let i = ch.length - 1; i >= 0; i--) stack.push(ch[i]);
  }
  return out;
}

/** Text content of a node (entities already decoded by the parser), script/style excluded. */
export function textOf(n: AnyNode, skip?: Matcher): string {
  if (n.type === 'text') return n.data;
  if (!isElement(n) || n.type !== 'tag') return '';
  if (skip && matches(n, skip)) return '';
  let s = '';
  for (const c of n.children) s += textOf(c, skip);
  return s;
}

export { isElement };

/**
 * One walk for several selectors: the first descendant matching each of `firsts` (null when none)
 * and, when `all` is given, every match of it (not searched inside). `noDescend` elements are
 * tested but not entered (e.g. the message body, read by its own walk).
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
    if (!isElement(n)) continue;
    let descend = true;
    if (missing) {
      for (let i = 0; i < firsts.length; i++) {
        const m = firsts[i];
        if (m && first[i] === null && matches(n, m)) {
          first[i] = n;
          missing--;
        }
      }
    }
    if (all && matches(n, all)) {
      found.push(n);
      descend = false;
    }
    if (noDescend && descend && matches(n, noDescend)) descend = false;
    if (!missing && !all) break;
    if (!descend) continue;
    const ch = n.children;
    for (let i = ch.length - 1; i >= 0; i--) stack.push(ch[i]);
  }
  return { first, all: found };
}
