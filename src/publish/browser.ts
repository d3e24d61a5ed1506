/**
 * Publishing a plan (plan.ts) through the logged-in browser session: real Chromium driven by
 * playwright-core with the saved Playwright storage state (`bansha login`), launched as the login
 * does (src/crawl/login.ts launchChromium, chromiumPath). A reply fills the fast reply form under the
 * thread and submits it; an edit opens floor 2's edit page, puts the editor in BBCode mode, replaces the
 * message and saves. Either way the result is checked by reading the thread back with the real parser:
 * a post by the logged-in uid whose text and links are the message's. The browser talks to the forum's
 * host only, redirect hops included (src/crawl/forum-browser.ts: everything else is refused unsent and
 * listed; a page sent off the host stops the post, exit 5). No cookie value is ever printed.
 */
import type { BrowserContextOptions, Page as PwPage } from 'playwright-core';
import { UserError } from '../errors.js';
import { chromiumPath, openForumBrowser, redact, type ForumBrowser } from '../crawl/forum-browser.js';
import { loginHint, readSession } from '../crawl/session.js';
import { language, t } from '../i18n/index.js';
import { parsePage } from '../discuz/index.js';
import type { Page, Post } from '../discuz/types.js';
import { postUrl } from '../store/slice.js';
import { terminalSafe } from '../text/safe-text.js';
import { editRefusal, threadUrl, type Poster, type PublishPlan } from './plan.js';
import { editPath, pageUid, PUBLISH_SELECTOR_FILE, publishSelectors, type PublishSelectors } from './selectors.js';

/** How to reach the forum as the director. */
export interface PublishOptions {
  /** The saved login session (Playwright storage state, owner-only). */
  sessionPath: string;
  /** For the hints in messages. */
  gameFile?: string;
  /** Chromium executable: this, else BANSHA_CHROMIUM, else /usr/bin/chromium. */
  browserPath?: string;
  /** Per-step timeout, ms (default 30 s). */
  timeoutMs?: number;
  /** Progress notes (never secrets). */
  log?: (line: string) => void;
}

/** What was posted, and where it now is. */
export interface PublishResult {
  kind: PublishPlan['kind'];
  tid: number;
  pid: number;
  /** A link to the post (Discuz's findpost redirect). */
  url: string;
  poster: Poster;
  /** Every URL the browser asked for, and the off-host ones (redirect hops included) refused unsent. */
  requested: string[];
  blocked: string[];
}

/** Text for comparing a message with the parsed post: no BBCode tags, no whitespace or zero-width characters. */
export function comparableText(s: string): string {
  return s
    .replace(/\[\/?[a-z]+(?:=[^\]\n]*)?\]/gi, '')
    .normalize('NFKC')
    .replace(/[\s\u200b-\u200d\u2060\ufeff]+/g, '');
}

/** The [url=…] targets of a message, in order. */
export function messageLinks(message: string): string[] {
  return [...message.matchAll(/\[url=([^\]\s]+)\]/gi)].map((m) => m[1]);
}

/** True when `post` carries `message`: same text once BBCode and spacing are set aside, every link present. */
export function postCarries(post: Post, message: string): boolean {
  if (comparableText(post.text) !== comparableText(message)) return false;
  return messageLinks(message).every((l) => post.links.includes(l));
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Publish `plan` in Chromium and check it landed. Throws a UserError (4 login, 5 forum/network, 2 refused edit). */
export async function publish(plan: PublishPlan, opts: PublishOptions): Promise<PublishResult> {
  // Notes quote the forum (the account's name): through the terminal filter like everything printed.
  const log = (line: string) => opts.log?.(terminalSafe(line));
  const sel = publishSelectors();
  const timeout = opts.timeoutMs ?? 30_000;
  const state = await readSession(opts.sessionPath, opts.gameFile); // refuses a session others can read
  const secrets = state.cookies.map((c) => c.value);
  const exe = chromiumPath(opts.browserPath);
  let fb: ForumBrowser | null = null;
  try {
    fb = await openForumBrowser({ forum: plan.forum, exe, headless: true, secrets, storageState: state as BrowserContextOptions['storageState'] });
    const { context } = fb;
    context.setDefaultTimeout(timeout);
    const page = await context.newPage();
    log(t('login.opening', threadUrl(plan.forum, plan.tid)));
    await page.goto(threadUrl(plan.forum, plan.tid), { waitUntil: 'domcontentloaded' });
    fb.assertOnHost();
    const html = await page.content();
    const uid = pageUid(sel, html);
    if (!uid) {
      throw new UserError(t('publish.guest', loginHint(opts.gameFile)), 4);
    }
    const name = (await page.locator(sel.page.userName).first().textContent({ timeout: 2000 }).catch(() => null))?.trim() || null;
    const poster: Poster = { uid, name };
    log(t('publish.stepLoggedIn', name ?? '?', uid));

    const pid = plan.kind === 'reply' ? await reply(fb, page, plan, poster, sel, log) : await edit(fb, page, plan, poster, sel, html, log);
    fb.assertOnHost();
    return { kind: plan.kind, tid: plan.tid, pid, url: postUrl(plan.forum, plan.tid, pid), poster, requested: fb.requested, blocked: fb.blocked };
  } catch (err) {
    if (err instanceof UserError) throw new UserError(redact(err.message, secrets), err.exitCode);
    fb?.assertOnHost(); // a browser error after a page was sent off the host: say that, not the symptom
    throw new UserError(t('publish.failed', redact(String((err as Error).message ?? err).split('\n')[0], secrets)), 5);
  } finally {
    await fb?.close();
  }
}

/** A thread page fetched with the browser's cookies (bansha's host-checked client) and read by the real parser. */
async function readThreadPage(fb: ForumBrowser, forum: string, tid: number, page: number): Promise<Page> {
  const parsed = parsePage(await fb.get(threadUrl(forum, tid, page)));
  if (parsed.page.kind !== 'thread') {
    throw new UserError(t('publish.readBack', tid, page, language() === 'zh' ? t('parse.kind', parsed.page.kind) : parsed.page.kind, parsed.page.message || null), 5);
  }
  return parsed;
}

/** The text of the forum's showmessage box matching `selector`, on one line without its "back" link; null when none shows. */
async function shownMessage(page: PwPage, selector: string): Promise<string | null> {
  const shown = await page.locator(selector).first().textContent({ timeout: 1000 }).catch(() => null);
  return shown ? shown.replace(/\s+/g, ' ').replace(/\[ 点击这里返回上一页 \]/, '').trim() : null;
}

/** The forum's own words when it refused a submit (ajax errorhandle, or a showmessage page), else null. */
async function refusalOf(body: string, sel: PublishSelectors, page: PwPage): Promise<string | null> {
  const ajax = new RegExp(sel.errorPattern).exec(body)?.[1];
  if (ajax) return ajax;
  return shownMessage(page, `${sel.page.message}.alert_error`);
}

/** Submit the form with `submit` and wait for the POST matching `pattern`; throws with the forum's reason when refused. */
async function submitAndWait(fb: ForumBrowser, page: PwPage, submit: string, pattern: string, sel: PublishSelectors): Promise<void> {
  const re = new RegExp(pattern);
  const response = page.waitForResponse((r) => r.request().method() === 'POST' && re.test(r.url()));
  await page.locator(submit).first().click();
  const res = await response;
  const body = await res.text().catch(() => '');
  await page.waitForLoadState('domcontentloaded').catch(() => undefined);
  fb.assertOnHost();
  if (res.status() >= 400) throw new UserError(t('publish.http', res.status()), 5);
  const refused = await refusalOf(body, sel, page);
  if (refused) throw new UserError(t('publish.refused', refused), 5);
}

async function reply(fb: ForumBrowser, page: PwPage, plan: PublishPlan, poster: Poster, sel: PublishSelectors, log: (l: string) => void): Promise<number> {
  const form = page.locator(sel.reply.form);
  if ((await form.count()) === 0) {
    const why = await page.locator(sel.page.message).first().textContent({ timeout: 1000 }).catch(() => null);
    throw new UserError(t('publish.noReplyForm', plan.tid, why ? why.replace(/\s+/g, ' ').trim() : null), 5);
  }
  // Which posts were there before: the new one is by this uid and not among them.
  const first = await readThreadPage(fb, plan.forum, plan.tid, 1);
  const lastBefore = first.page.pageCount ?? 1;
  const before = new Set((lastBefore === 1 ? first : await readThreadPage(fb, plan.forum, plan.tid, lastBefore)).posts.map((p) => p.pid));
  await form.locator(sel.reply.textarea).first().fill(plan.message);
  log(t('publish.stepReply', plan.tid));
  await submitAndWait(fb, page, `${sel.reply.form} ${sel.reply.submit}`, sel.reply.requestPattern, sel);

  for (let attempt = 0; attempt < 4; attempt++) {
    const p1 = await readThreadPage(fb, plan.forum, plan.tid, 1);
    const last = p1.page.pageCount ?? 1;
    for (const n of new Set([last, lastBefore])) {
      const got = n === 1 ? p1 : await readThreadPage(fb, plan.forum, plan.tid, n);
      const mine = got.posts.find((p) => p.pid !== null && !before.has(p.pid) && p.authorId === poster.uid && postCarries(p, plan.message));
      if (mine) return mine.pid!;
    }
    await sleep(500 * (attempt + 1));
  }
  throw new UserError(t('publish.notShown', poster.uid, plan.tid, threadUrl(plan.forum, plan.tid)), 5);
}

async function edit(fb: ForumBrowser, page: PwPage, plan: PublishPlan, poster: Poster, sel: PublishSelectors, threadHtml: string, log: (l: string) => void): Promise<number> {
  const target = plan.target!;
  const refusal = editRefusal(plan, poster);
  if (refusal) throw new UserError(refusal, 2);
  const fid = sel.page.fidPatterns.map((p) => new RegExp(p).exec(threadHtml)?.[1]).find((v) => v !== undefined);
  if (!fid) throw new UserError(t('publish.noFid', plan.tid), 5);
  const onPage = target.page ?? 1;
  const url = new URL(editPath(sel, { fid: Number(fid), tid: plan.tid, pid: target.pid, page: onPage }), plan.forum).toString();
  log(t('publish.stepOpenEdit', target.floor, target.pid));
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  fb.assertOnHost();
  if ((await page.locator(sel.edit.form).count()) === 0) {
    const why = await shownMessage(page, sel.page.message);
    throw new UserError(t('publish.noEditPage', target.pid, why), 5);
  }
  const textarea = `${sel.edit.form} ${sel.edit.textarea}`;
  if ((await page.locator(textarea).count()) === 0) throw new UserError(t('publish.noMessageBox', textarea, PUBLISH_SELECTOR_FILE), 3);
  // BBCode mode: Discuz's validate() takes the WYSIWYG iframe's HTML instead of the textarea while
  // wysiwyg is on, so switch it off (switchEditor(0) where editor.js runs) before setting the text.
  await page.evaluate(
    ({ textarea, modeInput, message }) => {
      const w = window as unknown as { wysiwyg?: number; switchEditor?: (m: number) => void };
      if (w.wysiwyg && typeof w.switchEditor === 'function') {
        try {
          w.switchEditor(0);
        } catch {
          /* keep going: set the mode by hand below */
        }
      }
      if (w.wysiwyg) w.wysiwyg = 0;
      const mode = document.querySelector<HTMLInputElement>(modeInput);
      if (mode) mode.value = '0';
      const ta = document.querySelector<HTMLTextAreaElement>(textarea);
      if (!ta) throw new Error(`no ${textarea}`); // checked above: the page changed under us
      ta.value = message;
      ta.dispatchEvent(new Event('input', { bubbles: true }));
    },
    { textarea, modeInput: `${sel.edit.form} ${sel.edit.modeInput}`, message: plan.message },
  );
  log(t('publish.stepSave', target.floor, plan.tid));
  await submitAndWait(fb, page, `${sel.edit.form} ${sel.edit.submit}`, sel.edit.requestPattern, sel);

  for (let attempt = 0; attempt < 4; attempt++) {
    const shown = await readThreadPage(fb, plan.forum, plan.tid, onPage);
    const post = shown.posts.find((p) => p.pid === target.pid);
    if (post && post.authorId === poster.uid && postCarries(post, plan.message)) return target.pid;
    await sleep(500 * (attempt + 1));
  }
  throw new UserError(t('publish.editNotShown', target.floor, target.pid, postUrl(plan.forum, plan.tid, target.pid)), 5);
}
