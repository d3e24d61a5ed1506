/**
 * The HTML page's words for when it was made (its footer, html-report.ts): a module of its own, so
 * that a page kept whole but for them (src/derived/kept-view.ts) is written anew without the renderers.
 */
import { forumFormat } from '../game/forum-time.js';
import { escapeHtml } from './html-escape.js';

/** "生成于 <time>" as the footer writes it, the time in the forum's zone. */
export const madeAtHtml = (ms: number, zone: string): string => `生成于 ${escapeHtml(forumFormat(ms, zone, 'yyyy-MM-dd HH:mm:ss'))}`;
