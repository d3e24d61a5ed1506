/**
 * bansha as a library: the same one-way pipeline the CLI runs — fetch → parse → store → game slice →
 * analyses → render. Each stage is importable on its own; everything from the store on is pure.
 */
export { UserError, ExitCode } from './errors.js';
export { setLanguage, withLanguage, language, t, type Lang, type MessageKey } from './i18n/index.js';
export { findBrowser, discoverBrowser, type FoundBrowser, type BrowserName } from './browser/discover.js';
export * from './discuz/index.js';
export * from './store/index.js';
export { threadPosts, toSlicePost, postUrl, type SlicePost } from './store/slice.js';
export { crawlGame, crawlThreads, login, type CrawlOptions, type CrawlResult, type LoginOptions } from './crawl/index.js';
export { loadGame, parseGame } from './game/game-file.js';
export { loadRuleset, presetNames } from './game/ruleset.js';
export type { Game, GameDay, GameEvent, PresetName, Ruleset, ThreadRef } from './game/types.js';
export { tallyDay, postsFromStore, postsFromList } from './votes/tally.js';
export type {
  TallyResult, TallyKind, TallyOutcome, TotalLine, VoterSummary, BallotRecord, BallotStatus, BallotEdit, AccelerationResult,
} from './votes/types.js';
export { buildDayReport, type DayReport, type ActivityRow, type ReportCard, type DayReportOptions } from './report/day-report.js';
export { plainReportSource, type ReportSource } from './report/source.js';
export type { Flag, FlagKind } from './violations/flag.js';
export type { CardColor, CardStatus, CardProposal, LedgerCard, Ledger, Standing } from './cards/types.js';
export { elevatorFloor, duelPairs, arbiterRange, type ElevatorFloor, type ElevatorEntry } from './elevator/index.js';
export { resolveAuction, voteOutShare, type AuctionResult, type AuctionItemResult, type AuctionBid, type VoteOutShare } from './auction/index.js';
export { renderTallyTerminal } from './render/tally-terminal.js';
export { renderTallyBBCode } from './render/tally-bbcode.js';
export { renderTallyJson } from './render/tally-json.js';
export { renderDayReportTerminal } from './render/report-terminal.js';
export { renderDayReportBBCode } from './render/report-bbcode.js';
export { renderDayReportMarkdown } from './render/report-markdown.js';
export { renderDayReportJson } from './render/report-json.js';
export { renderElevatorBBCode } from './render/elevator-bbcode.js';
export { renderHtmlReport, type HtmlReportInput, type HtmlSource } from './render/html-report.js';
export { htmlDayInput, htmlSource, gameTitle } from './render/html-day.js';
export { VERSION } from './version.js';
export { startReplayServer } from './replay/index.js';
export { closeDay, announcementPlan, defaultCloseDir, type CloseOptions, type CloseResult } from './close/index.js';
export { closingDay, type ClosingDay } from './day/closing-day.js';
export { exitsFromTally, exitDisagreements, type DerivedExit } from './votes/carry-forward.js';
export { activeRulings } from './game/rulings/active.js';
export { readRulings, writeRulings, rulingsPath } from './game/rulings/file.js';
export type { Ruling, RulingEntry, RulingsFile } from './game/rulings/types.js';
