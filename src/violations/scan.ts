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
import { sightingsOf, type DigestPost, type SlicePost } from '../store/slice.js';
import { dayEnd, dayTids, gameTids } from '../game/threads.js';
import { isEnlarged, isRed, redDeltaE, readSize } from './fonts.js';
import { pastedEvidence } from './evidence.js';
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

/**
 * A post as a report reads a thread it does not open (src/derived/scanned-thread.ts): what counting, the
 * avatar/signature check and the post flags read of it — its current text for their snippets — and the
 * flags its content carries, found once per post (`scannedPost`) and kept with it.
 */
export interface ScannedPost extends DigestPost {
  text: string;
  missing: boolean;
  /** The content flags of its versions (postContentFlags), under the author as stored. */
  flags: readonly Flag[];
}

/** A post a report reads: in full, or as scanned. */
export type ReportPost = SlicePost | ScannedPost;

/** Posts by thread id, in full or scanned. */
export type ReportPosts = ReadonlyMap<number, readonly ReportPost[]>;

/** Whether the post was read as scanned (its content flags with it, its content not). */
export function isScanned(p: ReportPost): p is ScannedPost {
  return !('versions' in p);
}

/** The post as a report keeps it when it does not open its thread: its flags found now. */
export function scannedPost(game: Game, post: SlicePost, wording: WordingOf): ScannedPost {
  const { pid, tid, floor, at, url, author, authorId, deleted, text, missing } = post;
  return { pid, tid, floor, at, url, author, authorId, deleted: deleted || post.readable === false, sightings: sightingsOf(post), text, missing, flags: postContentFlags(game, post, game.rules.bannedCategories, wording) };
}

export interface ViolationScanInput {
  game: Game;
  day: GameDay;
  /** Posts of every stored thread of the game (the day's threads, the process thread, other days'). */
  posts: ReportPosts;
  /** The word lists of the ruleset's bannedCategories (default: the bundled ones, unless `wording` is given). */
  lists?: WordLists;
  /**
   * The other stored threads of the game as digests (src/store/thread-digest.ts, seated like `posts`):
   * what the avatar/signature check reads of threads not in `posts`. Not for filler, which reads words.
   */
  lookBack?: ReadonlyMap<number, readonly DigestPost[]>;
  /** The other stored threads' part of the avatar/signature check summed up (profile.ts profileBase), instead of their digests. */
  profileBase?: ProfileBase;
  /** Where the wording hits come from; default: findBannedWording over `lists` and the players' names. */
  wording?: WordingOf;
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
      evidenceWords.push({ word: h.word, matched: h.evasions.length ? h.matched : null });
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
export function violationFlags(input: ViolationScanInput): Flag[] {
  const { game, day, posts, lookBack } = input;
  const categories = input.lists?.categories ?? game.rules.bannedCategories;
  const lists = input.wording ? null : input.lists ?? loadWordLists(game.rules.bannedCategories);
  const wording = input.wording ?? ((_: SlicePost, text: string) => findBannedWording(text, lists!, { names: game.players }));
  const scope = postsOfDay(game, day, posts);
  const inScope = new Set(scope.map((p) => p.pid));
  const flags: Flag[] = [];

  for (const post of scope) {
    const exit = exitTime(game, post.author);
    if (exit !== null && post.at >= exit) {
      flags.push(postFlag(post, post.text, { kind: 'zombie-post', out: exit, at: post.at }));
    }
    if (!isScanned(post)) flags.push(...postContentFlags(game, post, categories, wording));
    // (found before the post was seated: under its seat now)
    else for (const f of post.flags) flags.push(f.player === post.author ? f : { ...f, player: post.author });
  }

  if (game.rules.flagFiller) {
    if (lookBack?.size || input.profileBase) throw new Error('the filler check reads every thread of the game in full: pass them in posts, not as digests');
    // The player's earlier posts anywhere in the game, so a repeat of yesterday's text is caught too.
    const all = gameTids(game)
      .flatMap((t) => fullPosts(posts.get(t) ?? []))
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
  const everything = gameTids(game).map((t): readonly ProfilePost[] => posts.get(t) ?? lookBack?.get(t) ?? []);
  for (const c of profileChanges(everything, game.players, input.profileBase && { profile: input.profileBase, forum: game.forum })) {
    if (c.postedAfter ? !inScope.has(c.post.pid) : dayAt(game, c.newFirstSeen) !== day.day) continue;
    flags.push(postFlag(c.post, c.what === 'signature' ? c.after ?? '' : '', profileFacts(c), { at: c.postedAfter ? c.post.at : c.newFirstSeen, related: [c.beforePost.pid] }));
  }
  return flags.sort((a, b) => (a.at ?? 0) - (b.at ?? 0) || (a.pid ?? 0) - (b.pid ?? 0));
}

/** Posts read in full: a scanned one here is a caller's mistake (the filler check reads every word). */
export function fullPosts(posts: readonly ReportPost[]): readonly SlicePost[] {
  for (const p of posts) if (isScanned(p)) throw new Error(`post ${p.pid} of thread ${p.tid} was read as scanned where its content is needed`);
  return posts as readonly SlicePost[];
}
