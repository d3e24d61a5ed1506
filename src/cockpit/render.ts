/**
 * The cockpit's page as HTML, from a view (state.ts): the shell (page.ts's one CSS file and one JS
 * module, no inline script) and the live part the event stream replaces. Written with hono/html, whose
 * template escapes every value put in it — players' names, ballots' reasons, titles, BBCode — so no
 * text from the forum can become markup; the only raw parts are this module's own templates.
 */
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { colorLabel, statusLabel } from '../render/report-common.js';
import { flagDetail } from '../violations/details.js';
import { flagKindLabel } from '../violations/flag.js';
import { forumTime } from '../game/forum-time.js';
import { t } from '../i18n/index.js';
import type { BallotRecord, TallyResult } from '../votes/types.js';
import type { CockpitView } from './state.js';

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** The template's string (hono/html gives a string object; nothing in these templates is async). */
function str(h: Html): string {
  if (h instanceof Promise) throw new Error('an async value in a cockpit template');
  return h.toString();
}

/** HH:MM (MM-dd HH:mm when `date`) in the game's zone. */
function hm(ms: number, zone: string, date = false): string {
  const s = forumTime(ms, zone);
  return date ? s : s.replace(/^\d\d-\d\d /, '');
}

/** A link to a post on the forum: never the page's address as the referrer (the token is in it). */
function postLink(url: string | null | undefined, text: string | number): Html {
  return url ? html`<a href="${url}" target="_blank" rel="noopener noreferrer">${text}</a>` : html`${text}`;
}

/** The page's head line: the day's state and time to the close (counted down by the page). */
function statusPart(v: CockpitView): Html {
  const zone = v.game.timezone;
  const failed = v.lastCrawl && (v.lastCrawl.error || v.lastCrawl.failures.length);
  let state: Html;
  let cls: string;
  if (v.open) {
    cls = failed ? 'state stale' : 'state running';
    state = html`${t('cockpit.running', v.asOf === null ? '—' : hm(v.asOf, zone))}`;
  } else if (v.stale.length || v.asOf === null || v.countError) {
    cls = 'state stale';
    state = html`${t('cockpit.closedStale', v.asOf === null ? '—' : hm(v.asOf, zone, true))}`;
  } else if (v.incomplete.length) {
    cls = 'state stale';
    state = html`${t('cockpit.closedIncomplete')}`;
  } else {
    cls = 'state final';
    state = html`${t('cockpit.final')}`;
  }
  return html`<section id="status" class="${cls}">
  <div class="countdown" data-closes="${v.closes}" data-now="${v.now}">${v.open ? t('cockpit.toClose', hm(v.closes, zone, true)) : t('cockpit.closedAt', hm(v.closes, zone, true))}<span class="left" id="left"></span></div>
  <h2 id="state">${state}</h2>
  ${crawlPart(v)}
</section>`;
}

/** The last crawl: when, what it brought, what failed; the count's age when it is stale. */
function crawlPart(v: CockpitView): Html {
  const zone = v.game.timezone;
  const c = v.lastCrawl;
  if (!c) return html`<p class="crawl">${t('cockpit.noCrawl')}</p>`;
  const fails = c.failures.map((f) => html`<li>${t('cockpit.pageFailed', f.tid, f.page, f.reason)}</li>`);
  const staleLines = v.freshness.filter((f) => (v.open ? f.failure !== null : !f.fresh)).map((f) =>
    html`<li>${t('cockpit.threadAsOf', f.tid, f.asOf === null ? '—' : hm(f.asOf, zone, true), f.failure ?? '')}</li>`);
  return html`<div class="crawl${c.error || c.failures.length ? ' failed' : ''}" id="crawl">
  <p>${t('cockpit.lastCrawl', hm(c.at, zone, true), c.newPosts)}${c.error ? html` <strong>${t('cockpit.crawlFailed', c.error)}</strong>` : ''}</p>
  ${fails.length ? html`<ul>${fails}</ul>` : ''}
  ${staleLines.length ? html`<p><strong>${t('cockpit.staleSince')}</strong></p><ul id="stale">${staleLines}</ul>` : ''}
  ${v.countError ? html`<p><strong>${t('cockpit.countFailed', v.countError)}</strong></p>` : ''}
  ${v.incomplete.length ? html`<p><strong>${t('cockpit.incomplete', v.incomplete.map((i) => i.tid).join(', '))}</strong></p>` : ''}
</div>`;
}

/** Before the close: who leads, never a result's wording (出局, 当选警长) — as the terminal's running count. */
function leaders(tally: TallyResult): Html {
  const tie = tally.result.tie.length ? t('tally.tie', tally.result.tie.join('、')) : '';
  return html`${t('tally.leaders')}<strong>${tally.result.name ?? t('tally.noLeader')}</strong>${tie}`;
}

/** Totals with their voters, who has not voted, the sheriff, the result or the leaders. */
function totalsPart(tally: TallyResult, notFinal: boolean): Html {
  const missing = tally.players.filter((p) => p.state === 'none').map((p) => p.player);
  const rows = tally.totals.map((x) => html`<tr><th>${x.name}</th><td class="num">${x.votes}</td><td>${x.voters.join('、')}</td></tr>`);
  return html`<section id="totals"><h3>${t('cockpit.totals')}</h3>
  <table class="totals"><tbody>${rows.length ? rows : html`<tr><td>${t('cockpit.noVotes')}</td></tr>`}</tbody></table>
  <p class="result">${notFinal ? html`<strong class="refusal">${t('cockpit.notFinal')}</strong> ` : ''}${tally.running ? leaders(tally) : tally.result.rule}</p>
  ${tally.result.note ? html`<p class="note">${tally.result.note}</p>` : ''}
  <p>${t('cockpit.sheriff', tally.sheriff ?? '—', tally.sheriffWeight)}</p>
  <p id="missing">${t('cockpit.notVoted', missing.length)} ${missing.join('、') || '—'}</p>
  ${tally.abstentions.length ? html`<p>${t('cockpit.abstained', tally.abstentions.join('、'))}</p>` : ''}
</section>`;
}

/** Acceleration: who asked (pid), counted or why not, how many more are needed; the proxy ballots. */
function accelerationPart(tally: TallyResult): Html {
  const a = tally.acceleration;
  const proxies = tally.ballots.filter((b) => b.proxyBy);
  const accel = a
    ? html`<p>${a.explanation}</p>
  <p>${a.accelerated ? t('cockpit.accelerated') : t('cockpit.moreNeeded', Math.max(0, a.needed - a.requests.length), a.requests.length, a.needed)}</p>
  <ul>${a.audit.map((r) => html`<li>${postLink(r.url, `#${r.floor ?? '?'}`)} ${r.player} <span class="pid">pid ${r.pid}</span> ${r.counted ? t('cockpit.requestCounted') : html`<span class="rej">${r.reason ?? ''}</span>`}</li>`)}</ul>`
    : html`<p>${t('cockpit.noAcceleration')}</p>`;
  return html`<section id="acceleration"><h3>${t('cockpit.acceleration')}</h3>${accel}
  ${proxies.length ? html`<h4>${t('cockpit.proxies')}</h4><ul>${proxies.map((b) => html`<li>${postLink(b.url, `#${b.floor ?? '?'}`)} ${t('cockpit.proxy', b.proxyBy ?? '', b.voter, b.target ?? '?')}</li>`)}</ul>` : ''}
</section>`;
}

/** One ballot: its status, public reason, director's note, link, and the buttons to rule on it. */
function ballotRow(b: BallotRecord, zone: string, ruled: boolean): Html {
  return html`<tr class="b-${b.status}" data-pid="${b.pid}">
  <td>${postLink(b.url, `#${b.floor ?? '?'}`)}<br><span class="time">${hm(b.at, zone)}</span></td>
  <td>${b.voter}${b.proxyBy ? html`<br><span class="pid">${t('cockpit.proxyBy', b.proxyBy)}</span>` : ''}</td>
  <td>${b.target ?? '—'}${b.weight && b.weight !== 1 ? html` <span class="pid">×${b.weight}</span>` : ''}</td>
  <td><span class="status">${t(`tally.status.${b.status}`)}</span>${ruled ? html` <span class="ruled">${t('cockpit.ruled')}</span>` : ''}
    ${b.reason ? html`<div class="reason">${b.reason}</div>` : ''}${b.note ? html`<div class="note">${b.note}</div>` : ''}${b.flags.map((f) => html`<div class="note">${f}</div>`)}</td>
  <td class="acts"><button type="button" data-act="accept" data-pid="${b.pid}">${t('cockpit.accept')}</button><button type="button" data-act="reject" data-pid="${b.pid}">${t('cockpit.reject')}</button></td>
</tr>`;
}

function ballotsPart(v: CockpitView, tally: TallyResult): Html {
  const ruled = new Set(v.rulings.filter((r) => r.subject === 'ballot').map((r) => r.pid));
  return html`<section id="ballots"><h3>${t('cockpit.ballots', tally.ballots.length)}</h3>
  <div class="scroll"><table class="ballots"><thead><tr><th>${t('cockpit.col.floor')}</th><th>${t('cockpit.col.voter')}</th><th>${t('cockpit.col.target')}</th><th>${t('cockpit.col.status')}</th><th></th></tr></thead>
  <tbody>${tally.ballots.map((b) => ballotRow(b, v.game.timezone, ruled.has(b.pid)))}</tbody></table></div>
  ${rulingsPart(v)}
</section>`;
}

function rulingsPart(v: CockpitView): Html {
  if (!v.rulings.length) return html``;
  return html`<h4>${t('cockpit.rulings')}</h4><ul id="rulings">${v.rulings.map((r) => html`<li>#${r.id} ${r.verb === 'accept' ? t('cockpit.accept') : t('cockpit.reject')} ${r.subject === 'card' ? r.card ?? '' : r.subject === 'thread' ? `T${r.tid}` : `pid ${r.pid}`}：${r.why} <button type="button" data-act="undo" data-id="${r.id}">${t('cockpit.undo')}</button></li>`)}</ul>`;
}

/** The vote timeline: every ballot in time order, what it did, and who led after it. */
function timelinePart(tally: TallyResult, zone: string): Html {
  const items = [...tally.ballots].sort((a, b) => a.at - b.at || a.pid - b.pid);
  return html`<section id="timeline"><h3>${t('cockpit.timeline')}</h3><ol class="timeline">${items.map((b) =>
    html`<li class="b-${b.status}"><span class="time">${hm(b.at, zone, true)}</span> ${b.voter} → ${b.target ?? '—'} <span class="status">${t(`tally.status.${b.status}`)}</span></li>`)}</ol></section>`;
}

/** Posts per player so far, the day's flags, and its cards with their buttons. */
function reportPart(v: CockpitView): Html {
  const r = v.report;
  if (!r) return html``;
  const zone = v.game.timezone;
  const rows = r.activity.map((a) => html`<tr${a.exempt ? raw(' class="exempt"') : ''}><th>${a.player}</th><td class="num">${a.posts}</td><td>${a.voted === null ? '' : a.voted === 'unreadable' ? t('cockpit.votedUnreadable') : a.voted ? t('cockpit.voted') : t('cockpit.notVotedShort')}</td></tr>`);
  const flags = r.flags.map((f) => html`<li><strong>${flagKindLabel(f.kind)}</strong> ${f.player} ${f.url ? postLink(f.url, `#${f.floor ?? '?'}`) : ''}<div class="reason">${flagDetail(f, zone)}</div></li>`);
  const cards = v.cards.map((c) => html`<li data-card="${c.id}">${c.id} ${colorLabel(c.color)} ${c.player} [${statusLabel(c.status)}] ${c.reason}
    ${c.status === 'proposed' ? html`<button type="button" data-act="confirm" data-card="${c.id}">${t('cockpit.confirm')}</button><button type="button" data-act="dismiss" data-card="${c.id}">${t('cockpit.dismiss')}</button>` : ''}</li>`);
  return html`<section id="activity"><h3>${t('cockpit.activity')}</h3><table class="activity"><tbody>${rows}</tbody></table></section>
<section id="flags"><h3>${t('cockpit.flags', r.flags.length)}</h3>${flags.length ? html`<ul>${flags}</ul>` : html`<p>—</p>`}
  <h4>${t('cockpit.cards')}</h4>${cards.length ? html`<ul id="cards">${cards}</ul>` : html`<p>${v.open ? t('cockpit.cardsAfterClose') : '—'}</p>`}</section>`;
}

/** At the close: the announcement as it will be posted, where and as whom, and 发布. */
function announcementPart(v: CockpitView): Html {
  if (v.open) return html`<section id="announce"><h3>${t('cockpit.announcement')}</h3><p>${t('cockpit.announceAfterClose', hm(v.closes, v.game.timezone, true))}</p></section>`;
  const a = v.announcement;
  const where = a
    ? a.plan.kind === 'reply'
      ? t('cockpit.whereReply', a.plan.tid, a.plan.title ?? '')
      : t('cockpit.whereEdit', a.plan.target?.floor ?? 0, a.plan.target?.pid ?? 0, a.plan.tid)
    : '';
  const who = a ? (a.poster ? t('cockpit.as', a.poster.name ?? '?', a.poster.uid) : t('cockpit.asUnknown', a.problem ?? '')) : '';
  return html`<section id="announce"><h3>${t('cockpit.announcement')}</h3>
  ${a ? html`<p>${postLink(a.threadUrl, where)}</p><p>${who}</p>
  <div class="preview" id="preview">${preview(a.bbcode)}</div>
  <textarea id="bbcode" readonly rows="8">${a.bbcode}</textarea>
  <p><button type="button" data-act="copy">${t('cockpit.copy')}</button></p>` : ''}
  ${v.published ? html`<p class="ok" id="published">${t('cockpit.published', hm(v.published.at, v.game.timezone, true))} ${postLink(v.published.url, v.published.url)}</p>` : ''}
  <p><button type="button" id="publish" data-act="publish" class="primary"${v.publishRefusal ? raw(' disabled') : ''}>${t('cockpit.publishButton')}</button></p>
  ${v.publishRefusal ? html`<p class="refusal" id="refusal">${v.publishRefusal}</p>` : ''}
</section>`;
}

/**
 * A preview of the announcement's BBCode as the forum shows it: its [b] [s] [color] [size] [url] [quote]
 * turned into the matching elements; everything else stays text (escaped first, then only this
 * module's own tags put in).
 */
export function preview(bbcode: string): Html {
  let s = str(html`${bbcode}`);
  s = s.replace(/\[(\/?)(b|s|i|u)\]/gi, '<$1$2>')
    .replace(/\[color=([#\w]+)\]/gi, (_m, c: string) => `<span class="c-${c.replace(/[^\w]/g, '').toLowerCase()}">`)
    .replace(/\[size=\d+\]/gi, '<span class="big">')
    .replace(/\[\/(color|size)\]/gi, '</span>')
    .replace(/\[quote\]/gi, '<blockquote>').replace(/\[\/quote\]/gi, '</blockquote>')
    .replace(/\[url=([^\]\s"'<>]+)\]/gi, (_m, u: string) => (/^https?:/i.test(u) ? `<a href="${u}" target="_blank" rel="noopener noreferrer">` : '<a>'))
    .replace(/\[\/url\]/gi, '</a>')
    .replace(/\n/g, '<br>');
  return raw(s);
}

/** The live part of the page: everything a new view redraws. */
export function renderLive(v: CockpitView): string {
  const tally = v.tally;
  return str(html`${statusPart(v)}
${tally && tally.kind !== 'none' ? html`<div class="grid">${totalsPart(tally, !v.open && (v.stale.length > 0 || v.incomplete.length > 0 || v.countError !== null))}${accelerationPart(tally)}</div>${ballotsPart(v, tally)}${timelinePart(tally, v.game.timezone)}` : html`<section><p>${tally?.reason ?? t('cockpit.noCount')}</p></section>`}
<div class="grid">${reportPart(v)}</div>
${announcementPart(v)}`);
}

/** The words the page's script says (src/cockpit/assets/cockpit.js), in the director's language. */
function pageText(): string {
  return JSON.stringify({
    disconnected: t('cockpit.disconnected'), copied: t('cockpit.copied'), needWhy: t('cockpit.needWhy'), done: t('cockpit.done'),
    confirmPublish: t('cockpit.confirmPublish'), askRule: t('cockpit.askRule', '{verb}', '{pid}'), askCard: t('cockpit.askCard', '{verb}', '{id}'),
    accept: t('cockpit.accept'), reject: t('cockpit.reject'), confirm: t('cockpit.confirm'), dismiss: t('cockpit.dismiss'),
  });
}

/** The whole page: the shell with the live part as it stands. */
export function renderPage(v: CockpitView | null, title: string): string {
  return str(html`<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title><link rel="stylesheet" href="assets/cockpit.css"><script type="module" src="assets/cockpit.js"></script></head>
<body data-text="${pageText()}"><header><h1>${title}</h1></header>
<main id="live" data-version="${v?.version ?? 0}">${raw(v ? renderLive(v) : str(html`<p>${t('cockpit.starting')}</p>`))}</main>
<dialog id="ask"><form method="dialog"><p id="ask-what"></p><label>${t('cockpit.why')}<input id="ask-why" name="why" maxlength="200" autocomplete="off"></label>
<menu><button value="cancel" type="submit">${t('cockpit.cancel')}</button><button value="ok" type="submit" class="primary" id="ask-ok">${t('cockpit.ok')}</button></menu></form></dialog>
<p id="toast" role="status" aria-live="polite"></p>
</body></html>`);
}
