/** Crawling: the session, the polite HTTP fetcher, the crawler and the browser login. */
export { crawlGame, crawlThreads, gameThreads, threadPageUrl, LoginRequiredError, type CrawlOptions, type CrawlResult, type ThreadCrawlResult } from './crawler.js';
export { httpGet, HostScope, OutOfScopeError, NetworkError, USER_AGENT, ROBOT_WORDS, type HttpResult, type HttpGetOptions } from './http.js';
export { CookieJar, readSession, saveSession, assertOwnerOnly, loginHint, type StorageState, type StoredCookie } from './session.js';
export { login, chromiumPath, redact, CHROMIUM_ARGS, type LoginOptions, type LoginResult } from './login.js';
