/** The Discuz! page reader: decode, parse, selector sets. What the crawler, store and CLI import. */
export { parsePage, type ParseOptions } from './parse-page.js';
export { decodeBody, canonicalCharset, type DecodedBody } from './decode.js';
export { ParseError } from './errors.js';
export {
  bundledSelectorSets,
  selectorSetsWith,
  compileSelectorSet,
  loadSelectorSet,
  BUNDLED_SELECTOR_FILES,
  type SelectorSet,
  type SelectorSetData,
} from './selectors.js';
export { DEFAULT_FORUM_ZONE, parseRelative, resolvePostTime } from './times.js';
export type * from './types.js';
