/**
 * zod's own words (expected a number, unknown key…) in the current language: call before safeParse,
 * since zod writes its messages when it fails. Its own module, so that what only reports a parser's
 * problem (parser-problems.ts: the store, the JSON files) does not load zod.
 */
import { z } from 'zod';
import { language } from './index.js';

export function useZodLanguage(): void {
  z.config(language() === 'zh' ? z.locales.zhCN() : z.locales.en());
}
