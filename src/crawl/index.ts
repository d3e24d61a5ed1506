/** Crawling: the session, the polite HTTP fetcher, the crawler and the browser login. */
export {
  crawlGame, crawlThreads, gameThreads, threadPageUrl, LoginRequiredError, DEFAULT_MAX_PAGES_PER_THREAD, DEFAULT_MAX_REQUESTS,
  type CrawlOptions, type CrawlResult, type ThreadCrawlResult,
} from './crawler.js';
export {
  httpGet, HostScope, OutOfScopeError, NetworkError, ResponseTooLargeError, DEFAULT_MAX_RESPONSE_BYTES, USER_AGENT, ROBOT_WORDS,
  type HttpResult, type HttpGetOptions,
} from './http.js';
export { checkAnswer, maxPagesFor, PageMismatchError, CrawlLimitError, type PageRequest } from './page-check.js';
export { openForumBrowser, type ForumBrowser, type ForumBrowserOptions } from './forum-browser.js';
export { startForumProxy, type ForumProxy } from './forum-proxy.js';
export { CookieJar, readSession, saveSession, assertOwnerOnly, loginHint, type StorageState, type StoredCookie } from './session.js';
export { login, chromiumPath, redact, CHROMIUM_ARGS, type LoginOptions, type LoginResult } from './login.js';
export {
  countFreshness, decidingThreads, closesPassed, refuseStale, refuseOpenDay, staleThreads, fetchesPath, readFetches, StaleCountError,
  type ThreadFreshness, type FetchRecord, type FailureCause,
} from './freshness.js';
