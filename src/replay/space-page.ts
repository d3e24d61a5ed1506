/**
 * A member's profile page (个人资料, `home.php?mod=space&username=NAME&do=profile`) for tests and the replay
 * server. No profile page was captured, so it is built from the REAL captured desktop page around it (the
 * board listing of fixtures/discuz/public: header, navigation, footer — logged in as 导演A, whose own uid
 * is in the header's links) with the profile block as Discuz X3.5 renders it
 * (template/default/home/space_profile_body.htm: `<div class="bm_c u_profile">` … `<h2 class="mbn">NAME
 * <span class="xw0">(UID: N)</span></h2>`). A name with no account gets the captured 提示信息 page with
 * Discuz's message for it (space_does_not_exist: 抱歉，您指定的用户空间不存在). Replace with a capture when
 * one is made.
 */
import fs from 'node:fs';
import { packagePath } from '../paths.js';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function captured(file: string): string {
  return fs.readFileSync(packagePath('fixtures', 'discuz', 'public', file), 'utf8');
}

/** The profile page of `name` (uid `uid`), UTF-8 HTML. */
export function spaceProfileHtml(name: string, uid: number): string {
  const page = captured('forumdisplay-f3.html');
  const start = page.indexOf('<div class="boardnav">');
  const end = page.indexOf('<div id="ft"');
  if (start < 0 || end < 0) throw new Error('space page: the captured board page changed shape');
  const body = [
    '<div id="ct" class="ct1 wp cl">',
    '<div class="mn">',
    '<div class="bm bw0">',
    '<div class="bm_c u_profile">',
    '<div class="pbm mbm bbda cl">',
    `<h2 class="mbn">`,
    `${esc(name)}`,
    `<span class="xw0">(UID: ${uid}`,
    ')</span>',
    '</h2>',
    '<ul class="pf_l cl pbm mbm">',
    '<li><em>邮箱状态</em>已验证</li>',
    '</ul>',
    '<ul class="cl bbda pbm mbm">',
    '<li>',
    '<em class="xg2">统计信息</em>',
    `<a href="home.php?mod=space&uid=${uid}&do=friend&view=me&from=space" target="_blank">好友数 0</a>`,
    '<span class="pipe">|</span>',
    `<a href="home.php?mod=space&uid=${uid}&do=thread&view=me&type=reply&from=space" target="_blank">回帖数 12</a>`,
    '</li>',
    '</ul>',
    '</div>',
    '</div>',
    '</div>',
    '</div>',
    '</div>',
    '</div>',
  ].join('\n');
  return page.slice(0, start).replace(/<title>[^<]*<\/title>/, `<title>${esc(name)}的个人资料 -  Discuz! Board -  Powered by Discuz!</title>`) + body + '\n' + page.slice(end);
}

/** Discuz's answer for a name with no account (showmessage space_does_not_exist), UTF-8 HTML. */
export function spaceMissingHtml(): string {
  return captured('notfound.html').replace(/(<div id="messagetext" class="alert_error">\s*<p>)[^<]*(<\/p>)/, '$1抱歉，您指定的用户空间不存在$2');
}
