/**
 * The ruleset: every *(setting)* of ../shared/docs/rules-spec.md as a typed, validated field.
 * Presets are data (src/game/presets/<name>.yaml, each value cited to its rule post); a game file's
 * `rules:` block overrides any field, and the merged result is checked against this schema, so a
 * typo in an override is an error, not a silently ignored key.
 */
import { z } from 'zod';

const minutes = z.number().int().min(0);

export const rulesetSchema = z
  .object({
    name: z.string(),
    /** Is there a public vote thread? (120b: no — votes are private to the director.) */
    publicVote: z.boolean(),

    // §2 ballots
    /** Proxy (代投) ballots count only if posted at least this long before closing. */
    proxyVoteMinutesBeforeClose: minutes,
    /** A proxy change counts only if posted at least this long before closing. */
    proxyChangeMinutesBeforeClose: minutes,
    /** Words that mark a director's proxy post (代投). */
    proxyMarkers: z.array(z.string()),

    // §3 which ballot counts
    /** How many valid changes a player may make. */
    maxChanges: z.number().int().min(0),
    /** A change must be posted at least this long before closing. */
    changeMinutesBeforeClose: minutes,
    /** A change must quote (引用) or reply to (回复) the player's own vote post. */
    changeMustQuoteVote: z.boolean(),

    /** How many substitutes (替补) one seat may take over the game; null: the rule post sets no limit. */
    maxSubstitutesPerSeat: z.number().int().min(0).nullable(),

    // §4 counting
    /** The sheriff's vote weight (m107 1.5, 062 2.5, wuhui 1: wuhui's sheriff breaks ties instead). */
    sheriffWeight: z.number().positive(),
    /** Day 1 elects the sheriff (most votes; a tie goes to the first to reach the top total). */
    day1Election: z.boolean(),
    /** Elimination ties: nobody is out, or the tied candidate the sheriff voted for. */
    eliminationTie: z.enum(['nobody', 'sheriff-choice']),

    // §5 acceleration
    acceleration: z
      .object({
        /** Does the rule post provide for acceleration at all (wuhui: no)? */
        enabled: z.boolean(),
        /** Words in a process-thread post that ask for acceleration. */
        requestWords: z.array(z.string()),
        /** Words that ask for a delay (062 申请延时). */
        delayWords: z.array(z.string()),
        /** Requests count only when posted at least this long before closing (062: 180; m107: 0). */
        cutoffMinutesBeforeClose: minutes,
        /** More than half of the alive players (m107), or at least half (062). */
        threshold: z.enum(['more-than-half', 'at-least-half']),
        /** On an accelerated day every change is void. */
        voidsChanges: z.boolean(),
        /** On an accelerated day the lurker and no-vote penalties are waived. */
        waivesLurking: z.boolean(),
      })
      .strict(),

    // §6 lurkers
    lurking: z
      .object({
        enabled: z.boolean(),
        /** Which of the day's threads count towards a player's posts. */
        countedThreads: z.array(z.enum(['discussion', 'vote'])),
        /** Fewer posts than this on a non-accelerated day: a yellow card. */
        minPostsPerDay: z.number().int().min(0),
        /** This many consecutive non-accelerated days each under streakMinPosts: a yellow card. */
        streakDays: z.number().int().min(1),
        streakMinPosts: z.number().int().min(0),
        /** No ballot in the vote thread before closing: a yellow card. */
        noVoteCard: z.boolean(),
      })
      .strict(),

    // §7 violations
    fonts: z
      .object({
        redBanned: z.boolean(),
        /** CIEDE2000 ΔE from #FF0000 at or below which a colour counts as red. */
        redDeltaE: z.number().min(0),
        enlargedBanned: z.boolean(),
        /** Largest allowed Discuz size number (1–7). */
        maxSize: z.number().int().min(1).max(7),
        /** Largest allowed size in px. */
        maxPx: z.number().positive(),
      })
      .strict(),
    /** Banned-word categories in force (word-list files under src/violations/words/). */
    bannedCategories: z.array(z.string()),
    /** 120b: flag pointless filler posts (无谓的水帖) for the director. */
    flagFiller: z.boolean(),

    // §8 cards
    cards: z
      .object({
        blue: z.boolean(),
        bluesPerYellow: z.number().int().min(1),
        yellowsPerRed: z.number().int().min(1),
      })
      .strict(),

    // §9 elevator
    elevator: z
      .object({
        /** Players who are out: marked (struck through) or left out. */
        outPlayers: z.enum(['mark', 'omit']),
      })
      .strict(),

    /** wuhui only: the duel-rule vote and the auction. */
    wuhui: z
      .object({
        ruleCount: z.number().int().min(1),
        /** The auction items and base prices of the rule post; lastDay bounds items sold only early. */
        auctionItems: z.array(
          z.object({ item: z.number().int(), name: z.string(), base: z.number(), lastDay: z.number().int().optional() }).strict(),
        ),
        maxBidsPerItem: z.number().int().min(1),
        /** Diamond pledge (抵押) value in G by day (index 0 = day 1). */
        diamondValues: z.array(z.number()),
      })
      .strict()
      .optional(),
    /** 120b only: the 仲裁者 covers ⌈alive / arbiterDivisor⌉ adjacent players. */
    arbiterDivisor: z.number().int().min(1).optional(),
  })
  .strict();

export type Ruleset = z.infer<typeof rulesetSchema>;
