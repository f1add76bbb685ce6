// Package outcome is the answer the core gives the edges for every inbound
// message, and the words it is made of: Outcome (what the referee did with
// a request or a mail set aside), its Status, the typed Reason the edges
// act on (the webhook's 429 for RateLimited), the Kind of tag a request
// carries, the QuarantineNotice a transport gives the core for a mail it
// kept back, what the mail-in edge hands the core for a mail that is no
// request (Bounce, AutoReply, SetAside and its Aside* reasons), and the
// Observation of a processed input that the metrics count. The words are
// the ones stored (store.InboundRecord.Outcome, store.Token.Kind) and sent
// (the webhook's JSON answers), so records, logs and answers read the same
// as when these names were the core's.
//
// The core re-exports every name under its old one (referee.Outcome,
// referee.OutcomeApplied, referee.KindSeat, referee.ReasonRateLimited,
// referee.QuarantineNotice, ...), so that the edges and the tools keep
// reading the core's API.
//
// It owns these types and their words. It must not decide an outcome (the
// core does), read or classify a message (mailfmt and the edges do), read
// a record or the store, or render a word for a player (templates/ does).
package outcome
