/**
 * The replay server (captured Discuz pages over node:http, with fault modes, plus pages built on the
 * fly), its page edits, and the synthetic page builder (thread pages of any size from the real markup).
 */
export { startReplayServer, synthPageSource, type ReplayServer, type ReplayOptions, type ServedPage, type Fault, type FaultRule, type ReplayRequest } from './server.js';
export {
  buildThreadPage, buildThreadPages, renderThreadPageHtml, pageCountOf, familyPpp, familyBase, familyContentType, forumTimeMs, formatForumTime,
  type SynthFamily, type SynthPost, type SynthThread, type SynthPage,
} from './synth.js';
export { editPostText, removePost, duplicatePost } from './page-edits.js';
