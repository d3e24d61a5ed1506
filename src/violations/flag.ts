/**
 * A flag: one thing the director should look at (rules-spec §6–§7), with the evidence one click away.
 * Flags are proposals: the report lists them and the card ledger (src/cards/) may propose a card for
 * them; nothing here punishes anybody.
 */
import { language } from '../i18n/index.js';
import type { SlicePost } from '../store/slice.js';
import type { EvidenceItem } from './evidence.js';
import type { FillerReason } from './filler.js';
import type { Evasion, WordingHit } from './wording.js';

export type FlagKind =
  | 'few-posts' // §6 fewer than minPostsPerDay on a non-accelerated day
  | 'low-streak' // §6 streakDays consecutive non-accelerated days each under streakMinPosts
  | 'no-ballot' // §6 no ballot at all in the vote thread before closing
  | 'red-font' // §7 red or near-red text
  | 'enlarged-font' // §7 text above the normal size
  | 'banned-wording' // §7 a word-list hit
  | 'zombie-post' // §7 诈尸: a post by a player who is out
  | 'pasted-evidence' // §7 贴证: links, images, attachments, chat records
  | 'avatar-changed' // §7 头像 changed during the game
  | 'signature-changed' // §7 签名档 changed during the game
  | 'filler' // 120b 无谓的水帖
  | 'late-post' // not a violation: a post after closing, shown because it was not counted
  | 'replaced-account' // not a violation: a post by an account a substitute (替补) had replaced
  | 'misplaced-ballot'; // not counted: a ballot posted in the discussion or process thread

/**
 * Each flag kind's Chinese names, the one table of them: `short` heads a flag in the day report (terminal,
 * Markdown, HTML, the demo's summary); `offence` names it in a proposed card's reason (src/cards/propose.ts),
 * where the three 潜水 kinds say which offence they are.
 */
export const FLAG_KIND_NAMES: Record<FlagKind, { short: string; offence: string; en: string }> = {
  'few-posts': { short: '发言不足', offence: '潜水（发言不足）', en: 'too few posts' },
  'low-streak': { short: '连续发言不足', offence: '潜水（连续多日发言不足）', en: 'too few posts, days running' },
  'no-ballot': { short: '未投票', offence: '潜水（未投票）', en: 'no ballot' },
  'red-font': { short: '红色字体', offence: '红色字体', en: 'red font' },
  'enlarged-font': { short: '放大字体', offence: '放大字体', en: 'enlarged font' },
  'banned-wording': { short: '违禁言论', offence: '违禁言论', en: 'banned wording' },
  'zombie-post': { short: '诈尸', offence: '诈尸', en: 'post after going out' },
  'pasted-evidence': { short: '贴证', offence: '贴证', en: 'pasted evidence' },
  'avatar-changed': { short: '更换头像', offence: '更换头像', en: 'avatar changed' },
  'signature-changed': { short: '更换签名档', offence: '更换签名档', en: 'signature changed' },
  filler: { short: '水帖', offence: '无谓的水帖', en: 'filler post' },
  'late-post': { short: '关门后发帖', offence: '关门后发帖', en: 'post after closing' },
  'replaced-account': { short: '被替补账号发帖', offence: '被替补账号发帖', en: 'post by a replaced account' },
  'misplaced-ballot': { short: '投票发错帖', offence: '投票发错帖', en: 'ballot in the wrong thread' },
};

/** A flag kind as the terminal heads it: `short` in Chinese, `en` in English (BBCode and HTML keep `short`). */
export function flagKindLabel(kind: FlagKind): string {
  return language() === 'zh' ? FLAG_KIND_NAMES[kind].short : FLAG_KIND_NAMES[kind].en;
}

/** The flag kinds of the lurker rules (rules-spec §6): a report marks the player's activity row for them. */
export const LURKING_KINDS: ReadonlySet<FlagKind> = new Set<FlagKind>(['few-posts', 'low-streak', 'no-ballot']);

/** A post as a flag's words name it: thread, floor and time. */
export interface FlagPostRef {
  tid: number;
  floor: number | null;
  at: number;
}

/**
 * What a flag found, as values: the sentence is written from them where it is shown — in the
 * director's language for the terminal and --json, in Chinese for what players read (card reasons,
 * HTML, Markdown) — by src/violations/details.ts. `kind` is the flag's. Times are epoch ms.
 */
export type FlagFacts =
  | { kind: 'few-posts'; day: number; posts: number; min: number }
  | { kind: 'low-streak'; days: Array<{ day: number; posts: number }>; min: number }
  | { kind: 'no-ballot'; day: number }
  | { kind: 'red-font'; colors: Array<{ value: string; deltaE: number }>; maxDeltaE: number }
  /** `px` when the value is a Discuz size (1–7); a CSS size is shown as written. */
  | { kind: 'enlarged-font'; sizes: Array<{ value: string; px: number | null }>; maxSize: number; maxPx: number }
  | {
      kind: 'banned-wording';
      category: string;
      /** The player's words, and the list entry they stand for (a pattern's own text when `plain` is false). */
      matched: string;
      word: string;
      plain: boolean;
      evasions: Evasion[];
      /** The rule-post lines of the game's ruleset the entry cites. */
      lines: number[];
      /** A learned flag's n-grams that weighed most (no entry matched: learned.ts). */
      learned?: string[];
    }
  /** What the post carries, and the 贴证 list's words in it (`matched`: the player's disguise of `word`, else null). */
  | { kind: 'pasted-evidence'; carries: Array<EvidenceItem['what']>; words: Array<{ word: string; matched: string | null }> }
  | { kind: 'zombie-post'; out: number; at: number }
  | { kind: 'filler'; reason: FillerReason; repeats?: number }
  | {
      kind: 'avatar-changed' | 'signature-changed';
      hadBefore: boolean;
      hasAfter: boolean;
      before: FlagPostRef;
      after: FlagPostRef;
      /** Posted after the old value was last seen; else a refetch showed it, between the two fetches. */
      postedAfter: boolean;
      oldLastSeen: number;
      newFirstSeen: number;
    }
  | { kind: 'late-post' }
  | { kind: 'replaced-account'; account: string; since: number; by: string; seat: string }
  | { kind: 'misplaced-ballot'; thread: 'discussion' | 'process'; tid: number; target: string | null };

export interface Flag {
  kind: FlagKind;
  player: string;
  /** The post that is the evidence; null for counts (few posts, no ballot, streaks). */
  pid: number | null;
  tid: number | null;
  floor: number | null;
  /** Epoch ms of the post (or of the fetch that first showed a changed avatar). */
  at: number | null;
  url: string | null;
  /** The player's own words (or what the post carries: its links), short, on one line; empty for counts. */
  snippet: string;
  /** What rule and why, as values (flagDetail writes the sentence). */
  facts: FlagFacts;
  /** Found in a version of the post that an edit replaced: when that version was fetched (as stored). */
  earlierVersion?: string;
  /** Banned-wording category, when kind is banned-wording. */
  category?: string;
  /** Further evidence pids (the posts counted, the earlier post a filler repeats…). */
  related?: number[];
}

/** A flag about one post, its evidence fields filled from the post; its kind is the facts'. */
export function postFlag(
  post: Pick<SlicePost, 'author' | 'pid' | 'tid' | 'floor' | 'at' | 'url'>,
  snippet: string,
  facts: FlagFacts,
  extra: Partial<Pick<Flag, 'category' | 'related' | 'at'>> = {},
): Flag {
  return {
    kind: facts.kind,
    player: post.author,
    pid: post.pid,
    tid: post.tid,
    floor: post.floor,
    at: post.at,
    url: post.url,
    snippet: oneLine(snippet),
    facts,
    ...extra,
  };
}

/** A banned-wording hit as a flag's facts, with the rule-post lines it cites of `ruleset` (none for null). */
export function wordingFacts(h: WordingHit, ruleset: string | null): FlagFacts {
  const lines = h.cites.filter((c) => c.split(':')[0] === ruleset).map((c) => Number(c.split(':')[1]));
  const plain = /^[\p{Script=Han}a-z0-9]+$/u.test(h.word);
  return { kind: 'banned-wording', category: h.category, matched: h.matched, word: h.word, plain, evasions: h.evasions, lines, ...(h.learned ? { learned: h.learned.ngrams } : {}) };
}

/** Text on one line, cut to `max` characters with an ellipsis. */
export function oneLine(s: string, max = 60): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat; // no more code points than code units
  const cps = [...flat];
  return cps.length > max ? `${cps.slice(0, max - 1).join('')}…` : flat;
}

/** The words around [start, end) of a text, on one line, with ellipses where cut. */
export function snippetAround(text: string, start: number, end: number, radius = 14): string {
  const a = Math.max(0, start - radius);
  const b = Math.min(text.length, end + radius);
  return oneLine(`${a > 0 ? '…' : ''}${text.slice(a, b)}${b < text.length ? '…' : ''}`, 2 * radius + (end - start) + 2);
}
