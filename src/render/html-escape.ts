/** Escaping for text and attributes in the HTML report: every piece of player text goes through here. */

const NEEDS_ESCAPE = /[&<>"']/;
const ESCAPABLE = /[&<>"']/g;
const ESCAPED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside an element or a double-quoted attribute. */
export function escapeHtml(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return s; // most text has none: one scan
  return s.replace(ESCAPABLE, (c) => ESCAPED[c]); // one pass, not five
}

/** An http(s) URL as an attribute value, or null for anything else (javascript:, data:, relative…). */
export function safeHref(url: string | null | undefined): string | null {
  if (!url) return null;
  return hrefOfQueried(url) ?? parsedHref(url);
}

/** safeHref by parsing the URL (~5 µs: a report links a few thousand posts). */
function parsedHref(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? escapeHtml(u.toString()) : null;
  } catch {
    return null;
  }
}

/** Before the query: nothing URL parsing strips, trims or ends a part on (controls, spaces, "?", "#", "\"). */
const PLAIN_BASE = /^[^\x00-\x20\x7f?#\\]+$/;
/** A query URL serialization writes as it is (no percent-encoding, nothing stripped, no fragment): only "&" needs escaping. */
const PLAIN_QUERY = /^[A-Za-z0-9&=%._~!$()*+,;:@/?-]*$/;
/** The parsed href of a base (its text before the query), escaped: a report's links share one or two. */
const baseHrefs = new Map<string, string | null>();

/**
 * safeHref of a post link, "BASE?QUERY", without parsing it each time: the query of such a URL is written
 * back as it is, after the base as it parses alone (an http(s) base has no query or fragment of its own);
 * undefined when the URL is not of that plain shape (then it is parsed).
 */
function hrefOfQueried(url: string): string | null | undefined {
  const q = url.indexOf('?');
  if (q < 0) return undefined;
  const base = url.slice(0, q);
  const query = url.slice(q + 1);
  if (!PLAIN_QUERY.test(query)) return undefined;
  let href = baseHrefs.get(base);
  if (href === undefined) {
    if (!PLAIN_BASE.test(base)) return undefined;
    href = parsedHref(base);
    if (baseHrefs.size >= 64) baseHrefs.clear(); // (a few forums at most; bounded all the same)
    baseHrefs.set(base, href);
  }
  return href === null ? null : `${href}?${query.replace(/&/g, '&amp;')}`;
}

/** A link when the URL is http(s), else just the escaped text. */
export function link(url: string | null | undefined, text: string): string {
  const href = safeHref(url);
  return href ? `<a href="${href}" rel="noreferrer noopener">${escapeHtml(text)}</a>` : escapeHtml(text);
}
