/**
 * Discuz's own template markup for the post states and page shapes our lab forum never showed, put
 * into real captured pages (fixtures/discuz/public) for tests. Each piece is copied from the Discuz!
 * X3.4/X3.5 templates, with the language pack's words the template prints:
 * - template/default/forum/viewthread_node.htm: the deleted post's slot (`$post['deleted']`: a table
 *   #pidN with the floor in `div.pi strong a` — no postnum id — and `<div class="pct">{lang post_deleted}`),
 *   the warning icon (a.warnicon), the moderator's `<span class="xg1">(待审核)</span>` in div.pob em;
 * - template/default/forum/viewthread_node_body.htm: div.locked notices (message_banned,
 *   message_single_banned, message_ishidden_hiddenreplies, the password form with input#postpw_N) with
 *   no message for ordinary readers, and the admin_* notice followed by the message for moderators;
 *   the author's own pending post `<td class="t_f"><span class="xg1">{lang moderate_need}</span></td>`;
 * - source/function/function_discuzcode.php + template/default/forum/discuzcode.htm: [hide] as
 *   `<div class="locked">游客，如果您要查看本帖隐藏内容请<a …action=reply…>回复</a></div>` (not shown) or
 *   `<div class="showhide"><h4>本帖隐藏的内容</h4>…</div>` (shown), and creditshide's notices;
 * - template/default/touch/forum/viewthread.htm (X3.5): notices as `<div class="quote">` in div.message.
 */

/** Where a desktop post block's inner markup is: between `<div id="post_PID" >` and the `</div>` closing it. */
function blockRange(html: string, pid: number): [number, number] {
  const open = html.indexOf(`<div id="post_${pid}"`);
  if (open < 0) throw new Error(`no post_${pid}`);
  const start = html.indexOf('>', open) + 1;
  const next = html.slice(start).search(/<\/div><div id="post(?:_\d+|listreply)"/);
  if (next < 0) throw new Error(`no end of post_${pid}`);
  return [start, start + next];
}

/** The desktop post block of `pid` replaced by Discuz's deleted-post slot showing `label` and `notice`. */
export function deletedSlot(html: string, pid: number, label: string, notice = '无效楼层，该帖已经被删除'): string {
  const [s, e] = blockRange(html, pid);
  const m = /^(\d+)#$/.exec(label);
  const shown = m ? `<em>${m[1]}</em>#` : label;
  const slot = `<table id="pid${pid}" summary="pid${pid}" cellspacing="0" cellpadding="0">
<tbody><tr><td class="pls"></td><td class="plc">
<div class="pi"><strong><a>${shown}</a></strong></div>
<div class="pct">${notice}</div>
</td></tr><tr class="ad"><td class="pls"></td><td class="plc"></td></tr></tbody></table>
`;
  return html.slice(0, s) + slot + html.slice(e);
}

/** The post's message box (div.t_fsz … up to its comment block) replaced by `body`. */
export function replaceMessageBox(html: string, pid: number, body: string): string {
  const [s, e] = blockRange(html, pid);
  const block = html.slice(s, e);
  const a = block.indexOf('<div class="t_fsz">');
  const b = block.indexOf(`<div id="comment_${pid}"`);
  if (a < 0 || b < 0) throw new Error(`post ${pid} has no t_fsz/comment`);
  return html.slice(0, s) + block.slice(0, a) + body + block.slice(b) + html.slice(e);
}

/** `notice` put before the message box (a moderator's or the author's view: the notice, then the text). */
export function noticeBeforeMessage(html: string, pid: number, notice: string): string {
  const [s, e] = blockRange(html, pid);
  const block = html.slice(s, e);
  const a = block.indexOf('<div class="t_fsz">');
  return html.slice(0, s) + block.slice(0, a) + notice + '\n' + block.slice(a) + html.slice(e);
}

/** The message cell's content of `pid` replaced by `inner`. */
export function replaceMessage(html: string, pid: number, inner: string): string {
  const open = html.indexOf(`<td class="t_f" id="postmessage_${pid}">`);
  if (open < 0) throw new Error(`no postmessage_${pid}`);
  const start = open + `<td class="t_f" id="postmessage_${pid}">`.length;
  const end = html.indexOf('</td></tr></table>', start);
  return html.slice(0, start) + inner + html.slice(end);
}

/** The message cell's current inner HTML. */
export function messageOf(html: string, pid: number): string {
  const tag = `<td class="t_f" id="postmessage_${pid}">`;
  const start = html.indexOf(tag) + tag.length;
  return html.slice(start, html.indexOf('</td></tr></table>', start));
}

/** Something inserted into the post's header line (div.pi), before the floor link. */
export function intoHeader(html: string, pid: number, markup: string): string {
  const [s, e] = blockRange(html, pid);
  const block = html.slice(s, e);
  const a = block.indexOf('<strong>', block.indexOf('<td class="plc">'));
  return html.slice(0, s) + block.slice(0, a) + markup + block.slice(a) + html.slice(e);
}

/** Something inserted into the post's action bar (div.pob em), where the moderator's 待审核 stands. */
export function intoActions(html: string, pid: number, markup: string): string {
  const [s, e] = blockRange(html, pid);
  const block = html.slice(s, e);
  const a = block.indexOf('<em>', block.indexOf('<div class="pob cl">')) + '<em>'.length;
  return html.slice(0, s) + block.slice(0, a) + markup + block.slice(a) + html.slice(e);
}

/** The floor link's label of `pid` replaced by `label` (postno / postnocustom as an admin set them). */
export function relabel(html: string, pid: number, label: string): string {
  const re = new RegExp(`(id="postnum${pid}"[^>]*>)[\\s\\S]*?(</a>)`);
  if (!re.test(html)) throw new Error(`no postnum${pid}`);
  return html.replace(re, `$1\n${label}$2`);
}

export const NOTICE = {
  banned: '提示: <em>作者被禁止或删除 内容自动屏蔽</em>',
  shielded: '提示: <em>该帖被管理员或版主屏蔽</em>',
  adminBanned: '提示: <em>作者被禁止或删除 内容自动屏蔽，只有管理员或有管理权限的成员可见</em>',
  adminShielded: '提示: <em>该帖被管理员或版主屏蔽，只有管理员或有管理权限的成员可见</em>',
  authorOnly: '此帖仅作者可见',
  password: (pid: number) =>
    `本帖为密码帖 请输入密码<input type="text" id="postpw_${pid}" class="vm" />&nbsp;<button class="pn vm" type="button" onclick="submitpostpw(${pid})"><strong>提交</strong></button>`,
  passwordAuthor: '本帖为密码帖',
  paidBought: '<em class="y"><a href="forum.php?mod=misc&action=viewpayments&tid=2" onclick="showWindow(\'pay\', this.href)">记录</a></em>付费主题: <strong>5 金钱 </strong>',
  hideReply: '游客，如果您要查看本帖隐藏内容请<a href="forum.php?mod=post&action=reply&fid=3&tid=2" onclick="showWindow(\'reply\', this.href)">回复</a>',
  hideCredits: '本帖隐藏的内容需要积分高于 50 才可浏览，您当前积分为 31',
  creditsShown: '以下内容需要积分高于 20 才可浏览',
  pending: '待审核',
  warnIcon: '<a href="forum.php?mod=misc&action=viewwarning&tid=2&uid=2" title="受到警告" class="y warnicon" onclick="showWindow(\'viewwarning\', this.href)"></a>',
};
