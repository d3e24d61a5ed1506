/**
 * The words a director reads, in the director's language: Chinese by default, English with `--lang en`
 * or an English locale (LANG/LC_ALL/LC_MESSAGES = en*). One catalogue (zh.ts is the source of the keys
 * and of each message's parameters, en.ts must match it key for key); code asks `t(key, …params)`.
 * JSON keys and data never go through here: only text for people.
 *
 * The CLI sets the process's language once, before it builds its commands (their help is text too). A
 * library user asks per call instead: `withLanguage('en', () => closeDay(…))` holds for everything that
 * call does, awaits included (AsyncLocalStorage), without touching other calls running at the same time;
 * setLanguage changes the default for the whole process.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { en } from './en.js';
import { zh, type Messages } from './zh.js';

export type Lang = 'zh' | 'en';
export type MessageKey = keyof Messages;
type Params<K extends MessageKey> = Messages[K] extends (...args: infer A) => string ? A : [];

const CATALOGUES: Record<Lang, Messages> = { zh, en };
let current: Lang = 'zh';
const scoped = new AsyncLocalStorage<Lang>();

/** The language `t` writes in: the one of the enclosing withLanguage call, else the process's. */
export function language(): Lang {
  return scoped.getStore() ?? current;
}

/** The process's default language (the CLI's --lang / LANG). */
export function setLanguage(lang: Lang): void {
  current = lang;
}

/** Runs `fn` (and everything it awaits) in `lang`, whatever the process's language; returns what `fn` returns. */
export function withLanguage<T>(lang: Lang, fn: () => T): T {
  return scoped.run(lang, fn);
}

/** `zh`/`zh-CN`/`en`/`en_US.UTF-8`… → its language; null for anything else. */
export function parseLanguage(value: string): Lang | null {
  const v = value.trim().toLowerCase();
  if (/^zh([-_.@]|$)/.test(v)) return 'zh';
  if (/^en([-_.@]|$)/.test(v)) return 'en';
  return null;
}

/**
 * The language a run asks for: `--lang X` / `--lang=X` on the command line, else an English locale in
 * the environment (LC_ALL, then LC_MESSAGES, then LANG, the POSIX order), else Chinese. An unreadable
 * --lang value is returned as `invalid` for the CLI to refuse (exit 2).
 */
export function languageFrom(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Lang | { invalid: string } {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--') break;
    const m = /^--lang(?:=(.*))?$/.exec(argv[i]);
    if (!m) continue;
    const value = m[1] ?? argv[i + 1] ?? '';
    return parseLanguage(value) ?? { invalid: value };
  }
  const locale = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return parseLanguage(locale) === 'en' ? 'en' : 'zh';
}

/** The message `key` in the current language. */
export function t<K extends MessageKey>(key: K, ...params: Params<K>): string {
  const m = CATALOGUES[language()][key] as string | ((...a: unknown[]) => string);
  return typeof m === 'function' ? m(...params) : m;
}


/** Whether the catalogue has `key` (for keys built from names, like "<command>.examples"). */
export function isMessageKey(key: string): key is MessageKey {
  return key in zh;
}
