/**
 * Small, exact edits to a captured Discuz desktop thread page, for the replay server's "newer version
 * of a page" mode: edit a post's message, remove a post, repeat a post. They work on the real markup
 * (`<div id="post_PID" >` blocks, `td.t_f#postmessage_PID`) and throw when the post is not on the page,
 * so a test can never silently edit nothing.
 */

function postBlockRange(html: string, pid: number): [number, number] {
  const start = html.indexOf(`<div id="post_${pid}" `);
  if (start < 0) throw new Error(`post ${pid} is not on this page`);
  const rest = html.slice(start + 1);
  const m = /<div id="post_\d+" |<div id="postlistreply"/.exec(rest);
  const end = m ? start + 1 + m.index : html.length;
  return [start, end];
}

/** The page with post `pid`'s message replaced by `text` (HTML-escaped; newlines become <br />). */
export function editPostText(html: string, pid: number, text: string, editMarker?: string): string {
  const open = `id="postmessage_${pid}">`;
  const at = html.indexOf(open);
  if (at < 0) throw new Error(`post ${pid} has no message on this page`);
  const bodyStart = at + open.length;
  const bodyEnd = html.indexOf('</td>', bodyStart);
  const esc = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, '<br />\n');
  const marker = editMarker ? `<i class="pstatus"> ${editMarker} </i><br />\n` : '';
  return html.slice(0, bodyStart) + '\n' + marker + esc + html.slice(bodyEnd);
}

/** The page without post `pid` (as after a deletion). */
export function removePost(html: string, pid: number): string {
  const [s, e] = postBlockRange(html, pid);
  return html.slice(0, s) + html.slice(e);
}

/** The page with post `pid` shown twice in a row (as a stuck/hot copy or a page overlap would). */
export function duplicatePost(html: string, pid: number): string {
  const [s, e] = postBlockRange(html, pid);
  return html.slice(0, e) + html.slice(s, e) + html.slice(e);
}
