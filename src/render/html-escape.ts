/** Escaping for text and attributes in the HTML report: every piece of player text goes through here. */

const NEEDS_ESCAPE = /[&<>"']/;

/** Text safe inside an element or a double-quoted attribute. */
export function escapeHtml(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return s; // most text has none: one scan, not five
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** An http(s) URL as an attribute value, or null for anything else (javascript:, data:, relative…). */
export function safeHref(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? escapeHtml(u.toString()) : null;
  } catch {
    return null;
  }
}

/** A link when the URL is http(s), else just the escaped text. */
export function link(url: string | null | undefined, text: string): string {
  const href = safeHref(url);
  return href ? `<a href="${href}" rel="noreferrer noopener">${escapeHtml(text)}</a>` : escapeHtml(text);
}
