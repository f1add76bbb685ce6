// Package hookout delivers the referee's outgoing webhooks: the calls the
// referee queues in the store's "hooks" queue (referee.HooksQueue), one per
// hook and change, in the transaction of the change.
//
// # Delivery
//
// A Sender works like the outbox sender (referee/edge/smtpout): it sleeps until
// the earliest due item (or a Kick after a commit), records each attempt in
// its own transaction before any network I/O (a crash gives a delayed
// retry, never a lost call), then POSTs the call and records the outcome:
//
//   - 2xx: done (retired as sent);
//   - 408, 429, 5xx, or a network error: retried with exponential backoff
//     and jitter, no sooner than the receiver's Retry-After; after
//     Options.GiveUpAfter the call is retired as failed;
//   - any other status (3xx: redirects are not followed; 4xx): retired as
//     failed at once;
//   - a URL that resolves to a loopback, private, link-local or otherwise
//     internal address is refused (retired as failed) unless
//     Options.Allow lists it: an organiser must not be able to make the
//     referee call into its own network.
//
// Retired calls are kept for Options.Retention, then pruned.
//
// # What a receiver gets
//
// Format "generic": the referee.HookPayload JSON. Format "discord": a
// Discord execute-webhook body, {"content": "..."} with the payload's lines
// (at most 2000 characters: longer texts are cut at a line boundary and end
// with a note saying how many lines were left out) and mentions disabled.
// Both carry the headers:
//
//	X-Referee-Id         the call's id, stable across retries (de-duplicate on it)
//	X-Referee-Hook       the hook's id
//	X-Referee-Attempt    1 for the first attempt, 2 for the second...
//	X-Referee-Timestamp  Unix time in seconds when this attempt was signed
//	X-Referee-Signature  sha256=<hex HMAC-SHA256(secret, timestamp + "." + body)>
//
// The secret is the one the referee gave the organiser when the hook was
// added (HOOK command). To verify a call, a receiver recomputes the HMAC
// over the timestamp header, a full stop and the raw body bytes, compares it
// in constant time, and rejects timestamps older than a few minutes (each
// retry is signed again with a fresh timestamp). Verify does exactly that.
//
// # What it owns, what it must not touch
//
// It owns the HTTP side of the "hooks" queue: the call's body in each
// format (generic JSON, Discord), its signature and headers (Verify for
// receivers), the guard against calls into internal networks (guard.go),
// and the classification of a receiver's answer as done, retry or failed.
// It must not queue calls or choose who gets them (the core does, in the
// transaction of the change: referee/hooks.go), run its own retry loop
// (package dispatch does), follow redirects, or call an internal address
// that Options.Allow does not list.
package hookout
