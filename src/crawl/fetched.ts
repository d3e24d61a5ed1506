/** The refusal of a crawl that left a page unfetched: what the crawl command, the watch and the cockpit share. */
import { UserError } from '../errors.js';
import { t } from '../i18n/index.js';
import type { CrawlResult } from './crawler.js';

/**
 * Throws (exit 5) when some page could not be fetched after all retries, naming each one with the
 * advice that fits: check the game file's addresses when a page's failure says the address is wrong
 * (a 4xx, a refused connection, a thread that does not exist), else run the same crawl again.
 */
export function assertFetched(result: CrawlResult): void {
  if (!result.incomplete) return;
  const failed = result.threads.flatMap((th) => th.failures.map((f) => ({ ...f, text: t('crawl.failedWhy', t('crawl.failedPage', th.tid, f.page), f.reason) })));
  const address = failed.filter((f) => f.cause === 'address');
  const transient = failed.filter((f) => f.cause !== 'address');
  const lines = [
    ...(address.length ? [t('crawl.failedAddress', address.map((f) => f.text).join(', '))] : []),
    ...(transient.length ? [t('crawl.failed', transient.map((f) => f.text).join(', '))] : []),
  ];
  throw new UserError(lines.join('\n'), 5);
}
