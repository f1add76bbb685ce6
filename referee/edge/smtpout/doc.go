// Package smtpout delivers the referee's outbox: the mails the referee wrote
// into the store's outbox queue in the same transaction as the change that
// caused them.
//
// A Sender runs one loop (Run) that waits on a kick channel (Kick, called by
// the commit that queued outbox rows, as soon as it is durable, and by the
// referee after it: dispatch's rule on the wake-up), a timer re-armed from the
// store's earliest due time, and context cancellation. There is no polling
// and no in-memory queue: the store is the queue.
//
// # Delivery protocol
//
// For every due item the Sender first records the attempt in its own store
// transaction (Tx.Attempt, with the next due time set to now plus the
// backoff), then delivers the stored message bytes unchanged to exactly one
// recipient over SMTP, then retires the item (Tx.Finish Sent or Failed) or
// schedules a retry (Tx.Retry). A crash during the network I/O therefore
// gives a delayed retry, never a lost mail and never a hot loop.
//
// Failures are classified as follows:
//
//   - a 5xx reply to MAIL, RCPT or DATA is permanent: the item is retired as
//     Failed with the server's reply recorded;
//   - a 4xx reply, a network error, or any failure before the mail
//     transaction (connect, EHLO, STARTTLS, AUTH) is transient: the item is
//     retried with exponential backoff and jitter, and retired as Failed once
//     it is older than Options.GiveUpAfter;
//   - once the server has accepted the message data (250 after the final
//     dot), the message counts as delivered, whatever happens afterwards
//     (a failing QUIT, a dropped connection): it is never sent twice.
//
// The one remaining duplicate window is a crash (or connection loss) between
// the final dot and the store commit of Sent, which is unavoidable with
// SMTP; receivers see the same Message-ID twice in that case.
//
// Each delivery runs in its own goroutine from a small pool, recovers from
// panics, and reports its result through Options.OnResult.
//
// # What it owns, what it must not touch
//
// It owns the SMTP side of the outbox: the connection to the relay (TLS
// policy, authentication, timeouts), the delivery of a stored message to
// its one recipient, and the classification of the server's replies
// (DeliveryError: permanent or transient). It must not compose, change or
// re-encode a message (the bytes the core stored go out unchanged), choose
// recipients, keep its own queue or retry loop (package dispatch does), or
// talk to a server in clear text off this machine without AllowInsecure
// (package netaddr says which is which).
package smtpout
