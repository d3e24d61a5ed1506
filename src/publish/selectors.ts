/**
 * The posting forms of a Discuz template family as data (selectors/discuz-x3-publish.json): the fast
 * reply form under a thread, the edit page, where the logged-in uid and the board id are written, and
 * how the forum reports a refused post. Loaded once, validated with zod, so a director can adapt
 * `--post` to a forum's theme by editing the file.
 */
import { z } from 'zod';
import { UserError } from '../errors.js';
import { t } from '../i18n/index.js';
import { readJsonFile, zodProblem } from '../i18n/parser-problems.js';
import { useZodLanguage } from '../i18n/zod-language.js';
import { packagePath } from '../paths.js';

const publishSelectorsSchema = z.object({
  name: z.string(),
  notes: z.string().optional(),
  page: z.object({
    uidPattern: z.string(),
    userName: z.string(),
    fidPatterns: z.array(z.string()).min(1),
    message: z.string(),
  }),
  reply: z.object({ form: z.string(), textarea: z.string(), submit: z.string(), requestPattern: z.string() }),
  edit: z.object({
    url: z.string(),
    form: z.string(),
    textarea: z.string(),
    modeInput: z.string(),
    submit: z.string(),
    requestPattern: z.string(),
  }),
  errorPattern: z.string(),
});

/** The posting selectors, as in the file. */
export type PublishSelectors = z.infer<typeof publishSelectorsSchema>;

/** The bundled posting selector file. */
export const PUBLISH_SELECTOR_FILE = 'discuz-x3-publish.json';

let loaded: { file: string; selectors: PublishSelectors } | null = null;

/**
 * The bundled posting selectors (loaded and validated once; every pattern compiled to fail early). A
 * file the director broke is a UserError (exit 2) naming the file, the key and what is wrong.
 */
export function publishSelectors(file = packagePath('selectors', PUBLISH_SELECTOR_FILE)): PublishSelectors {
  if (loaded?.file === file) return loaded.selectors;
  const raw = readJsonFile(file, t('selectors.what'));
  useZodLanguage();
  const parsed = publishSelectorsSchema.safeParse(raw);
  if (!parsed.success) throw new UserError(t('selectors.badField', file, zodProblem(parsed.error, raw)));
  const s = parsed.data;
  const patterns: Array<[string, string]> = [
    ['page.uidPattern', s.page.uidPattern],
    ...s.page.fidPatterns.map((p, i): [string, string] => [`page.fidPatterns[${i}]`, p]),
    ['reply.requestPattern', s.reply.requestPattern],
    ['edit.requestPattern', s.edit.requestPattern],
    ['errorPattern', s.errorPattern],
  ];
  for (const [key, p] of patterns) {
    try {
      new RegExp(p);
    } catch (e) {
      throw new UserError(t('selectors.badPattern', file, key, p, (e as Error).message));
    }
  }
  loaded = { file, selectors: s };
  return s;
}

/** The logged-in uid a forum page names (`discuz_uid`), 0 for a guest or when the page does not say. */
export function pageUid(s: PublishSelectors, html: string): number {
  return Number(new RegExp(s.page.uidPattern).exec(html)?.[1] ?? 0);
}

/** The edit page URL (relative to the forum root) for one post. */
export function editPath(s: PublishSelectors, ids: { fid: number; tid: number; pid: number; page: number }): string {
  return s.edit.url.replace(/\{(fid|tid|pid|page)\}/g, (_m, k: keyof typeof ids) => String(ids[k]));
}
