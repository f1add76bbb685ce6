// Package webhook is the referee's HTTP front door: inbound mail posted by
// mail services (or by anything holding the shared secret), and commands
// posted by bots and chat bridges. Every inbound message goes through
// exactly the pipeline of an IMAP message, mailin.Handler.HandleMail,
// which de-duplicates it (by Message-ID and by the transport keys given
// here) inside the transaction of its effects and returns after the commit;
// only then does the front door answer 2xx. So a provider's retry after a
// lost answer is a harmless duplicate.
//
// It owns the HTTP endpoints, their authentication, budgets and replay
// tokens, and the intake attempts of posted mail. It must not read what a
// mail says (mailin and the referee do) nor write the store but through
// its Options (attempts, replay tokens).
//
// # Endpoints
//
// An endpoint is mounted only when its credential is configured.
//
// POST /inbound: a raw RFC 5322 message as the body (Content-Type
// message/rfc822, text/plain or application/octet-stream), signed with the
// shared secret (webhook.secret) exactly like the referee's outgoing hooks
// (see referee/edge/hookout):
//
//	X-Referee-Timestamp: <Unix seconds>
//	X-Referee-Signature: sha256=<hex HMAC-SHA256(secret, timestamp + "." + body)>
//
// Timestamps further than webhook.max_clock_skew from the referee's clock
// are refused. An optional Idempotency-Key header adds a de-duplication key.
// Answers: 200 (processed, or a duplicate) with the outcome as JSON; 401 bad
// or missing signature or stale timestamp; 413 too large; 415 wrong content
// type; 422 a message that can never be processed (do not retry); 503 a
// transient failure (retry later, with the same message).
//
// POST /inbound/mailgun and POST /inbound/mailgun/mime: a Mailgun route's
// forward() (Mailgun posts the raw MIME message in the field body-mime when
// the URL ends in "mime", so use the second form; the fully parsed form is
// rebuilt from message-headers and body-plain, which loses attachments and
// DKIM) or store(notify=...) posts. Mailgun signs them: signature =
// hex HMAC-SHA256(signing key, timestamp + token), fields timestamp, token
// and signature ("Securing Webhooks",
// https://documentation.mailgun.com/docs/mailgun/user-manual/webhooks/securing-webhooks;
// the parent-signature of subaccounts is accepted too). Stale timestamps
// are refused. That signature covers a timestamp and a token, never the
// message, so it is bound to a message in one of two ways (issue 23, "a
// captured Mailgun signature posted before the genuine post must not let
// a forged body in"; mailgunstore.go):
//
//   - with webhook.mailgun_api_key and a post carrying message-url (a
//     store(notify=...) route), the posted body is never used: the
//     message is fetched from Mailgun's storage ("Retrieving Stored
//     Messages", GET with Accept: message/rfc2822 and the API key), only
//     from https URLs on Mailgun's own API hosts (api.mailgun.net,
//     api.eu.mailgun.net and their subdomains), by a client with a
//     timeout that follows no redirect; 404 there is 406 here, any other
//     failure 503 (Mailgun retries);
//   - otherwise (a forward() post of body-mime) the message is handed over
//     as mailin.Inbound.Unbound: it acts for a seat, a player or an
//     organiser, and a REGISTER is answered, only when a DKIM signature
//     verified by the referee and aligned with its From domain proves
//     its sender; an Authentication-Results header in it is never
//     believed. A forged body thus acts for nobody (its From's seat is
//     told of a refused mail, at most once a window), and the genuine
//     signed mail posted after it with the same signature is applied.
//     Deployments whose players' mail is not DKIM-signed configure the
//     API key and a store(notify=...) route.
//
// Each token is bound to the message's Message-ID and a digest of its
// bytes (the tokens are kept in the store): the same token with the same
// message is Mailgun's retry (a duplicate); with another message, a
// replay: an unbound one is handed over under its own key (DKIM decides,
// as above), a fetched one is kept whole for the operator, its sender
// told, and answered 406. The transport key is "mailgun:<token>".
// Answers follow "Receiving Messages via HTTP through a forward() action"
// (https://documentation.mailgun.com/docs/mailgun/user-manual/receive-forward-store/receive-http):
// 200 is success; 406 means rejected, not retried (used for a message that
// can never be processed, a malformed post, a body over the limit and a
// replayed token); any other code is retried for 8 hours (used for 401, a
// bad signature or stale timestamp, which a fixed key or clock cures, and
// 503 for transient failures).
//
// POST /inbound/sendgrid: SendGrid Inbound Parse, multipart/form-data. With
// "POST the raw, full MIME message" (send_raw) the field email holds the
// message; otherwise it is rebuilt from headers and text (in the charset
// of the charsets field). SendGrid does not sign Inbound Parse posts with
// a shared secret (its newer security policies offer ECDSA signatures and
// OAuth: "Securing your Inbound Parse Webhooks",
// https://www.twilio.com/docs/sendgrid/for-developers/parsing-email/securing-your-parse-webhooks),
// so the endpoint requires HTTP basic authentication, put in the URL
// configured at SendGrid (https://user:password@host/inbound/sendgrid);
// serve it over HTTPS only. The envelope field's recipients are added as
// X-Original-To. Answers follow the "Inbound Email Parse Webhook" page
// (https://www.twilio.com/docs/sendgrid/for-developers/parsing-email/inbound-email):
// SendGrid retries only 5xx answers, for up to 3 days, and a 2xx stops
// it; so 200 on success, 4xx for what must not be retried (401, 400
// malformed, 413 too large, 422 never processable), 503 for transient
// failures.
//
// POST /inbound/postmark: Postmark's inbound webhook JSON, protected by
// HTTP basic authentication in the webhook URL (Postmark does not sign
// inbound posts). The raw message is used when Postmark includes it
// (RawEmail, the inbound stream's "include raw email content" setting);
// otherwise it is rebuilt from FromFull, To, Cc, Subject, Date, ReplyTo,
// Headers (with the original Message-ID) and TextBody (or HtmlBody). The
// transport key is "postmark:<MessageID>" (Postmark's own id) and
// OriginalRecipient becomes X-Original-To. Answers follow "Parse an email"
// (https://postmarkapp.com/developer/user-guide/inbound/parse-an-email) and
// "Understanding Inbound Webhook Retries"
// (https://postmarkapp.com/support/article/understanding-inbound-webhook-retries-in-postmark):
// any answer but 200 is retried (10 times over about 10.5 hours), except
// 403, which stops retries; so 200 on success, 403 for what must not be
// retried (malformed, too large, never processable), 401 for bad
// credentials (retried: the operator may fix them), 503 for transient
// failures.
//
// POST /games/{id}/commands: commands for one seat as JSON, for bots and
// chat bridges:
//
//	Authorization: Bearer <the seat's secret token>
//	{"seat": 1, "text": "ROLL\nHOLD", "state_token": 57, "message_id": "client-id-1"}
//
// seat is optional (when given it must be the token's seat); state_token
// is the state the commands answer (optional: without it stale commands
// are not detected); message_id is the client's idempotency key (without
// it, a digest of the seat, state token and text is used: send a
// message_id to repeat the same command on the same state). The commands
// are run by referee.Referee.Process exactly as a seat's mail with a valid
// tag, the seat's registered address as sender; replies still go out by
// mail. The answer is JSON: {"status", "detail", "game", "seat",
// "replies" (the Message-IDs queued), "state_token" (after the change)}.
// Status codes: 200 applied, answered or duplicate ("status" says which);
// 422 rejected (nothing applied); 429 rate-limited; 403 ignored otherwise
// or a seat that is not the token's; 400 bad JSON; 401 missing or unknown
// token, or an unknown game (the same answer, issue 23); 413 too large;
// 503 transient failure (retry with the same message_id). The token is
// checked before the body is read.
//
// # The front door (issue 23)
//
// Credentials that need no body (basic authentication, a seat's bearer
// token) are checked before a byte of the body is read. Bodies whose
// signature is inside them (the raw and Mailgun endpoints) are read under
// two budgets taken without waiting, MaxPerClient per client address and
// MaxUnauthenticated in all (429 beyond them), each read within
// BodyReadTimeout. The MaxInFlight slots are taken only by authenticated
// requests, only to hand the message over. The pages, /healthz and /metrics
// use none of these budgets. The client address of the per-client budget
// is the connection's, unless that is one of TrustedProxies
// (webhook.trusted_proxies): then the Forwarded header (RFC 7239, its for=
// values), or else X-Forwarded-For, is read from the right and the first
// address that is not a trusted proxy is the client; nobody else's
// header is read. A message whose hand-over fails MaxAttempts times, with
// an error or a panic, is set aside: the referee records it and tells its
// sender (and the operator, see mailin.Options.Operator), and the
// provider gets its "do not retry" code. With Options.Attempts (the
// daemon's store) the failures are counted in the store, so that the
// count survives restarts, and each hand-over is on record before it
// begins, so a posted message that kills the daemon is set aside the
// same way after MaxCrashes restarts. The end of that record rides in the
// commit that records the message (AttemptRider, store.DB.Ride; issue 25:
// two commits per post, not three): under the post's own key
// (Idempotency-Key, a provider's token) or, when it has none, under the
// key of its bytes ("webhook:" and their digest, the attempt's key),
// which de-duplicates nothing the Message-ID's key does not.
//
// Wrong methods get 405 from the mux's method patterns. Bodies are capped
// with http.MaxBytesReader. Secrets are never logged, and no response
// repeats a credential.
package webhook
