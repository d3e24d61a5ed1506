/** The wuhui auction thread (拍卖贴): reading bids, resolving the day, the vote-out's G split. */
export { readAuctionPost, type ReadAuctionPost, type ReadBid, type ReadPledge, type Unreadable } from './read-bids.js';
export {
  resolveAuction,
  type AuctionResult,
  type AuctionItemResult,
  type AuctionBid,
  type AuctionPledge,
  type AuctionIgnored,
  type BidStatus,
} from './resolve.js';
export {
  AUCTION_CITE,
  unreadableText,
  postProblemText,
  bidReasonText,
  ignoreReasonText,
  bidNoteText,
  tieText,
  type AuctionReason,
  type AuctionReasonCode,
  type BidNote,
  type BidNoteCode,
  type BidProblem,
  type BidReason,
  type IgnoreReason,
  type PostProblem,
  type UnreadableReason,
} from './reasons.js';
export { voteOutShare, type VoteOutShare } from './vote-out-share.js';
