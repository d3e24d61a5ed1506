/**
 * bansha as a library: the same one-way pipeline the CLI runs — fetch → parse → store → game slice →
 * analyses → render. Each stage is importable on its own; everything from the store on is pure.
 */
export * from './discuz/index.js';
export * from './store/index.js';
export { threadPosts, toSlicePost, postUrl, type SlicePost } from './store/slice.js';
export { crawlGame, crawlThreads, login, type CrawlOptions, type CrawlResult, type LoginOptions } from './crawl/index.js';
export { loadGame, parseGame } from './game/game-file.js';
export { loadRuleset, presetNames } from './game/ruleset.js';
export type { Game, GameDay, GameEvent, PresetName, Ruleset, ThreadRef } from './game/types.js';
export { tallyDay, postsFromStore, postsFromList } from './votes/tally.js';
export type { TallyResult } from './votes/types.js';
export { buildDayReport } from './report/day-report.js';
export { elevatorFloor, duelPairs, arbiterRange } from './elevator/index.js';
export { resolveAuction } from './auction/index.js';
export { renderTallyTerminal } from './render/tally-terminal.js';
export { renderTallyBBCode } from './render/tally-bbcode.js';
export { renderTallyJson } from './render/tally-json.js';
export { renderDayReportTerminal } from './render/report-terminal.js';
export { renderDayReportBBCode } from './render/report-bbcode.js';
export { renderDayReportMarkdown } from './render/report-markdown.js';
export { renderDayReportJson } from './render/report-json.js';
export { renderHtmlReport } from './render/html-report.js';
export { htmlDayInput } from './render/html-day.js';
export { startReplayServer } from './replay/index.js';
export { closeDay, announcementPlan, defaultCloseDir, type CloseOptions, type CloseResult } from './close/index.js';
export { closingDay, type ClosingDay } from './close/closing-day.js';
export { exitsFromTally, exitDisagreements, type DerivedExit } from './votes/carry-forward.js';
export { activeRulings } from './rulings/active.js';
export { readRulings, writeRulings, rulingsPath } from './rulings/file.js';
export type { Ruling, RulingEntry, RulingsFile } from './rulings/types.js';
