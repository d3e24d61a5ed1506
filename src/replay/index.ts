/** The replay server (captured Discuz pages over node:http, with fault modes) and its page edits. */
export { startReplayServer, type ReplayServer, type ReplayOptions, type Fault, type FaultRule, type ReplayRequest } from './server.js';
export { editPostText, removePost, duplicatePost } from './page-edits.js';
