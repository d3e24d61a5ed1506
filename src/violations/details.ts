/**
 * A flag's detail line, written from its facts (flag.ts FlagFacts) where it is shown: `flagDetail` in the
 * director's language (terminal, --json), `publicFlagDetail` in the forum's Chinese (card reasons, the
 * HTML report, Markdown: players read them). The words are the catalogue's (src/i18n, `flag.*`); what the
 * players wrote (matched words, names) is quoted as written.
 */
import { isMessageKey, t, withLanguage } from '../i18n/index.js';
import { forumFormat, forumTime } from '../game/forum-time.js';
import type { Flag, FlagFacts, FlagPostRef } from './flag.js';
import { isPastedDialogueWord } from './evidence.js';

/** The flag's detail in the current language; times in the forum's zone. */
export function flagDetail(f: Pick<Flag, 'player' | 'facts' | 'earlierVersion'>, zone: string): string {
  const text = factsText(f.player, f.facts, zone);
  return f.earlierVersion ? `${text}${t('flag.earlierVersion', f.earlierVersion)}` : text;
}

/** A report writes a flag's Chinese detail twice (its card's reason, the HTML's list of flags): once a flag and zone. */
const publicDetails = new WeakMap<object, { zone: string; text: string }>();

/** The flag's detail in Chinese, whatever the director's language: for text players read. */
export function publicFlagDetail(f: Pick<Flag, 'player' | 'facts' | 'earlierVersion'>, zone: string): string {
  const known = publicDetails.get(f);
  if (known?.zone === zone) return known.text;
  const text = withLanguage('zh', () => flagDetail(f, zone));
  publicDetails.set(f, { zone, text });
  return text;
}

/** A word-list category by its name in the current language (a director's own category as named). */
export function categoryName(category: string): string {
  const key = `flag.category.${category}`;
  return isMessageKey(key) ? t(key) : category;
}

function factsText(player: string, x: FlagFacts, zone: string): string {
  const list = (items: readonly string[]) => [...new Set(items)].join(t('list.sep'));
  const local = (ms: number) => forumFormat(ms, zone, 'yyyy-MM-dd HH:mm');
  switch (x.kind) {
    case 'few-posts':
      return t('flag.fewPosts', x.day, x.posts, x.min);
    case 'low-streak':
      return t('flag.lowStreak', x.days.length, x.min, x.days.map((d) => t('flag.streakDay', d.day, d.posts)).join(t('flag.streakSep')));
    case 'no-ballot':
      return t('flag.noBallot', x.day);
    case 'red-font':
      return t('flag.redFont', list(x.colors.map((c) => t('flag.redValue', c.value, c.deltaE.toFixed(1)))), x.maxDeltaE);
    case 'enlarged-font':
      return t('flag.enlargedFont', list(x.sizes.map((s) => (s.px !== null ? t('flag.sizeValue', s.value, s.px) : s.value))), x.maxSize, x.maxPx);
    case 'banned-wording': {
      // A plain entry says what the disguise stands for; a pattern's slots would read as noise.
      const category = categoryName(x.category);
      if (x.learned) return t('flag.wordingLearned', category, x.matched, x.learned.map((w) => `「${w}」`).join(t('list.sep')));
      if (isPastedDialogueWord(x.word)) return t('flag.wordingDialogue', category, t(`flag.pastedDialogue.${x.word}`), x.matched);
      const hit = x.evasions.length && x.plain ? t('flag.wordingFor', category, x.matched, x.word) : t('flag.wording', category, x.matched);
      const how = x.evasions.length ? t('flag.evasions', x.evasions.map((e) => t(`flag.evasion.${e}`)).join(t('list.sep'))) : '';
      return `${hit}${how}${x.lines.length ? t('flag.rulePost', x.lines.map((l) => `l.${l}`).join(t('list.sep'))) : ''}`;
    }
    case 'pasted-evidence':
      return t('flag.pasted', list([...x.carries.map((c) => t(`flag.pasted.${c}`)), ...x.words.map((w) => (isPastedDialogueWord(w.word) ? t('flag.pastedDialogue', t(`flag.pastedDialogue.${w.word}`), w.matched ?? '') : w.matched !== null ? t('flag.pastedWordFor', w.matched, w.word) : t('flag.pastedWord', w.word)))]));
    case 'zombie-post':
      return t('flag.zombie', player, local(x.out), local(x.at));
    case 'filler':
      return x.reason === 'repeat' ? t('flag.filler.repeat', x.repeats ?? 0) : t(`flag.filler.${x.reason}`);
    case 'avatar-changed':
    case 'signature-changed': {
      const avatar = x.kind === 'avatar-changed';
      const where = (p: FlagPostRef) => t('flag.profile.where', p.tid, p.floor === null ? '?' : String(p.floor));
      const timing = x.postedAfter ? t('flag.profile.postedAfter') : t('flag.profile.refetched', local(x.oldLastSeen), local(x.newFirstSeen));
      return t(
        'flag.profile',
        avatar,
        t('flag.profile.before', avatar, x.hadBefore, where(x.before), local(x.before.at)),
        t('flag.profile.after', avatar, x.hasAfter, where(x.after), local(x.after.at)),
        timing,
      );
    }
    case 'late-post':
      return t('flag.latePost');
    case 'replaced-account':
      return t('flag.replaced', x.account, forumTime(x.since, zone), x.by, x.seat);
    case 'misplaced-ballot':
      return t('flag.misplaced', x.thread === 'process', x.tid, x.target ?? '');
  }
}
