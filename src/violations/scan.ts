/**
 * The violation flags of one game day (rules-spec §7): every post by a player in the day's threads
 * (and in the process thread during the day) is checked for red and enlarged fonts, banned wording,
 * pasted evidence, 诈尸 and — for rulesets that ban it (120b) — filler; avatar and signature changes
 * are found across the whole game and reported once, on the day of the post that shows the change.
 * Earlier versions of an edited post are checked too (an edit cannot hide a violation). Pure.
 */
import { exitTime, isDirector } from '../game/roster.js';
import type { Game, GameDay } from '../game/types.js';
import type { Post } from '../discuz/types.js';
import type { SlicePost } from '../store/slice.js';
import { dayEnd, dayTids, gameTids } from '../game/threads.js';
import { isEnlarged, isRed, redDeltaE, readSize } from './fonts.js';
import { isPastedDialogueWord, pastedEvidence } from './evidence.js';
import { contentKey, fillerReason } from './filler.js';
import { postFlag, snippetAround, wordingFacts, type Flag, type FlagFacts } from './flag.js';
import { profileChanges, type ProfileBase, type ProfileChange, type ProfilePost, type ProfileRef } from './profile.js';
import { findBannedWording, type WordingHit } from './wording.js';
import { loadWordLists, type WordLists } from './word-lists.js';

/**
 * The banned-wording hits of one version's text of a post: findBannedWording over the lists and the
 * players' names, or the same answers kept from an earlier run (src/derived/wording-hits.ts).
 */
export type WordingOf = (post: SlicePost, text: string) => readonly WordingHit[];

/** What the day's flags read of every post: where it is, who wrote it, its text, and its author's profile as seen. */
export type ReportPost = ProfilePost & Pick<SlicePost, 'text' | 'missing'>;

/**
 * What the flags read of the posts beyond that: each post's content flags, a thread's posts with every
 * word (the filler check), and the game's threads as the avatar/signature check reads them. The posts
 * given are its answers' subjects (as seated); where the answers come from is the source's business.
 */
export interface ScanSource<P extends ReportPost = SlicePost> {
  /** The content flags (fonts, wording, evidence) of every version of the post (postContentFlags). */
  contentFlags(post: P): readonly Flag[];
  /** The posts with every word. */
  full(posts: readonly P[]): readonly SlicePost[];
  /** The avatar/signature check's reading of the game's threads: each thread's posts, and what the rest sum up to (profile.ts profileBase). */
  profile(posts: ReadonlyMap<number, readonly P[]>): { threads: ReadonlyArray<readonly ProfilePost[]>; base?: ProfileBase };
}

/**
 * The flags' source over posts given in full: the content flags found with `wording` (default
 * findBannedWording over `lists` — the bundled lists of the ruleset's bannedCategories unless given —
 * and the players' names), the threads given read whole.
 */
export function plainScanSource(game: Game, lists?: WordLists, wording?: WordingOf): ScanSource<SlicePost> {
  const categories = lists?.categories ?? game.rules.bannedCategories;
  const loaded = wording ? null : lists ?? loadWordLists(game.rules.bannedCategories);
  const hitsOf = wording ?? ((_: SlicePost, text: string) => findBannedWording(text, loaded!, { names: game.players }));
  return {
    contentFlags: (post) => postContentFlags(game, post, categories, hitsOf),
    full: (posts) => posts,
    profile: (posts) => ({ threads: gameTids(game).map((t) => posts.get(t) ?? []) }),
  };
}

export interface ViolationScanInput<P extends ReportPost = SlicePost> {
  game: Game;
  day: GameDay;
  /** Posts of the game's stored threads the flags read (the day's threads, the process thread, other days'), as seated. */
  posts: ReadonlyMap<number, readonly P[]>;
  /** The word lists of the ruleset's bannedCategories (default: the bundled ones); for the default source. */
  lists?: WordLists;
  /** What the flags read of the posts beyond them; default: plainScanSource over `lists`. */
  source?: ScanSource<P>;
}

/** The posts a day's flags are about: its own threads (any time) and the process thread in its span. */
export function postsOfDay<P extends ReportPost>(game: Game, day: GameDay, posts: ReadonlyMap<number, readonly P[]>): P[] {
  const tids = dayTids(day);
  const out: P[] = tids.flatMap((tid) => posts.get(tid) ?? []);
  if (game.process && !tids.includes(game.process.tid)) {
    const end = dayEnd(game, day);
    out.push(...(posts.get(game.process.tid) ?? []).filter((p) => p.at >= day.opens && p.at < end));
  }
  const playing = new Set(game.players.filter((name) => !isDirector(game, name)));
  return out.filter((p) => playing.has(p.author)).sort((a, b) => a.at - b.at || a.pid - b.pid);
}

/** The game day whose span holds the instant: the last day opened by then (null before day 1). */
function dayAt(game: Game, ms: number): number | null {
  let found: number | null = null;
  for (const d of game.days) if (d.opens <= ms) found = d.day;
  return found;
}

/** Fonts, wording and evidence flags of one version of a post. */
export function contentFlags(game: Game, post: SlicePost, content: Post, categories: readonly string[], wording: WordingOf): Flag[] {
  const flags: Flag[] = [];
  const f = game.rules.fonts;
  if (f.redBanned) {
    const reds = content.colors.filter((c) => isRed(c.value, f.redDeltaE));
    if (reds.length) {
      const colors = reds.map((c) => ({ value: c.value, deltaE: redDeltaE(c.value)! }));
      flags.push(postFlag(post, reds.map((c) => c.text).join(' / '), { kind: 'red-font', colors, maxDeltaE: f.redDeltaE }));
    }
  }
  if (f.enlargedBanned) {
    const big = content.sizes.filter((s) => isEnlarged(s.value, f));
    if (big.length) {
      const sizes = big.map((s) => {
        const r = readSize(s.value);
        return { value: s.value, px: r.size !== null ? r.px : null };
      });
      flags.push(postFlag(post, big.map((s) => s.text).join(' / '), { kind: 'enlarged-font', sizes, maxSize: f.maxSize, maxPx: f.maxPx }));
    }
  }
  const evidenceWords: Array<{ word: string; matched: string | null }> = [];
  for (const h of wording(post, content.text)) {
    if (h.category === '贴证') {
      evidenceWords.push({ word: h.word, matched: h.evasions.length || isPastedDialogueWord(h.word) ? h.matched : null });
      continue;
    }
    flags.push(postFlag(post, snippetAround(content.text, h.start, h.end), wordingFacts(h, game.rules.name), { category: h.category }));
  }
  if (categories.includes('贴证')) {
    // One 贴证 flag per post: what it carries (links, images, attachments, chat lines) and the words.
    const items = pastedEvidence(content);
    if (items.length || evidenceWords.length) {
      const snippet = items.length ? items.map((i) => i.value).join(' ') : content.text;
      flags.push(postFlag(post, snippet, { kind: 'pasted-evidence', carries: [...new Set(items.map((i) => i.what))], words: evidenceWords }, { category: '贴证' }));
    }
  }
  return flags;
}

/**
 * The content flags of every version of a post: its current one's, then each earlier version's not
 * among them (marked with when it was seen: an edit cannot hide a violation).
 */
export function postContentFlags(game: Game, post: SlicePost, categories: readonly string[], wording: WordingOf): Flag[] {
  const flags = contentFlags(game, post, post, categories, wording);
  if (post.versions.length < 2) return flags; // (most posts were never edited: no set of what was flagged)
  const seen = new Set(flags.map(flagKey));
  for (const v of post.versions.slice(0, -1)) {
    for (const f of contentFlags(game, post, v.post, categories, wording)) {
      if (seen.has(flagKey(f))) continue;
      seen.add(flagKey(f));
      flags.push({ ...f, earlierVersion: v.firstSeen });
    }
  }
  return flags;
}

function flagKey(f: Flag): string {
  return `${f.kind}|${f.category ?? ''}|${f.snippet}`;
}

/** A profile change as a flag's facts: where the old and the new value show, never the values (an avatar is a URL). */
function profileFacts(c: ProfileChange): FlagFacts {
  const ref = (p: ProfileRef) => ({ tid: p.tid, floor: p.floor, at: p.at });
  return {
    kind: c.what === 'avatar' ? 'avatar-changed' : 'signature-changed',
    hadBefore: c.before !== null,
    hasAfter: c.after !== null,
    before: ref(c.beforePost),
    after: ref(c.post),
    postedAfter: c.postedAfter,
    oldLastSeen: c.oldLastSeen,
    newFirstSeen: c.newFirstSeen,
  };
}

/** Every violation flag of the day, in time order. */
export function violationFlags(input: ViolationScanInput<SlicePost>): Flag[];
export function violationFlags<P extends ReportPost>(input: ViolationScanInput<P> & { source: ScanSource<P> }): Flag[];
export function violationFlags<P extends ReportPost>(input: ViolationScanInput<P>): Flag[] {
  const { game, day, posts } = input;
  const source = input.source ?? (plainScanSource(game, input.lists) as unknown as ScanSource<P>);
  const scope = postsOfDay(game, day, posts);
  const inScope = new Set(scope.map((p) => p.pid));
  const flags: Flag[] = [];

  for (const post of scope) {
    const exit = exitTime(game, post.author);
    if (exit !== null && post.at >= exit) {
      flags.push(postFlag(post, post.text, { kind: 'zombie-post', out: exit, at: post.at }));
    }
    flags.push(...source.contentFlags(post));
  }

  if (game.rules.flagFiller) {
    // The player's earlier posts anywhere in the game, so a repeat of yesterday's text is caught too.
    const all = gameTids(game)
      .flatMap((t) => source.full(posts.get(t) ?? []))
      .filter((p) => game.players.includes(p.author))
      .sort((a, b) => a.at - b.at || a.pid - b.pid);
    const earlier = new Map<string, Map<string, number>>();
    for (const p of all) {
      const mine = earlier.get(p.author) ?? new Map<string, number>();
      earlier.set(p.author, mine);
      const r = fillerReason(p, mine);
      if (r && inScope.has(p.pid)) flags.push(postFlag(p, p.text, { kind: 'filler', ...r }, r.repeats ? { related: [r.repeats] } : {}));
      const key = contentKey(p.text);
      if (key && !mine.has(key)) mine.set(key, p.pid);
    }
  }

  // A change is reported once, on the day of the post that shows it — or, when only refetched older
  // posts show it, on the day the fetch that first showed it falls in.
  const { threads, base } = source.profile(posts);
  for (const c of profileChanges(threads, game.players, base && { profile: base, forum: game.forum })) {
    if (c.postedAfter ? !inScope.has(c.post.pid) : dayAt(game, c.newFirstSeen) !== day.day) continue;
    flags.push(postFlag(c.post, c.what === 'signature' ? c.after ?? '' : '', profileFacts(c), { at: c.postedAfter ? c.post.at : c.newFirstSeen, related: [c.beforePost.pid] }));
  }
  return flags.sort((a, b) => (a.at ?? 0) - (b.at ?? 0) || (a.pid ?? 0) - (b.pid ?? 0));
}
